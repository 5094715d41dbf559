import TLSCrypto
import TLSEngine

/// A TLS 1.2 connection read from the two recorded byte streams, as a passive observer can read
/// it: the handshake in the clear up to each ChangeCipherSpec, then protected records it can only
/// open with a premaster secret it somehow obtained.
struct RecordedTLS {
    var clientHello: ClientHello?
    var serverHello: ServerHello?
    var suite: CipherSuiteParameters?
    var version: ProtocolVersion = .tls12
    var extendedMasterSecret = false
    /// The ServerHello answered encrypt_then_mac (RFC 7366): CBC records are MACed after encryption.
    var encryptThenMAC = false
    var clientKeyExchange: ClientKeyExchange?
    var clientKeyExchangeBody: [UInt8] = []
    /// ClientHello … ClientKeyExchange in protocol order (the RFC 7627 session hash input).
    var sessionHashMessages: [[UInt8]] = []
    var clientProtected: [TLSRecord] = []
    var serverProtected: [TLSRecord] = []

    var clientRandom: [UInt8] { clientHello?.random.bytes ?? [] }
    var serverRandom: [UInt8] { serverHello?.random.bytes ?? [] }

    init(clientToServer: [UInt8], serverToClient: [UInt8]) {
        let (clientPlain, clientProt) = Self.split(clientToServer)
        let (serverPlain, serverProt) = Self.split(serverToClient)
        clientProtected = clientProt
        serverProtected = serverProt
        var serverMessages: [[UInt8]] = []
        for raw in serverPlain {
            if raw.type == .serverHello, case .serverHello(let sh)? = try? raw.decode(context: HandshakeDecodingContext()) {
                serverHello = sh
                suite = sh.cipherSuite.parameters
                version = sh.serverVersion
                extendedMasterSecret = (sh.extensions ?? []).contains { $0.type == .extendedMasterSecret }
                encryptThenMAC = (sh.extensions ?? []).contains { $0.type == .encryptThenMAC }
            }
            serverMessages.append(raw.bytes)
        }
        guard let first = clientPlain.first, first.type == .clientHello,
              case .clientHello(let ch)? = try? first.decode(context: HandshakeDecodingContext()) else { return }
        clientHello = ch
        sessionHashMessages = [first.bytes] + serverMessages
        let context = serverHello.map { HandshakeDecodingContext(negotiated: $0.cipherSuite, version: version) }
            ?? HandshakeDecodingContext()
        for raw in clientPlain.dropFirst() {
            sessionHashMessages.append(raw.bytes)
            if raw.type == .clientKeyExchange {
                clientKeyExchangeBody = raw.body
                if case .clientKeyExchange(let cke)? = try? raw.decode(context: context) { clientKeyExchange = cke }
                break
            }
        }
    }

    /// The handshake messages sent in the clear, and the records after ChangeCipherSpec.
    static func split(_ stream: [UInt8]) -> ([RawHandshakeMessage], [TLSRecord]) {
        var reader = RecordReader()
        reader.append(stream)
        var reassembler = HandshakeReassembler()
        var messages: [RawHandshakeMessage] = []
        var protected: [TLSRecord] = []
        var afterCCS = false
        while let record = try? reader.next() {
            if afterCCS { protected.append(record); continue }
            switch record.contentType {
            case .handshake:
                reassembler.append(record.fragment)
                if let drained = try? reassembler.drain() { messages += drained }
            case .changeCipherSpec:
                afterCCS = true
                reader.isProtected = true
            default:
                break
            }
        }
        return (messages, protected)
    }

    struct Opened {
        var masterSecret: [UInt8]
        var keys: KeyBlock
        /// Decrypted records per direction: content type and plaintext, until the first that fails.
        var clientRecords: [(ContentType, [UInt8])]
        var serverRecords: [(ContentType, [UInt8])]
        /// True when the client's first protected record opened as a Finished message: the proof
        /// that the guessed or decrypted premaster is the real one.
        var finishedVerified: Bool
    }

    var prf: TLSPRF { suite?.prf(version: version) ?? (version < .tls12 ? .tls10 : .sha256) }

    func masterSecret(preMaster: [UInt8]) -> [UInt8]? {
        let schedule = KeySchedule(prf: prf)
        if extendedMasterSecret {
            let hash = TranscriptHash.hash(of: sessionHashMessages, prf: prf)
            return schedule.extendedMasterSecret(preMasterSecret: preMaster, sessionHash: hash)
        }
        return try? schedule.masterSecret(preMasterSecret: preMaster, clientRandom: clientRandom, serverRandom: serverRandom)
    }

    /// Derives everything from a premaster and opens the protected records of both directions.
    func open(preMaster: [UInt8]) -> Opened? {
        guard let master = masterSecret(preMaster: preMaster) else { return nil }
        return open(master: master)
    }

    /// The session ID the server confirmed (for an abbreviated handshake, the resumed session's).
    var sessionID: [UInt8] { serverHello?.sessionID ?? [] }

    /// Opens the protected records with a known master secret (a resumed session reuses one), with
    /// the protection the engine itself builds from what the hellos agreed.
    func open(master: [UInt8]) -> Opened? {
        guard let suite, let protection = try? ConnectionProtection(version: version, suite: suite, masterSecret: master,
                                                                    clientRandom: clientRandom, serverRandom: serverRandom,
                                                                    encryptThenMAC: encryptThenMAC) else { return nil }
        func decrypt(_ records: [TLSRecord], _ protector: RecordProtector) -> [(ContentType, [UInt8])] {
            var protector = protector
            var out: [(ContentType, [UInt8])] = []
            for r in records {
                guard let d = try? protector.open(contentType: r.contentType.rawValue, version: r.version.rawValue,
                                                  fragment: r.fragment) else { break }
                out.append((r.contentType, d.plaintext))
            }
            return out
        }
        let client = decrypt(clientProtected, protection.client)
        let server = decrypt(serverProtected, protection.server)
        let finished = client.first.map { $0.0 == .handshake && $0.1.first == HandshakeType.finished.rawValue } ?? false
        return Opened(masterSecret: master, keys: protection.keys, clientRecords: client, serverRecords: server, finishedVerified: finished)
    }
}
