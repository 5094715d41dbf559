import Crypto
import Testing
import TLSCrypto
@testable import TLSEngine

/// ECDHE_ECDSA in memory (RFC 8422): a server whose certificate key is EC P-256 or P-384, our client
/// offering the ECDSA suites and schemes. The ServerKeyExchange signature is made by TLSLab's ECDSA
/// (GMP) and checked by the client with swift-crypto, and again here with swift-crypto directly.
@Suite struct ECDSAHandshakeTests {
    /// The certificate bytes are only compared by the fixture evaluator; the key is what matters here.
    static let certificate: [UInt8] = Array("an EC server certificate".utf8)

    struct ECFixture: PeerCertificateEvaluator {
        let key: VerificationKey
        func evaluate(chain: [[UInt8]], role: TLSRole, serverName: String?) -> CertificateDecision {
            chain.first == ECDSAHandshakeTests.certificate ? .accept(leafPublicKey: key, summary: .acceptedWithoutChecks)
                : .reject(.refusedByPolicy, reason: .decidedBy([], firstFailure: nil))
        }
    }

    static func configurations(seed: UInt64, curve: ECDSACurve.Name, clientSuites: [CipherSuite] = CipherSuite.offerWithECDSA,
                               schemes: [SignatureScheme] = SignatureSchemes.offerWithECDSA,
                               groups: [NamedGroup] = [.x25519, .secp256r1, .secp384r1]) throws -> (TLSClientConfiguration, TLSServerConfiguration, ECDSAPrivateKey) {
        let key = try ECDSAPrivateKey.generate(curve: curve, using: HMACDRBG(seed: 1000 + seed))
        let client = TLSClientConfiguration(certificateEvaluator: ECFixture(key: .ecdsa(key.publicKey)), random: HMACDRBG(seed: seed &* 2 &+ 1),
                                            cipherSuites: clientSuites, serverName: "localhost", signatureAlgorithms: schemes,
                                            supportedGroups: groups)
        let server = TLSServerConfiguration(identity: TLSIdentity(certificateChain: [certificate], key: .ecdsa(key)),
                                            random: HMACDRBG(seed: seed &* 2))
        return (client, server, key)
    }

    static func events(_ run: EngineRun) -> [TLSEvent] { run.clientEvents + run.serverEvents }

    @Test(arguments: [(ECDSACurve.Name.p256, SignatureScheme.ecdsaSECP256r1SHA256), (.p384, .ecdsaSECP384r1SHA384),
                      (.p521, .ecdsaSECP521r1SHA512)])
    func completesWithTheCurvesOwnScheme(curve: ECDSACurve.Name, scheme: SignatureScheme) throws {
        for seed in UInt64(1)...(curve == .p521 ? 3 : 8) {
            // P-521: the client offers ecdsa_secp521r1_sha512 and secp521r1 (the certificate's curve, RFC 8422 §5.1).
            let (client, server, key) = curve == .p521
                ? try Self.configurations(seed: seed, curve: curve, schemes: SignatureSchemes.offerWithECDSA + [.ecdsaSECP521r1SHA512],
                                          groups: [.x25519, .secp256r1, .secp384r1, .secp521r1])
                : try Self.configurations(seed: seed, curve: curve)
            let run = Harness.run(client: client, server: server)
            #expect(run.outcome == .connected, "seed \(seed): \(run.outcome)")
            let negotiated = run.clientEvents.compactMap { if case .negotiated(let n) = $0 { return n } else { return nil } }.first
            #expect(negotiated?.cipherSuite == .TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256)
            let ske = try #require(run.clientEvents.compactMap { e -> SignatureTrace? in
                if case .signature(let s) = e, s.purpose == .serverKeyExchange { return s } else { return nil }
            }.first)
            #expect(ske.scheme == scheme && ske.valid)
            // Independently: swift-crypto verifies TLSLab's signature over client_random ‖ server_random ‖ params.
            switch curve {
            case .p256:
                let pub = try P256.Signing.PublicKey(x963Representation: key.publicKey.x963)
                let sig = try P256.Signing.ECDSASignature(derRepresentation: ske.signature)
                #expect(pub.isValidSignature(sig, for: SHA256.hash(data: ske.signedData)))
            case .p384:
                let pub = try P384.Signing.PublicKey(x963Representation: key.publicKey.x963)
                let sig = try P384.Signing.ECDSASignature(derRepresentation: ske.signature)
                #expect(pub.isValidSignature(sig, for: SHA384.hash(data: ske.signedData)))
            case .p521:
                let pub = try P521.Signing.PublicKey(x963Representation: key.publicKey.x963)
                let sig = try P521.Signing.ECDSASignature(derRepresentation: ske.signature)
                #expect(pub.isValidSignature(sig, for: SHA512.hash(data: ske.signedData)))
            }
        }
    }

    /// A P-521 certificate is usable only when the client lists secp521r1 (RFC 8422 §5.1): without it the
    /// server has no ECDSA suite to pick; with it, ECDHE over secp521r1 has a 66-byte key and premaster.
    @Test func p521CertificateNeedsTheCurveOfferedAndP521ECDHEWorks() throws {
        let (client, server, _) = try Self.configurations(seed: 4, curve: .p521)
        #expect(Harness.run(client: client, server: server).outcome == .failed(sender: .server, alert: .handshakeFailure))
        let (c2, s2, _) = try Self.configurations(seed: 4, curve: .p521, schemes: [.ecdsaSECP521r1SHA512], groups: [.secp521r1])
        let run = Harness.run(client: c2, server: s2)
        #expect(run.outcome == .connected, "\(run.outcome)")
        let curves = run.clientEvents.compactMap { e -> NamedGroup? in
            if case .derived(.ecdhAgreement(let curve, let privateKey, _, _, let secret)) = e {
                #expect(privateKey.count == 66 && secret.count == 66)
                return curve
            }
            return nil
        }
        #expect(curves == [.secp521r1])
    }

    @Test func aSeedReproducesTheHandshake() throws {
        let (c1, s1, _) = try Self.configurations(seed: 3, curve: .p256)
        let (c2, s2, _) = try Self.configurations(seed: 3, curve: .p256)
        let a = Harness.run(client: c1, server: s1), b = Harness.run(client: c2, server: s2)
        #expect(a.messages.map(\.bytes) == b.messages.map(\.bytes))
    }

    @Test func aClientWithoutECDSAGetsHandshakeFailure() throws {
        // The default (RSA-only) signature_algorithms: the EC server can sign nothing the client accepts.
        let (client, server, _) = try Self.configurations(seed: 1, curve: .p256, schemes: SignatureSchemes.defaultOffer)
        #expect(Harness.run(client: client, server: server).outcome == .failed(sender: .server, alert: .handshakeFailure))
        // Only RSA suites offered: nothing the EC certificate can authenticate.
        let (c2, s2, _) = try Self.configurations(seed: 1, curve: .p256, clientSuites: CipherSuite.implemented)
        #expect(Harness.run(client: c2, server: s2).outcome == .failed(sender: .server, alert: .handshakeFailure))
        // RFC 8422 §5.3: a P-384 certificate needs secp384r1 among the client's supported_groups.
        let (c3, s3, _) = try Self.configurations(seed: 1, curve: .p384, groups: [.x25519, .secp256r1])
        #expect(Harness.run(client: c3, server: s3).outcome == .failed(sender: .server, alert: .handshakeFailure))
    }

    @Test func theServerPicksTheECDHEGroupInItsOwnOrder() throws {
        // A P-384 certificate (its curve must be offered, RFC 8422 §5.3). The client lists P-384 first; the
        // server prefers X25519 (RFC 8422 §5.1: its choice among the client's).
        let (client, server, _) = try Self.configurations(seed: 2, curve: .p384, groups: [.secp384r1, .x25519])
        let run = Harness.run(client: client, server: server)
        let chosen = run.clientEvents.compactMap { if case .derived(.ecdhAgreement(let curve, _, _, _, _)) = $0 { return curve } else { return nil } }
        #expect(chosen == [.x25519])
        func curves(_ groups: [NamedGroup]) throws -> [NamedGroup] {
            let (c, s, _) = try Self.configurations(seed: 2, curve: .p384, groups: groups)
            return Harness.run(client: c, server: s).clientEvents.compactMap {
                if case .derived(.ecdhAgreement(let curve, _, _, _, _)) = $0 { return curve } else { return nil }
            }
        }
        #expect(try curves([.secp384r1, .secp256r1]) == [.secp256r1], "the server prefers P-256 to P-384")
        #expect(try curves([.secp384r1]) == [.secp384r1], "only P-384 offered: P-384")
    }

    @Test func anRSAServerNeverChoosesAnECDSASuite() throws {
        let client = TLSClientConfiguration(certificateEvaluator: FixtureEvaluator(leaf: EngineFixtures.serverCertificate,
                                                                                   key: try #require(EngineFixtures.serverKey).publicKey),
                                            random: HMACDRBG(seed: 5), cipherSuites: CipherSuite.offerWithECDSA, serverName: "localhost",
                                            signatureAlgorithms: SignatureSchemes.offerWithECDSA)
        let run = Harness.run(client: client, server: try Harness.serverConfiguration(seed: 5, suites: CipherSuite.allImplementedWithECDSA))
        #expect(run.outcome == .connected)
        let negotiated = run.clientEvents.compactMap { if case .negotiated(let n) = $0 { return n } else { return nil } }.first
        #expect(negotiated?.cipherSuite == .TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256)
    }
}
