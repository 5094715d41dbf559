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
        var verdict: DecodeError?
        do {
            try cursor.group("handshake", value: .text(type.description)) { () throws(Stop) in
                try cursor.codePoint("msg_type", HandshakeType.self)
                let available = cursor.remaining - 3
                let length = try cursor.uint("length", width: 3, notes: { n in
                    n > available ? [.declaresMore(declared: n, present: max(available, 0))] : []
                })
                verdict = body(type: type, length: length)
                if length > available { throw Stop() }
            }
        } catch { stop = error }
        // The reassembler reads the header before the codec reads the body: its refusal comes first.
        if !judgeHeader(start: start), end != nil, let verdict {
            attach(.invalidMessage(verdict), to: Self.field(named: verdict))
        }
        if let stop { throw stop }
    }

    /// The body, read by the codec as far as its bytes go; returns the error the codec throws.
    private func body(type: HandshakeType, length: Int) -> DecodeError? {
        let bodyStart = cursor.position
        let bodyEnd = min(bodyStart + length, cursor.limit)
        var verdict: DecodeError?
        var notModelled = false
        cursor.open(type.name ?? "body", length: length)
        var reader = ByteReader(Array(cursor.bytes[bodyStart ..< bodyEnd]),
                                recorder: FieldRecorder(cursor: cursor, base: bodyStart, inputIsCut: bodyEnd < bodyStart + length))
        do {
            let message = try HandshakeMessage.decodeBody(type: type, from: &reader, context: context)
            try reader.expectEnd(field: "\(type)")
            learn(from: message)
            if case .other = message { notModelled = true }
        } catch {
            verdict = error
            // The cursor is where the recorder left it: after the last field the codec read.
            // A whole message: the receiver stops at its refusal. Else the input stopped first.
            cursor.skipRest(note: bodyEnd == bodyStart + length ? .notReadAfterRefusal : .notDissected)
        }
        cursor.close()
        if notModelled { cursor.annotateLast(.notModelled(type)) { $0.name == "body" } }
        return verdict
    }

    /// What a ServerHello fixes for the messages after it (RFC 5246 §7.4.1.3).
    private func learn(from message: HandshakeMessage) {
        guard case .serverHello(let hello) = message else { return }
        let suite = hello.cipherSuite
        cipherSuite = suite
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
        func named(_ n: String) -> (DissectedField) -> Bool { { f in f.name == n || f.name.hasSuffix("." + n) } }
        switch error {
        case .truncated(let field, _, _): return named(field)
        case .lengthOutOfRange(let field, _, _, _): return named(field + ".length")
        case .trailingBytes: return named("trailing_bytes")
        case .malformed(_, .unknownServerNameType): return named("name_type")
        // RFC 7301 §3.1: exactly one name in a ServerHello; the second is the first one too many.
        case .malformed(_, .serverProtocolNameCount): return { $0.name.hasSuffix("protocol_name_list[1]") }
        case .illegalParameter(_, .curveTypeNotNamed): return named("curve_params.curve_type")
        case .duplicateExtension(let type):
            var seen = 0
            return { f in
                guard f.name.hasSuffix("extension_type"), f.value == .text(FieldCursor.describe(type)) else { return false }
                seen += 1
                return seen == 2
            }
        case .handshakeMessageTooLarge: return { $0.name == "length" }
        default: return { _ in false }
        }
    }
}
