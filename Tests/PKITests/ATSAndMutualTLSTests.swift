import Testing
import TLSEngine
@testable import PKI

@Suite struct ATSTests {
    typealias ATS = ATSPolicy
    static let host = "www.example.com"

    struct Row: Sendable, CustomStringConvertible {
        let name: String
        let config: ATS
        let connection: ATS.Connection
        let expected: Bool
        /// The reason (as Swift prints the typed step: case name and values) one of the steps must show
        /// (why the decision was reached), and one none may show.
        var says: String? = nil
        var neverSays: String? = nil
        var description: String { name }
    }

    /// `systemRejectsWeak` false models a system trust evaluation that does not itself refuse RSA < 2048,
    /// so that ATS's own key-size rule is the only thing that can refuse the key.
    static func conn(_ host: String = host, https: Bool = true, tls: ATS.TLSVersion = .tls12, fs: Bool = true,
                     kind: ATS.LoadKind = .app, chain: [String] = ["leaf", "int"], systemRejectsWeak: Bool = true) -> ATS.Connection {
        let trust = PKIFixtures.trust(chain, host: host, rejectWeakAlgorithms: systemRejectsWeak)
        return ATS.Connection(host: host, usesHTTPS: https, tlsVersion: tls, forwardSecret: fs, loadKind: kind, trust: trust)
    }

    static let leafPin = Pins.publicKeyPin(PKIFixtures.cert("leaf"))
    static let intPin = Pins.publicKeyPin(PKIFixtures.cert("int"))
    static let otherPin = Pins.publicKeyPin(PKIFixtures.cert("other-leaf"))
    static let selfPin = Pins.publicKeyPin(PKIFixtures.cert("selfsigned"))

    /// Expected values by hand from the ATS rules (Apple's NSAppTransportSecurity reference, seeds 001/004).
    static let rows: [Row] = [
        Row(name: "defaults, good server", config: ATS(), connection: conn(), expected: true),
        Row(name: "defaults, http", config: ATS(), connection: conn(https: false), expected: false),
        Row(name: "defaults, TLS 1.1", config: ATS(), connection: conn(tls: .tls11), expected: false),
        Row(name: "defaults, TLS 1.3", config: ATS(), connection: conn(tls: .tls13), expected: true),
        Row(name: "defaults, RSA key exchange", config: ATS(), connection: conn(fs: false), expected: false),
        Row(name: "defaults, SHA-1 leaf", config: ATS(), connection: conn(chain: ["leaf-sha1", "int"]), expected: false),
        Row(name: "defaults, RSA-1024 leaf", config: ATS(), connection: conn(chain: ["leaf-rsa1024", "int"]), expected: false),
        Row(name: "defaults, expired", config: ATS(), connection: conn(chain: ["leaf-expired", "int"]), expected: false),
        Row(name: "defaults, wrong host", config: ATS(), connection: conn(chain: ["leaf-wronghost", "int"]), expected: false),
        Row(name: "defaults, EC leaf", config: ATS(), connection: conn(chain: ["ec-leaf", "ec-int"]), expected: true),
        Row(name: "arbitrary loads, http", config: ATS(allowsArbitraryLoads: true), connection: conn(https: false), expected: true),
        Row(name: "arbitrary loads, self-signed", config: ATS(allowsArbitraryLoads: true), connection: conn(chain: ["selfsigned"]), expected: true),
        Row(name: "arbitrary loads disabled by InWebContent (app load)",
            config: ATS(allowsArbitraryLoads: true, allowsArbitraryLoadsInWebContent: true), connection: conn(https: false), expected: false),
        Row(name: "InWebContent, web http load",
            config: ATS(allowsArbitraryLoads: true, allowsArbitraryLoadsInWebContent: true), connection: conn(https: false, kind: .webContent), expected: true),
        Row(name: "ForMedia, media http load", config: ATS(allowsArbitraryLoadsForMedia: true), connection: conn(https: false, kind: .media), expected: true),
        Row(name: "ForMedia present disables ArbitraryLoads", config: ATS(allowsArbitraryLoads: true, allowsArbitraryLoadsForMedia: false),
            connection: conn(https: false), expected: false),
        Row(name: "LocalNetworking, .local http", config: ATS(allowsLocalNetworking: true), connection: conn("printer.local", https: false), expected: true),
        Row(name: "LocalNetworking, public http", config: ATS(allowsLocalNetworking: true), connection: conn(https: false), expected: false),
        Row(name: "exception allows http", config: ATS(exceptionDomains: ["example.com": .init(includesSubdomains: true, allowsInsecureHTTPLoads: true)]),
            connection: conn(https: false), expected: true),
        Row(name: "exception without NSIncludesSubdomains", config: ATS(exceptionDomains: ["example.com": .init(allowsInsecureHTTPLoads: true)]),
            connection: conn(https: false), expected: false),
        Row(name: "exception does not inherit ArbitraryLoads",
            config: ATS(allowsArbitraryLoads: true, exceptionDomains: ["www.example.com": .init(minimumTLSVersion: .tls10)]),
            connection: conn(https: false), expected: false),
        Row(name: "exception minimum TLS 1.0", config: ATS(exceptionDomains: ["www.example.com": .init(minimumTLSVersion: .tls10)]),
            connection: conn(tls: .tls10), expected: true),
        Row(name: "exception FS NO allows RSA kx", config: ATS(exceptionDomains: ["www.example.com": .init(requiresForwardSecrecy: false)]),
            connection: conn(fs: false), expected: true),
        // FS NO drops ATS's key-size rule, but the default trust evaluation still refuses RSA-1024 on its own:
        // the reasons show which rule refused it.
        Row(name: "exception FS NO drops key size rule", config: ATS(exceptionDomains: ["www.example.com": .init(requiresForwardSecrecy: false)]),
            connection: conn(chain: ["leaf-rsa1024", "int"]), expected: false,
            says: "defaultTrustFails", neverSays: "keyTooSmall"),
        // Where the system evaluation does not refuse the weak key, dropping the rule changes the outcome.
        Row(name: "key size rule alone refuses RSA-1024", config: ATS(),
            connection: conn(chain: ["leaf-rsa1024", "int"], systemRejectsWeak: false), expected: false, says: "keyTooSmall(key: \"RSA\", bits: 1024)"),
        Row(name: "exception FS NO: RSA-1024 then passes", config: ATS(exceptionDomains: ["www.example.com": .init(requiresForwardSecrecy: false)]),
            connection: conn(chain: ["leaf-rsa1024", "int"], systemRejectsWeak: false), expected: true,
            says: "forwardSecrecyNotRequired", neverSays: "keyTooSmall"),
        // NSAllowsLocalNetworking: IP literals, unqualified (dotless) names and .local names are exempt; it also
        // disables NSAllowsArbitraryLoads for everything else (iOS 10+).
        Row(name: "LocalNetworking, IP literal http", config: ATS(allowsLocalNetworking: true), connection: conn("192.0.2.10", https: false),
            expected: true, says: "localNetworkingExempt"),
        Row(name: "LocalNetworking, IPv6 literal http", config: ATS(allowsLocalNetworking: true), connection: conn("2001:db8::1", https: false),
            expected: true),
        Row(name: "LocalNetworking, dotless name http", config: ATS(allowsLocalNetworking: true), connection: conn("printer", https: false),
            expected: true),
        Row(name: "LocalNetworking, .local self-signed", config: ATS(allowsLocalNetworking: true),
            connection: conn("printer.local", chain: ["selfsigned"]), expected: true),
        Row(name: "LocalNetworking disables ArbitraryLoads for public hosts", config: ATS(allowsArbitraryLoads: true, allowsLocalNetworking: true),
            connection: conn(https: false), expected: false, says: "arbitraryLoadsIgnored"),
        Row(name: "LocalNetworking with ArbitraryLoads, local http", config: ATS(allowsArbitraryLoads: true, allowsLocalNetworking: true),
            connection: conn("printer.local", https: false), expected: true),
        // NSExceptionMinimumTLSVersion can raise the floor as well as lower it.
        Row(name: "exception minimum TLS 1.3 rejects 1.2", config: ATS(exceptionDomains: ["www.example.com": .init(minimumTLSVersion: .tls13)]),
            connection: conn(tls: .tls12), expected: false, says: "versionBelowMinimum(version: PKI.ATSPolicy.TLSVersion.tls12, minimum: PKI.ATSPolicy.TLSVersion.tls13)"),
        Row(name: "exception minimum TLS 1.3 accepts 1.3", config: ATS(exceptionDomains: ["www.example.com": .init(minimumTLSVersion: .tls13)]),
            connection: conn(tls: .tls13), expected: true),
        // The most specific NSExceptionDomains entry wins and nothing is inherited from the parent entry.
        Row(name: "specific exception beats parent (no http)",
            config: ATS(exceptionDomains: ["example.com": .init(includesSubdomains: true, allowsInsecureHTTPLoads: true),
                                           "www.example.com": .init(minimumTLSVersion: .tls10)]),
            connection: conn(https: false), expected: false, says: "exceptionDomain(domain: \"www.example.com\", viaSubdomains: false)"),
        Row(name: "specific exception beats parent (TLS 1.0)",
            config: ATS(exceptionDomains: ["example.com": .init(includesSubdomains: true, allowsInsecureHTTPLoads: true),
                                           "www.example.com": .init(minimumTLSVersion: .tls10)]),
            connection: conn(tls: .tls10), expected: true),
        Row(name: "sibling falls back to the parent exception",
            config: ATS(exceptionDomains: ["example.com": .init(includesSubdomains: true, allowsInsecureHTTPLoads: true),
                                           "www.example.com": .init(minimumTLSVersion: .tls10)]),
            connection: conn("api.example.com", https: false), expected: true, says: "exceptionDomain(domain: \"example.com\", viaSubdomains: true)"),
        Row(name: "specific exception without subdomains does not cover a child",
            config: ATS(exceptionDomains: ["example.com": .init(includesSubdomains: true, minimumTLSVersion: .tls10),
                                           "www.example.com": .init(allowsInsecureHTTPLoads: true)]),
            connection: conn("a.www.example.com", https: false), expected: false, says: "exceptionDomain(domain: \"example.com\""),
        // Leaf and CA identities together: both must match.
        Row(name: "pinned leaf and CA both match",
            config: ATS(pinnedDomains: ["www.example.com": .init(leafIdentities: [leafPin], caIdentities: [intPin])]),
            connection: conn(), expected: true, says: "pinnedCAMatches"),
        Row(name: "pinned leaf matches, CA does not",
            config: ATS(pinnedDomains: ["www.example.com": .init(leafIdentities: [leafPin], caIdentities: [otherPin])]),
            connection: conn(), expected: false, says: "pinnedCAMismatch"),
        Row(name: "pinned CA matches, leaf does not",
            config: ATS(pinnedDomains: ["www.example.com": .init(leafIdentities: [otherPin], caIdentities: [intPin])]),
            connection: conn(), expected: false, says: "pinnedLeafMismatch"),
        // NSAllowsArbitraryLoads turns off ATS's transport rules, not the app's pins ("pinning a certificate for a
        // given domain has no impact on other security requirements or configuration", Apple's NSPinnedDomains
        // reference): a pinned identity is still required, and a matching self-signed leaf then passes.
        Row(name: "pins still enforced under ArbitraryLoads",
            config: ATS(allowsArbitraryLoads: true, pinnedDomains: ["www.example.com": .init(leafIdentities: [otherPin])]),
            connection: conn(), expected: false, says: "pinnedLeafMismatch"),
        Row(name: "pinned self-signed under ArbitraryLoads",
            config: ATS(allowsArbitraryLoads: true, pinnedDomains: ["www.example.com": .init(leafIdentities: [selfPin])]),
            connection: conn(chain: ["selfsigned"]), expected: true, neverSays: "defaultTrust"),
        // ForMedia and InWebContent exempt only their own kind of load, together or alone.
        Row(name: "ForMedia + InWebContent, media http",
            config: ATS(allowsArbitraryLoadsInWebContent: true, allowsArbitraryLoadsForMedia: true),
            connection: conn(https: false, kind: .media), expected: true, says: "mediaExempt"),
        Row(name: "ForMedia + InWebContent, web http",
            config: ATS(allowsArbitraryLoadsInWebContent: true, allowsArbitraryLoadsForMedia: true),
            connection: conn(https: false, kind: .webContent), expected: true, says: "webContentExempt"),
        Row(name: "ForMedia + InWebContent, app http",
            config: ATS(allowsArbitraryLoadsInWebContent: true, allowsArbitraryLoadsForMedia: true),
            connection: conn(https: false), expected: false),
        Row(name: "ForMedia does not cover web content", config: ATS(allowsArbitraryLoadsForMedia: true),
            connection: conn(https: false, kind: .webContent), expected: false),
        Row(name: "InWebContent does not cover media", config: ATS(allowsArbitraryLoadsInWebContent: true),
            connection: conn(https: false, kind: .media), expected: false),
        Row(name: "ArbitraryLoads + ForMedia NO: web load still blocked", config: ATS(allowsArbitraryLoads: true, allowsArbitraryLoadsForMedia: false),
            connection: conn(https: false, kind: .webContent), expected: false, says: "arbitraryLoadsIgnored"),
        Row(name: "exception insecure HTTP loosens trust", config: ATS(exceptionDomains: ["www.example.com": .init(allowsInsecureHTTPLoads: true)]),
            connection: conn(chain: ["selfsigned"]), expected: true),
        Row(name: "pinned leaf identity matches", config: ATS(pinnedDomains: ["www.example.com": .init(leafIdentities: [leafPin])]),
            connection: conn(), expected: true),
        Row(name: "pinned leaf identity differs", config: ATS(pinnedDomains: ["www.example.com": .init(leafIdentities: [otherPin])]),
            connection: conn(), expected: false),
        Row(name: "pinned CA identity (subdomains)", config: ATS(pinnedDomains: ["example.com": .init(includesSubdomains: true, caIdentities: [intPin])]),
            connection: conn(), expected: true),
        Row(name: "pinned CA identity is not the leaf", config: ATS(pinnedDomains: ["www.example.com": .init(caIdentities: [leafPin])]),
            connection: conn(), expected: false),
        Row(name: "pin for another domain ignored", config: ATS(pinnedDomains: ["api.example.com": .init(leafIdentities: [otherPin])]),
            connection: conn(), expected: true),
    ]

    @Test(arguments: rows)
    func decisionTable(row: Row) {
        let decision = row.config.evaluate(row.connection)
        #expect(decision.accepted == row.expected, "\(row.name): \(decision.reasons)")
        #expect(!decision.reasons.isEmpty)
        let steps = decision.reasons.map { String(describing: $0) }
        if let says = row.says { #expect(steps.contains { $0.contains(says) }, "\(row.name): \(steps)") }
        if let never = row.neverSays { #expect(!steps.contains { $0.contains(never) }, "\(row.name): \(steps)") }
    }
}

@Suite struct MutualTLSTests {
    struct Row: Sendable, CustomStringConvertible {
        let name: String
        let mode: MutualTLSPolicy.ClientAuthentication
        let chain: [String]?
        let whitelist: [String]?
        /// nil = accepted; otherwise the alert (the refusal answered through the engine's table).
        let alert: AlertDescription?
        let authenticated: Bool
        var description: String { name }
    }

    /// By hand: RFC 5246 §7.4.6 (require + empty → handshake_failure) and the alert meanings of §7.2.2.
    static let rows: [Row] = [
        Row(name: "none ignores certificates", mode: .none, chain: ["client-other-ca"], whitelist: nil, alert: nil, authenticated: false),
        Row(name: "request, none sent", mode: .request, chain: nil, whitelist: nil, alert: nil, authenticated: false),
        Row(name: "require, none sent", mode: .require, chain: nil, whitelist: nil, alert: .handshakeFailure, authenticated: false),
        Row(name: "require, empty Certificate", mode: .require, chain: [], whitelist: nil, alert: .handshakeFailure, authenticated: false),
        Row(name: "require, alice", mode: .require, chain: ["client-alice", "int"], whitelist: nil, alert: nil, authenticated: true),
        Row(name: "request, alice", mode: .request, chain: ["client-alice", "int"], whitelist: nil, alert: nil, authenticated: true),
        Row(name: "require, missing intermediate", mode: .require, chain: ["client-alice"], whitelist: nil, alert: .unknownCA, authenticated: false),
        Row(name: "require, other CA", mode: .require, chain: ["client-other-ca"], whitelist: nil, alert: .unknownCA, authenticated: false),
        Row(name: "request, other CA", mode: .request, chain: ["client-other-ca"], whitelist: nil, alert: .unknownCA, authenticated: false),
        Row(name: "require, expired", mode: .require, chain: ["client-expired", "int"], whitelist: nil, alert: .certificateExpired, authenticated: false),
        Row(name: "require, server cert as client", mode: .require, chain: ["leaf", "int"], whitelist: nil, alert: .unsupportedCertificate, authenticated: false),
        Row(name: "whitelist has alice (CN)", mode: .require, chain: ["client-alice", "int"], whitelist: ["alice"], alert: nil, authenticated: true),
        Row(name: "whitelist has alice (DN)", mode: .require, chain: ["client-alice", "int"],
            whitelist: ["CN=alice, O=TLSLab Test, C=US"], alert: nil, authenticated: true),
        Row(name: "bob not on whitelist", mode: .require, chain: ["client-bob", "int"], whitelist: ["alice"], alert: .accessDenied, authenticated: false),
    ]

    @Test(arguments: rows)
    func decisionTable(row: Row) {
        let policy = MutualTLSPolicy(mode: row.mode, clientCAs: [PKIFixtures.cert("root")], subjectWhitelist: row.whitelist)
        let (outcome, reasons, _) = policy.evaluate(clientChain: row.chain?.map(PKIFixtures.cert), time: PKIFixtures.now)
        #expect(!reasons.isEmpty)
        switch outcome {
        case .accept(let subject):
            #expect(row.alert == nil, "\(row.name): accepted, \(reasons)")
            #expect((subject != nil) == row.authenticated)
        case .reject(let refusal):
            #expect(TLSAlertTable.alert(for: refusal) == row.alert, "\(row.name): \(reasons)")
        }
    }

    /// The full grid {none, request, require} × {client certificate situations}. Expected by hand from
    /// RFC 5246 §7.4.4/§7.4.6 (none: no CertificateRequest, so nothing is authenticated; request: an empty
    /// answer continues unauthenticated; require: an empty answer → handshake_failure) and, for a certificate
    /// that fails, the alert OpenSSL 3.0's s_server sends (measured with `s_server -verify/-Verify 1
    /// -verify_return_error -tls1_2` against `s_client -cert`, one defect each): expired → certificate_expired,
    /// not yet valid → bad_certificate, other CA → unknown_ca, bad signature → decrypt_error, serverAuth-only
    /// EKU → unsupported_certificate, none sent under -Verify → handshake_failure. Not on the whitelist is an
    /// application refusal → access_denied (RFC 5246 §7.2.2).
    enum Client: String, CaseIterable, Sendable {
        case noCertificate, valid, expired, notYetValid, otherCA, badSignature, notOnWhitelist, serverEKUOnly

        var chain: [X509Certificate]? {
            switch self {
            case .noCertificate: return nil
            case .valid: return [PKIFixtures.cert("client-alice"), PKIFixtures.cert("int")]
            case .expired: return [PKIFixtures.cert("client-expired"), PKIFixtures.cert("int")]
            case .notYetValid: return [PKIFixtures.cert("client-notyet"), PKIFixtures.cert("int")]
            case .otherCA: return [PKIFixtures.cert("client-other-ca")]
            case .badSignature:
                var der = PKIFixtures.cert("client-alice").der
                der[der.count - 5] ^= 0x01
                return (try? X509Certificate(der: der)).map { [$0, PKIFixtures.cert("int")] }
            case .notOnWhitelist: return [PKIFixtures.cert("client-bob"), PKIFixtures.cert("int")]
            case .serverEKUOnly: return [PKIFixtures.cert("leaf"), PKIFixtures.cert("int")]
            }
        }

        /// The alert when the server asks for a certificate (request or require); nil = accepted.
        func alert(_ mode: MutualTLSPolicy.ClientAuthentication) -> AlertDescription? {
            switch self {
            case .noCertificate: return mode == .require ? .handshakeFailure : nil
            case .valid: return nil
            case .expired: return .certificateExpired
            case .notYetValid: return .badCertificate
            case .otherCA: return .unknownCA
            case .badSignature: return .decryptError
            case .notOnWhitelist: return .accessDenied
            case .serverEKUOnly: return .unsupportedCertificate
            }
        }
    }

    @Test(arguments: MutualTLSPolicy.ClientAuthentication.allCases, Client.allCases)
    func fullGrid(mode: MutualTLSPolicy.ClientAuthentication, client: Client) {
        // Everyone but bob is on the list, so only .notOnWhitelist meets the whitelist.
        let policy = MutualTLSPolicy(mode: mode, clientCAs: [PKIFixtures.cert("root")], subjectWhitelist: ["alice", "www.example.com"])
        let (outcome, reasons, evaluation) = policy.evaluate(clientChain: client.chain, time: PKIFixtures.now)
        #expect(!reasons.isEmpty)
        let expectedAlert = mode == .none ? nil : client.alert(mode)
        switch outcome {
        case .accept(let subject):
            #expect(expectedAlert == nil, "\(mode) × \(client): accepted, \(reasons)")
            // Authenticated only when a certificate was asked for, sent, and valid.
            #expect((subject != nil) == (mode != .none && client == .valid), "\(mode) × \(client): \(reasons)")
        case .reject(let refusal):
            #expect(TLSAlertTable.alert(for: refusal) == expectedAlert, "\(mode) × \(client): \(reasons)")
            if refusal != .noCertificate && refusal != .subjectNotAllowed {
                // A certificate refusal carries the failed check, and is the one that check names.
                #expect(evaluation?.firstFailure.map(CertificateRefusal.init(failing:)) == refusal)
            }
        }
    }

    /// A failed check's refusal, answered through the engine's one table, against OpenSSL 3.0's
    /// ssl_verify_alarm_type (X509_V_ERR_* → SSL_AD_*): written out by hand, one row per check kind.
    @Test func certificateAlertMappingIsOpenSSLs() {
        let table: [(ChainCheck.Kind, ChainCheck.ValidityFailure?, AlertDescription)] = [
            (.validity, .expired, .certificateExpired),           // CERT_HAS_EXPIRED
            (.validity, .notYetValid, .badCertificate),           // CERT_NOT_YET_VALID
            (.anchor, nil, .unknownCA),                           // UNABLE_TO_GET_ISSUER_CERT_LOCALLY, DEPTH_ZERO_SELF_SIGNED_CERT
            (.pathBuilding, nil, .unknownCA),
            (.caFlag, nil, .unknownCA),                           // INVALID_CA
            (.pathLength, nil, .unknownCA),                       // PATH_LENGTH_EXCEEDED
            (.extendedKeyUsage, nil, .unsupportedCertificate),    // INVALID_PURPOSE
            (.keyUsage, nil, .unsupportedCertificate),            // INVALID_PURPOSE
            (.signature, nil, .decryptError),                     // CERT_SIGNATURE_FAILURE
            (.algorithmStrength, nil, .badCertificate),           // EE_KEY_TOO_SMALL, CA_MD_TOO_WEAK
            (.name, nil, .badCertificate),                        // HOSTNAME_MISMATCH
            (.criticalExtensions, nil, .certificateUnknown),      // UNHANDLED_CRITICAL_EXTENSION: not in the table
            (.keyCertSign, nil, .certificateUnknown),             // KEYUSAGE_NO_CERTSIGN: not in the table
            (.endEntity, nil, .badCertificate),                   // TLSLab's own rule
            (.chainDepth, nil, .unknownCA),                       // CERT_CHAIN_TOO_LONG
            (.nameConstraints, nil, .certificateUnknown),         // PERMITTED_/EXCLUDED_VIOLATION: not in the table
            (.profile, nil, .certificateUnknown),                 // X509_STRICT errors (MISSING_AUTHORITY_KEY_IDENTIFIER, …): not in the table
        ]
        #expect(Set(table.map(\.0)) == Set(ChainCheck.Kind.allCases))
        for (kind, validity, alert) in table {
            let finding: ChainCheck.Finding = switch validity {
                case .expired?: .expired(anchor: false, notAfter: 1, now: 2)
                case .notYetValid?: .notYetValid(anchor: false, notBefore: 2, now: 1)
                case nil: .noCertificatePresented
            }
            let check = ChainCheck(kind: kind, depth: 0, subject: "x", passed: false, finding: finding)
            #expect(TLSAlertTable.alert(for: CertificateRefusal(failing: check)) == alert, "\(kind) \(String(describing: validity))")
        }
        #expect(CertificateRefusal(failing: nil) == .refusedByPolicy)
        #expect(TLSAlertTable.alert(for: .refusedByPolicy) == .badCertificate)
    }

    /// Every check kind names a refusal of its own (two kinds never collapse into one reason), and a
    /// failed validity check's side of the period decides which.
    @Test func everyCheckKindHasItsOwnRefusal() {
        let refusals = ChainCheck.Kind.allCases.filter { $0 != .validity }.map {
            CertificateRefusal(failing: ChainCheck(kind: $0, depth: 0, subject: "x", passed: false, finding: .noCertificatePresented))
        }
        #expect(Set(refusals).count == refusals.count)
        let expired = ChainCheck(kind: .validity, depth: 0, subject: "x", passed: false, finding: .expired(anchor: false, notAfter: 1, now: 2))
        let early = ChainCheck(kind: .validity, depth: 0, subject: "x", passed: false, finding: .notYetValid(anchor: false, notBefore: 2, now: 1))
        #expect(CertificateRefusal(failing: expired) == .expired && CertificateRefusal(failing: early) == .notYetValid)
    }
}
