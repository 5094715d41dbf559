import Foundation
import Testing
import TestSupport
import TLSCrypto
@testable import TLSEngine

/// TLS 1.3 client authentication between TLSLab's client and server (RFC 8446 §4.3.2, §4.4.2,
/// §4.4.3): CertificateRequest inside the server's encrypted flight, the client's Certificate and
/// CertificateVerify signed with the client context string, and the server's refusals.
@Suite("TLS 1.3 client certificate (RFC 8446 §4.3.2)")
struct TLS13ClientAuthTests {
    /// Parties whose server requires a client certificate; the client has `clientKey`'s certificate when `withIdentity`.
    static func parties(seed: UInt64, mode: ClientAuthentication = .require, withIdentity: Bool = true,
                        acceptedKey: VerificationKey? = nil) throws -> (TLS13HandshakeTests.Parties, ECDSAPrivateKey) {
        var p = try TLS13HandshakeTests.parties(seed: seed)
        let clientKey = try ECDSAPrivateKey.generate(curve: .p256, using: HMACDRBG(seed: 600 + seed))
        var client = p.client.configuration
        if withIdentity { client.identity = TLSIdentity(certificateChain: [ECDSAHandshakeTests.certificate], key: .ecdsa(clientKey)) }
        var server = p.server.configuration
        server.clientAuthentication = mode
        server.clientCertificateEvaluator = ECDSAHandshakeTests.ECFixture(key: acceptedKey ?? .ecdsa(clientKey.publicKey))
        p.client = TLS13Client(configuration: client, random: HMACDRBG(seed: 300 + seed))
        p.server = TLS13Server(configuration: server, random: HMACDRBG(seed: 400 + seed))
        return (p, clientKey)
    }

    static func sent(_ events: [TLS13Event]) -> [HandshakeType] {
        events.compactMap { if case .handshakeSent(let t, _) = $0 { t } else { nil } }
    }

    @Test("The server asks inside its encrypted flight; the client answers Certificate, CertificateVerify, Finished; both connect", arguments: [1, 2, 3] as [UInt64])
    func clientCertificateAccepted(seed: UInt64) throws {
        var (p, _) = try Self.parties(seed: seed)
        let events = TLS13HandshakeTests.run(&p)
        #expect(p.client.state == .connected && p.server.state == .connected)
        #expect(Self.sent(events.server).prefix(6) == [.serverHello, .encryptedExtensions, .certificateRequest, .certificate, .certificateVerify, .finished])
        #expect(Self.sent(events.client) == [.clientHello, .certificate, .certificateVerify, .finished])
        // The CertificateRequest is sealed under the server handshake key: it is never in a plaintext record.
        let sealed = events.server.compactMap { e -> [UInt8]? in if case .recordSealed(let d) = e { d.content } else { nil } }
        #expect(sealed.contains { $0.first == HandshakeType.certificateRequest.rawValue })
        // The client signed with its own context string; the server checked that signature over the same bytes.
        let signed = try #require(events.client.compactMap { e -> [UInt8]? in if case .certificateVerifySigned(_, let c, _) = e { c } else { nil } }.first)
        #expect(Array(signed.prefix(64)) == [UInt8](repeating: 0x20, count: 64))
        #expect(Array(signed[64..<(64 + 33)]) == Array("TLS 1.3, client CertificateVerify".utf8) && signed[97] == 0)
        #expect(events.server.contains { if case .certificateVerifyChecked(.ecdsaSECP256r1SHA256, signed, _, true) = $0 { true } else { false } })
        #expect(p.client.keyScheduleSteps == p.server.keyScheduleSteps)
        let request = p.client.send(Array("GET / HTTP/1.1\r\n\r\n".utf8))
        #expect(p.server.receive(request.output).applicationData == Array("GET / HTTP/1.1\r\n\r\n".utf8))
    }

    @Test("No client certificate: certificate_required (116) when required, a connection when only requested")
    func emptyCertificate() throws {
        var (required, _) = try Self.parties(seed: 4, withIdentity: false)
        let events = TLS13HandshakeTests.run(&required)
        #expect(events.server.contains { if case .alertSent(let a) = $0 { a.alertDescription.rawValue == 116 } else { false } })
        #expect(events.server.contains { if case .failed(.certificateRequired) = $0 { true } else { false } })
        #expect(Self.sent(events.client) == [.clientHello, .certificate, .finished])
        // The client says it sent no certificate; a server that requires one says nothing but its failure.
        let empty = { (events: [TLS13Event]) in events.contains { if case .emptyClientCertificate = $0 { true } else { false } } }
        #expect(empty(events.client) && !empty(events.server))
        var (requested, _) = try Self.parties(seed: 4, mode: .request, withIdentity: false)
        let accepted = TLS13HandshakeTests.run(&requested)
        #expect(requested.client.state == .connected && requested.server.state == .connected)
        #expect(empty(accepted.client) && empty(accepted.server))
        #expect(!accepted.server.contains { if case .certificateVerifyChecked = $0 { true } else { false } })
    }

    @Test("A CertificateVerify made with another key than the certificate's ends the handshake with decrypt_error")
    func wrongKey() throws {
        let other = try ECDSAPrivateKey.generate(curve: .p256, using: HMACDRBG(seed: 77))
        var (p, _) = try Self.parties(seed: 5, acceptedKey: .ecdsa(other.publicKey))
        let events = TLS13HandshakeTests.run(&p)
        #expect(events.server.contains { if case .certificateVerifyChecked(_, _, _, false) = $0 { true } else { false } })
        #expect(events.server.contains { if case .alertSent(let a) = $0 { a.alertDescription == .decryptError } else { false } })
        #expect(p.server.state != .connected)
    }

    @Test("CertificateRequest round-trips; its signature_algorithms is read back")
    func codec() throws {
        let request = TLS13CertificateRequest(extensions: [.signatureAlgorithms([.ecdsaSECP256r1SHA256, .rsaPSSRSAESHA256])])
        var w = ByteWriter()
        request.encode(to: &w)
        #expect(w.bytes.first == 0)
        var r = ByteReader(w.bytes)
        let decoded = try TLS13CertificateRequest(from: &r)
        #expect(decoded == request && r.isAtEnd && decoded.signatureSchemes == [.ecdsaSECP256r1SHA256, .rsaPSSRSAESHA256])
    }
}
