import Foundation
import Testing
import TestSupport
import TLSCrypto
@testable import TLSEngine

/// TLS 1.3 resumption between TLSLab's client and server (RFC 8446 §2.2, §4.2.11, §4.6.1): the
/// server's NewSessionTicket, the PSK both sides derive from it, a second connection that offers it
/// with a binder and resumes without a certificate, and a changed binder refused with decrypt_error.
@Suite("TLS 1.3 resumption with a PSK (RFC 8446 §2.2)")
struct TLS13ResumptionTests {
    /// A full handshake whose server issues a ticket; the parties and the tickets each side kept.
    static func firstConnection(seed: UInt64) throws -> (TLS13HandshakeTests.Parties, client: TLS13ResumptionTicket, server: TLS13ResumptionTicket) {
        var p = try TLS13HandshakeTests.parties(seed: seed)
        var config = p.server.configuration
        config.ticketLifetime = 7_200
        p.server = TLS13Server(configuration: config, random: HMACDRBG(seed: 900 + seed))
        let events = TLS13HandshakeTests.run(&p)
        let sent = try #require(events.server.compactMap { e -> TLS13ResumptionTicket? in
            if case .newSessionTicketSent(let t) = e { t } else { nil } }.first)
        let kept = try #require(p.client.tickets.first)
        return (p, kept, sent)
    }

    /// A second pair: the client offers `ticket` `age` ms old, the server knows `issued`.
    static func secondConnection(seed: UInt64, ticket: TLS13ResumptionTicket, issued: [TLS13ResumptionTicket],
                                 age: UInt32 = 1_500) throws -> TLS13HandshakeTests.Parties {
        var p = try TLS13HandshakeTests.parties(seed: seed + 100)
        var client = p.client.configuration
        client.resumption = ticket
        client.ticketAgeMilliseconds = age
        var server = p.server.configuration
        server.tickets = issued
        p.client = TLS13Client(configuration: client, random: HMACDRBG(seed: 700 + seed))
        p.server = TLS13Server(configuration: server, random: HMACDRBG(seed: 800 + seed))
        return p
    }

    @Test("After the handshake the server sends a NewSessionTicket; both sides derive the same PSK from resumption_master_secret and the nonce (§4.6.1)")
    func ticketAndPSK() throws {
        let (p, kept, sent) = try Self.firstConnection(seed: 1)
        #expect(p.client.state == .connected && p.server.state == .connected)
        #expect(kept == sent && kept.message.lifetime == 7_200 && kept.message.nonce == [0, 0] && kept.message.ticket.count == 32)
        let resumption = try #require(p.client.keyScheduleSteps.first { $0.secret == .resumptionMasterSecret }).value
        #expect(kept.psk == TLS13Hash.sha256.resumptionPSK(resumptionMasterSecret: resumption, ticketNonce: [0, 0]))
        // The PSK is a key-schedule step on each side, derived with HKDF-Expand-Label, never sent.
        for steps in [p.client.keyScheduleSteps, p.server.keyScheduleSteps] {
            let step = try #require(steps.last)
            #expect(step.secret == .resumptionPSK && step.value == kept.psk)
            #expect(step.derivation == .expandLabel(from: .resumptionMasterSecret, label: "resumption", context: [0, 0]))
        }
    }

    @Test("The second connection resumes: pre_shared_key last with a binder that checks, selected_identity 0, no Certificate or CertificateVerify", arguments: [1, 2, 3] as [UInt64])
    func resumedHandshake(seed: UInt64) throws {
        let (_, kept, sent) = try Self.firstConnection(seed: seed)
        var p = try Self.secondConnection(seed: seed, ticket: kept, issued: [sent])
        let events = TLS13HandshakeTests.run(&p)
        // The ClientHello's last extension is pre_shared_key with one identity and one 32-byte binder.
        let helloBytes = try #require(events.client.compactMap { e -> [UInt8]? in if case .handshakeSent(.clientHello, let b) = e { b } else { nil } }.first)
        var reader = ByteReader(Array(helloBytes.dropFirst(HandshakeMessage.headerLength)))
        let clientHello = try ClientHello(from: &reader)
        let last = try #require(clientHello.extensions?.last)
        #expect(last.type == .preSharedKey)
        guard case .unknown(_, let data) = last, case .offered(let identities, let binders) = try PreSharedKey(extensionData: data, inClientHello: true) else {
            Issue.record("no OfferedPsks"); return
        }
        #expect(identities == [PSKIdentity(identity: kept.message.ticket, obfuscatedTicketAge: 1_500 &+ kept.message.ageAdd)])
        #expect(binders.count == 1 && binders[0].count == 32)
        #expect(clientHello.extensions?.contains(type: .pskKeyExchangeModes) == true)

        #expect(p.client.state == .connected && p.server.state == .connected)
        #expect(p.client.resumed && p.server.resumed)
        #expect(p.client.keyScheduleSteps == p.server.keyScheduleSteps)
        let schedule = p.client.keyScheduleSteps
        #expect(schedule.first?.derivation == .extract(salt: nil, ikm: .preSharedKey))
        #expect(schedule.first?.value == TLS13Hash.sha256.extract(salt: [UInt8](repeating: 0, count: 32), ikm: kept.psk))
        #expect(schedule.map(\.secret).prefix(2) == [.earlySecret, .binderKey])
        // The server read the age back from obfuscated_ticket_age (§4.2.11.1).
        #expect(events.server.contains { if case .pskAccepted(0, 1_500?) = $0 { true } else { false } })
        #expect(events.server.contains { if case .pskBinderChecked(_, let e, let r) = $0 { e == r && r == binders[0] } else { false } })
        // §2.2: the PSK authenticates the server; a fresh (EC)DHE exchange still happens (psk_dhe_ke).
        let sentTypes = events.server.compactMap { e -> HandshakeType? in if case .handshakeSent(let t, _) = e { t } else { nil } }
        #expect(!sentTypes.contains(.certificate) && !sentTypes.contains(.certificateVerify))
        #expect(sentTypes.prefix(3) == [.serverHello, .encryptedExtensions, .finished])
        #expect(events.client.contains { if case .sharedSecret = $0 { true } else { false } })
        #expect(events.client.contains { if case .handshakeCompleted(true) = $0 { true } else { false } })
        // Data flows under the resumed keys.
        let request = p.client.send(Array("GET /next HTTP/1.1\r\n\r\n".utf8))
        #expect(p.server.receive(request.output).applicationData == Array("GET /next HTTP/1.1\r\n\r\n".utf8))
    }

    @Test("Any changed byte of the binder ends the handshake with decrypt_error (RFC 8446 §4.2.11)", arguments: [0, 7, 31])
    func tamperedBinder(position: Int) throws {
        let (_, kept, sent) = try Self.firstConnection(seed: 4)
        var p = try Self.secondConnection(seed: 4, ticket: kept, issued: [sent])
        var hello = p.client.start().output
        // The binder is the last 32 bytes of the ClientHello, the last bytes of its plaintext record.
        hello[hello.count - 32 + position] ^= 0x01
        let step = p.server.receive(hello)
        #expect(step.alertSent?.alertDescription == .decryptError)
        #expect(step.events.contains { if case .failed(.pskBinderInvalid) = $0 { true } else { false } })
        #expect(!step.events.contains { if case .handshakeSent(.serverHello, _) = $0 { true } else { false } })
    }

    @Test("A ticket the server does not know, or one past its lifetime, gives a full handshake with the certificate")
    func unknownOrExpiredTicket() throws {
        let (_, kept, sent) = try Self.firstConnection(seed: 5)
        for (issued, age) in [([] as [TLS13ResumptionTicket], UInt32(1_500)), ([sent], UInt32(7_200_001))] {
            var p = try Self.secondConnection(seed: 5, ticket: kept, issued: issued, age: age)
            let events = TLS13HandshakeTests.run(&p)
            #expect(p.client.state == .connected && !p.client.resumed && !p.server.resumed)
            #expect(events.server.contains { if case .handshakeSent(.certificate, _) = $0 { true } else { false } })
            #expect(p.client.keyScheduleSteps.first { $0.secret == .handshakeSecret } == p.server.keyScheduleSteps.first { $0.secret == .handshakeSecret })
        }
    }

    @Test("The engine's binder reproduces RFC 8448 §4 from its PSK and the hash of its truncated ClientHello")
    func rfc8448Binder() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/rfc8448/vectors.json")
        let root = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        let v = try #require(root["section4"] as? [String: String])
        func b(_ key: String) throws -> [UInt8] {
            let text = try #require(v[key])
            return try #require(Hex.bytes(text))
        }
        var early = TLS13KeySchedule.Early(hash: .sha256, preSharedKey: try b("psk"))
        let binderKey = early.binderKey(resumption: true)
        #expect(binderKey == (try b("resumption_binder_key")))
        #expect(TLS13PSKBinder.binder(hash: .sha256, binderKey: binderKey, truncatedTranscriptHash: try b("transcript_hash_partial_client_hello"))
                == (try b("psk_binder")))
        // §3's ticket gives §4's PSK: HKDF-Expand-Label(resumption_master_secret, "resumption", 00 00, 32).
        let s3 = try #require(root["section3"] as? [String: String])
        let resumptionText = try #require(s3["resumption_master_secret"])
        let resumption = try #require(Hex.bytes(resumptionText))
        #expect(TLS13Hash.sha256.resumptionPSK(resumptionMasterSecret: resumption, ticketNonce: [0, 0]) == (try b("psk")))
    }

    @Test("RFC 8448 §4's 0-RTT: the ClientHello offers early_data; client_early_traffic_secret, the early exporter, the early key and IV, the early record and EndOfEarlyData match byte for byte")
    func rfc8448EarlyData() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/rfc8448/vectors.json")
        let root = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        let v = try #require(root["section4"] as? [String: String])
        func b(_ key: String) throws -> [UInt8] {
            let text = try #require(v[key], "section4.\(key)")
            return try #require(Hex.bytes(text))
        }
        // The §3 NewSessionTicket allows 1024 bytes of early data (§4.6.1), read by the engine's codec.
        let s3 = try #require(root["section3"] as? [String: String])
        let ticketText = try #require(s3["new_session_ticket"])
        let ticketBytes = try #require(Hex.bytes(ticketText))
        #expect(ticketBytes.count == 205 && Array(ticketBytes.prefix(4)) == [4, 0, 0, 0xc9])
        var ticketReader = ByteReader(Array(ticketBytes.dropFirst(4)))
        let ticket = try TLS13NewSessionTicket(from: &ticketReader)
        #expect(ticketReader.isAtEnd && ticket.maxEarlyDataSize == 1_024 && ticket.lifetime == 30)
        // The resumed ClientHello: 512 bytes, early_data (empty) before pre_shared_key, whose identity is that ticket.
        let hello = try b("client_hello")
        #expect(hello.count == 512 && Array(hello.prefix(4)) == [1, 0, 1, 0xfc])
        var helloReader = ByteReader(Array(hello.dropFirst(4)))
        let clientHello = try ClientHello(from: &helloReader)
        let extensions = try #require(clientHello.extensions)
        #expect(extensions.first(ofType: .earlyData) == .unknown(.earlyData, []))
        #expect(extensions.last?.type == .preSharedKey)
        guard case .unknown(_, let pskData)? = extensions.last,
              case .offered(let identities, let binders) = try PreSharedKey(extensionData: pskData, inClientHello: true) else {
            Issue.record("no OfferedPsks"); return
        }
        let binder = try b("psk_binder")
        #expect(identities.first?.identity == ticket.ticket && binders == [binder])
        #expect(TLS13Hash.sha256.digest(hello) == (try b("transcript_hash_client_hello")))
        // The early stage from the PSK, as the engine's client and server derive it.
        var early = TLS13KeySchedule.Early(hash: .sha256, preSharedKey: try b("psk"))
        #expect(early.earlySecret == (try b("early_secret")))
        _ = early.binderKey(resumption: true)
        let secret = early.clientEarlyTrafficSecret(clientHelloHash: TLS13Hash.sha256.digest(hello))
        #expect(secret == (try b("client_early_traffic_secret")))
        #expect(early.earlyExporterMasterSecret(clientHelloHash: TLS13Hash.sha256.digest(hello)) == (try b("early_exporter_master_secret")))
        #expect(early.steps.map(\.secret) == [.earlySecret, .binderKey, .clientEarlyTrafficSecret, .earlyExporterMasterSecret])
        let keys = TLS13TrafficKeys(secret: secret, hash: .sha256, keyLength: 16)
        let (writeKey, writeIV) = (try b("early_write_key"), try b("early_write_iv"))
        #expect(keys.key == writeKey && keys.iv == writeIV)
        // The 0-RTT record (sequence 0) and EndOfEarlyData (sequence 1) under the same early key (§4.5).
        var protector = try TLS13RecordProtector(aead: .aes128GCM, keys: keys)
        #expect(try protector.seal(contentType: .applicationData, content: try b("early_application_data")).record == (try b("early_application_data_record")))
        #expect(TLS13Connection.handshakeBytes(.endOfEarlyData, []) == (try b("end_of_early_data")))
        #expect(try protector.seal(contentType: .handshake, content: try b("end_of_early_data")).record == (try b("end_of_early_data_record")))
        // The server opens both with its own copy of the key.
        var reader = try TLS13RecordProtector(aead: .aes128GCM, keys: keys)
        #expect(try reader.open(encryptedRecord: Array(try b("early_application_data_record").dropFirst(5))).content == (try b("early_application_data")))
        #expect(try reader.open(encryptedRecord: Array(try b("end_of_early_data_record").dropFirst(5))).contentType == .handshake)
    }

    @Test("NewSessionTicket and pre_shared_key round-trip; a truncated ClientHello drops exactly the binders")
    func codecs() throws {
        let ticket = TLS13NewSessionTicket(lifetime: 7_200, ageAdd: 0x1234_5678, nonce: [0, 0], ticket: [9, 9, 9])
        var w = ByteWriter()
        ticket.encode(to: &w)
        #expect(w.bytes == [0, 0, 0x1c, 0x20, 0x12, 0x34, 0x56, 0x78, 2, 0, 0, 0, 3, 9, 9, 9, 0, 0])
        var r = ByteReader(w.bytes)
        let decoded = try TLS13NewSessionTicket(from: &r)
        #expect(decoded == ticket && r.isAtEnd)
        let offer = PreSharedKey.offered(identities: [PSKIdentity(identity: [1, 2], obfuscatedTicketAge: 5)], binders: [[UInt8](repeating: 7, count: 32)])
        #expect(try PreSharedKey(extensionData: offer.extensionData, inClientHello: true) == offer)
        #expect(offer.extensionData.count == 2 + 2 + 2 + 4 + PreSharedKey.bindersLength([[UInt8](repeating: 7, count: 32)]))
        #expect(try PreSharedKey(extensionData: [0, 3], inClientHello: false) == .selected(3))
        // identities<7..2^16-1>: an empty list is refused.
        #expect(throws: DecodeError.self) { try PreSharedKey(extensionData: [0, 0, 0, 33] + [32] + [UInt8](repeating: 0, count: 32), inClientHello: true) }
        #expect(TLS13PSKBinder.truncated(clientHello: [1, 2, 3], bindersLength: 35) == nil)
    }
}
