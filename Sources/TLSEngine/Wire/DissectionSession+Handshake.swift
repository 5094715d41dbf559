extension DissectionSession {

    // MARK: Handshake messages (RFC 5246 §7.4)

    /// One message: its header, then its body read by the engine's own codec
    /// (`HandshakeMessage.decodeBody`, with the context the hellos so far fixed) with a recorder on its
    /// reader, so every field shown is a read the engine makes, and the error the codec throws on a
    /// whole message is the engine's verdict, attached to the field it names. The reassembler judges
    /// the announced length. Throws when the input ends inside the message.
    func handshakeMessage() throws(Stop) {
        let start = cursor.position
        var end: Int?
        if cursor.remaining >= HandshakeMessage.headerLength,
           let announced = HandshakeMessage.announcedBodyLength(in: cursor.bytes[..<cursor.limit], at: start),
           start + HandshakeMessage.headerLength + announced <= cursor.limit {
            end = start + HandshakeMessage.headerLength + announced
        }
        let typeByte: UInt8? = cursor.isAtLimit ? nil : cursor.bytes[cursor.position]
        let type = HandshakeType(rawValue: typeByte ?? 0)
        var stop: Stop?
        var verdict: BodyVerdict?
        do {
            try cursor.group("handshake", value: FieldCursor.label(type)) { () throws(Stop) in
                // The engine's reading of the header (RFC 5246 §7.4), recorded; the reassembler judges it.
                let length = try readHeader { (r: inout ByteReader) throws(DecodeError) in try HandshakeMessage.readHeader(from: &r).length }
                let available = cursor.remaining
                verdict = body(type: type, length: length)
                if length > available { throw Stop() }
            }
        } catch { stop = error }
        // The reassembler reads the header before the codec reads the body: its refusal comes first.
        if !judgeHeader(start: start), end != nil, let verdict {
            switch verdict {
            case .decode(let error): attach(.invalidMessage(error), to: Self.field(named: error))
            case .tls13(let failure, let field): attach(note: .refusedInTLS13(failure), to: field)
            }
        }
        if let stop { throw stop }
    }

    /// What a receiver answers to a message body: the codec's error, or a TLS 1.3 rule the decoded
    /// message breaks (with the field that breaks it).
    enum BodyVerdict {
        case decode(DecodeError)
        case tls13(TLS13Failure, field: (DissectedField) -> Bool)
    }

    /// The body, read by the codec as far as its bytes go (in TLS 1.3, by the TLS 1.3 engine's
    /// readers for the messages whose shape changed); returns what the receiver answers to it.
    private func body(type: HandshakeType, length: Int) -> BodyVerdict? {
        let bodyStart = cursor.position
        let bodyEnd = min(bodyStart + length, cursor.limit)
        var verdict: BodyVerdict?
        var notModelled = false
        var randomNote: DissectionNote?
        cursor.open(type.name ?? "body", length: length)
        let bytes = Array(cursor.bytes[bodyStart ..< bodyEnd])
        let recorder = FieldRecorder(cursor: cursor, base: bodyStart, inputIsCut: bodyEnd < bodyStart + length)
        recorder.extensionCarrier = extensionCarrier(type: type, body: bytes)
        var reader = ByteReader(bytes, recorder: recorder)
        do {
            if isTLS13, TLS13HandshakeBody.types.contains(type) {
                let finishedLength = type == .finished ? tls13VerifyDataLength(bodyLength: length) : context.verifyDataLength
                if let (failure, field) = try TLS13HandshakeBody.read(type, from: &reader, verifyDataLength: finishedLength) {
                    verdict = .tls13(failure, field: Self.field(refusedBy: failure, extensionType: field))
                }
            } else {
                let message = try HandshakeMessage.decodeBody(type: type, from: &reader, context: context)
                try reader.expectEnd(field: "\(type)")
                learn(from: message)
                randomNote = Self.tls13RandomNote(message)
                if case .other = message { notModelled = true }
                if let refusal = tls13ServerHelloRefusal(message, carrier: recorder.extensionCarrier) {
                    verdict = .tls13(refusal.0, field: Self.field(refusedBy: refusal.0, extensionType: refusal.1))
                }
            }
        } catch {
            verdict = .decode(error)
            // The cursor is where the recorder left it: after the last field the codec read.
            // A whole message: the receiver stops at its refusal. Else the input stopped first.
            cursor.skipRest(note: bodyEnd == bodyStart + length ? .notReadAfterRefusal : .notDissected)
        }
        cursor.close()
        if let randomNote { cursor.rewriteLast { opaqueRandom($0, note: randomNote) } }
        if notModelled { cursor.annotateLast(.notModelled(type)) { $0.name == "body" } }
        return verdict
    }

    /// What a ServerHello fixes for the messages after it (RFC 5246 §7.4.1.3; RFC 8446 §4.1.3: a
    /// supported_versions that selects TLS 1.3 makes the rest of the exchange TLS 1.3). A ClientHello
    /// whose supported_versions offers TLS 1.3 alone makes it TLS 1.3 too: a server selects one of the
    /// versions offered (RFC 8446 §4.2.1).
    private func learn(from message: HandshakeMessage) {
        if case .clientHello(let hello) = message, Self.offersOnlyTLS13(hello) { context.version = .tls13 }
        guard case .serverHello(let hello) = message else { return }
        let suite = hello.cipherSuite
        cipherSuite = suite
        if Self.selectsTLS13(hello) {
            context.version = .tls13
            context.keyExchange = nil
            if let tls13 = TLS13CipherSuite(rawValue: suite.rawValue) { context.verifyDataLength = tls13.hash.length }
            encryptThenMAC = false
            return
        }
        // RFC 7366 §2: the server's empty encrypt_then_mac turns it on, for a block-cipher suite only.
        encryptThenMAC = (hello.extensions ?? []).contains(type: .encryptThenMAC) && suite.parameters.map { !$0.isAEAD } == true
        context.version = hello.serverVersion
        context.keyExchange = suite.parameters?.keyExchange
        context.verifyDataLength = suite.parameters?.verifyDataLength ?? 12
    }

    /// The engine's reassembler on the header: it refuses a message announcing a body over its
    /// limit. True when it does.
    private func judgeHeader(start: Int) -> Bool {
        var reassembler = HandshakeReassembler()
        reassembler.append(Array(cursor.bytes[start ..< min(cursor.limit, start + HandshakeMessage.headerLength)]))
        do { _ = try reassembler.next() } catch {
            attach(.invalidMessage(error), to: Self.field(named: error))
            return true
        }
        return false
    }

    /// The field of a message that a codec error names (relative names match the end of a path).
    static func field(named error: DecodeError) -> (DissectedField) -> Bool {
        func named(_ n: String) -> (DissectedField) -> Bool {
            // The TLS 1.3 extension readers name a field after its extension (`key_share.client_shares`);
            // a dissection records it inside the extension, under its own name.
            let own = n.split(separator: ".", maxSplits: 1).dropFirst().first.map { "." + $0 }
            return { f in f.name == n || f.name.hasSuffix("." + n) || own.map { f.name.hasSuffix($0) } == true }
        }
        switch error {
        case .truncated(let field, _, _):
            // The read that ran past its vector carries the cursor's note (a length that counts more
            // bytes than its vector holds carries its own).
            let name = named(field)
            return { f in name(f) || f.notes.contains { $0.kind == .overrun || $0.kind == .declaresMore } }
        // RFC 8446 §4.4.4: verify_data of another length than the suite's hash.
        case .lengthOutOfRange("Finished.verify_data", _, _, _): return named("verify_data")
        case .lengthOutOfRange(let field, _, _, _): return named(field + ".length")
        // RFC 8446 §4.2.8: the second share of a group is the one too many.
        case .illegalParameter(_, .duplicateKeyShareGroup): return { $0.name.hasSuffix("client_shares") }
        case .trailingBytes: return named("trailing_bytes")
        case .malformed(_, .unknownServerNameType): return named("name_type")
        // RFC 7301 §3.1: exactly one name in a ServerHello; the second is the first one too many.
        case .malformed(_, .serverProtocolNameCount): return { $0.name.hasSuffix("protocol_name_list[1]") }
        case .illegalParameter(_, .curveTypeNotNamed): return named("curve_params.curve_type")
        case .duplicateExtension(let type):
            var seen = 0
            return { f in
                guard f.name.hasSuffix("extension_type"), f.value == FieldCursor.describe(type) else { return false }
                seen += 1
                return seen == 2
            }
        case .handshakeMessageTooLarge: return { $0.name == "length" }
        default: return { _ in false }
        }
    }
}
