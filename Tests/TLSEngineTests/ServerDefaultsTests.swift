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
        #expect(listed == [.rsaPSSRSAESHA256, .rsaPSSRSAESHA384, .rsaPSSRSAESHA512, .rsaPKCS1SHA256, .rsaPKCS1SHA384, .rsaPKCS1SHA512])
        #expect(!listed.contains(.rsaPKCS1SHA1))
    }
}

/// The same list from OpenSSL 3.0's s_server asking for a client certificate, limited to the RSA
/// schemes TLSLab implements: the order and the absence of SHA-1 agree.
@Suite("CertificateRequest schemes against OpenSSL", .serialized,
       CrossCheckRequirement.trait(OpenSSLPeer.available, missing: "openssl is not on the PATH"))
struct CertificateRequestOpenSSLTests {
    @Test func ourListIsOpenSSLsForRSA() throws {
        let entries = try OpenSSLPeer.handshake(serverArgs: ["-verify", "1"])
        let messages = try OpenSSLCrossCheckTests.decodeAll(entries)
        let requests = messages.compactMap { m -> CertificateRequest? in if case .certificateRequest(let r) = m.message { r } else { nil } }
        let openssl = try #require(requests.first?.supportedSignatureAlgorithms)
        // The RSA schemes (OpenSSL also lists ECDSA ones, which TLSLab's CertificateRequest does not ask for: it accepts RSA client keys).
        let rsa = openssl.filter { SignatureSchemes.implemented.contains($0) && ($0.isRSAPSS || $0.isRSAPKCS1) }
        #expect(rsa == SignatureSchemes.certificateRequestDefault, "\(openssl)")
        #expect(!openssl.contains(.rsaPKCS1SHA1))
    }
}
