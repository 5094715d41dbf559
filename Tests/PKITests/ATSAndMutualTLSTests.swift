import Testing
@testable import PKI

@Suite struct ATSTests {
    typealias ATS = ATSPolicy
    static let host = "www.example.com"

    struct Row: Sendable, CustomStringConvertible {
        let name: String
        let config: ATS
        let connection: ATS.Connection
        let expected: Bool
        var description: String { name }
    }

    static func conn(_ host: String = host, https: Bool = true, tls: ATS.TLSVersion = .tls12, fs: Bool = true,
                     kind: ATS.LoadKind = .app, chain: [String] = ["leaf", "int"]) -> ATS.Connection {
        ATS.Connection(host: host, usesHTTPS: https, tlsVersion: tls, forwardSecret: fs, loadKind: kind, trust: PKIFixtures.trust(chain))
    }

    static let leafPin = Pins.publicKeyPin(PKIFixtures.cert("leaf"))
    static let intPin = Pins.publicKeyPin(PKIFixtures.cert("int"))
    static let otherPin = Pins.publicKeyPin(PKIFixtures.cert("other-leaf"))

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
        Row(name: "exception FS NO drops key size rule", config: ATS(exceptionDomains: ["www.example.com": .init(requiresForwardSecrecy: false)]),
            connection: conn(chain: ["leaf-rsa1024", "int"]), expected: false),   // …but the default trust (weak key) still fails
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
    }
}

@Suite struct MutualTLSTests {
    struct Row: Sendable, CustomStringConvertible {
        let name: String
        let mode: MutualTLSPolicy.ClientAuthentication
        let chain: [String]?
        let whitelist: [String]?
        /// nil = accepted; otherwise the alert.
        let alert: TLSAlertName?
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
        Row(name: "require, server cert as client", mode: .require, chain: ["leaf", "int"], whitelist: nil, alert: .badCertificate, authenticated: false),
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
        case .reject(let alert):
            #expect(alert == row.alert, "\(row.name): \(reasons)")
        }
    }

    @Test func alertCodes() {
        #expect(TLSAlertName.handshakeFailure.code == 40 && TLSAlertName.unknownCA.code == 48 && TLSAlertName.accessDenied.code == 49)
        #expect(TLSAlertName.badCertificate.rawValue == "bad_certificate" && TLSAlertName.certificateExpired.code == 45)
    }
}
