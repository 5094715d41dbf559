import Crypto
import Testing
import TLSCrypto
@testable import TLSEngine

/// Ed25519 (RFC 8422 §5.1.3, scheme ed25519 0x0807) in memory: a server whose certificate key is
/// Ed25519 signs ServerKeyExchange with it under an ECDHE_ECDSA suite; a client certificate with an
/// Ed25519 key signs CertificateVerify. The signature covers the message itself (no pre-hash) and is
/// checked here again with swift-crypto directly.
@Suite struct Ed25519HandshakeTests {
    static let seed: [UInt8] = Array(SHA256.hash(data: Array("TLSLab Ed25519 test key".utf8)))

    @Test func serverKeyExchangeSignedWithEd25519() throws {
        let key = try Ed25519PrivateKey(seed: Self.seed)
        let client = TLSClientConfiguration(certificateEvaluator: ECDSAHandshakeTests.ECFixture(key: .ed25519(key.publicKey)),
                                            random: HMACDRBG(seed: 3), cipherSuites: CipherSuite.implementedECDSA,
                                            serverName: "localhost", signatureAlgorithms: [.ed25519] + SignatureSchemes.offerWithECDSA)
        let server = TLSServerConfiguration(identity: TLSIdentity(certificateChain: [ECDSAHandshakeTests.certificate], key: .ed25519(key)),
                                            random: HMACDRBG(seed: 4))
        let run = Harness.run(client: client, server: server)
        #expect(run.outcome == .connected, "\(run.outcome)")
        #expect(run.client.negotiatedSuite == .TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256)
        let ske = try #require(run.clientEvents.compactMap { e -> SignatureTrace? in
            if case .signature(let s) = e, s.purpose == .serverKeyExchange { return s } else { return nil }
        }.first)
        #expect(ske.scheme == .ed25519 && ske.valid && ske.signature.count == 64)
        let pub = try Curve25519.Signing.PublicKey(rawRepresentation: key.publicKey.rawRepresentation)
        #expect(pub.isValidSignature(ske.signature, for: ske.signedData))
    }

    @Test func aClientThatDoesNotOfferEd25519GetsNoEd25519Server() throws {
        let key = try Ed25519PrivateKey(seed: Self.seed)
        let client = TLSClientConfiguration(certificateEvaluator: ECDSAHandshakeTests.ECFixture(key: .ed25519(key.publicKey)),
                                            random: HMACDRBG(seed: 3), cipherSuites: CipherSuite.implementedECDSA,
                                            serverName: "localhost", signatureAlgorithms: SignatureSchemes.offerWithECDSA)
        let server = TLSServerConfiguration(identity: TLSIdentity(certificateChain: [ECDSAHandshakeTests.certificate], key: .ed25519(key)),
                                            random: HMACDRBG(seed: 4))
        #expect(Harness.run(client: client, server: server).outcome == .failed(sender: .server, alert: .handshakeFailure))
    }

    @Test func certificateVerifySignedWithEd25519() throws {
        let key = try Ed25519PrivateKey(seed: Self.seed)
        var client = try Harness.clientConfiguration(seed: 5)
        client.identity = TLSIdentity(certificateChain: [ECDSAClientCertificateTests.clientCertificate], key: .ed25519(key))
        var server = try Harness.serverConfiguration(seed: 5)
        server.clientAuthentication = .require
        server.clientCertificateEvaluator = ECDSAClientCertificateTests.ClientFixture(key: .ed25519(key.publicKey))
        server.certificateRequestSignatureAlgorithms = SignatureSchemes.certificateRequestOpenSSL
        let run = Harness.run(client: client, server: server)
        #expect(run.outcome == .connected, "\(run.outcome)")
        let verify = try #require(ECDSAClientCertificateTests.certificateVerify(run))
        #expect(verify.scheme == .ed25519 && verify.valid)
        let pub = try Curve25519.Signing.PublicKey(rawRepresentation: key.publicKey.rawRepresentation)
        #expect(pub.isValidSignature(verify.signature, for: verify.signedData))
    }

    /// RFC 8032 §7.1 TEST 1: the empty message under the key 9d61b19d…; the primitive the scheme uses.
    @Test func rfc8032Test1() throws {
        let key = try Ed25519PrivateKey(seed: Hex.bytes("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60") ?? [])
        #expect(Hex.string(key.publicKey.rawRepresentation) == "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a")
        #expect(Hex.string(try key.sign(message: [])) == "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b")
        // PEM round trip (PKCS #8, RFC 8410 §7).
        #expect(try Ed25519PrivateKey(pem: key.pem).seed == key.seed)
        #expect(try Ed25519PublicKey(subjectPublicKeyInfoDER: key.publicKey.subjectPublicKeyInfoDER) == key.publicKey)
    }
}
