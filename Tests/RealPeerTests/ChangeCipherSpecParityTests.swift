import Foundation
import RealPeer
import TLSCrypto
import TLSEngine
import Testing
import TestSupport

/// Issue #22: a ChangeCipherSpec record that is not the one byte 1 (two bytes, or the value 2) gets
/// the same alert from our server as from OpenSSL 3.0's s_server: the same ClientHello, the same
/// ClientKeyExchange, then the malformed record, to both.
@Suite("RealPeer: a malformed ChangeCipherSpec gets OpenSSL's alert", .serialized, CrossCheckRequirement.trait(Tools.openssl != nil, missing: "openssl is not on the PATH"))
struct ChangeCipherSpecParityTests {
    static let suite = CipherSuite.TLS_RSA_WITH_AES_128_GCM_SHA256

    static func client() -> TLSClient {
        TLSClient(configuration: TLSClientConfiguration(certificateEvaluator: AcceptAnyCertificate(), random: SystemRandom(),
                                                        cipherSuites: [suite], serverName: "localhost"))
    }

    /// The client's second flight with its ChangeCipherSpec replaced: ClientKeyExchange, then `ccs`.
    static func tampered(_ flight: TLSStep, ccs: [UInt8]) -> [UInt8] {
        let records = flight.sent.map(\.record)
        guard let kx = records.first(where: { $0.contentType == .handshake }) else { return [] }
        return kx.encoded + TLSRecord(contentType: .changeCipherSpec, version: .tls12, fragment: ccs).encoded
    }

    @Test("two bytes, or the value 2: our alert is s_server's", arguments: [[UInt8(1), 1], [2]])
    func parity(ccs: [UInt8]) throws {
        let pki = try TestPKI.require()
        // OpenSSL.
        let (server, port) = try startSServer(["-cert", "chain.pem", "-key", "leaf.key", "-cipher", "AES128-GCM-SHA256"], pki: pki)
        defer { server.stop() }
        var theirs = Self.client()
        let socket = try TCPSocket.connect(host: "127.0.0.1", port: port)
        defer { socket.close() }
        try socket.write(theirs.start().output)
        var flight = TLSStep(sent: [], events: [])
        let deadline = Date().addingTimeInterval(10)
        while flight.sent.isEmpty, Date() < deadline {
            let bytes = try socket.read(timeoutMilliseconds: 5_000)
            guard !bytes.isEmpty else { break }
            flight = theirs.receive(bytes)
        }
        try #require(!flight.sent.isEmpty, "no second flight: \(theirs.stateName)")
        try socket.write(Self.tampered(flight, ccs: ccs))
        var answer: [UInt8] = []
        while answer.count < 7, let bytes = try? socket.read(timeoutMilliseconds: 5_000), !bytes.isEmpty { answer += bytes }
        try #require(answer.count >= 7 && answer[0] == 21 && answer[5] == 2, "s_server's answer: \(answer)")
        let openssl = AlertDescription(rawValue: answer[6])

        // Ours.
        let identity = try PeerFiles.identity(certificate: pki.path("chain.pem"), key: pki.path("leaf.key"))
        var ours = TLSServer(configuration: TLSServerConfiguration(identity: identity, random: SystemRandom()))
        var client = Self.client()
        let second = client.receive(ours.receive(client.start().output).output)
        _ = ours.receive(Self.tampered(second, ccs: ccs))
        #expect(ours.failureAlert == .fatal(openssl), "ours \(String(describing: ours.failureAlert)), OpenSSL's \(openssl)")
        #expect(openssl == .unexpectedMessage)
    }
}
