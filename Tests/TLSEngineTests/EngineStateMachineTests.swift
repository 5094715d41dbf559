import Foundation
import Testing
import TLSCrypto
@testable import TLSEngine

/// Messages out of order, missing or malformed: the right alert, never a crash.
@Suite("Engine state machines")
struct EngineStateMachineTests {
    static func plaintextRecord(_ message: HandshakeMessage) -> [UInt8] {
        TLSRecord(contentType: .handshake, fragment: message.encoded).encoded
    }

    static func sentAlert(_ step: TLSStep) -> AlertDescription? {
        for case .alertSent(let alert, _) in step.events where alert.isFatal { return alert.alertDescription }
        return nil
    }

    @Test("client: ServerHelloDone instead of ServerHello → unexpected_message")
    func clientOutOfOrder() throws {
        var client = TLSClient(configuration: try Harness.clientConfiguration(seed: 1))
        _ = client.start()
        let step = client.receive(Self.plaintextRecord(.serverHelloDone))
        #expect(Self.sentAlert(step) == .unexpectedMessage)
        #expect(client.stateName == .failed)
        // Nothing more comes out of a failed client.
        #expect(client.receive(Self.plaintextRecord(.serverHelloDone)).records.isEmpty)
    }

    @Test("server: Finished, ChangeCipherSpec or application data before ClientHello → unexpected_message")
    func serverOutOfOrder() throws {
        for bytes in [Self.plaintextRecord(.finished(Finished(verifyData: [UInt8](repeating: 0, count: 12)))),
                      TLSRecord(contentType: .changeCipherSpec, fragment: [1]).encoded,
                      TLSRecord(contentType: .applicationData, fragment: [1, 2, 3]).encoded] {
            var server = TLSServer(configuration: try Harness.serverConfiguration(seed: 1))
            #expect(Self.sentAlert(server.receive(bytes)) == .unexpectedMessage)
        }
    }

    @Test("client: bytes before start() → unexpected_message")
    func clientBeforeStart() throws {
        var client = TLSClient(configuration: try Harness.clientConfiguration(seed: 1))
        #expect(Self.sentAlert(client.receive(Self.plaintextRecord(.serverHelloDone))) == .unexpectedMessage)
    }

    /// Removes one message from the server's first flight.
    @Test("a missing Certificate or ServerKeyExchange → unexpected_message", arguments: [HandshakeType.certificate, .serverKeyExchange, .serverHelloDone])
    func missingMessage(_ dropped: HandshakeType) throws {
        var client = TLSClient(configuration: try Harness.clientConfiguration(seed: 2, suites: [.TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256]))
        var server = TLSServer(configuration: try Harness.serverConfiguration(seed: 2))
        let flight = server.receive(client.start().output)
        var kept: [UInt8] = []
        for case .handshakeSent(let message, let bytes) in flight.events where message.type != dropped { kept += bytes }
        let step = client.receive(TLSRecord(contentType: .handshake, fragment: kept).encoded)
        if dropped == .serverHelloDone {
            #expect(step.records.isEmpty, "the client waits for ServerHelloDone")
            #expect(client.stateName == .expectCertificateRequestOrServerHelloDone)
            let early = client.receive(TLSRecord(contentType: .changeCipherSpec, fragment: [1]).encoded)
            #expect(Self.sentAlert(early) == .unexpectedMessage)
        } else {
            #expect(Self.sentAlert(step) == .unexpectedMessage)
        }
    }

    @Test("a ChangeCipherSpec between the fragments of one handshake message → unexpected_message")
    func ccsInsideMessage() throws {
        var client = TLSClient(configuration: try Harness.clientConfiguration(seed: 3))
        var server = TLSServer(configuration: try Harness.serverConfiguration(seed: 3))
        let flight = server.receive(client.start().output)
        let bytes = flight.records[0].fragment
        let step = client.receive(TLSRecord(contentType: .handshake, fragment: Array(bytes.prefix(10))).encoded
                                  + TLSRecord(contentType: .changeCipherSpec, fragment: [1]).encoded)
        #expect(Self.sentAlert(step) == .unexpectedMessage)
    }

    @Test("malformed ClientHello → decode_error; bad ChangeCipherSpec value → decode_error")
    func malformed() throws {
        var server = TLSServer(configuration: try Harness.serverConfiguration(seed: 4))
        // A ClientHello whose body stops inside the random.
        let truncated: [UInt8] = [1, 0, 0, 6, 3, 3, 0, 0, 0, 0]
        #expect(Self.sentAlert(server.receive(TLSRecord(contentType: .handshake, fragment: truncated).encoded)) == .decodeError)

        var client = TLSClient(configuration: try Harness.clientConfiguration(seed: 4))
        var server2 = TLSServer(configuration: try Harness.serverConfiguration(seed: 4))
        _ = client.receive(server2.receive(client.start().output).output)
        #expect(client.stateName == .expectChangeCipherSpec)
        // A ChangeCipherSpec that is not the byte 1: unexpected_message, as OpenSSL (ChangeCipherSpecParityTests).
        #expect(Self.sentAlert(client.receive(TLSRecord(contentType: .changeCipherSpec, fragment: [2]).encoded)) == .unexpectedMessage)
    }

    @Test("bytes arriving one at a time give the same handshake")
    func byteByByte() throws {
        var client = TLSClient(configuration: try Harness.clientConfiguration(seed: 5))
        var server = TLSServer(configuration: try Harness.serverConfiguration(seed: 5))
        var toServer = client.start().output
        for _ in 0..<4 {
            var toClient: [UInt8] = []
            for byte in toServer { toClient += server.receive([byte]).output }
            toServer = []
            for byte in toClient { toServer += client.receive([byte]).output }
        }
        #expect(client.isConnected && server.isConnected)
        #expect(client.masterSecret == server.masterSecret)
    }

    @Test("application data before the handshake completes is refused with a typed error")
    func earlyApplicationData() throws {
        var client = TLSClient(configuration: try Harness.clientConfiguration(seed: 6))
        #expect(throws: TLSError.self) { _ = try client.sendApplicationData([1]) }
    }

    @Test("a fatal alert from the peer ends the connection without an answer")
    func receivedAlert() throws {
        var client = TLSClient(configuration: try Harness.clientConfiguration(seed: 7))
        _ = client.start()
        let step = client.receive(TLSRecord(contentType: .alert, fragment: [2, 40]).encoded)
        #expect(step.records.isEmpty)
        #expect(client.failureAlert == .fatal(.handshakeFailure))
    }

    // MARK: - Out of order in the middle of a handshake (RFC 5246 §7.3, §7.4)

    /// A client and server up to the client's second flight: `flight` is what the client sends
    /// after ServerHelloDone (its messages, ChangeCipherSpec and encrypted Finished).
    struct MidHandshake {
        var client: TLSClient
        var server: TLSServer
        var flight: TLSStep

        init(seed: UInt64, suite: CipherSuite = .TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256, mutual: Bool = false,
             clientIdentity: Bool = true) throws {
            var clientConfig = try Harness.clientConfiguration(seed: seed, suites: [suite])
            var serverConfig = try Harness.serverConfiguration(seed: seed)
            if mutual {
                if clientIdentity { clientConfig.identity = try Harness.clientIdentity() }
                serverConfig.clientAuthentication = .require
            }
            client = TLSClient(configuration: clientConfig)
            server = TLSServer(configuration: serverConfig)
            flight = client.receive(server.receive(client.start().output).output)
        }

        /// The client's handshake messages in this flight, by type.
        func sent(_ type: HandshakeType) -> [UInt8] {
            for case .handshakeSent(let message, let bytes) in flight.events where message.type == type { return bytes }
            return []
        }

        /// The client's ChangeCipherSpec and encrypted Finished records.
        var ccsAndFinished: [UInt8] {
            flight.records.drop { $0.contentType != .changeCipherSpec }.flatMap(\.encoded)
        }
    }

    static func handshakeRecord(_ bytes: [UInt8]) -> [UInt8] {
        TLSRecord(contentType: .handshake, fragment: bytes).encoded
    }

    @Test("server: ChangeCipherSpec before ClientKeyExchange (CCS injection, CVE-2014-0224) → unexpected_message")
    func ccsInjection() throws {
        var h = try MidHandshake(seed: 30)
        #expect(h.server.stateName == .expectClientKeyExchange)
        let step = h.server.receive(TLSRecord(contentType: .changeCipherSpec, fragment: [1]).encoded)
        #expect(Self.sentAlert(step) == .unexpectedMessage)
        #expect(h.server.stateName == .failed)
    }

    @Test("server: Finished without ChangeCipherSpec → unexpected_message")
    func serverFinishedWithoutCCS() throws {
        var h = try MidHandshake(seed: 31)
        _ = h.server.receive(Self.handshakeRecord(h.sent(.clientKeyExchange)))
        #expect(h.server.stateName == .expectChangeCipherSpec)
        // The client's real Finished, in the clear, where ChangeCipherSpec must come first.
        let step = h.server.receive(Self.handshakeRecord(h.sent(.finished)))
        #expect(Self.sentAlert(step) == .unexpectedMessage)
    }

    @Test("client: Finished without ChangeCipherSpec → unexpected_message")
    func clientFinishedWithoutCCS() throws {
        var h = try MidHandshake(seed: 32)
        let reply = h.server.receive(h.flight.output)
        #expect(h.server.isConnected)
        var serverFinished: [UInt8] = []
        for case .handshakeSent(.finished, let bytes) in reply.events { serverFinished = bytes }
        #expect(!serverFinished.isEmpty)
        #expect(h.client.stateName == .expectChangeCipherSpec)
        let step = h.client.receive(Self.handshakeRecord(serverFinished))
        #expect(Self.sentAlert(step) == .unexpectedMessage)
    }

    @Test("server requiring a client certificate: CertificateVerify missing → unexpected_message")
    func missingCertificateVerify() throws {
        var h = try MidHandshake(seed: 33, mutual: true)
        #expect(!h.sent(.certificateVerify).isEmpty)
        let step = h.server.receive(Self.handshakeRecord(h.sent(.certificate) + h.sent(.clientKeyExchange)) + h.ccsAndFinished)
        #expect(h.server.stateName == .failed)
        #expect(Self.sentAlert(step) == .unexpectedMessage)
        // It got as far as waiting for CertificateVerify: ChangeCipherSpec is what was refused.
        #expect(step.events.contains { if case .stateChanged(_, _, .expectCertificateVerify) = $0 { return true } else { return false } })
    }

    @Test("server expecting the client's Certificate: ClientKeyExchange first → unexpected_message")
    func clientKeyExchangeBeforeCertificate() throws {
        var h = try MidHandshake(seed: 34, mutual: true)
        #expect(h.server.stateName == .expectClientCertificate)
        let step = h.server.receive(Self.handshakeRecord(h.sent(.clientKeyExchange)))
        #expect(Self.sentAlert(step) == .unexpectedMessage)
    }

    @Test("server: a second ClientHello in the middle of the handshake → unexpected_message")
    func secondClientHello() throws {
        var client = TLSClient(configuration: try Harness.clientConfiguration(seed: 35))
        var server = TLSServer(configuration: try Harness.serverConfiguration(seed: 35))
        let hello = client.start().output
        _ = server.receive(hello)
        #expect(server.stateName == .expectClientKeyExchange)
        // Sent again in a record of the negotiated version, so the state machine is what refuses it.
        var again = server
        let step = again.receive([0x16, 0x03, 0x03] + hello.dropFirst(3))
        #expect(Self.sentAlert(step) == .unexpectedMessage)
        // The first hello's record version (TLS 1.0) no longer fits once the hellos agreed on TLS 1.2:
        // protocol_version, as OpenSSL answers ("wrong version number").
        #expect(Self.sentAlert(server.receive(hello)) == .protocolVersion)
    }

    @Test("application data before Finished → unexpected_message (in the clear, and encrypted after ChangeCipherSpec)")
    func applicationDataBeforeFinished() throws {
        // Server, before ClientKeyExchange: plaintext application data.
        var a = try MidHandshake(seed: 36)
        #expect(Self.sentAlert(a.server.receive(TLSRecord(contentType: .applicationData, fragment: Array("GET /".utf8)).encoded))
                == .unexpectedMessage)

        // Client, waiting for the server's ChangeCipherSpec: plaintext application data.
        var b = try MidHandshake(seed: 37)
        #expect(b.client.stateName == .expectChangeCipherSpec)
        #expect(Self.sentAlert(b.client.receive(TLSRecord(contentType: .applicationData, fragment: [1, 2, 3]).encoded))
                == .unexpectedMessage)

        // Server, after the client's ChangeCipherSpec: application data properly encrypted with the
        // client's write keys instead of its Finished. It opens (no bad_record_mac), and is refused.
        var c = try MidHandshake(seed: 38)
        let keys = try #require(c.client.keyBlock)
        var sealer = try RecordProtector(cipher: .aesGCM(keyLength: 16),
                                         keys: RecordKeys(macKey: [], writeKey: keys.clientWriteKey, fixedIV: keys.clientWriteIV))
        let data = try sealer.seal(contentType: ContentType.applicationData.rawValue, version: ProtocolVersion.tls12.rawValue,
                                   plaintext: Array("GET /".utf8), random: HMACDRBG(seed: 1))
        let bytes = Self.handshakeRecord(c.sent(.clientKeyExchange))
            + TLSRecord(contentType: .changeCipherSpec, fragment: [1]).encoded
            + TLSRecord(contentType: .applicationData, fragment: data.fragment).encoded
        let step = c.server.receive(bytes)
        #expect(Self.sentAlert(step) == .unexpectedMessage)
        #expect(step.events.contains { if case .recordReceived(let r) = $0 { return r.contentType == .applicationData && r.plaintext == Array("GET /".utf8) } else { return false } })
    }

    @Test("client: a HelloRequest during the handshake is ignored (RFC 5246 §7.4.1.1), not hashed")
    func helloRequestDuringHandshake() throws {
        var client = TLSClient(configuration: try Harness.clientConfiguration(seed: 39))
        var server = TLSServer(configuration: try Harness.serverConfiguration(seed: 39))
        let hello = client.start().output
        // Before the server's flight, and between two of its messages.
        let ignored = client.receive(Self.plaintextRecord(.helloRequest))
        #expect(Self.sentAlert(ignored) == nil && ignored.records.isEmpty)
        #expect(client.stateName == .expectServerHello)
        let flight = server.receive(hello)
        var bytes: [UInt8] = []
        for case .handshakeSent(let message, let encoded) in flight.events {
            bytes += encoded
            if message.type == .certificate { bytes += HandshakeMessage.helloRequest.encoded }
        }
        let answer = client.receive(Self.handshakeRecord(bytes))
        #expect(Self.sentAlert(answer) == nil)
        let done = client.receive(server.receive(answer.output).output)
        #expect(client.isConnected && server.isConnected, "the HelloRequest stayed out of the transcript")
        #expect(done.records.isEmpty)
    }

    @Test("server: ec_point_formats without uncompressed, with RFC 8422 curves offered → illegal_parameter (RFC 8422 §5.1.2)")
    func pointFormatsWithoutUncompressed() throws {
        var client = TLSClient(configuration: try Harness.clientConfiguration(seed: 40))
        var hello: ClientHello?
        for case .handshakeSent(.clientHello(let ch), _) in client.start().events { hello = ch }
        var changed = try #require(hello)
        changed.extensions = changed.extensions?.map { ext in
            if case .ecPointFormats = ext { return .ecPointFormats([.ansiX962CompressedPrime]) } else { return ext }
        }
        #expect(changed.extensions?.contains(type: .supportedGroups) == true)
        var server = TLSServer(configuration: try Harness.serverConfiguration(seed: 40))
        let step = server.receive(Self.plaintextRecord(.clientHello(changed)))
        #expect(Self.sentAlert(step) == .illegalParameter)
        // With uncompressed listed among others, the handshake goes on.
        changed.extensions = changed.extensions?.map { ext in
            if case .ecPointFormats = ext { return .ecPointFormats([.ansiX962CompressedPrime, .uncompressed]) } else { return ext }
        }
        var other = TLSServer(configuration: try Harness.serverConfiguration(seed: 40))
        #expect(Self.sentAlert(other.receive(Self.plaintextRecord(.clientHello(changed)))) == nil)
        #expect(other.stateName == .expectClientKeyExchange)
    }

    @Test("every TLSError maps to one alert")
    func alertMapping() {
        #expect(TLSError.inappropriateMessage(expected: .inState(.expectServerHello), got: .handshake(.finished)).alert == .unexpectedMessage)
        #expect(TLSError.invalidMessage(.truncated(field: "x", needed: 1, available: 0)).alert == .decodeError)
        #expect(TLSError.recordProtection(.badRecordMAC(.gcmTagMismatch)).alert == .badRecordMAC)
        #expect(TLSError.recordProtection(.recordOverflow(length: 1)).alert == .recordOverflow)
        #expect(TLSError.peerMisbehaved(.finishedMismatch).alert == .decryptError)
        #expect(TLSError.alertReceived(.fatal(.badCertificate)).alert == nil)
        #expect(TLSError.internalError(.rsaEncryptionFailed).alert == .internalError)
    }
}
