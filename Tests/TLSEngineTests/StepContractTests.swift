import Testing
import TLSCrypto
@testable import TLSEngine

/// The step contract: what the engine says once so that no driver re-derives it — each record's
/// messages and where they sit, completion, the fatal alert, the application data read.
@Suite("TLSStep: records with what they carry, completion, alerts, data")
struct StepContractTests {
    /// Every handshake message written appears, in order, in the records' pieces; each piece's
    /// range lies in its record's plaintext; pieces tile the plaintext; a message split across
    /// records completes exactly once, in its last piece.
    static func checkPieces(_ step: TLSStep, plaintexts: [[UInt8]]) {
        var written: [[UInt8]] = []
        for event in step.events { if case .handshakeSent(_, let bytes) = event { written.append(bytes) } }
        var placed: [[UInt8]] = []
        var partial: [UInt8] = []
        for (sent, plaintext) in zip(step.sent, plaintexts) {
            var position = 0
            for piece in sent.carries {
                #expect(piece.range.lowerBound == position, "pieces tile the fragment")
                position = piece.range.upperBound
                switch piece.content {
                case .handshake(_, let bytes):
                    #expect(sent.record.contentType == .handshake)
                    partial += plaintext[piece.range]
                    if piece.completesMessage {
                        #expect(partial == bytes, "the pieces of a message put together are its bytes")
                        placed.append(partial)
                        partial = []
                    }
                case .changeCipherSpec: #expect(sent.record.contentType == .changeCipherSpec)
                case .alert(let alert):
                    #expect(sent.record.contentType == .alert)
                    #expect(Array(plaintext) == alert.encoded)
                case .applicationData: #expect(sent.record.contentType == .applicationData)
                }
            }
            #expect(position == plaintext.count, "pieces cover the whole fragment")
        }
        #expect(partial.isEmpty)
        #expect(placed == written, "every message written is placed, in order")
    }

    /// The step says which CertificateRequest it read (RFC 5246 §7.4.4), the first one; a step
    /// that read none, or only sent one, has none (issue #32 §2.11).
    @Test func theStepCarriesTheCertificateRequestItRead() {
        let first = CertificateRequest(certificateTypes: [.rsaSign], supportedSignatureAlgorithms: [.rsaPSSRSAESHA256], certificateAuthorities: [])
        let second = CertificateRequest(certificateTypes: [.ecdsaSign], supportedSignatureAlgorithms: [.ecdsaSECP256r1SHA256], certificateAuthorities: [])
        let read = TLSStep(events: [.handshakeReceived(.serverHelloDone, bytes: [14, 0, 0, 0]),
                                    .handshakeReceived(.certificateRequest(first), bytes: []),
                                    .handshakeReceived(.certificateRequest(second), bytes: [])])
        #expect(read.certificateRequestReceived == first)
        #expect(TLSStep(events: [.handshakeSent(.certificateRequest(first), bytes: [])]).certificateRequestReceived == nil)
        #expect(TLSStep(events: [.handshakeReceived(.serverHelloDone, bytes: [14, 0, 0, 0])]).certificateRequestReceived == nil)
    }

    static func plaintexts(of step: TLSStep) -> [[UInt8]] {
        step.events.compactMap { if case .recordSent(let r) = $0 { return r.plaintext } else { return nil } }
    }

    @Test("a full handshake: every flight's records carry its messages; completion and data said once",
          arguments: [CipherSuite.TLS_RSA_WITH_AES_128_GCM_SHA256, .TLS_DHE_RSA_WITH_AES_128_CBC_SHA256, .TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256])
    func fullHandshake(suite: CipherSuite) throws {
        var client = TLSClient(configuration: try Harness.clientConfiguration(seed: 7, suites: [suite]))
        var server = TLSServer(configuration: try Harness.serverConfiguration(seed: 7, suites: [suite]))
        var step = client.start()
        #expect(step.sent.count == 1 && step.sent[0].carries.count == 1 && !step.sent[0].isProtected)
        var completions: [TLSRole] = []
        var toServer = true
        for _ in 0..<8 where !step.sent.isEmpty {
            Self.checkPieces(step, plaintexts: Self.plaintexts(of: step))
            #expect(step.fatalAlertSent == nil && step.fatalAlertReceived == nil)
            step = toServer ? server.receive(step.output) : client.receive(step.output)
            if step.handshakeCompleted { completions.append(toServer ? .server : .client) }
            toServer.toggle()
        }
        #expect(Set(completions) == [.client, .server] && completions.count == 2)
        #expect(client.isConnected && server.isConnected)
        let sent = try client.sendApplicationData(Array("ping".utf8))
        #expect(sent.sent.allSatisfy { $0.isProtected })
        let read = server.receive(sent.output)
        #expect(read.applicationData == Array("ping".utf8))
        let close = client.close()
        #expect(close.sent.first.map { if case .alert(let a) = $0.carries.first?.content { return a.alertDescription == .closeNotify } else { return false } } == true)
        #expect(server.receive(close.output).closeNotifyReceived)
    }

    @Test("a large flight fragments a message across records: the pieces say so, the message completes once")
    func fragmentedMessage() throws {
        let big = HandshakeMessage.certificate(CertificateMessage(certificateList: Array(repeating: [UInt8](repeating: 0x30, count: 6000), count: 7)))
        var context = ConnectionContext(role: .server, random: HMACDRBG(seed: 1))
        context.sendHandshake(big)
        context.sendHandshake(.serverHelloDone)
        try context.flush()
        let step = context.takeStep()
        #expect(step.sent.count == 3)
        #expect(step.sent[0].carries.map(\.completesMessage) == [false])
        #expect(step.sent[1].carries.map(\.completesMessage) == [false])
        #expect(step.sent[2].carries.map(\.completesMessage) == [true, true])
        Self.checkPieces(step, plaintexts: Self.plaintexts(of: step))
    }

    @Test("a refused certificate: the step names the fatal alert sent, and the peer's step the one received")
    func fatalAlerts() throws {
        var clientConfiguration = try Harness.clientConfiguration(seed: 3)
        clientConfiguration.certificateEvaluator = FixtureEvaluator(leaf: [0x30], key: try #require(EngineFixtures.serverKey).publicKey)
        var client = TLSClient(configuration: clientConfiguration)
        var server = TLSServer(configuration: try Harness.serverConfiguration(seed: 3))
        let flight = server.receive(client.start().output)
        let refusal = client.receive(flight.output)
        #expect(refusal.fatalAlertSent?.alert.alertDescription == .badCertificate)
        #expect(!refusal.handshakeCompleted)
        Self.checkPieces(refusal, plaintexts: Self.plaintexts(of: refusal))
        #expect(server.receive(refusal.output).fatalAlertReceived?.alertDescription == .badCertificate)
    }
}
