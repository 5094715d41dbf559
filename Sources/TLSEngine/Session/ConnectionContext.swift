import TLSCrypto

/// What client and server share during one connection (rustls: one context value, not every
/// state repeating it): negotiated parameters, randoms, transcript, secrets, and the record layer
/// in both directions. It writes records and events into buffers that each step hands out.
struct ConnectionContext {
    let role: TLSRole
    let random: RandomSource

    /// The negotiated version (TLS 1.2 until the hellos say otherwise).
    var version: ProtocolVersion = .tls12
    /// The version in the headers of records we send (TLS 1.0 for the first ClientHello, as
    /// OpenSSL does; the negotiated version afterwards).
    var recordVersion: ProtocolVersion
    var suite: CipherSuiteParameters?
    var clientHelloVersion: ProtocolVersion = .tls12
    var clientRandom: [UInt8] = []
    var serverRandom: [UInt8] = []
    var sessionID: [UInt8] = []
    var extendedMasterSecret = false
    /// RFC 7366: CBC records are encrypt-then-MAC (both hellos carried the extension, the suite is CBC).
    var encryptThenMAC = false
    var resumed = false
    /// RFC 5077: the server sends a NewSessionTicket in this handshake; the client expects one.
    var issuesTicket = false
    var serverName: String?
    /// The protocol ALPN agreed on (RFC 7301), when it did; a property of this connection, not of
    /// the session (RFC 7301 §3.1: a resumed handshake negotiates it afresh).
    var applicationProtocol: ProtocolName?
    var transcript = TranscriptHash()
    /// The master secret, for ``TLSEndpoint/masterSecret``: set once, when it is derived or taken from
    /// the resumed session. The handshake itself reads its state's ``HandshakeSecret``.
    private(set) var masterSecret: [UInt8]?
    /// The cut key block, for ``TLSEndpoint/keyBlock``: set once, when the keys are derived.
    private(set) var keyBlock: KeyBlock?
    var sentCloseNotify = false

    private var reader = RecordReader()
    private var reassembler = HandshakeReassembler()
    private var queued: [RawHandshakeMessage] = []
    private var readProtector: RecordProtector?
    private var writeProtector: RecordProtector?
    private var outgoingHandshake: [UInt8] = []
    /// The messages in `outgoingHandshake`, with how many of their bytes are not yet in a record.
    private var outgoingMessages: [(message: HandshakeMessage, bytes: [UInt8], unsent: Int)] = []
    /// Warning alerts (other than close_notify) received in a row, and empty records in a row:
    /// see ``IncomingLimits``.
    private var consecutiveWarningAlerts = 0
    private var consecutiveEmptyRecords = 0

    /// A server's first bytes may be an SSL 2.0-compatible CLIENT-HELLO (RFC 5246 Appendix E.2);
    /// cleared once the first record or message is read.
    var acceptsSSLv2ClientHello = false

    var records: [SentRecord] = []
    var events: [TLSEvent] = []

    init(role: TLSRole, random: RandomSource) {
        self.role = role
        self.random = random
        recordVersion = role == .client ? .tls10 : .tls12
    }

    // MARK: - Negotiated parameters

    /// The PRF: TLS 1.0/1.1's MD5 ⊕ SHA-1, or the suite's hash in TLS 1.2 (RFC 5246 §5).
    var prf: TLSPRF { suite?.prf(version: version) ?? (version < .tls12 ? .tls10 : .sha256) }

    var keySchedule: KeySchedule { KeySchedule(prf: prf) }

    var decodingContext: HandshakeDecodingContext {
        HandshakeDecodingContext(version: version, keyExchange: suite?.keyExchange,
                                 verifyDataLength: suite?.verifyDataLength ?? 12)
    }

    /// Fixes version and suite once the hellos agree; the transcript hash is then known.
    mutating func fix(suite params: CipherSuiteParameters, version: ProtocolVersion) throws(TLSError) {
        self.suite = params
        self.version = version
        recordVersion = version
        do {
            try transcript.select(prf)
        } catch {
            throw .internalError(.keySchedule(error))
        }
    }

    // MARK: - Sending

    /// Queues a handshake message (it goes out with the rest of its flight) and adds it to the
    /// transcript.
    mutating func sendHandshake(_ message: HandshakeMessage) {
        let bytes = message.encoded
        transcript.append(bytes)
        events.append(.handshakeSent(message, bytes: bytes))
        outgoingHandshake += bytes
        outgoingMessages.append((message, bytes, bytes.count))
    }

    /// Writes the queued handshake messages as records (coalesced, split at 2^14).
    mutating func flush() throws(TLSError) {
        guard !outgoingHandshake.isEmpty else { return }
        let payload = outgoingHandshake
        outgoingHandshake = []
        var start = 0
        while start < payload.count {
            let end = min(start + TLSRecord.maxPlaintextLength, payload.count)
            var carries: [CarriedContent] = []
            var position = 0
            while position < end - start, !outgoingMessages.isEmpty {
                let take = min(outgoingMessages[0].unsent, end - start - position)
                outgoingMessages[0].unsent -= take
                let done = outgoingMessages[0].unsent == 0
                carries.append(CarriedContent(content: .handshake(outgoingMessages[0].message, bytes: outgoingMessages[0].bytes),
                                              range: position..<(position + take), completesMessage: done))
                if done { outgoingMessages.removeFirst() }
                position += take
            }
            try emit(.handshake, Array(payload[start..<end]), carrying: carries)
            start = end
        }
    }

    /// One record carrying one whole message or application data.
    private mutating func emit(_ type: ContentType, _ plaintext: [UInt8], whole content: CarriedContent.Content) throws(TLSError) {
        try emit(type, plaintext, carrying: [CarriedContent(content: content, range: 0..<plaintext.count, completesMessage: true)])
    }

    /// One record, protected when this direction's keys are on.
    private mutating func emit(_ type: ContentType, _ plaintext: [UInt8], carrying carries: [CarriedContent]) throws(TLSError) {
        var fragment = plaintext
        var detail: RecordCryptoDetail?
        if var protector = writeProtector {
            do {
                let d = try protector.seal(contentType: type.rawValue, version: recordVersion.rawValue,
                                           plaintext: plaintext, random: random)
                detail = d
                fragment = d.fragment
            } catch {
                throw .recordProtection(error)
            }
            writeProtector = protector
        }
        let record = TLSRecord(contentType: type, version: recordVersion, fragment: fragment)
        events.append(.recordSent(RecordTrace(contentType: type, version: recordVersion, plaintext: plaintext,
                                              wire: record.encoded, crypto: detail)))
        records.append(SentRecord(record: record, isProtected: detail != nil, carries: carries))
    }

    /// ChangeCipherSpec, then this side's writes use `pending` from sequence number 0.
    mutating func sendChangeCipherSpec(switchingTo pending: PendingProtection) throws(TLSError) {
        try flush()
        try emit(.changeCipherSpec, ChangeCipherSpec().encoded, whole: .changeCipherSpec)
        events.append(.changeCipherSpecSent)
        writeProtector = pending.protector
        events.append(.keysActivated(direction: .write, suite: pending.suite))
    }

    mutating func sendAlert(_ alert: Alert, cause: AlertCause) {
        do {
            try flush()
            try emit(.alert, alert.encoded, whole: .alert(alert))
            events.append(.alertSent(alert, cause: cause))
        } catch {
            // The alert could not be protected; nothing more can be sent.
        }
        if alert.alertDescription == .closeNotify { sentCloseNotify = true }
    }

    mutating func sendApplicationData(_ data: [UInt8]) throws(TLSError) {
        var start = 0
        repeat {
            let end = min(start + TLSRecord.maxPlaintextLength, data.count)
            try emit(.applicationData, Array(data[start..<end]), whole: .applicationData)
            start = end
        } while start < data.count
        events.append(.applicationDataSent(data))
    }

    /// The records and events of this step, handed out once.
    mutating func takeStep() -> TLSStep {
        defer { records = []; events = [] }
        return TLSStep(sent: records, events: events)
    }

    // MARK: - Receiving

    mutating func append(_ bytes: [UInt8]) { reader.append(bytes) }

    /// Handshake bytes that followed an adopted ClientHello in its record (``ServerHandshake/adopt(_:)``):
    /// read as the rest of that record would have been.
    mutating func adoptHandshakeFragment(_ fragment: [UInt8]) throws(TLSError) {
        guard !fragment.isEmpty else { return }
        reassembler.append(fragment)
        do { queued += try reassembler.drain() } catch { throw .invalidMessage(error) }
    }

    /// The next whole message, ChangeCipherSpec, alert or application data, or nil when more
    /// bytes are needed. Opens protected records; refuses anything between the fragments of one
    /// handshake message (RFC 5246 §7.4).
    mutating func nextIncoming() throws(TLSError) -> IncomingContent? {
        if !queued.isEmpty { return .handshake(queued.removeFirst()) }
        if acceptsSSLv2ClientHello {
            let start: RecordReader.SSLv2Start
            do { start = try reader.takeSSLv2ClientHello() } catch { throw .invalidMessage(error) }
            switch start {
            case .needMoreBytes: return nil
            case .notSSLv2: acceptsSSLv2ClientHello = false
            case .clientHello(let wire):
                acceptsSSLv2ClientHello = false
                let message = Array(wire.dropFirst(2))
                let hello: ClientHello
                do { hello = try SSLv2ClientHello.decode(message) } catch { throw .invalidMessage(error) }
                events.append(.recordReceived(RecordTrace(contentType: .handshake, version: hello.clientVersion,
                                                          plaintext: message, wire: wire, crypto: nil)))
                var body = ByteWriter()
                hello.encode(to: &body)
                return .handshake(RawHandshakeMessage(type: .clientHello, body: body.bytes, receivedBytes: message))
            }
        }
        while true {
            let record: TLSRecord
            do {
                guard let next = try reader.next() else { return nil }
                record = next
            } catch {
                throw .invalidMessage(error)
            }
            // Once the hellos fixed the version, every record carries it (RFC 5246 §6.2.1, Appendix E.1);
            // OpenSSL answers another one with protocol_version ("wrong version number").
            if suite != nil, record.version != version {
                throw .peerMisbehaved(.recordVersionMismatch(record.contentType, got: record.version, negotiated: version))
            }
            var plaintext = record.fragment
            var detail: RecordCryptoDetail?
            if var protector = readProtector {
                do {
                    let d = try protector.open(contentType: record.contentType.rawValue,
                                               version: record.version.rawValue, fragment: record.fragment)
                    detail = d
                    plaintext = d.plaintext
                } catch {
                    throw .recordProtection(error)
                }
                readProtector = protector
                guard plaintext.count <= TLSRecord.maxPlaintextLength else {
                    throw .recordProtection(.recordOverflow(length: plaintext.count))
                }
            }
            events.append(.recordReceived(RecordTrace(contentType: record.contentType, version: record.version,
                                                      plaintext: plaintext, wire: record.encoded, crypto: detail)))
            if reassembler.hasPartialMessage && record.contentType != .handshake {
                throw .inappropriateMessage(expected: .restOfHandshakeMessage, got: .content(record.contentType))
            }
            try IncomingLimits.count(emptyRecord: plaintext.isEmpty, &consecutiveEmptyRecords)
            // As OpenSSL: only a non-empty record that is not an alert ends a run of warnings, so empty
            // records between them (each within its own limit) cannot keep a warning flood going.
            if record.contentType != .alert && !plaintext.isEmpty { consecutiveWarningAlerts = 0 }
            switch record.contentType {
            case .handshake:
                guard !plaintext.isEmpty else {
                    throw .invalidMessage(.malformed(field: "record.length", reason: .zeroLengthFragment(.handshake)))
                }
                reassembler.append(plaintext)
                do {
                    queued += try reassembler.drain()
                } catch {
                    throw .invalidMessage(error)
                }
                if !queued.isEmpty { return .handshake(queued.removeFirst()) }
            case .changeCipherSpec:
                try IncomingContent.checkChangeCipherSpec(plaintext)
                return .changeCipherSpec
            case .alert:
                let alert = try IncomingContent.decodeAlert(plaintext)
                try IncomingLimits.check(alert, &consecutiveWarningAlerts)
                return .alert(alert)
            case .applicationData:
                return .applicationData(plaintext)
            default:
                throw .invalidMessage(.unexpectedContentType(record.contentType.rawValue))
            }
        }
    }

    /// Bytes received that do not yet make a whole record or a whole handshake message.
    var bufferedIncomingByteCount: Int { reader.bufferedByteCount + reassembler.bufferedByteCount }

    /// The peer stopped sending (TCP end of stream, or the caller's timeout) before the handshake
    /// finished. RFC 5246 gives no alert for this case, so TLSLab picks the closest one:
    /// - bytes of a record or handshake message are buffered: the last length read promised bytes
    ///   that never came, which is decode_error (§7.2.2: "the length of the message was incorrect");
    /// - nothing is buffered: the peer simply stopped in the middle of the handshake, so the
    ///   security parameters cannot be agreed: handshake_failure (§7.2.2).
    /// OpenSSL reports "unexpected eof while reading" here; over a closed TCP stream its alert may
    /// never be delivered, but the trace shows which one the engine chose and why.
    mutating func endOfStreamError(state: TLSStateName) -> TLSError {
        let buffered = bufferedIncomingByteCount
        events.append(.endOfStream(state: state, bufferedBytes: buffered))
        if buffered > 0 {
            return .peerMisbehaved(.truncated(state: state, bufferedBytes: buffered))
        }
        return .peerIncompatible(.handshakeIncomplete(state: state))
    }

    /// True while whole messages of an earlier record are still waiting.
    var hasQueuedHandshake: Bool { !queued.isEmpty }

    /// The peer's ChangeCipherSpec: its records now use `pending` from sequence number 0.
    mutating func activateReadKeys(_ pending: PendingProtection) {
        readProtector = pending.protector
        reader.isProtected = true
        events.append(.changeCipherSpecReceived)
        events.append(.keysActivated(direction: .read, suite: pending.suite))
    }

    // MARK: - Key schedule (RFC 5246 §6.3, §7.4.9, §8.1; RFC 7627)

    mutating func transcriptHash(_ purpose: String) throws(TLSError) -> [UInt8] {
        do {
            let hash = try transcript.current()
            events.append(.derived(.transcriptHash(purpose: purpose, transcriptLength: transcript.bytes.count, hash: hash)))
            return hash
        } catch {
            throw .internalError(.keySchedule(error))
        }
    }

    /// The master secret: extended (session hash of ClientHello…ClientKeyExchange) when both
    /// sides agreed to it, else from the two randoms; `suite` is the one the hellos fixed.
    mutating func deriveMasterSecret(preMasterSecret: [UInt8], suite: CipherSuiteParameters) throws(TLSError) -> HandshakeSecret {
        let schedule = keySchedule
        let master: [UInt8], label: String, seed: [UInt8]
        if extendedMasterSecret {
            seed = try transcriptHash("session_hash (RFC 7627: ClientHello … ClientKeyExchange)")
            label = KeySchedule.Label.extendedMasterSecret
            master = schedule.extendedMasterSecret(preMasterSecret: preMasterSecret, sessionHash: seed)
        } else {
            seed = clientRandom + serverRandom
            label = KeySchedule.Label.masterSecret
            do {
                master = try schedule.masterSecret(preMasterSecret: preMasterSecret, clientRandom: clientRandom,
                                                   serverRandom: serverRandom)
            } catch {
                throw .internalError(.keySchedule(error))
            }
        }
        events.append(.derived(.masterSecret(preMasterSecret: preMasterSecret, label: label, seed: seed,
                                             prf: prf, masterSecret: master)))
        masterSecret = master
        return HandshakeSecret(masterSecret: master, suite: suite)
    }

    /// The resumed session's master secret (RFC 5246 §7.3), on the suite the hellos fixed.
    mutating func resumeMasterSecret(_ master: [UInt8], suite: CipherSuiteParameters) -> HandshakeSecret {
        masterSecret = master
        return HandshakeSecret(masterSecret: master, suite: suite)
    }

    /// The key block, cut and turned into the two record protectors the ChangeCipherSpecs will
    /// switch on: `write` this side's, `read` the peer's.
    mutating func deriveKeys(_ secret: HandshakeSecret) throws(TLSError) -> (read: PendingProtection, write: PendingProtection) {
        let protection: ConnectionProtection
        do {
            protection = try ConnectionProtection(version: version, suite: secret.suite, masterSecret: secret.masterSecret,
                                                  clientRandom: clientRandom,
                                                  serverRandom: serverRandom, encryptThenMAC: encryptThenMAC)
        } catch {
            switch error {
            case .keySchedule(let e): throw .internalError(.keySchedule(e))
            case .recordProtection(let e): throw .recordProtection(e)
            }
        }
        events.append(.derived(.keyBlock(seed: serverRandom + clientRandom, prf: protection.prf, keyBlock: protection.keyBlockBytes,
                                         keys: protection.keys)))
        keyBlock = protection.keys
        return (read: PendingProtection(protector: protection.writing(role.peer), suite: secret.suite.suite),
                write: PendingProtection(protector: protection.writing(role), suite: secret.suite.suite))
    }

    /// verify_data for `sender` over the transcript so far (RFC 5246 §7.4.9).
    mutating func verifyData(sender: TLSRole, _ secret: HandshakeSecret) throws(TLSError) -> [UInt8] {
        let hash = try transcriptHash("\(sender) Finished")
        let s: KeySchedule.Sender = sender == .client ? .client : .server
        do {
            let data = try keySchedule.verifyData(masterSecret: secret.masterSecret, sender: s, handshakeHash: hash)
            events.append(.derived(.verifyData(sender: sender, label: s.finishedLabel, handshakeHash: hash, verifyData: data)))
            return data
        } catch {
            throw .internalError(.keySchedule(error))
        }
    }

    /// Sends our Finished.
    mutating func sendFinished(_ secret: HandshakeSecret) throws(TLSError) {
        let data = try verifyData(sender: role, secret)
        sendHandshake(.finished(Finished(verifyData: data)))
        try flush()
    }

    /// Checks the peer's Finished against the transcript before it (decrypt_error on mismatch).
    mutating func checkFinished(_ finished: Finished, raw: RawHandshakeMessage, _ secret: HandshakeSecret) throws(TLSError) {
        let expected = try verifyData(sender: role.peer, secret)
        var diff: UInt8 = expected.count == finished.verifyData.count ? 0 : 1
        for (a, b) in zip(expected, finished.verifyData) { diff |= a ^ b }
        guard diff == 0 else { throw .peerMisbehaved(.finishedMismatch) }
        transcript.append(raw.bytes)
    }

    /// Decodes a received message and records it (the caller decides when it enters the transcript).
    mutating func decode(_ raw: RawHandshakeMessage) throws(TLSError) -> HandshakeMessage {
        do {
            let message = try raw.decode(context: decodingContext)
            events.append(.handshakeReceived(message, bytes: raw.bytes))
            return message
        } catch {
            throw .invalidMessage(error)
        }
    }

    var keyExchangeInputs: KeyExchangeInputs {
        KeyExchangeInputs(clientRandom: clientRandom, serverRandom: serverRandom,
                          clientHelloVersion: clientHelloVersion, random: random)
    }
}
