import TLSCrypto

/// What a TLS 1.3 client and server share: the record layer (plaintext until keys exist, then
/// protected), the handshake reassembly, the transcript, the key schedule as it advances, and
/// the one function that changes state and says so.
struct TLS13Connection {
    let role: TLSRole
    let random: RandomSource
    private(set) var state: TLS13State
    var events: [TLS13Event] = []
    var output: [UInt8] = []
    var sent: [SentRecord] = []
    /// The peer's close_notify arrived: nothing after it is read (RFC 8446 §6.1).
    var peerClosed = false
    var sentCloseNotify = false

    var suite: TLS13CipherSuite?
    /// Every handshake message so far, headers included (RFC 8446 §4.4.1), in order.
    var transcript: [UInt8] = []
    var early: TLS13KeySchedule.Early?
    var handshake: TLS13KeySchedule.Handshake?
    var master: TLS13KeySchedule.Master?
    var clientHandshakeSecret: [UInt8] = []
    var serverHandshakeSecret: [UInt8] = []

    var reader = RecordReader()
    var reassembler = HandshakeReassembler()
    var readProtection: TLS13RecordProtector?
    var writeProtection: TLS13RecordProtector?
    /// The secrets behind the current keys and how many KeyUpdates moved them.
    var readSecret: (name: TLS13Secret, value: [UInt8], generation: Int)?
    var writeSecret: (name: TLS13Secret, value: [UInt8], generation: Int)?
    /// The peer's first bytes may be a dummy ChangeCipherSpec; once is allowed (RFC 8446 §5).
    var changeCipherSpecSeen = false
    /// A protected record from the peer was opened: from then on every record must be protected.
    var peerProtectedRecordSeen = false
    /// The tickets this side received (a client) after the handshake, with their PSKs (§4.6.1).
    var tickets: [TLS13ResumptionTicket] = []
    /// The resumption_psk step of each kept ticket, in the same order (outside the key schedule's own
    /// steps, so that they go with the tickets they belong to).
    var ticketSteps: [TLS13KeyScheduleStep] = []
    /// A server's reading of the client's 0-RTT records (RFC 8446 §4.2.10).
    var earlyRead: TLS13EarlyRead = .none
    /// KeyUpdates read since the peer's last application data (``maximumConsecutiveKeyUpdates``).
    var consecutiveKeyUpdates = 0
    /// This side answered an update_requested and has sent nothing since: further requests get no
    /// second answer (RFC 8446 §4.6.3).
    var answeredKeyUpdateSilently = false
    /// Empty application_data records read in a row: TLS 1.3 allows them (§5.1, unlike empty
    /// handshake and alert records), so they are bounded as TLS 1.2's are (``IncomingLimits``).
    var consecutiveEmptyRecords = 0

    /// The tickets a client keeps from one connection, the newest (RFC 8446 §4.6.1 lets a server
    /// send several; one is enough to resume, and a peer that sends without end is not remembered).
    static let ticketsKept = 8
    /// KeyUpdates read in a row without application data between them before the connection ends
    /// (unexpected_message): 32, BoringSSL's kMaxKeyUpdates. A peer that updates its keys for real
    /// sends data between updates; one that only sends KeyUpdates makes this side derive keys and
    /// answer without end.
    static let maximumConsecutiveKeyUpdates = 32

    init(role: TLSRole, random: RandomSource, state: TLS13State) {
        self.role = role
        self.random = random
        self.state = state
    }

    var hash: TLS13Hash { suite?.hash ?? .sha256 }
    var transcriptHash: [UInt8] { hash.digest(transcript) }

    /// The one place the state changes.
    mutating func enter(_ next: TLS13State) {
        events.append(.stateChanged(from: state, to: next))
        state = next
    }

    mutating func takeStep() -> TLS13Step {
        defer { events = []; output = []; sent = [] }
        return TLS13Step(output: output, events: events, sent: sent)
    }

    // MARK: Sending

    /// Encodes a handshake message (type, uint24 length, body), adds it to the transcript and sends it.
    mutating func sendHandshake(_ type: HandshakeType, body: [UInt8]) throws(TLS13Failure) {
        let bytes = Self.handshakeBytes(type, body)
        transcript += bytes
        events.append(.handshakeSent(type, bytes: bytes))
        try send(.handshake, bytes)
    }

    static func handshakeBytes(_ type: HandshakeType, _ body: [UInt8]) -> [UInt8] {
        var w = ByteWriter()
        type.encode(to: &w)
        w.writeOpaque(body, lengthBytes: 3)
        return w.bytes
    }

    /// One record of `type`, protected when write keys exist. The first ClientHello's record says
    /// 03 01 for servers that reject a higher record version (RFC 8446 §5.1); the rest 03 03.
    mutating func send(_ type: ContentType, _ content: [UInt8], recordVersion: ProtocolVersion = .tls12) throws(TLS13Failure) {
        if var protection = writeProtection {
            do {
                let detail = try protection.seal(contentType: type, content: content)
                writeProtection = protection
                events.append(.recordSealed(detail))
                output += detail.record
                sent.append(SentRecord(record: TLSRecord(contentType: .applicationData, version: .tls12, fragment: Array(detail.record.dropFirst(TLSRecord.headerLength))),
                                       isProtected: true, carries: [Self.carried(type, content)]))
            } catch {
                throw .record(error)
            }
        } else {
            let record = TLSRecord(contentType: type, version: recordVersion, fragment: content)
            output += record.encoded
            sent.append(SentRecord(record: record, isProtected: false, carries: [Self.carried(type, content)]))
        }
    }

    /// What one record's content is, for the trace (one message, alert or piece of data a record).
    static func carried(_ type: ContentType, _ content: [UInt8]) -> CarriedContent {
        let piece: CarriedContent.Content
        switch type {
        case .handshake: piece = .handshake(HandshakeMessage.tls13(content), bytes: content)
        case .alert:
            var r = ByteReader(content)
            piece = (try? Alert(from: &r)).map { .alert($0) } ?? .applicationData
        case .changeCipherSpec: piece = .changeCipherSpec
        default: piece = .applicationData
        }
        return CarriedContent(content: piece, range: 0..<content.count, completesMessage: true)
    }

    /// The middlebox-compatibility ChangeCipherSpec: one plaintext record 14 03 03 00 01 01.
    mutating func sendCompatibilityChangeCipherSpec() {
        let record = TLSRecord(contentType: .changeCipherSpec, version: .tls12, fragment: [1])
        output += record.encoded
        sent.append(SentRecord(record: record, isProtected: false, carries: [Self.carried(.changeCipherSpec, [1])]))
        events.append(.changeCipherSpecSent)
    }

    mutating func sendAlert(_ failure: TLS13Failure) {
        let alert = Alert.fatal(failure.alert)
        events.append(.failed(failure))
        var w = ByteWriter()
        alert.encode(to: &w)
        try? send(.alert, w.bytes)
        events.append(.alertSent(alert))
        enter(.closed)
    }

    /// close_notify (RFC 8446 §6.1): this side will write nothing more. Unlike TLS 1.2, the peer
    /// need not answer at once; it closes its own write side when it is done.
    mutating func close() -> TLS13Step {
        if state != .closed, !sentCloseNotify {
            sentCloseNotify = true
            let alert = Alert(level: .warning, description: .closeNotify)
            var w = ByteWriter()
            alert.encode(to: &w)
            try? send(.alert, w.bytes)
            events.append(.alertSent(alert))
            // The read side stays open for the peer's own close_notify.
            if peerClosed { enter(.closed) }
        }
        return takeStep()
    }

    /// The driver gave up waiting for the peer mid-handshake: user_canceled (RFC 8446 §6.1: "This
    /// alert should be followed by a close_notify"), then close_notify; once connected, close_notify alone.
    mutating func cancel() -> TLS13Step {
        if state != .connected, state != .closed, !sentCloseNotify {
            let alert = Alert(level: .warning, description: .userCanceled)
            var w = ByteWriter()
            alert.encode(to: &w)
            try? send(.alert, w.bytes)
            events.append(.alertSent(alert))
        }
        return close()
    }

    // MARK: Keys

    /// `suite`: the suite of the keys when the handshake has not chosen one yet (0-RTT keys use the
    /// ticket's suite, RFC 8446 §4.2.10).
    mutating func install(_ direction: TLS13KeyDirection, secret name: TLS13Secret, _ secret: [UInt8], generation: Int = 0,
                          suite chosen: TLS13CipherSuite? = nil) throws(TLS13Failure) {
        guard let suite = chosen ?? suite else { throw .internalError }
        // §5.1: a message that precedes a change of the read key ends its record; the next message
        // must come under the new key, so bytes left after it in the same record are refused.
        if direction == .read, reassembler.hasPartialMessage { throw .handshakeDataAfterKeyChange }
        let keys = TLS13TrafficKeys(secret: secret, hash: suite.hash, keyLength: suite.aead.keyLength)
        let protector: TLS13RecordProtector
        do { protector = try TLS13RecordProtector(aead: suite.aead, keys: keys) } catch { throw .record(error) }
        switch direction {
        case .read:
            readProtection = protector; readSecret = (name, secret, generation)
            // From now on the peer's records are encrypted_records: the reader's length limit is the
            // protected one, and the record protector checks §5.2's 2^14 + 256 (record_overflow).
            reader.isProtected = true
        case .write: writeProtection = protector; writeSecret = (name, secret, generation)
        }
        events.append(.trafficKeysInstalled(direction, secret: name, generation: generation, keys: keys, secretValue: secret, hash: suite.hash))
    }

    /// Messages after the handshake (§4.6), outside the transcript: a NewSessionTicket is noted;
    /// a KeyUpdate moves the read keys to application_traffic_secret_N+1 and, when asked, this
    /// side's write keys too, after telling the peer (§4.6.3).
    mutating func postHandshake(_ message: RawHandshakeMessage) throws(TLS13Failure) {
        events.append(.handshakeReceived(message.type, bytes: message.bytes))
        switch message.type {
        case .newSessionTicket where role == .client:
            var r = ByteReader(message.body)
            let message: TLS13NewSessionTicket
            do { message = try TLS13NewSessionTicket(from: &r); try r.expectEnd(field: "NewSessionTicket") } catch { throw .decode(error) }
            guard message.lifetime <= TLS13NewSessionTicket.maximumLifetime else { throw .illegalParameter(.ticketLifetimeTooLong) }
            // §4.6.1: the PSK is derived, never sent: resumption_master_secret and the ticket's nonce.
            // Derived here without adding to the key schedule's own steps, so each ticket costs the
            // same however many came before it.
            guard let suite, let step = master?.resumptionPSKStep(ticketNonce: message.nonce) else { throw .internalError }
            let ticket = TLS13ResumptionTicket(message: message, psk: step.value, suite: suite)
            events.append(.newSessionTicketReceived(ticket))
            events.append(.keySchedule(step))
            // §4.6.1: "The value of zero indicates that the ticket should be discarded immediately."
            guard message.lifetime > 0 else {
                events.append(.ticketDiscardedAtOnce)
                return
            }
            tickets.append(ticket)
            ticketSteps.append(step)
            if tickets.count > Self.ticketsKept {
                tickets.removeFirst()
                ticketSteps.removeFirst()
                events.append(.oldestTicketDropped(kept: Self.ticketsKept))
            }
        case .keyUpdate:
            // §4.6.3: KeyUpdate is one byte; another length is a malformed message (§6.2: decode_error).
            var r = ByteReader(message.body)
            let request: UInt8
            do { request = try Self.readKeyUpdate(from: &r) } catch { throw .decode(error) }
            guard request <= 1 else { throw .illegalParameter(.keyUpdateRequestInvalid) }
            guard let read = readSecret else { throw .internalError }
            consecutiveKeyUpdates += 1
            guard consecutiveKeyUpdates <= Self.maximumConsecutiveKeyUpdates else {
                throw .tooManyKeyUpdates(limit: Self.maximumConsecutiveKeyUpdates)
            }
            let requested = message.body[0] == 1
            events.append(.keyUpdateReceived(updateRequested: requested))
            try install(.read, secret: read.name, hash.nextApplicationTrafficSecret(read.value), generation: read.generation + 1)
            // §4.6.3: one answer to the requests that arrive while this side has sent nothing since its last.
            if requested && !answeredKeyUpdateSilently {
                try sendKeyUpdate(requestUpdate: false)
                answeredKeyUpdateSilently = true
            }
        default:
            throw .unexpectedMessage(message.type, in: state)
        }
    }

    /// Application data under the traffic keys, once connected; the step that says what was sent.
    mutating func sendApplicationData(_ data: [UInt8]) -> TLS13Step {
        // A server may write after its first flight, before the client's Finished (0.5-RTT, RFC 8446 §4.4.4).
        let halfRoundTrip = role == .server && writeSecret?.name == .serverApplicationTrafficSecret0
            && (state == .waitEndOfEarlyData || state == .waitClientFinished)
        if state == .connected || halfRoundTrip, !sentCloseNotify {
            answeredKeyUpdateSilently = false
            events.append(.applicationDataSent(data))
            do { try send(.applicationData, data) } catch { sendAlert(error) }
        }
        return takeStep()
    }

    mutating func updateKeys(requestUpdate: Bool) -> TLS13Step {
        answeredKeyUpdateSilently = false
        do { try sendKeyUpdate(requestUpdate: requestUpdate) } catch { sendAlert(error) }
        return takeStep()
    }

    /// Sends KeyUpdate under the current write key, then moves that key on (§4.6.3, §7.2).
    mutating func sendKeyUpdate(requestUpdate: Bool) throws(TLS13Failure) {
        guard state == .connected, let write = writeSecret else { throw .internalError }
        let bytes = Self.handshakeBytes(.keyUpdate, [requestUpdate ? 1 : 0])
        events.append(.handshakeSent(.keyUpdate, bytes: bytes))
        try send(.handshake, bytes)
        events.append(.keyUpdateSent(updateRequested: requestUpdate))
        try install(.write, secret: write.name, hash.nextApplicationTrafficSecret(write.value), generation: write.generation + 1)
    }

    /// Records the key-schedule steps taken since `count`.
    mutating func note(_ steps: [TLS13KeyScheduleStep], after count: Int) {
        for step in steps.dropFirst(count) { events.append(.keySchedule(step)) }
    }

    // MARK: Receiving

    /// The next whole handshake message, reading and opening records as needed; nil when more
    /// bytes are needed. Application data and alerts are handled here.
    mutating func nextMessage() throws(TLS13Failure) -> RawHandshakeMessage? {
        do {
            if let message = try reassembler.next() { return message }
        } catch { throw .decode(error) }
        while !peerClosed {
            let record: TLSRecord?
            do { record = try reader.next() } catch { throw .decode(error) }
            guard let record else { return nil }
            if record.contentType == .changeCipherSpec {
                // §5: a single 01 ChangeCipherSpec before the peer's Finished is ignored, anything else is fatal.
                guard record.fragment == [1], state != .connected, !changeCipherSpecSeen else {
                    throw .unexpectedRecord(.changeCipherSpec, in: state)
                }
                changeCipherSpecSeen = true
                events.append(.changeCipherSpecReceived)
                continue
            }
            var type = record.contentType
            var content = record.fragment
            // A client that fails on the server's flight may still write in the clear: its alerts go out
            // "as specified by the current connection state" (RFC 8446 §6), and its write keys change
            // only with its own flight. So, until the first protected record from the client, a server
            // reads a plaintext alert (OpenSSL's server does the same).
            let plaintextAlert = role == .server && record.contentType == .alert && !peerProtectedRecordSeen
            // Rejected 0-RTT records before any read key (after a HelloRetryRequest) are skipped (§4.2.10).
            if readProtection == nil, skipEarlyRecord(record) { continue }
            if !plaintextAlert, var protection = readProtection {
                guard record.contentType == .applicationData else { throw .unexpectedRecord(record.contentType, in: state) }
                let detail: TLS13RecordDetail
                do { detail = try protection.open(encryptedRecord: record.fragment, version: record.version) } catch {
                    // §4.2.10: a rejected 0-RTT record fails with the handshake key and is discarded.
                    if skipEarlyRecord(record) { continue }
                    throw .record(error)
                }
                if case .skipping = earlyRead { earlyRead = .none }
                readProtection = protection
                peerProtectedRecordSeen = true
                events.append(.recordOpened(detail))
                type = detail.contentType
                content = detail.content
                // §5.4: a protected Handshake or Alert record with a zero-length TLSInnerPlaintext.content
                // MUST be answered with unexpected_message.
                if content.isEmpty, type == .handshake || type == .alert { throw .emptyProtectedRecord(type) }
                if type == .applicationData, content.isEmpty {
                    consecutiveEmptyRecords += 1
                    guard consecutiveEmptyRecords <= IncomingLimits.maximumConsecutiveEmptyRecords else {
                        throw .tooManyEmptyRecords(limit: IncomingLimits.maximumConsecutiveEmptyRecords)
                    }
                } else {
                    consecutiveEmptyRecords = 0
                }
            }
            switch type {
            case .handshake:
                guard !content.isEmpty else { throw .emptyHandshakeRecord }
                reassembler.append(content)
                do {
                    if let message = try reassembler.next() { return message }
                } catch { throw .decode(error) }
            case .alert:
                var r = ByteReader(content)
                let alert: Alert
                do { alert = try Alert(from: &r); try r.expectEnd(field: "alert") } catch { throw .decode(error) }
                // §6: the levels are warning(1) and fatal(2); another is refused as TLS 1.2's engine
                // refuses it before the version is known (illegal_parameter).
                guard alert.level == .warning || alert.level == .fatal else { throw .illegalParameter(.alertLevelUndefined) }
                events.append(.alertReceived(alert))
                if alert.alertDescription == .closeNotify, !alert.isFatal {
                    // §6.1: no more data comes; this side may still write until it closes.
                    peerClosed = true
                    if sentCloseNotify { enter(.closed) }
                    return nil
                }
                enter(.closed)
                return nil
            case .applicationData where state == .connected:
                consecutiveKeyUpdates = 0
                events.append(.applicationDataReceived(content))
            case .applicationData where state == .waitEndOfEarlyData:
                try receiveEarlyData(content)
            default:
                throw .unexpectedRecord(type, in: state)
            }
        }
        return nil
    }

    /// Adds a received message to the transcript and the trace.
    mutating func received(_ message: RawHandshakeMessage) {
        transcript += message.bytes
        events.append(.handshakeReceived(message.type, bytes: message.bytes))
    }

    // MARK: Pieces both sides compute

    /// The curve of a key share's group (the same table as TLS 1.2's ECDHE).
    static func curve(for group: NamedGroup) -> ECDHCurve? { ECDHEKeyExchange.curve(for: group) }

    mutating func sharedSecret(_ pair: ECDHKeyPair, group: NamedGroup, peer: [UInt8]) throws(TLS13Failure) -> [UInt8] {
        guard let curve = Self.curve(for: group) else { throw .badKeyShare }
        do {
            try ECDHKeyPair.validatePeerPublicKey(peer, curve: curve)
            let secret = try pair.sharedSecret(peerPublicKey: peer)
            events.append(.sharedSecret(group: group, value: secret, privateKey: pair.privateKeyBytes, publicKey: pair.publicKeyBytes,
                                        peerPublicKey: peer))
            return secret
        } catch {
            throw .badKeyShare
        }
    }

    /// The schemes TLS 1.3 allows in CertificateVerify (§4.2.3, §4.4.3): RSA only as PSS, ECDSA
    /// only with its own curve's hash — the PKCS#1 v1.5 and mixed pairs TLS 1.2 allowed are gone.
    static var schemes: [SignatureScheme] { TLS13SignatureSchemes.offered }

    /// The scheme a key signs with: its curve's for ECDSA, RSA-PSS with SHA-256 for RSA.
    static func scheme(for key: SigningKey) -> SignatureScheme {
        switch key {
        case .rsa: return .rsaPSSRSAESHA256
        case .ecdsa(let k): return ecdsaScheme(k.curve.name)
        case .ed25519: return .ed25519
        }
    }

    /// RFC 8446 §4.2.3 pairs each ECDSA curve with one hash.
    static func ecdsaScheme(_ curve: ECDSACurve.Name) -> SignatureScheme {
        switch curve {
        case .p256: return .ecdsaSECP256r1SHA256
        case .p384: return .ecdsaSECP384r1SHA384
        case .p521: return .ecdsaSECP521r1SHA512
        }
    }

    func sign(_ content: [UInt8], with key: SigningKey, scheme: SignatureScheme) throws(TLS13Failure) -> [UInt8] {
        do { return try SignatureSchemes.sign(content, scheme: scheme, key: key, random: random) } catch { throw .internalError }
    }

    /// Verifies a CertificateVerify signature with the leaf's key, refusing what TLS 1.3 forbids.
    static func verify(_ signature: [UInt8], over content: [UInt8], scheme: SignatureScheme, key: VerificationKey) -> Bool {
        guard schemes.contains(scheme) else { return false }
        if case .ecdsa(let k) = key, scheme != ecdsaScheme(k.curve) { return false }
        return SignatureSchemes.verify(signature, data: content, scheme: scheme, key: key)
    }

    /// The Finished message for the base key `name` (`baseKey` its value) over the transcript so
    /// far, recorded with what it came from.
    mutating func finishedBody(_ name: TLS13Secret, baseKey: [UInt8]) -> [UInt8] {
        let mac = TLS13FinishedMAC(hash: hash, baseKey: name, baseKeyValue: baseKey, transcriptHash: transcriptHash)
        events.append(.finishedComputed(mac))
        return mac.verifyData
    }

    /// Checks the peer's Finished against the value over the transcript before it.
    mutating func checkFinished(_ message: RawHandshakeMessage, _ name: TLS13Secret, baseKey: [UInt8]) throws(TLS13Failure) {
        let expected = finishedBody(name, baseKey: baseKey)
        // §4.4.4: verify_data is Hash.length bytes; a Finished of another length is malformed (§6.2: decode_error).
        var r = ByteReader(message.body)
        do { _ = try Self.readVerifyData(from: &r, length: expected.count) } catch { throw .decode(error) }
        events.append(.finishedChecked(expected: expected, received: message.body))
        guard constantTimeEqual(message.body, expected) else { throw .verificationFailed }
    }

    /// Reads the body of a CertificateVerify: SignatureScheme, then opaque signature<0..2^16-1>.
    static func certificateVerify(_ body: [UInt8]) throws(TLS13Failure) -> (SignatureScheme, [UInt8]) {
        var r = ByteReader(body)
        do { return try readCertificateVerify(from: &r) } catch { throw .decode(error) }
    }

    static func certificateVerifyBody(scheme: SignatureScheme, signature: [UInt8]) -> [UInt8] {
        var w = ByteWriter()
        scheme.encode(to: &w)
        w.writeOpaque(signature, lengthBytes: 2)
        return w.bytes
    }
}

func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
    guard a.count == b.count else { return false }
    var difference: UInt8 = 0
    for i in a.indices { difference |= a[i] ^ b[i] }
    return difference == 0
}

/// The signature schemes TLS 1.3 allows in CertificateVerify and TLSLab implements (RFC 8446
/// §4.2.3, §4.4.3): ECDSA with its curve's hash, RSA-PSS with an rsaEncryption key.
public enum TLS13SignatureSchemes {
    public static let offered: [SignatureScheme] = [.ecdsaSECP256r1SHA256, .ecdsaSECP384r1SHA384, .ecdsaSECP521r1SHA512, .ed25519,
                                                    .rsaPSSRSAESHA256, .rsaPSSRSAESHA384]
}

/// A client or a server: its connection and how its state takes one handshake message. The loop
/// that reads records, opens them and hands each whole message over is the same for both.
protocol TLS13Side {
    var connection: TLS13Connection { get set }
    mutating func handle(_ message: RawHandshakeMessage) throws(TLS13Failure)
}

extension TLS13Side {
    /// Reads `bytes`, handles every whole message until the state closes; a failure sends its alert.
    mutating func receiveMessages(_ bytes: [UInt8]) -> TLS13Step {
        guard connection.state != .closed else { return connection.takeStep() }
        connection.reader.append(bytes)
        do {
            while connection.state != .closed, let message = try connection.nextMessage() {
                try handle(message)
            }
        } catch {
            connection.sendAlert(error)
        }
        return connection.takeStep()
    }
}
