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
        #expect(Self.sentAlert(client.receive(TLSRecord(contentType: .changeCipherSpec, fragment: [2]).encoded)) == .decodeError)
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

    @Test("every TLSError maps to one alert")
    func alertMapping() {
        #expect(TLSError.inappropriateMessage(expected: "a", got: "b").alert == .unexpectedMessage)
        #expect(TLSError.invalidMessage(.truncated(field: "x", needed: 1, available: 0)).alert == .decodeError)
        #expect(TLSError.recordProtection(.badRecordMAC("x")).alert == .badRecordMAC)
        #expect(TLSError.recordProtection(.recordOverflow(length: 1)).alert == .recordOverflow)
        #expect(TLSError.peerMisbehaved(.decryptError, "x").alert == .decryptError)
        #expect(TLSError.alertReceived(.fatal(.badCertificate)).alert == nil)
        #expect(TLSError.internalError("x").alert == .internalError)
    }
}
