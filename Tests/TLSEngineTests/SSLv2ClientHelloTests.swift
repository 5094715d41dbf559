import Testing
import TLSCrypto
@testable import TLSEngine

/// RFC 5246 Appendix E.2: a TLS server may accept an SSL 2.0-compatible CLIENT-HELLO as the
/// client's first bytes (OpenSSL 3.0 does). TLSLab reads it as a ClientHello (TLS suites among the
/// cipher specs, the challenge right-aligned in the random, no extensions) and hashes the message
/// as received into the transcript, so the client's Finished — computed over those bytes — verifies.
@Suite("SSL 2.0-compatible CLIENT-HELLO (RFC 5246 Appendix E.2)")
struct SSLv2ClientHelloTests {
    static func u16(_ n: Int) -> [UInt8] { [UInt8(n >> 8), UInt8(n & 0xff)] }

    /// The 2-byte header (high bit set) and the message, msg_type through challenge.
    static func v2Hello(version: [UInt8] = [3, 3], specs: [[UInt8]], sessionID: [UInt8] = [],
                        challenge: [UInt8]) -> (wire: [UInt8], message: [UInt8]) {
        let message = [1] + version + u16(specs.count * 3) + u16(sessionID.count) + u16(challenge.count)
            + specs.flatMap { $0 } + sessionID + challenge
        return ([0x80 | UInt8(message.count >> 8), UInt8(message.count & 0xff)] + message, message)
    }

    static let rc4MD5: [UInt8] = [0x01, 0x00, 0x80]  // SSL_CK_RC4_128_WITH_MD5, an SSL 2.0 cipher
    static let rsaGCM: [UInt8] = [0x00, 0x00, 0x9c]  // TLS_RSA_WITH_AES_128_GCM_SHA256
    static let scsv: [UInt8] = [0x00, 0x00, 0xff]    // TLS_EMPTY_RENEGOTIATION_INFO_SCSV

    @Test func decodesIntoAClientHello() throws {
        let challenge = [UInt8](1 ... 16)
        let (_, message) = Self.v2Hello(specs: [Self.rc4MD5, Self.rsaGCM, Self.scsv], challenge: challenge)
        let hello = try SSLv2ClientHello.decode(message)
        #expect(hello.clientVersion == .tls12)
        #expect(hello.cipherSuites == [.TLS_RSA_WITH_AES_128_GCM_SHA256, .TLS_EMPTY_RENEGOTIATION_INFO_SCSV])
        #expect(hello.random.bytes == [UInt8](repeating: 0, count: 16) + challenge)
        #expect(hello.extensions == nil && hello.compressionMethods == [.null] && hello.sessionID.isEmpty)
    }

    @Test func malformedOnesAreDecodeErrors() {
        let challenge = [UInt8](repeating: 9, count: 32)
        // A cipher_spec_length that is not a multiple of 3.
        var (_, bad) = Self.v2Hello(specs: [Self.rsaGCM], challenge: challenge)
        bad[4] = 0; bad[5] = 4
        #expect(throws: DecodeError.self) { try SSLv2ClientHello.decode(bad) }
        // A 15-byte challenge.
        #expect(throws: DecodeError.lengthOutOfRange(field: "v2.challenge", length: 15, min: 16, max: 32)) {
            try SSLv2ClientHello.decode(Self.v2Hello(specs: [Self.rsaGCM], challenge: Array(challenge.prefix(15))).message)
        }
        // Only SSL 2.0 ciphers.
        #expect(throws: DecodeError.self) { try SSLv2ClientHello.decode(Self.v2Hello(specs: [Self.rc4MD5], challenge: challenge).message) }
        // Trailing bytes.
        #expect(throws: DecodeError.self) { try SSLv2ClientHello.decode(Self.v2Hello(specs: [Self.rsaGCM], challenge: challenge).message + [0]) }
    }

    @Test("a server completes a handshake that began with an SSL 2.0 CLIENT-HELLO; the transcript holds its bytes")
    func aServerCompletesTheHandshake() throws {
        let suite = CipherSuite.TLS_RSA_WITH_AES_128_GCM_SHA256
        let challenge = HMACDRBG(seed: 5).bytes(count: 32)
        let (wire, message) = Self.v2Hello(specs: [Self.rc4MD5, Self.rsaGCM, Self.scsv], challenge: challenge)
        var server = TLSServer(configuration: try Harness.serverConfiguration(seed: 41))
        // In two pieces: the server waits for the whole message.
        let first = server.receive(Array(wire.prefix(7)))
        #expect(first.records.isEmpty && server.failureAlert == nil)
        let flight = server.receive(Array(wire.dropFirst(7)))
        #expect(server.failureAlert == nil)
        var serverHello: ServerHello?
        var flightBytes: [[UInt8]] = []
        for case .handshakeSent(let sent, let encoded) in flight.events {
            if case .serverHello(let sh) = sent { serverHello = sh }
            flightBytes.append(encoded)
        }
        let hello = try #require(serverHello)
        #expect(hello.cipherSuite == suite)
        // No extensions were offered, so none but renegotiation_info (the SCSV asked for it) comes back.
        #expect(hello.extensions?.map(\.type) == [.renegotiationInfo])
        // The trace shows the record as it came.
        #expect(flight.events.contains { if case .recordReceived(let r) = $0 { r.wire == wire } else { false } })

        // The client's side, computed here: its transcript starts with the CLIENT-HELLO's own bytes.
        var client = ConnectionContext(role: .client, random: HMACDRBG(seed: 97))
        client.clientRandom = challenge
        client.serverRandom = hello.random.bytes
        try client.fix(suite: try #require(suite.parameters), version: .tls12)
        client.transcript.append(message)
        for bytes in flightBytes { client.transcript.append(bytes) }
        let preMaster: [UInt8] = [3, 3] + HMACDRBG(seed: 99).bytes(count: 46)
        let serverKey = try #require(EngineFixtures.serverKey)
        let encrypted = try serverKey.publicKey.encryptPKCS1v15(preMaster, using: HMACDRBG(seed: 98))
        client.sendHandshake(.clientKeyExchange(.rsa(encryptedPreMasterSecret: encrypted)))
        try client.flush()
        let clientSecret = try client.deriveMasterSecret(preMasterSecret: preMaster, suite: try #require(suite.parameters))
        try client.sendChangeCipherSpec(switchingTo: try client.deriveKeys(clientSecret).write)
        try client.sendFinished(clientSecret)
        let answer = server.receive(client.takeStep().records.flatMap(\.encoded))
        #expect(server.failureAlert == nil, "\(answer.events)")
        #expect(server.isConnected, "the client's Finished over the CLIENT-HELLO's bytes verified")

        // Hashing the converted ClientHello instead would not verify: the transcript must be the bytes received.
        var wrong = TLSServer(configuration: try Harness.serverConfiguration(seed: 41))
        _ = wrong.receive(wire)
        var other = ConnectionContext(role: .client, random: HMACDRBG(seed: 97))
        other.clientRandom = challenge
        other.serverRandom = hello.random.bytes
        try other.fix(suite: try #require(suite.parameters), version: .tls12)
        other.transcript.append(HandshakeMessage.clientHello(try SSLv2ClientHello.decode(message)).encoded)
        for bytes in flightBytes { other.transcript.append(bytes) }
        other.sendHandshake(.clientKeyExchange(.rsa(encryptedPreMasterSecret: encrypted)))
        try other.flush()
        let otherSecret = try other.deriveMasterSecret(preMasterSecret: preMaster, suite: try #require(suite.parameters))
        try other.sendChangeCipherSpec(switchingTo: try other.deriveKeys(otherSecret).write)
        try other.sendFinished(otherSecret)
        _ = wrong.receive(other.takeStep().records.flatMap(\.encoded))
        #expect(wrong.failureAlert == .fatal(.decryptError))
    }

    @Test func aClientThatSpeaksOnlyTLS10GetsProtocolVersion() throws {
        let (wire, _) = Self.v2Hello(version: [3, 1], specs: [Self.rsaGCM], challenge: [UInt8](repeating: 3, count: 32))
        var server = TLSServer(configuration: try Harness.serverConfiguration(seed: 42))
        _ = server.receive(wire)
        #expect(server.failureAlert == .fatal(.protocolVersion))
    }

    /// Garbage whose first byte has the high bit set and whose third byte is 1 has the SSL 2.0 shape;
    /// from a first byte of 0xc1 on (0xc0 with a non-zero second byte) its length exceeds 2^14 and it is refused at once (record_overflow,
    /// as OpenSSL does) instead of leaving the server waiting for bytes that never come.
    @Test("an SSL 2.0-shaped header claiming more than 2^14 bytes: record_overflow at once; at the limit the server waits")
    func oversizedSSLv2HeaderIsRefusedAtOnce() throws {
        for first: UInt8 in [0xc1, 0xde, 0xff] {
            var server = TLSServer(configuration: try Harness.serverConfiguration(seed: 44))
            let step = server.receive([first, 0x00, 0x01] + [UInt8](repeating: 0x55, count: 297))
            #expect(server.failureAlert == .fatal(.recordOverflow), "first byte \(first)")
            #expect(step.records.first?.contentType == .alert, "first byte \(first): the alert goes out in this step")
        }
        // 0xc0 0x00 claims exactly 2^14: a legitimate length, so the server waits for the rest.
        var atLimit = TLSServer(configuration: try Harness.serverConfiguration(seed: 45))
        let waiting = atLimit.receive([0xc0, 0x00, 0x01] + [UInt8](repeating: 0x55, count: 40))
        #expect(waiting.records.isEmpty && atLimit.failureAlert == nil)
        var justOver = TLSServer(configuration: try Harness.serverConfiguration(seed: 46))
        _ = justOver.receive([0xc0, 0x01, 0x01])
        #expect(justOver.failureAlert == .fatal(.recordOverflow))
    }

    @Test func onlyAsTheClientsFirstBytes() throws {
        let (wire, _) = Self.v2Hello(specs: [Self.rsaGCM], challenge: [UInt8](repeating: 3, count: 32))
        // A client never accepts one.
        var client = TLSClient(configuration: try Harness.clientConfiguration(seed: 43))
        _ = client.start()
        _ = client.receive(wire)
        #expect(client.failureAlert == .fatal(.unexpectedMessage))
    }
}
