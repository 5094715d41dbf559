import HTTP2
import PKI
@testable import Simulation
import TLSCrypto
import TLSEngine
import Testing
import Trace
import Trust

/// Simulation runs where the client's trust policy (AFSecurityPolicy, ATS, …) decides, on
/// hierarchies built by `PKIHierarchy`, and servers that authenticate clients (mutual TLS).
@Suite struct ClientTrustPolicyTests {
    /// The policy's steps of a certificate refusal (empty for any other cause).
    static func steps(_ cause: AlertCause) -> [TrustReason] {
        guard case .failure(.certificateRejected(_, .decidedBy(let reasons, _))) = cause else { return [] }
        return reasons
    }

    static func hierarchy(_ defect: PKIDefect = .none, seed: UInt64 = 4) throws -> PKIHierarchy {
        try PKIHierarchy(PKIHierarchySpec(seed: seed, defect: defect))
    }

    static func run(_ h: PKIHierarchy, client evaluator: any PeerCertificateEvaluator, host: String? = nil,
                    suites: [CipherSuite] = [.TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256],
                    configureServer: (TLSServerConfiguration) -> TLSServerConfiguration = { $0 },
                    identity: TLSIdentity? = nil) -> RunSummary {
        let rng = HMACDRBG(seed: 7)
        let client = TLSClientConfiguration(certificateEvaluator: evaluator, random: rng, cipherSuites: suites,
                                            serverName: host ?? h.spec.primaryHost, identity: identity)
        let server = configureServer(TLSServerConfiguration(identity: TLSIdentity(certificateChain: h.serverChainDER, key: h.serverKey),
                                                            random: rng, cipherSuites: suites))
        return Simulation(SimulationSetup(client: client, server: server, random: rng)).run().summary
    }

    static func evaluator(_ h: PKIHierarchy, _ policy: ClientTrustPolicy, ats: ATSPolicy? = nil,
                          rejectWeak: Bool = true) -> PolicyTrustEvaluator {
        PolicyTrustEvaluator(policy: policy, ats: ats, anchors: h.anchors, time: h.now, rejectWeakAlgorithms: rejectWeak)
    }

    @Test func defaultPolicySucceeds() throws {
        let h = try Self.hierarchy()
        let summary = Self.run(h, client: Self.evaluator(h, .systemDefault))
        #expect(summary.outcome == "success")
        let verdict = Self.evaluator(h, .afNetworking(.defaultPolicy)).decide(chain: h.serverChainDER, host: h.spec.primaryHost)
        #expect(verdict.accepted && verdict.outcome?.disposition == .useCredential && verdict.refusal == nil)
    }

    @Test func pinnedKeyMismatchIsRejected() throws {
        let h = try Self.hierarchy()
        let elsewhere = try Self.hierarchy(seed: 5)
        let policy = AFSecurityPolicy(mode: .publicKey, pinnedCertificates: [elsewhere.leaf.der])
        let summary = Self.run(h, client: Self.evaluator(h, .afNetworking(policy)))
        let failure = try #require(summary.failure)
        #expect(failure.sentBy == .client)
        #expect(failure.alert == .badCertificate)
        #expect(Self.steps(failure.cause).contains(.afNetworking(.noPublicKeyPinInChain(chainKeys: 3, pinnedKeys: 1)))
                || Self.steps(failure.cause).contains { if case .afNetworking(.noPublicKeyPinInChain) = $0 { true } else { false } },
                "\(failure.cause)")
        #expect(Self.steps(failure.cause).contains(.cancelled))
        // The same pin on its own server passes.
        let own = AFSecurityPolicy(mode: .publicKey, pinnedCertificates: [h.leaf.der])
        #expect(Self.run(h, client: Self.evaluator(h, .afNetworking(own))).outcome == "success")
    }

    @Test func validatesDomainNameNOLetsTheWrongHostThrough() throws {
        let h = try Self.hierarchy(.wrongHost)
        let strict = Self.run(h, client: Self.evaluator(h, .afNetworking(.defaultPolicy)))
        #expect(strict.failure?.alert == .badCertificate)
        var lax = AFSecurityPolicy.defaultPolicy
        lax.validatesDomainName = false
        #expect(Self.run(h, client: Self.evaluator(h, .afNetworking(lax))).outcome == "success")
        // AFNetworking 2.5.2's mode none never checked the host either.
        let old = AFSecurityPolicy(mode: .none, behaviour: .v2_5_2)
        #expect(Self.run(h, client: Self.evaluator(h, .afNetworking(old))).outcome == "success")
    }

    @Test func atsRejectsAnRSA1024Leaf() throws {
        let h = try Self.hierarchy(.rsa1024Leaf)
        // The system evaluation is told to accept small keys, so the refusal is ATS's own rule.
        let summary = Self.run(h, client: Self.evaluator(h, .systemDefault, ats: ATSPolicy(), rejectWeak: false))
        let failure = try #require(summary.failure)
        #expect(failure.alert == .badCertificate)
        #expect(Self.steps(failure.cause).contains(.ats(.keyTooSmall(key: "RSA", bits: 1024))), "\(failure.cause)")
        #expect(Self.run(h, client: Self.evaluator(h, .systemDefault, rejectWeak: false)).outcome == "success")
        // NSExceptionRequiresForwardSecrecy NO drops the key-size rule.
        let exception = ATSPolicy(exceptionDomains: ["example.com": .init(requiresForwardSecrecy: false)])
        #expect(Self.run(h, client: Self.evaluator(h, .systemDefault, ats: exception, rejectWeak: false)).outcome == "success")
    }

    @Test(arguments: [(PKIDefect.expired, AlertDescription.certificateExpired), (.notYetValid, .badCertificate),
                      (.missingIntermediate, .unknownCA), (.intermediateNotCA, .unknownCA), (.pathLenExceeded, .unknownCA),
                      (.clientAuthOnlyEKU, .unsupportedCertificate), (.selfSignedLeaf, .unknownCA), (.sha1Signature, .badCertificate),
                      (.wrongIssuer, .decryptError)])
    func refusalsCarryOpenSSLsAlert(defect: PKIDefect, alert: AlertDescription) throws {
        let h = try Self.hierarchy(defect)
        let verdict = Self.evaluator(h, .systemDefault).decide(chain: h.serverChainDER, host: h.spec.primaryHost)
        #expect(!verdict.accepted)
        #expect(verdict.firstFailure?.kind == defect.expectedFailure)
        #expect(verdict.refusal.map(TLSAlertTable.alert(for:)) == alert)
        #expect(verdict.outcome?.disposition == .performDefaultHandling)
    }

    @Test func challengeModesAndTheWebContainer() throws {
        let h = try Self.hierarchy(.wrongHost)
        let host = h.spec.primaryHost
        func accepted(_ policy: ClientTrustPolicy) -> Bool {
            Self.evaluator(h, policy).decide(chain: h.serverChainDER, host: host).accepted
        }
        #expect(accepted(.challengeMode(.none)))
        #expect(accepted(.challengeMode(.simple)))
        #expect(!accepted(.challengeMode(.full)))
        #expect(accepted(.webContainer))
        #expect(accepted(.imageDownloader(allowInvalidSSLCertificates: true)))
        #expect(!accepted(.imageDownloader(allowInvalidSSLCertificates: false)))
    }

    /// The bundled-anchor delegate: the bundled certificates become the trust's anchors; Proceed/Unspecified
    /// → UseCredential, anything else → Cancel. The deciding evaluation is the delegate's own.
    @Test func bundledAnchorDelegate() throws {
        let h = try Self.hierarchy()
        let host = h.spec.primaryHost
        func verdict(_ bundled: [X509Certificate], only: Bool = true, chain: [[UInt8]]? = nil, host: String? = nil,
                     trusting system: AnchorSelection? = nil) -> ClientTrustVerdict {
            PolicyTrustEvaluator(policy: .bundledAnchor(bundled, anchorsOnly: only), anchors: system ?? h.anchors, time: h.now)
                .decide(chain: chain ?? h.serverChainDER, host: host ?? h.spec.primaryHost)
        }
        // The bundled root: accepted, even when the system store is empty.
        let empty = AnchorSelection(system: TrustStore.system([]))
        let own = verdict([h.root], trusting: empty)
        #expect(own.accepted && own.outcome?.disposition == .useCredential && own.firstFailure == nil)
        // Another CA bundled: the system's root no longer counts (anchors only) …
        let other = verdict([h.clientRoot])
        #expect(!other.accepted && other.outcome?.disposition == .cancelAuthenticationChallenge)
        #expect(other.firstFailure?.kind == .anchor && other.refusal.map(TLSAlertTable.alert(for:)) == .unknownCA)
        // … unless SecTrustSetAnchorCertificatesOnly(NO) keeps it.
        #expect(verdict([h.clientRoot], only: false).accepted)
        #expect(!verdict([h.clientRoot], only: false, trusting: empty).accepted)
        // The trust's policy is SSL with the host: a wrong host is cancelled even with the right anchor.
        let wrongHost = verdict([h.root], host: "mail.example.org")
        #expect(!wrongHost.accepted && wrongHost.firstFailure?.kind == .name && wrongHost.outcome?.disposition == .cancelAuthenticationChallenge)
        // Validity still counts.
        let expired = try Self.hierarchy(.expired)
        let late = PolicyTrustEvaluator(policy: .bundledAnchor([expired.root], anchorsOnly: true), anchors: expired.anchors, time: expired.now)
            .decide(chain: expired.serverChainDER, host: host)
        #expect(!late.accepted && late.refusal == .expired)
        // In a handshake: the client refuses with unknown_ca and says why.
        let summary = Self.run(h, client: PolicyTrustEvaluator(policy: .bundledAnchor([h.clientRoot], anchorsOnly: true), anchors: h.anchors, time: h.now))
        let failure = try #require(summary.failure)
        #expect(failure.sentBy == .client && failure.alert == .unknownCA)
        #expect(Self.steps(failure.cause).contains(.bundledCancels) && Self.steps(failure.cause).contains(.cancelled), "\(failure.cause)")
        #expect(Self.run(h, client: PolicyTrustEvaluator(policy: .bundledAnchor([h.root], anchorsOnly: true), anchors: empty, time: h.now)).outcome == "success")
    }

    @Test func atsPlanBlocksHTTPAndRestrictsTheClient() throws {
        let ats = ATSPolicy(exceptionDomains: ["legacy.example.com": .init(allowsInsecureHTTPLoads: true, minimumTLSVersion: .tls10,
                                                                             requiresForwardSecrecy: false)])
        let blocked = try ATSConnectionPlan(ats: ats, url: "http://example.com/login")
        #expect(!blocked.allowed)
        #expect(blocked.reasons.last == .planHTTPBlocked)
        #expect(try ATSConnectionPlan(ats: ats, url: "http://legacy.example.com/").allowed)
        #expect(throws: ATSConnectionPlan.PlanError.self) { try ATSConnectionPlan(ats: ats, url: "ftp://example.com") }

        let h = try Self.hierarchy()
        let base = TLSClientConfiguration(certificateEvaluator: Self.evaluator(h, .systemDefault), random: HMACDRBG(seed: 1),
                                          minimumVersion: .tls10)
        let strict = try ATSConnectionPlan(ats: ats, url: "https://user@example.com:8443/x").restrict(base)
        #expect(strict.minimumVersion == .tls12)
        #expect(!strict.cipherSuites.isEmpty && strict.cipherSuites.allSatisfy { $0.parameters?.isForwardSecret == true })
        let legacyPlan = try ATSConnectionPlan(ats: ats, url: "https://legacy.example.com")
        #expect(legacyPlan.host == "legacy.example.com")
        let legacy = legacyPlan.restrict(base)
        #expect(legacy.minimumVersion == .tls10 && legacy.cipherSuites == base.cipherSuites)
        // The ATS-restricted suites still meet this server.
        #expect(Self.run(h, client: Self.evaluator(h, .systemDefault, ats: ATSPolicy()), suites: strict.cipherSuites).outcome == "success")
    }

    // MARK: mutual TLS

    static func mutual(_ h: PKIHierarchy, _ policy: MutualTLSPolicy, identity: TLSIdentity?) -> RunSummary {
        let evaluator = MutualTLSEvaluator(policy: policy, time: h.now)
        return run(h, client: Self.evaluator(h, .systemDefault), configureServer: { evaluator.install(into: $0) }, identity: identity)
    }

    @Test func mutualTLSOutcomes() throws {
        let h = try Self.hierarchy()
        let other = try Self.hierarchy(seed: 5)
        let identity = TLSIdentity(certificateChain: h.client.chainDER, key: h.client.privateKey)
        let strangers = TLSIdentity(certificateChain: other.client.chainDER, key: other.client.privateKey)
        let require = MutualTLSPolicy(mode: .require, clientCAs: [h.clientRoot])
        #expect(Self.mutual(h, require, identity: identity).outcome == "success")
        #expect(Self.mutual(h, require, identity: nil).failure?.alert == .handshakeFailure)
        #expect(Self.mutual(h, MutualTLSPolicy(mode: .request, clientCAs: [h.clientRoot]), identity: nil).outcome == "success")
        let unknown = Self.mutual(h, require, identity: strangers).failure
        #expect(unknown?.alert == .unknownCA && unknown?.sentBy == .server)
        let listed = MutualTLSPolicy(mode: .require, clientCAs: [h.clientRoot], subjectWhitelist: [h.spec.clientName])
        #expect(Self.mutual(h, listed, identity: identity).outcome == "success")
        let unlisted = MutualTLSPolicy(mode: .require, clientCAs: [h.clientRoot], subjectWhitelist: ["someone-else"])
        #expect(Self.mutual(h, unlisted, identity: identity).failure?.alert == .accessDenied)
    }
}
