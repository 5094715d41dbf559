/// The state of one dissection: the cursor plus what the bytes so far have negotiated.
///
/// The cursor keeps the offsets of the framing (records, messages, fragments); every header and every
/// message or record body is read by the engine's readers (``RecordHeader``, ``HandshakeMessage``'s
/// header, the codec, the content checks) with a recorder on their reader.
/// Every verdict on the bytes (is this length allowed, is this record acceptable, which alert) is the
/// engine's: each whole record goes to the engine's `RecordReader`, each message header to its
/// `HandshakeReassembler`, and the error they or the codec throw is attached, typed, to the field it
/// names (``DissectionNote/refused(_:)``).
final class DissectionSession {
    let cursor: FieldCursor
    var context: HandshakeDecodingContext
    var cipherSuite: CipherSuite?
    /// True when encrypt-then-MAC (RFC 7366) is in effect: given, or seen in a ServerHello with a CBC suite.
    var encryptThenMAC: Bool
    var encrypted = false
    /// The error a receiver's content check (ChangeCipherSpec, alert) threw on the last record's fragment.
    var contentVerdict: TLSError?
    var reassembled: [DissectedField] = []
    /// Bytes of a handshake message that spans records, and the records it came from.
    var pendingHandshake: [UInt8] = []
    var pendingRecords: [Int] = []

    init(bytes: [UInt8], context: HandshakeDecodingContext, cipherSuite: CipherSuite?, encryptThenMAC: Bool = false) {
        cursor = FieldCursor(bytes: bytes)
        self.context = context
        self.cipherSuite = cipherSuite
        self.encryptThenMAC = encryptThenMAC
    }

    typealias Stop = DissectionStop

    // MARK: Records (RFC 5246 §6.2.1)

    func records() {
        var index = 0
        while !cursor.isAtLimit {
            let stopped = record(index: index)
            index += 1
            if stopped { break }
        }
    }

    /// Dissects one record; returns true when the input ends inside it.
    private func record(index: Int) -> Bool {
        var stopped = false
        let start = cursor.position
        let typeValue: FieldValue = cursor.isAtLimit ? .none : FieldCursor.label(ContentType(rawValue: cursor.bytes[cursor.position]))
        var declared: Int?
        var recordType: ContentType?
        contentVerdict = nil
        cursor.guarded { () throws(Stop) in
            try cursor.group("record[\(index)]", value: typeValue) { () throws(Stop) in
                // The engine's reading of the header (RFC 5246 §6.2.1), recorded; its checks are judgeRecord's.
                let header = try readHeader { (r: inout ByteReader) throws(DecodeError) in try RecordHeader.readFields(from: &r) }
                let (type, length) = (header.contentType, header.length)
                recordType = type
                declared = length
                let truncated = length > cursor.remaining
                if !type.isTLS12Defined {
                    try cursor.group("fragment", length: length) { () throws(Stop) in try cursor.rest("fragment") }
                } else if length > 0 {
                    try cursor.group("fragment", value: .fragment(length: length), length: length) { () throws(Stop) in
                        cursor.guarded { fragment(type: type, recordIndex: index, truncated: truncated) }
                    }
                }
                if truncated { stopped = true }
            }
        }
        judgeRecord(start: start, declared: declared, type: recordType)
        return stopped
    }

    /// The engine's verdict on one record (RFC 5246 §6.2.1): its `RecordReader` on the header and
    /// fragment, then, for a whole record in the clear, the content checks a receiver makes.
    private func judgeRecord(start: Int, declared: Int?, type: ContentType?) {
        func on(_ name: String, at offset: Int) -> (DissectedField) -> Bool {
            { $0.name == name && $0.offset == offset }
        }
        var reader = RecordReader()
        // RFC 8446 §5.2: in TLS 1.3 every application_data record after the ServerHello is protected.
        reader.isProtected = encrypted || (isTLS13 && type == .applicationData)
        let end = min(start + TLSRecord.headerLength + (declared ?? 0), cursor.bytes.count)
        reader.append(cursor.bytes[start ..< end])
        let record: TLSRecord?
        do {
            record = try reader.next()
        } catch {
            let field: (DissectedField) -> Bool
            switch error {
            case .malformed(_, .recordMajorVersion): field = on("version", at: start + 1)
            case .recordOverflow, .malformed(_, .zeroLengthFragment): field = on("length", at: start + 3)
            default: field = on("type", at: start)
            }
            attach(.invalidMessage(error), to: field)
            return
        }
        // RFC 5246 §7.4: nothing may come between the fragments of a handshake message.
        if let type, type != .handshake, !pendingHandshake.isEmpty, type.isTLS12Defined {
            attach(.inappropriateMessage(expected: .restOfHandshakeMessage, got: .content(type)), to: on("type", at: start))
        }
        // The content checks ran on the fragment as it was dissected (`fragment`); for a whole record
        // in the clear, their error is the engine's verdict.
        guard record != nil, let error = contentVerdict else { return }
        let fragmentStart = start + TLSRecord.headerLength
        let trailing: (DissectedField) -> Bool = { $0.name == "trailing_bytes" }
        switch error {
        case .peerMisbehaved(.malformedChangeCipherSpec(.length)), .invalidMessage(.trailingBytes):
            attach(error, to: trailing)
        case .peerMisbehaved(.undefinedAlertLevel): attach(error, to: on("level", at: fragmentStart))
        case .invalidMessage(.truncated): attach(error, to: { $0.name == "description" })
        default: attach(error, to: on("type", at: fragmentStart))
        }
    }

    /// Adds the engine's verdict to the last top-level field (a record or a message), on the field
    /// under it that `field` picks, else on that field itself.
    func attach(_ error: TLSError, to field: (DissectedField) -> Bool) { attach(note: .refused(error), to: field) }

    func attach(note: DissectionNote, to field: (DissectedField) -> Bool) {
        if !cursor.annotateLast(note, where: field) { cursor.annotateLast(note) }
    }

    /// Reads a header where the cursor is with the engine's reader (`read`), recording its fields; the
    /// input ending inside it stops the dissection there (the field carries the note).
    func readHeader<T>(_ read: (inout ByteReader) throws(DecodeError) -> T) throws(Stop) -> T {
        var reader = ByteReader(bytes: cursor.bytes, start: cursor.position, end: cursor.limit,
                                recorder: FieldRecorder(cursor: cursor, base: 0))
        do { return try read(&reader) } catch { throw Stop() }
    }

    /// Runs a receiver's content check on the rest of the fragment with a recorder; returns its error.
    private func content(_ check: (FieldRecorder) throws(TLSError) -> Void) -> TLSError? {
        let start = cursor.position
        let recorder = FieldRecorder(cursor: cursor, base: start)
        defer { cursor.skipRest() }
        do { try check(recorder) } catch { return error }
        return nil
    }

    private func fragment(type: ContentType, recordIndex: Int, truncated: Bool) {
        let fragment = Array(cursor.bytes[cursor.position ..< cursor.limit])
        cursor.guarded { () throws(Stop) in
            if isTLS13, type == .applicationData {
                try tls13ProtectedRecord()
                return
            }
            if encrypted {
                try protectedFragment(type: type)
                return
            }
            switch type {
            case .handshake:
                try handshakeFragment(recordIndex: recordIndex, truncated: truncated)
            case .changeCipherSpec:
                // RFC 5246 §7.1, read by the receiver's own check.
                contentVerdict = content { (recorder: FieldRecorder) throws(TLSError) in try IncomingContent.checkChangeCipherSpec(fragment, recorder: recorder) }
                if isTLS13 {
                    // RFC 8446 §5, Appendix D.4: it changes no keys; the records after it are protected
                    // because they are application_data after the ServerHello.
                    cursor.annotateLast(.compatibilityChangeCipherSpec) { $0.name == "type" }
                } else {
                    encrypted = true
                }
            case .alert:
                // RFC 5246 §7.2, read by the receiver's own decoder.
                contentVerdict = content { (recorder: FieldRecorder) throws(TLSError) in _ = try IncomingContent.decodeAlert(fragment, recorder: recorder) }
            default:
                try cursor.rest("application_data", value: { .sizedBytes(OpaqueBytes($0)) })
            }
        }
    }

    /// A record fragment protected with the keys set by ChangeCipherSpec (RFC 5246 §6.2.3).
    private func protectedFragment(type: ContentType) throws(Stop) {
        guard let parameters = cipherSuite?.parameters else {
            try cursor.rest("encrypted_fragment", notes: [.encrypted(type)])
            return
        }
        let cipher = parameters.cipher
        let ivLength = parameters.recordIVLength(version: context.version)
        if cipher == .chaCha20Poly1305 {
            // RFC 7905 §2: no explicit nonce (the sequence number XORed into the key block's IV).
            try cursor.rest("aead_ciphertext", notes: [.chaChaCiphertext])
        } else if cipher.isAEAD {
            // RFC 5246 §6.2.3.3 GenericAEADCipher; RFC 5288 §3: 8-byte explicit nonce.
            try cursor.leaf("nonce_explicit", count: ivLength) { .bytes(OpaqueBytes($0)) }
            try cursor.rest("aead_ciphertext", notes: [.gcmCiphertext])
        } else if encryptThenMAC {
            try encryptThenMACFragment(parameters: parameters, ivLength: ivLength)
        } else {
            // RFC 5246 §6.2.3.2 GenericBlockCipher: explicit IV (TLS 1.1+), then content ‖ MAC ‖ padding, encrypted.
            if ivLength > 0 { try cursor.leaf("IV", count: ivLength) { .bytes(OpaqueBytes($0)) } }
            try cursor.rest("block_ciphered", notes: [.blockCiphered])
        }
    }

    /// RFC 7366 §3: `IV ‖ ENC(content ‖ padding ‖ padding_length) ‖ MAC`, the MAC in the clear,
    /// computed over seq_num ‖ type ‖ version ‖ length (of IV and ciphertext) ‖ IV ‖ ciphertext. The
    /// fields are the record layer's division (``EncryptThenMACLayout``); a fragment it refuses as too
    /// short carries the record layer's own refusal (bad_record_mac).
    private func encryptThenMACFragment(parameters: CipherSuiteParameters, ivLength: Int) throws(Stop) {
        guard case .aesCBC(_, let mac) = parameters.recordCipher else {
            try cursor.rest("block_ciphered", notes: [.blockCiphered])
            return
        }
        let layout: EncryptThenMACLayout
        do {
            layout = try EncryptThenMACLayout(fragmentLength: cursor.remaining, explicitIV: ivLength > 0,
                                              blockLength: parameters.cipher.blockLength, mac: mac)
        } catch {
            try cursor.rest("encrypt_then_mac_fragment", notes: [.refused(.recordProtection(error))])
            return
        }
        if layout.ivLength > 0 { try cursor.leaf("IV", count: layout.ivLength) { .bytes(OpaqueBytes($0)) } }
        try cursor.leaf("ciphertext", count: layout.ciphertextLength, notes: [.encryptThenMACCiphertext]) { .bytes(OpaqueBytes($0)) }
        try cursor.leaf("MAC", count: mac.length, notes: [.encryptThenMACTag(mac: mac.name)]) { .text(Hex.string($0)) }
    }

    /// Handshake messages inside one record, following messages that span records. When the
    /// input ends inside this record, messages are read as far as the bytes go instead.
    private func handshakeFragment(recordIndex: Int, truncated: Bool) throws(Stop) {
        while !pendingHandshake.isEmpty, !cursor.isAtLimit {
            // Complete the header first, then the body.
            let need = pendingNeed() ?? (HandshakeMessage.headerLength - pendingHandshake.count)
            let take = min(need, cursor.remaining)
            let first = pendingRecords.first ?? recordIndex
            let piece = try cursor.leaf("handshake_fragment", count: take, notes: [.continuesMessage(fromRecord: first)]) {
                .bytes(OpaqueBytes($0))
            }
            pendingHandshake += piece
            if pendingRecords.last != recordIndex { pendingRecords.append(recordIndex) }
            finishPendingIfWhole()
        }
        while !cursor.isAtLimit {
            let remaining = cursor.remaining
            let announced = HandshakeMessage.announcedBodyLength(in: cursor.bytes[..<cursor.limit], at: cursor.position)
            if truncated || announced.map({ $0 + HandshakeMessage.headerLength <= remaining }) == true {
                try handshakeMessage()
                continue
            }
            let type = HandshakeType(rawValue: cursor.bytes[cursor.position])
            let note: DissectionNote = announced.map { .messageStarts(type, present: remaining, total: $0 + HandshakeMessage.headerLength) }
                ?? .headerStarts(type)
            pendingHandshake = try cursor.rest("handshake_fragment", notes: [note])
            pendingRecords = [recordIndex]
            judgeAnnouncedLength()
        }
    }

    /// The engine's reassembler refuses a message announcing a body over its limit as soon as the
    /// header is in (RFC 5246 §7.4 allows 2^24-1; a receiver buffers far less).
    private func judgeAnnouncedLength() {
        var reassembler = HandshakeReassembler()
        reassembler.append(pendingHandshake)
        do { _ = try reassembler.next() } catch {
            attach(.invalidMessage(error), to: { $0.name == "handshake_fragment" && $0.notes.contains { $0.kind == .messageStarts } })
        }
    }

    func pendingNeed() -> Int? {
        guard let length = HandshakeMessage.announcedBodyLength(in: pendingHandshake, at: 0) else { return nil }
        return length + HandshakeMessage.headerLength - pendingHandshake.count
    }

    private func finishPendingIfWhole() {
        guard let need = pendingNeed(), need <= 0 else { return }
        let inner = DissectionSession(bytes: pendingHandshake, context: context, cipherSuite: cipherSuite,
                                      encryptThenMAC: encryptThenMAC)
        inner.cursor.guarded { () throws(Stop) in try inner.handshakeMessage() }
        // One note for the message (a message cut into thousands of records once made this
        // fields × records); the renderer names a long run of records by its first and last.
        for var field in inner.cursor.fields {
            field.notes.insert(.reassembled(records: pendingRecords), at: 0)
            reassembled.append(field)
        }
        context = inner.context
        cipherSuite = inner.cipherSuite
        encryptThenMAC = inner.encryptThenMAC
        pendingHandshake = []
        pendingRecords = []
    }
}
