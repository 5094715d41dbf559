import Crypto
import Testing
import TLSCrypto
@testable import TLSEngine

/// Mutual TLS with an EC client certificate (RFC 8422 §5.5): our CertificateRequest asks for
/// ecdsa_sign and lists the ECDSA schemes, the client answers with its EC certificate and a
/// CertificateVerify signed ecdsa_secp256r1_sha256 (or _secp384r1_sha384), which the server checks —
/// and which swift-crypto checks again here.
@Suite struct ECDSAClientCertificateTests {
    static let clientCertificate: [UInt8] = Array("an EC client certificate".utf8)

    struct ClientFixture: PeerCertificateEvaluator {
        let key: VerificationKey
        func evaluate(chain: [[UInt8]], role: TLSRole, serverName: String?) -> CertificateDecision {
            chain.first == ECDSAClientCertificateTests.clientCertificate ? .accept(leafPublicKey: key, summary: .acceptedWithoutChecks)
                : .reject(.refusedByPolicy, reason: .decidedBy([], firstFailure: nil))
        }
    }

    static func run(seed: UInt64, curve: ECDSACurve.Name, requested: [SignatureScheme]? = nil) throws -> (EngineRun, ECDSAPrivateKey) {
        let key = try ECDSAPrivateKey.generate(curve: curve, using: HMACDRBG(seed: 2000 + seed))
        var client = TLSClientConfiguration(certificateEvaluator: FixtureEvaluator(leaf: EngineFixtures.serverCertificate,
                                                                                   key: try #require(EngineFixtures.serverKey).publicKey),
                                            random: HMACDRBG(seed: seed &* 2 &+ 1), serverName: "localhost")
        client.identity = TLSIdentity(certificateChain: [clientCertificate], key: .ecdsa(key))
        var server = try Harness.serverConfiguration(seed: seed)
        server.clientAuthentication = .require
        server.clientCertificateEvaluator = ClientFixture(key: .ecdsa(key.publicKey))
        if let requested { server.certificateRequestSignatureAlgorithms = requested }
        return (Harness.run(client: client, server: server), key)
    }

    static func certificateVerify(_ run: EngineRun) -> SignatureTrace? {
        run.serverEvents.compactMap { e -> SignatureTrace? in
            if case .signature(let s) = e, s.purpose == .certificateVerify { return s } else { return nil }
        }.first
    }

    /// P-521 twice: with the default CertificateRequest (no P-521 scheme) the client signs with SHA-384,
    /// which TLS 1.2 allows with any curve (RFC 8422 §5.4); with serve's list, ecdsa_secp521r1_sha512.
    @Test(arguments: [(ECDSACurve.Name.p256, SignatureScheme.ecdsaSECP256r1SHA256), (.p384, .ecdsaSECP384r1SHA384),
                      (.p521, .ecdsaSECP384r1SHA384), (.p521, .ecdsaSECP521r1SHA512)])
    func anECClientCertificateAuthenticates(curve: ECDSACurve.Name, scheme: SignatureScheme) throws {
        for seed in UInt64(1)...(curve == .p521 ? 2 : 4) {
            let requested = scheme == .ecdsaSECP521r1SHA512 ? SignatureSchemes.certificateRequestOpenSSL : nil
            let (run, key) = try Self.run(seed: seed, curve: curve, requested: requested)
            #expect(run.outcome == .connected, "seed \(seed): \(run.outcome)")
            let verify = try #require(Self.certificateVerify(run))
            #expect(verify.scheme == scheme && verify.valid && verify.signer == .client)
            // Independently: swift-crypto verifies the client's signature over the handshake messages.
            switch curve {
            case .p256:
                let pub = try P256.Signing.PublicKey(x963Representation: key.publicKey.x963)
                #expect(pub.isValidSignature(try P256.Signing.ECDSASignature(derRepresentation: verify.signature),
                                             for: SHA256.hash(data: verify.signedData)))
            case .p384:
                let pub = try P384.Signing.PublicKey(x963Representation: key.publicKey.x963)
                #expect(pub.isValidSignature(try P384.Signing.ECDSASignature(derRepresentation: verify.signature),
                                             for: SHA384.hash(data: verify.signedData)))
            case .p521:
                let pub = try P521.Signing.PublicKey(x963Representation: key.publicKey.x963)
                let digest: any Digest = scheme == .ecdsaSECP521r1SHA512 ? SHA512.hash(data: verify.signedData) : SHA384.hash(data: verify.signedData)
                #expect(pub.isValidSignature(try P521.Signing.ECDSASignature(derRepresentation: verify.signature), for: digest))
            }
        }
    }

    @Test func aServerListingNoECDSASchemeGetsNoECCertificate() throws {
        // Without ECDSA schemes the request carries rsa_sign only: the EC client sends an empty
        // Certificate (RFC 5246 §7.4.6) and the requiring server refuses with handshake_failure.
        let (run, _) = try Self.run(seed: 1, curve: .p256, requested: SignatureSchemes.certificateRequestDefault.filter { $0.isRSAPKCS1 || $0.isRSAPSS })
        #expect(run.outcome == .failed(sender: .server, alert: .handshakeFailure))
        #expect(Self.certificateVerify(run) == nil)
    }

    @Test func theRecordedSignatureChecksAndAChangedOneDoesNot() throws {
        // The server's check is the same function: the recorded signature verifies with the client's
        // key, and with its last bit flipped it does not.
        let (good, _) = try Self.run(seed: 3, curve: .p256)
        #expect(good.outcome == .connected)
        let verify = try #require(Self.certificateVerify(good))
        var changed = verify.signature
        changed[changed.count - 1] ^= 0x01
        let key = try ECDSAPrivateKey.generate(curve: .p256, using: HMACDRBG(seed: 2003))
        #expect(!SignatureSchemes.verify(changed, data: verify.signedData, scheme: .ecdsaSECP256r1SHA256, key: .ecdsa(key.publicKey)))
        #expect(SignatureSchemes.verify(verify.signature, data: verify.signedData, scheme: .ecdsaSECP256r1SHA256, key: .ecdsa(key.publicKey)))
    }
}
