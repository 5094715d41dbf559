import Testing
import TestSupport
import TLSCrypto
@testable import TLSEngine

/// A hostile TLS 1.3 peer against TLSLab's engine (the audit of issue #37): ticket and KeyUpdate
/// floods stay bounded, a key change ends its record (RFC 8446 §5.1), the second ClientHello keeps
/// to the HelloRetryRequest (§4.1.2, §4.2.8), server extensions follow §4.2's table, and each wire
/// error gets the alert §6.2 and the named sections give it.
@Suite("TLS 1.3 against a hostile peer (RFC 8446 §4.2, §4.6, §5.1, §6.2)")
struct TLS13PeerHostilityTests {
    typealias Parties = TLS13HandshakeTests.Parties

    static func connected(seed: UInt64) throws -> Parties {
        var p = try TLS13HandshakeTests.parties(seed: seed)
        _ = TLS13HandshakeTests.run(&p)
        #expect(p.client.state == .connected && p.server.state == .connected)
        return p
    }

    /// Bytes the server's connection writes as one record of `type` (protected once keys exist).
    static func fromServer(_ p: inout Parties, _ type: ContentType, _ content: [UInt8]) throws -> [UInt8] {
        try p.server.connection.send(type, content)
        return p.server.connection.takeStep().output
    }

    static func encoded(_ value: some TLSCodable) -> [UInt8] {
        var w = ByteWriter()
        value.encode(to: &w)
        return w.bytes
    }

    static func records(_ bytes: [UInt8]) throws -> [TLSRecord] {
        var reader = RecordReader()
        reader.append(bytes)
        var out: [TLSRecord] = []
        while let record = try reader.next() { out.append(record) }
        return out
    }

    static func keyUpdate(_ request: UInt8) -> [UInt8] { TLS13Connection.handshakeBytes(.keyUpdate, [request]) }

    static func failed(_ step: TLS13Step, _ failure: TLS13Failure) -> Bool {
        step.events.contains { if case .failed(let f) = $0 { f == failure } else { false } }
    }

    static func count(_ step: TLS13Step, _ test: (TLS13Event) -> Bool) -> Int { step.events.filter(test).count }

    // MARK: NewSessionTicket flood (§4.6.1)

    @Test("5000 NewSessionTickets: each costs the same (the key schedule's steps do not grow), the client keeps the newest 8 and says when it drops one")
    func ticketFlood() throws {
        var p = try Self.connected(seed: 31)
        let scheduleSteps = try #require(p.client.connection.master?.steps.count)
        var flight: [UInt8] = []
        for i in 0..<5_000 {
            let body = Self.encoded(TLS13NewSessionTicket(lifetime: 7_200, ageAdd: UInt32(i), nonce: [UInt8(i >> 8), UInt8(i & 0xff)],
                                                          ticket: [9, UInt8(i >> 8), UInt8(i & 0xff)]))
            flight += try Self.fromServer(&p, .handshake, TLS13Connection.handshakeBytes(.newSessionTicket, body))
        }
        let step = p.client.receive(flight)
        #expect(step.alertSent == nil)
        #expect(Self.count(step) { if case .newSessionTicketReceived = $0 { true } else { false } } == 5_000)
        #expect(Self.count(step) { if case .oldestTicketDropped(TLS13Client.ticketsKept) = $0 { true } else { false } } == 5_000 - TLS13Client.ticketsKept)
        #expect(p.client.tickets.count == TLS13Client.ticketsKept)
        #expect(p.client.tickets.map(\.message.ageAdd) == (4_992..<5_000).map(UInt32.init))
        // The key schedule's own steps do not grow; the resumption_psk steps of the kept tickets follow them.
        #expect(p.client.keyScheduleSteps.count == scheduleSteps + TLS13Client.ticketsKept)
        #expect(p.client.connection.master?.steps.count == scheduleSteps)
    }

    @Test("A ticket with ticket_lifetime 0 is discarded at once, and says so (§4.6.1)")
    func zeroLifetimeTicket() throws {
        var p = try Self.connected(seed: 30)
        let body = Self.encoded(TLS13NewSessionTicket(lifetime: 0, ageAdd: 1, nonce: [0], ticket: [1, 2, 3]))
        let step = p.client.receive(try Self.fromServer(&p, .handshake, TLS13Connection.handshakeBytes(.newSessionTicket, body)))
        #expect(step.alertSent == nil)
        #expect(step.events.contains { if case .ticketDiscardedAtOnce = $0 { true } else { false } })
        #expect(p.client.tickets.isEmpty)
    }

    // MARK: KeyUpdate (§4.6.3, §5.1)

    @Test("A KeyUpdate followed by more handshake data in its record is unexpected_message (§5.1), on either side")
    func keyUpdateEndsItsRecord() throws {
        var p = try Self.connected(seed: 32)
        let atClient = p.client.receive(try Self.fromServer(&p, .handshake, Self.keyUpdate(0) + Self.keyUpdate(0)))
        #expect(atClient.alertSent?.alertDescription == .unexpectedMessage)
        #expect(Self.failed(atClient, .handshakeDataAfterKeyChange))
        var q = try Self.connected(seed: 33)
        try q.client.connection.send(.handshake, Self.keyUpdate(0) + [24, 0])
        let atServer = q.server.receive(q.client.connection.takeStep().output)
        #expect(atServer.alertSent?.alertDescription == .unexpectedMessage)
        #expect(Self.failed(atServer, .handshakeDataAfterKeyChange))
    }

    @Test("Several update_requested while silent get one KeyUpdate (§4.6.3); after data, the next request gets its own")
    func oneAnswerWhileSilent() throws {
        var p = try Self.connected(seed: 34)
        var requests: [UInt8] = []
        for _ in 0..<3 { requests += p.server.updateKeys(requestUpdate: true).output }
        let step = p.client.receive(requests)
        #expect(step.alertSent == nil)
        #expect(Self.count(step) { if case .keyUpdateReceived(true) = $0 { true } else { false } } == 3)
        #expect(Self.count(step) { if case .keyUpdateSent(false) = $0 { true } else { false } } == 1)
        #expect(p.server.receive(step.output + p.client.send([7]).output).applicationData == [7])
        let again = p.client.receive(p.server.updateKeys(requestUpdate: true).output)
        #expect(Self.count(again) { if case .keyUpdateSent(false) = $0 { true } else { false } } == 1)
    }

    @Test("More than 32 KeyUpdates without application data between them is unexpected_message; data resets the count")
    func keyUpdateFlood() throws {
        var p = try Self.connected(seed: 35)
        var updates: [UInt8] = []
        for _ in 0..<32 { updates += p.server.updateKeys(requestUpdate: false).output }
        updates += p.server.send([1]).output
        for _ in 0..<32 { updates += p.server.updateKeys(requestUpdate: false).output }
        let fine = p.client.receive(updates)
        #expect(fine.alertSent == nil && fine.applicationData == [1])
        let over = p.client.receive(p.server.updateKeys(requestUpdate: false).output)
        #expect(over.alertSent?.alertDescription == .unexpectedMessage)
        #expect(Self.failed(over, .tooManyKeyUpdates(limit: 32)))
    }

    @Test("A KeyUpdate of the wrong length is decode_error (§4.6.3, §6.2)", arguments: [[UInt8](), [0, 0]])
    func keyUpdateLength(body: [UInt8]) throws {
        var p = try Self.connected(seed: 36)
        let step = p.client.receive(try Self.fromServer(&p, .handshake, TLS13Connection.handshakeBytes(.keyUpdate, body)))
        #expect(step.alertSent?.alertDescription == .decodeError)
    }

    @Test("An alert of an undefined level after the handshake is illegal_parameter (§6), not a close")
    func alertLevel() throws {
        var p = try Self.connected(seed: 37)
        let step = p.client.receive(try Self.fromServer(&p, .alert, [3, 0]))
        #expect(step.alertSent?.alertDescription == .illegalParameter)
        #expect(Self.failed(step, .illegalParameter(.alertLevelUndefined)))
    }

    @Test("A second ChangeCipherSpec is named as a record, not as a handshake message; KeyUpdate has its name")
    func names() throws {
        var p = try Self.connected(seed: 38)
        let step = p.client.receive(TLSRecord(contentType: .changeCipherSpec, version: .tls12, fragment: [1]).encoded)
        #expect(Self.failed(step, .unexpectedRecord(.changeCipherSpec, in: .connected)))
        #expect("\(HandshakeType.keyUpdate)" == "key_update")
        #expect("\(HandshakeType.encryptedExtensions)" == "encrypted_extensions")
    }

    // MARK: Empty records (§5.1, §5.4)

    @Test("A protected Handshake or Alert record with empty content is unexpected_message (§5.4)", arguments: [ContentType.handshake, .alert])
    func emptyProtectedRecord(type: ContentType) throws {
        var q = try Self.connected(seed: 29)
        let empty = q.client.receive(try Self.fromServer(&q, type, []))
        // RFC 8446 §5.4: "if such a message is received, the receiving implementation MUST terminate
        // the connection with an "unexpected_message" alert".
        #expect(empty.alertSent?.alertDescription == .unexpectedMessage)
        #expect(Self.failed(empty, .emptyProtectedRecord(type)))
    }

    @Test("A plaintext empty handshake record before the keys is refused by the record layer (§5.1 forbids it; decode_error)")
    func emptyPlaintextHandshakeRecord() throws {
        var p = try TLS13HandshakeTests.parties(seed: 30)
        _ = p.client.start()
        let empty = p.client.receive(TLSRecord(contentType: .handshake, version: .tls12, fragment: []).encoded)
        #expect(empty.alertSent?.alertDescription == .decodeError)
        #expect(!Self.failed(empty, .emptyProtectedRecord(.handshake)), "§5.4's rule is for protected records")
    }

    // MARK: Messages straddling a key change (§5.1)

    @Test("A ServerHello record carrying the start of EncryptedExtensions is unexpected_message (§5.1)")
    func serverHelloEndsItsRecord() throws {
        var p = try TLS13HandshakeTests.parties(seed: 39)
        let flight = p.server.receive(p.client.start().output).output
        let serverHello = try #require(try Self.records(flight).first)
        let bent = TLSRecord(contentType: .handshake, version: serverHello.version, fragment: serverHello.fragment + [8, 0])
        let step = p.client.receive(bent.encoded)
        #expect(step.alertSent?.alertDescription == .unexpectedMessage)
        #expect(Self.failed(step, .handshakeDataAfterKeyChange))
    }

    @Test("A ClientHello record carrying the start of the next flight is unexpected_message (§5.1)")
    func clientHelloEndsItsRecord() throws {
        var p = try TLS13HandshakeTests.parties(seed: 40)
        let hello = try #require(try Self.records(p.client.start().output).first)
        let step = p.server.receive(TLSRecord(contentType: .handshake, version: hello.version, fragment: hello.fragment + [20]).encoded)
        #expect(step.alertSent?.alertDescription == .unexpectedMessage)
        #expect(Self.failed(step, .handshakeDataAfterKeyChange))
    }

    // MARK: The second ClientHello (§4.1.2, §4.2.8)

    /// A server preferring P-256 and a client that sends no key share: the HelloRetryRequest asks
    /// for P-256; the second ClientHello is the first with `change` applied to its extensions.
    static func retried(seed: UInt64, change: ([TLSExtension]) throws -> [TLSExtension]) throws -> TLS13Step {
        var p = try TLS13HandshakeTests.parties(seed: seed, shares: [], serverGroups: [.secp256r1, .x25519])
        let first = try #require(try Self.records(p.client.start().output).first)
        let retry = p.server.receive(first.encoded)
        #expect(retry.events.contains { if case .helloRetryRequested(.secp256r1) = $0 { true } else { false } })
        var r = ByteReader(Array(first.fragment.dropFirst(HandshakeMessage.headerLength)))
        let hello = try ClientHello(from: &r)
        let second = ClientHello(clientVersion: .tls12, random: hello.random, sessionID: hello.sessionID, cipherSuites: hello.cipherSuites,
                                 extensions: try change(hello.extensions ?? []))
        let bytes = TLS13Connection.handshakeBytes(.clientHello, Self.encoded(second))
        return p.server.receive(TLSRecord(contentType: .handshake, version: .tls12, fragment: bytes).encoded)
    }

    static func share(_ group: NamedGroup) throws -> TLSExtension {
        let pair = try ECDHKeyPair(curve: try #require(TLS13Connection.curve(for: group)), using: HMACDRBG(seed: 41))
        return KeyShare.clientShares([KeyShareEntry(group: group, keyExchange: pair.publicKeyBytes)]).tlsExtension
    }

    @Test("After a HelloRetryRequest for P-256, a ClientHello sharing X25519 instead is illegal_parameter (§4.2.8)")
    func retryShareForAnotherGroup() throws {
        let step = try Self.retried(seed: 41) { exts in try exts.map { $0.type == .keyShare ? try Self.share(.x25519) : $0 } }
        #expect(step.alertSent?.alertDescription == .illegalParameter)
        #expect(Self.failed(step, .illegalParameter(.keyShareNotForRetryGroup)))
        let good = try Self.retried(seed: 41) { exts in try exts.map { $0.type == .keyShare ? try Self.share(.secp256r1) : $0 } }
        #expect(good.alertSent == nil)
    }

    @Test("After a HelloRetryRequest, a ClientHello no longer offering TLS 1.3 is illegal_parameter (§4.1.2)")
    func retryDropsTLS13() throws {
        let step = try Self.retried(seed: 42) { exts in
            try exts.map { ext -> TLSExtension in
                switch ext.type {
                case .keyShare: return try Self.share(.secp256r1)
                case .supportedVersions: return SupportedVersions.offered([.tls12]).tlsExtension
                default: return ext
                }
            }
        }
        #expect(step.alertSent?.alertDescription == .illegalParameter)
        #expect(Self.failed(step, .illegalParameter(.supportedVersionsChangedAfterRetry)))
    }

    // MARK: The server's messages to the client (§4.1.4, §4.2, §4.4.2.4, §4.4.4)

    static func sessionID(of clientHelloOutput: [UInt8]) throws -> (ClientHello, TLSRecord) {
        let record = try #require(try Self.records(clientHelloOutput).first)
        var r = ByteReader(Array(record.fragment.dropFirst(HandshakeMessage.headerLength)))
        return (try ClientHello(from: &r), record)
    }

    @Test("A HelloRetryRequest naming no group and carrying no cookie would not change the ClientHello: illegal_parameter (§4.1.4)")
    func retryWithoutChange() throws {
        var p = try TLS13HandshakeTests.parties(seed: 43)
        let (hello, _) = try Self.sessionID(of: p.client.start().output)
        let retry = ServerHello(random: Random(TLS13HelloValues.helloRetryRequestRandom), sessionID: hello.sessionID,
                                cipherSuite: CipherSuite(rawValue: TLS13CipherSuite.aes128GCMSHA256.rawValue),
                                extensions: [SupportedVersions.selected(.tls13).tlsExtension])
        let bytes = TLS13Connection.handshakeBytes(.serverHello, Self.encoded(retry))
        let step = p.client.receive(TLSRecord(contentType: .handshake, version: .tls12, fragment: bytes).encoded)
        #expect(step.alertSent?.alertDescription == .illegalParameter)
        #expect(Self.failed(step, .illegalParameter(.retryWouldNotChangeClientHello)))
    }

    static let unknownExtension = TLSExtension.unknown(ExtensionType(rawValue: 0x1234), [])

    @Test("ServerHello: an extension never offered is unsupported_extension; early_data or ALPN there is illegal_parameter (§4.2)",
          arguments: [(0, AlertDescription.unsupportedExtension), (1, .illegalParameter), (2, .illegalParameter)])
    func serverHelloExtensions(index: Int, alert: AlertDescription) throws {
        let added = [Self.unknownExtension, EarlyDataIndication.indication.tlsExtension,
                     TLSExtension.unknown(.applicationLayerProtocolNegotiation, [0, 9, 8] + Array("http/1.1".utf8))][index]
        var p = try TLS13HandshakeTests.parties(seed: 44)
        let flight = p.server.receive(p.client.start().output).output
        let record = try #require(try Self.records(flight).first)
        var r = ByteReader(Array(record.fragment.dropFirst(HandshakeMessage.headerLength)))
        var hello = try ServerHello(from: &r)
        hello.extensions = (hello.extensions ?? []) + [added]
        let bytes = TLS13Connection.handshakeBytes(.serverHello, Self.encoded(hello))
        let step = p.client.receive(TLSRecord(contentType: .handshake, version: .tls12, fragment: bytes).encoded)
        #expect(step.alertSent?.alertDescription == alert)
    }

    /// The client after the real ServerHello, and `messages` sealed as the server's first protected record.
    static func afterServerHello(seed: UInt64, messages: [UInt8]) throws -> TLS13Step {
        var p = try TLS13HandshakeTests.parties(seed: seed)
        let flight = p.server.receive(p.client.start().output).output
        let serverHello = try #require(try Self.records(flight).first)
        #expect(p.client.receive(serverHello.encoded).alertSent == nil)
        let suite = try #require(p.server.negotiatedSuite)
        var protector = try TLS13RecordProtector(aead: suite.aead, keys: TLS13TrafficKeys(secret: p.server.connection.serverHandshakeSecret,
                                                                                        hash: suite.hash, keyLength: suite.aead.keyLength))
        return p.client.receive(try protector.seal(contentType: .handshake, content: messages).record)
    }

    static func encryptedExtensions(_ extensions: [TLSExtension]) -> [UInt8] {
        TLS13Connection.handshakeBytes(.encryptedExtensions, Self.encoded(EncryptedExtensions(extensions: extensions)))
    }

    @Test("EncryptedExtensions: supported_versions, signature_algorithms or key_share is illegal_parameter; an extension never offered is unsupported_extension (§4.2)",
          arguments: [(0, AlertDescription.illegalParameter), (1, .illegalParameter), (2, .illegalParameter), (3, .unsupportedExtension)])
    func encryptedExtensionsTable(index: Int, alert: AlertDescription) throws {
        let added = [SupportedVersions.selected(.tls13).tlsExtension, TLSExtension.signatureAlgorithms([.ecdsaSECP256r1SHA256]),
                     TLSExtension.unknown(.keyShare, [0, 0x1d, 0, 1, 0]), Self.unknownExtension][index]
        let step = try Self.afterServerHello(seed: 45, messages: Self.encryptedExtensions([added]))
        #expect(step.alertSent?.alertDescription == alert)
        // server_name, which the client sent, may be answered there.
        let fine = try Self.afterServerHello(seed: 45, messages: Self.encryptedExtensions([.unknown(.serverName, [])]))
        #expect(fine.alertSent == nil)
    }

    @Test("An empty server Certificate is decode_error (§4.4.2.4)")
    func emptyServerCertificate() throws {
        let certificate = TLS13Connection.handshakeBytes(.certificate, Self.encoded(TLS13CertificateMessage(requestContext: [], entries: [])))
        let step = try Self.afterServerHello(seed: 46, messages: Self.encryptedExtensions([]) + certificate)
        #expect(step.alertSent?.alertDescription == .decodeError)
        #expect(Self.failed(step, .emptyServerCertificate))
    }

    @Test("A Finished shorter than the hash is decode_error (§4.4.4, §6.2), not decrypt_error")
    func finishedLength() throws {
        var p = try TLS13HandshakeTests.parties(seed: 47)
        _ = p.server.receive(p.client.start().output)
        let suite = try #require(p.server.negotiatedSuite)
        var protector = try TLS13RecordProtector(aead: suite.aead, keys: TLS13TrafficKeys(secret: p.server.connection.clientHandshakeSecret,
                                                                                        hash: suite.hash, keyLength: suite.aead.keyLength))
        let finished = TLS13Connection.handshakeBytes(.finished, [UInt8](repeating: 0, count: suite.hash.length - 1))
        let step = p.server.receive(try protector.seal(contentType: .handshake, content: finished).record)
        #expect(step.alertSent?.alertDescription == .decodeError)
    }

    @Test("A client Finished followed by more handshake data in its record is unexpected_message (§5.1)")
    func finishedEndsItsRecord() throws {
        var p = try TLS13HandshakeTests.parties(seed: 48)
        _ = p.server.receive(p.client.start().output)
        let suite = try #require(p.server.negotiatedSuite)
        let secret = p.server.connection.clientHandshakeSecret
        var protector = try TLS13RecordProtector(aead: suite.aead, keys: TLS13TrafficKeys(secret: secret, hash: suite.hash, keyLength: suite.aead.keyLength))
        let finished = TLS13Connection.handshakeBytes(.finished, TLS13FinishedMAC(hash: suite.hash, baseKey: .clientHandshakeTrafficSecret, baseKeyValue: secret, transcriptHash: p.server.connection.transcriptHash).verifyData)
        let step = p.server.receive(try protector.seal(contentType: .handshake, content: finished + [24]).record)
        #expect(step.events.contains { if case .finishedChecked(let expected, let received) = $0 { expected == received } else { false } })
        #expect(step.alertSent?.alertDescription == .unexpectedMessage)
        #expect(Self.failed(step, .handshakeDataAfterKeyChange))
    }
}
