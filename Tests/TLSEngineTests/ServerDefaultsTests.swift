import Foundation
import Testing
import TestSupport
import TLSCrypto
@testable import TLSEngine

/// Issue #22's server defaults, measured against OpenSSL 3.0: the CertificateRequest's signature
/// schemes (OpenSSL's order, no SHA-1 — RFC 9155 §2) and the curve for a client that sends no
/// supported_groups (P-256; RFC 8422 §4 leaves it to the server).
@Suite("Server defaults: CertificateRequest schemes, the curve without supported_groups")
struct ServerDefaultsTests {
    static func hello(suites: [CipherSuite], extensions: [TLSExtension]?) -> [UInt8] {
        let hello = ClientHello(clientVersion: .tls12, random: Random([UInt8](repeating: 5, count: 32)), cipherSuites: suites,
                                extensions: extensions)
        return TLSRecord(contentType: .handshake, version: .tls10, fragment: HandshakeMessage.clientHello(hello).encoded).encoded
    }

    static func sent(_ step: TLSStep) -> [HandshakeMessage] {
        step.events.compactMap { if case .handshakeSent(let m, _) = $0 { m } else { nil } }
    }

    static let sigalgs = TLSExtension.signatureAlgorithms(SignatureSchemes.defaultOffer)

    @Test func withoutSupportedGroupsTheServerPicksP256() throws {
        let configuration = try Harness.serverConfiguration(seed: 50)
        #expect(configuration.curves.first == .x25519, "X25519 is the server's first choice when the client names its curves")
        var server = TLSServer(configuration: configuration)
        let step = server.receive(Self.hello(suites: [.TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256], extensions: [Self.sigalgs]))
        #expect(server.failureAlert == nil)
        let groups = Self.sent(step).compactMap { m -> NamedGroup? in
            if case .serverKeyExchange(let ske) = m, case .ecdhe(let p) = ske.params { p.namedGroup } else { nil }
        }
        #expect(groups == [.secp256r1])
        // Naming both, the server's order decides: X25519.
        var named = TLSServer(configuration: try Harness.serverConfiguration(seed: 50))
        let step2 = named.receive(Self.hello(suites: [.TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256],
                                             extensions: [Self.sigalgs, .supportedGroups([.secp256r1, .x25519])]))
        let groups2 = Self.sent(step2).compactMap { m -> NamedGroup? in
            if case .serverKeyExchange(let ske) = m, case .ecdhe(let p) = ske.params { p.namedGroup } else { nil }
        }
        #expect(groups2 == [.x25519])
    }

    @Test func certificateRequestListsNoSHA1() throws {
        var configuration = try Harness.serverConfiguration(seed: 51)
        configuration.clientAuthentication = .request
        var server = TLSServer(configuration: configuration)
        let step = server.receive(Self.hello(suites: [.TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256],
                                             extensions: [Self.sigalgs, .supportedGroups([.x25519])]))
        let requests = Self.sent(step).compactMap { m -> CertificateRequest? in if case .certificateRequest(let r) = m { r } else { nil } }
        let listed = try #require(requests.first?.supportedSignatureAlgorithms)
        #expect(listed == [.ecdsaSECP256r1SHA256, .ecdsaSECP384r1SHA384, .rsaPSSRSAESHA256, .rsaPSSRSAESHA384, .rsaPSSRSAESHA512, .rsaPKCS1SHA256, .rsaPKCS1SHA384, .rsaPKCS1SHA512])
        #expect(!listed.contains(.rsaPKCS1SHA1))
        // RFC 8422 §5.5: with ECDSA schemes listed, an EC client certificate is welcome (ecdsa_sign, 64).
        #expect(requests.first?.certificateTypes == [.rsaSign, .ecdsaSign])
    }

    @Test func aTLS10CertificateRequestAsksForRSAOnly() throws {
        var configuration = try Harness.serverConfiguration(seed: 52)
        configuration.clientAuthentication = .request
        configuration.minimumVersion = .tls10
        var server = TLSServer(configuration: configuration)
        let hello = ClientHello(clientVersion: .tls10, random: Random([UInt8](repeating: 6, count: 32)),
                                cipherSuites: [.TLS_RSA_WITH_AES_128_CBC_SHA], extensions: nil)
        let step = server.receive(TLSRecord(contentType: .handshake, version: .tls10, fragment: HandshakeMessage.clientHello(hello).encoded).encoded)
        let requests = Self.sent(step).compactMap { m -> CertificateRequest? in if case .certificateRequest(let r) = m { r } else { nil } }
        let request = try #require(requests.first)
        // A TLS 1.0 CertificateVerify here is MD5 ‖ SHA-1 with RSA only, so only rsa_sign is asked for.
        #expect(request.certificateTypes == [.rsaSign])
        #expect(request.supportedSignatureAlgorithms == nil)
    }
}

/// The same list from OpenSSL 3.0's s_server asking for a client certificate, limited to the
/// schemes TLSLab implements: the order and the absence of SHA-1 agree, and so do the certificate types.
@Suite("CertificateRequest schemes against OpenSSL", .serialized,
       CrossCheckRequirement.trait(OpenSSLPeer.available, missing: "openssl is not on the PATH"))
struct CertificateRequestOpenSSLTests {
    @Test func ourListIsOpenSSLs() throws {
        let entries = try OpenSSLPeer.handshake(serverArgs: ["-verify", "1"])
        let messages = try OpenSSLCrossCheckTests.decodeAll(entries)
        let requests = messages.compactMap { m -> CertificateRequest? in if case .certificateRequest(let r) = m.message { r } else { nil } }
        let openssl = try #require(requests.first?.supportedSignatureAlgorithms)
        // OpenSSL also lists schemes TLSLab does not implement (Ed448, RSA-PSS with PSS keys). `tlslab serve`
        // lists the same as OpenSSL; the simulation's default leaves ecdsa_secp521r1_sha512 and ed25519 out, so
        // recorded runs keep their CertificateRequest bytes.
        let ours = openssl.filter { SignatureSchemes.implemented.contains($0) }
        #expect(ours == SignatureSchemes.certificateRequestOpenSSL, "\(openssl)")
        #expect(ours.filter { $0 != .ecdsaSECP521r1SHA512 && $0 != .ed25519 } == SignatureSchemes.certificateRequestDefault)
        #expect(!openssl.contains(.rsaPKCS1SHA1))
        // OpenSSL asks for rsa_sign, dss_sign and ecdsa_sign; TLSLab for the two it verifies.
        let types = try #require(requests.first?.certificateTypes)
        #expect(types.filter { $0 == .rsaSign || $0 == .ecdsaSign } == [.rsaSign, .ecdsaSign], "\(types)")
    }
}
