/// The state of one dissection: the cursor plus what the bytes so far have negotiated.
final class DissectionSession {
    let cursor: FieldCursor
    var context: HandshakeDecodingContext
    var cipherSuite: CipherSuite?
    /// True when encrypt-then-MAC (RFC 7366) is in effect: given, or seen in a ServerHello with a CBC suite.
    var encryptThenMAC: Bool
    var encrypted = false
    var reassembled: [DissectedField] = []
    /// Bytes of a handshake message that spans records, and the records it came from.
    private var pendingHandshake: [UInt8] = []
    private var pendingRecords: [Int] = []

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
        let typeValue: String = cursor.isAtLimit ? "" : ContentType(rawValue: cursor.bytes[cursor.position]).description
        cursor.guarded { () throws(Stop) in
            try cursor.group("record[\(index)]", value: typeValue) { () throws(Stop) in
                let type = try cursor.codePoint("type", ContentType.self)
                try cursor.codePoint("version", ProtocolVersion.self)
                let available = cursor.remaining - 2
                let limit = encrypted ? TLSRecord.maxCiphertextLength : TLSRecord.maxPlaintextLength
                let length = try cursor.uint("length", width: 2, note: { n in
                    let missing = n > available ? "declares \(n) bytes, only \(max(available, 0)) present" : nil
                    if n > limit { return "exceeds \(limit): record_overflow" + (missing.map { "; \($0)" } ?? "") }
                    return missing
                })
                let truncated = length > available
                if !type.isTLS12Defined {
                    try cursor.group("fragment", length: length) { () throws(Stop) in
                        try cursor.rest("fragment", note: "content type \(type) is not defined in TLS 1.2: unexpected_message")
                    }
                } else if length > 0 {
                    try cursor.group("fragment", value: length == 1 ? "1 byte" : "\(length) bytes", length: length) { () throws(Stop) in
                        cursor.guarded { fragment(type: type, recordIndex: index, truncated: truncated) }
                    }
                }
                if truncated { stopped = true }
            }
        }
        return stopped
    }

    private func fragment(type: ContentType, recordIndex: Int, truncated: Bool) {
        cursor.guarded { () throws(Stop) in
            if encrypted {
                try protectedFragment(type: type)
                return
            }
            switch type {
            case .handshake:
                try handshakeFragment(recordIndex: recordIndex, truncated: truncated)
            case .changeCipherSpec:
                try cursor.uint("type", width: 1, note: { $0 == 1 ? nil : "must be 1: a decode_error" }) { n in
                    n == 1 ? "change_cipher_spec (1)" : "\(n)"
                }
                try cursor.rest("trailing_bytes", note: "a ChangeCipherSpec is one byte: a decode_error")
                encrypted = true
            case .alert:
                try cursor.codePoint("level", AlertLevel.self)
                try cursor.codePoint("description", AlertDescription.self)
                try cursor.rest("trailing_bytes", note: "an Alert is two bytes: a decode_error")
            default:
                try cursor.rest("application_data", value: { "\($0.count) bytes: " + FieldCursor.opaque($0) })
            }
        }
    }

    /// A record fragment protected with the keys set by ChangeCipherSpec (RFC 5246 §6.2.3).
    private func protectedFragment(type: ContentType) throws(Stop) {
        let note = "encrypted: opaque without the keys"
        guard let parameters = cipherSuite?.parameters else {
            try cursor.rest("encrypted_fragment", note: "\(note) (\(type))")
            return
        }
        let cipher = parameters.cipher
        let ivLength = parameters.recordIVLength(version: context.version)
        if cipher == .chaCha20Poly1305 {
            // RFC 7905 §2: no explicit nonce (the sequence number XORed into the key block's IV).
            try cursor.rest("aead_ciphertext", note: "\(note) (ciphertext ‖ 16-byte Poly1305 tag; the nonce is the sequence number XOR the key block's IV, RFC 7905 §2)")
        } else if cipher.isAEAD {
            // RFC 5246 §6.2.3.3 GenericAEADCipher; RFC 5288 §3: 8-byte explicit nonce.
            try cursor.leaf("nonce_explicit", count: ivLength, value: FieldCursor.opaque)
            try cursor.rest("aead_ciphertext", note: "\(note) (ciphertext ‖ 16-byte GCM tag)")
        } else if encryptThenMAC {
            try encryptThenMACFragment(parameters: parameters, ivLength: ivLength, note: note)
        } else {
            // RFC 5246 §6.2.3.2 GenericBlockCipher: explicit IV (TLS 1.1+), then content ‖ MAC ‖ padding, encrypted.
            if ivLength > 0 { try cursor.leaf("IV", count: ivLength, value: FieldCursor.opaque) }
            try cursor.rest("block_ciphered", note: "\(note) (content ‖ MAC ‖ padding ‖ padding_length)")
        }
    }

    /// RFC 7366 §3: `IV ‖ ENC(content ‖ padding ‖ padding_length) ‖ MAC`, the MAC in the clear,
    /// computed over seq_num ‖ type ‖ version ‖ length (of IV and ciphertext) ‖ IV ‖ ciphertext.
    /// A fragment that cannot hold an IV, a whole number of blocks (at least one) and the MAC is
    /// refused with bad_record_mac, as the record layer refuses it.
    private func encryptThenMACFragment(parameters: CipherSuiteParameters, ivLength: Int, note: String) throws(Stop) {
        let block = parameters.cipher.blockLength
        let macLength = parameters.macLength
        let macName = "HMAC-" + (parameters.mac == .hmacSHA1 ? "SHA1" : parameters.mac.rawValue)
        let sentLength = cursor.remaining - macLength
        guard sentLength >= ivLength + block, (sentLength - ivLength) % block == 0 else {
            try cursor.rest("encrypt_then_mac_fragment",
                            note: "\(cursor.remaining) bytes cannot be IV (\(ivLength)) ‖ whole \(block)-byte blocks ‖ "
                                + "\(macLength)-byte \(macName) (RFC 7366 §3): bad_record_mac")
            return
        }
        if ivLength > 0 { try cursor.leaf("IV", count: ivLength, value: FieldCursor.opaque) }
        try cursor.leaf("ciphertext", count: sentLength - ivLength,
                        note: "\(note) (content ‖ padding ‖ padding_length), encrypt-then-MAC",
                        value: FieldCursor.opaque)
        try cursor.leaf("MAC", count: macLength,
                        note: "\(macName) over seq_num ‖ type ‖ version ‖ length ‖ IV ‖ ciphertext, not encrypted (RFC 7366 §3)",
                        value: Hex.string)
    }

    /// Handshake messages inside one record, following messages that span records. When the
    /// input ends inside this record, messages are read as far as the bytes go instead.
    private func handshakeFragment(recordIndex: Int, truncated: Bool) throws(Stop) {
        while !pendingHandshake.isEmpty, !cursor.isAtLimit {
            // Complete the header first, then the body.
            let need = pendingNeed() ?? (HandshakeMessage.headerLength - pendingHandshake.count)
            let take = min(need, cursor.remaining)
            let first = pendingRecords.first ?? recordIndex
            let piece = try cursor.leaf("handshake_fragment", count: take,
                                        note: "continues the handshake message begun in record[\(first)]",
                                        value: FieldCursor.opaque)
            pendingHandshake += piece
            if pendingRecords.last != recordIndex { pendingRecords.append(recordIndex) }
            finishPendingIfWhole()
        }
        while !cursor.isAtLimit {
            let remaining = cursor.remaining
            let announced: Int? = remaining >= HandshakeMessage.headerLength
                ? Int(cursor.bytes[cursor.position + 1]) << 16 | Int(cursor.bytes[cursor.position + 2]) << 8
                    | Int(cursor.bytes[cursor.position + 3])
                : nil
            if truncated || announced.map({ $0 + HandshakeMessage.headerLength <= remaining }) == true {
                try handshakeMessage()
                continue
            }
            let typeName = HandshakeType(rawValue: cursor.bytes[cursor.position]).description
            let note = announced.map { "first \(remaining) of \($0 + 4) bytes of a \(typeName) message; continues in the next record" }
                ?? "the start of a \(typeName) message header; continues in the next record"
            pendingHandshake = try cursor.rest("handshake_fragment", note: note)
            pendingRecords = [recordIndex]
        }
    }

    private func pendingNeed() -> Int? {
        guard pendingHandshake.count >= 4 else { return nil }
        let length = Int(pendingHandshake[1]) << 16 | Int(pendingHandshake[2]) << 8 | Int(pendingHandshake[3])
        return length + 4 - pendingHandshake.count
    }

    private func finishPendingIfWhole() {
        guard let need = pendingNeed(), need <= 0 else { return }
        let inner = DissectionSession(bytes: pendingHandshake, context: context, cipherSuite: cipherSuite,
                                      encryptThenMAC: encryptThenMAC)
        inner.cursor.guarded { () throws(Stop) in try inner.handshakeMessage() }
        // Worded once for the message (a message cut into thousands of records made this
        // fields × records); a long run of records is named by its first and last.
        let records = pendingRecords.count <= 4 ? pendingRecords.map { "record[\($0)]" }.joined(separator: ", ")
            : "record[\(pendingRecords[0])] … record[\(pendingRecords[pendingRecords.count - 1])] (\(pendingRecords.count) records)"
        let note = "reassembled from \(records); offsets are relative to this message"
        for var field in inner.cursor.fields {
            field.note = note
            reassembled.append(field)
        }
        context = inner.context
        cipherSuite = inner.cipherSuite
        encryptThenMAC = inner.encryptThenMAC
        pendingHandshake = []
        pendingRecords = []
    }

    // MARK: Handshake messages (RFC 5246 §7.4)

    func handshakeMessage() throws(Stop) {
        let typeByte: UInt8? = cursor.isAtLimit ? nil : cursor.bytes[cursor.position]
        let type = HandshakeType(rawValue: typeByte ?? 0)
        try cursor.group("handshake", value: type.description) { () throws(Stop) in
            try cursor.codePoint("msg_type", HandshakeType.self)
            let available = cursor.remaining - 3
            let length = try cursor.uint("length", width: 3, note: { n in
                n > available ? "declares \(n) bytes, only \(max(available, 0)) present" : nil
            })
            guard length > 0 else {
                if type != .helloRequest, type != .serverHelloDone, type.isKnown {
                    // An empty body where one is required: the first field is missing.
                    try cursor.leaf("body", count: 1) { _ in "" }
                }
                return
            }
            try cursor.group(type.name ?? "body", length: length) { () throws(Stop) in
                try body(type: type)
            }
        }
    }

    private func body(type: HandshakeType) throws(Stop) {
        switch type {
        case .clientHello: try clientHello()
        case .serverHello: try serverHello()
        case .certificate: try certificate()
        case .serverKeyExchange: try serverKeyExchange()
        case .certificateRequest: try certificateRequest()
        case .certificateVerify: try digitallySigned(prefix: nil)
        case .clientKeyExchange: try clientKeyExchange()
        case .finished:
            try cursor.leaf("verify_data", count: context.verifyDataLength, value: Hex.string)
        case .newSessionTicket:
            // RFC 5077 §3.3: uint32 ticket_lifetime_hint; opaque ticket<0..2^16-1>.
            try cursor.uint("ticket_lifetime_hint", width: 4, value: { $0 == 0 ? "0 (no recommendation)" : "\($0) seconds" })
            try cursor.vector("ticket", lengthBytes: 2, min: 0, max: 0xffff) { () throws(Stop) in
                try cursor.rest("ticket") { "\($0.count) bytes, opaque to the client: " + FieldCursor.opaque($0) }
            }
        case .helloRequest, .serverHelloDone:
            break
        default:
            try cursor.rest("body", note: "\(type): not dissected by TLSLab")
        }
    }

    private func random() throws(Stop) {
        try cursor.group("random", pushPath: true) { () throws(Stop) in
            try cursor.uint("gmt_unix_time", width: 4, value: { n in "\(n) (0x\(Hex.string([UInt8(n >> 24), UInt8(n >> 16 & 0xff), UInt8(n >> 8 & 0xff), UInt8(n & 0xff)])))" })
            try cursor.leaf("random_bytes", count: 28, value: Hex.string)
        }
    }

    private func sessionID() throws(Stop) {
        try cursor.vector("session_id", lengthBytes: 1, min: 0, max: 32) { () throws(Stop) in
            try cursor.rest("session_id", value: Hex.string)
        }
    }

    private func list<T: CodePoint>(_ name: String, _ type: T.Type, lengthBytes: Int, min: Int, max: Int) throws(Stop) {
        try cursor.vector(name, lengthBytes: lengthBytes, min: min, max: max, elementSize: T.wireSize) { () throws(Stop) in
            var i = 0
            while !cursor.isAtLimit {
                try cursor.codePoint("\(name)[\(i)]", T.self)
                i += 1
            }
        }
    }

    private func clientHello() throws(Stop) {
        try cursor.codePoint("client_version", ProtocolVersion.self)
        try random()
        try sessionID()
        try list("cipher_suites", CipherSuite.self, lengthBytes: 2, min: 2, max: 0xfffe)
        try list("compression_methods", CompressionMethod.self, lengthBytes: 1, min: 1, max: 0xff)
        try extensions(inServerHello: false)
    }

    private func serverHello() throws(Stop) {
        let version = try cursor.codePoint("server_version", ProtocolVersion.self)
        try random()
        try sessionID()
        let suite = try cursor.codePoint("cipher_suite", CipherSuite.self)
        try cursor.codePoint("compression_method", CompressionMethod.self)
        let offered = try extensions(inServerHello: true)
        cipherSuite = suite
        // RFC 7366 §2: the server's empty encrypt_then_mac turns it on, for a block-cipher suite only.
        encryptThenMAC = offered.contains(.encryptThenMAC) && suite.parameters.map { !$0.isAEAD } == true
        context.version = version
        context.keyExchange = suite.parameters?.keyExchange
        context.verifyDataLength = suite.parameters?.verifyDataLength ?? 12
    }

    /// Reads the extensions block; returns the extension types it holds.
    @discardableResult
    private func extensions(inServerHello: Bool) throws(Stop) -> Set<ExtensionType> {
        var seen = Set<ExtensionType>()
        guard !cursor.isAtLimit else { return seen }
        try cursor.vector("extensions", lengthBytes: 2, min: 0, max: 0xffff) { () throws(Stop) in
            var i = 0
            while !cursor.isAtLimit {
                let typeByte = cursor.remaining >= 2
                    ? ExtensionType(rawValue: UInt16(cursor.bytes[cursor.position]) << 8 | UInt16(cursor.bytes[cursor.position + 1]))
                    : nil
                try cursor.group("extensions[\(i)]", value: typeByte?.description ?? "", pushPath: true) { () throws(Stop) in
                    let type = try cursor.codePoint("extension_type", ExtensionType.self,
                                                    note: typeByte.map { seen.contains($0) } == true
                                                        ? "duplicate extension type: illegal_parameter" : nil)
                    seen.insert(type)
                    try cursor.vector("extension_data", lengthBytes: 2, min: 0, max: 0xffff) { () throws(Stop) in
                        try extensionData(type, inServerHello: inServerHello)
                    }
                }
                i += 1
            }
        }
        return seen
    }

    private func extensionData(_ type: ExtensionType, inServerHello: Bool) throws(Stop) {
        switch type {
        case .serverName:
            try cursor.vector("server_name_list", lengthBytes: 2, min: 1, max: 0xffff) { () throws(Stop) in
                var i = 0
                while !cursor.isAtLimit {
                    try cursor.group("server_name_list[\(i)]", pushPath: true) { () throws(Stop) in
                        let nameType = try cursor.uint("name_type", width: 1, value: { $0 == 0 ? "host_name (0)" : "unknown(\($0))" })
                        if nameType == 0 {
                            try cursor.vector("host_name", lengthBytes: 2, min: 1, max: 0xffff) { () throws(Stop) in
                                try cursor.rest("host_name") { ServerName(name: $0).hostName.map { "\"\($0)\"" } ?? Hex.string($0) }
                            }
                        } else {
                            try cursor.rest("name", note: "unknown name type: its length cannot be known (decode_error)")
                        }
                    }
                    i += 1
                }
            }
        case .signatureAlgorithms:
            try list("supported_signature_algorithms", SignatureScheme.self, lengthBytes: 2, min: 2, max: 0xfffe)
        case .supportedGroups:
            try list("named_group_list", NamedGroup.self, lengthBytes: 2, min: 2, max: 0xffff)
        case .ecPointFormats:
            try list("ec_point_format_list", ECPointFormat.self, lengthBytes: 1, min: 1, max: 0xff)
        case .renegotiationInfo:
            try cursor.vector("renegotiated_connection", lengthBytes: 1, min: 0, max: 0xff) { () throws(Stop) in
                try cursor.rest("renegotiated_connection", value: Hex.string)
            }
        case .sessionTicket:
            try cursor.rest("ticket")
        case .applicationLayerProtocolNegotiation:
            // RFC 7301 §3.1: ProtocolName protocol_name_list<2..2^16-1>, each opaque <1..2^8-1>.
            try cursor.vector("protocol_name_list", lengthBytes: 2, min: 2, max: 0xffff) { () throws(Stop) in
                var i = 0
                while !cursor.isAtLimit {
                    let extra = inServerHello && i > 0
                        ? "a ServerHello names exactly one protocol (RFC 7301 §3.1): a decode_error" : nil
                    try cursor.vector("protocol_name_list[\(i)]", lengthBytes: 1, min: 1, max: 0xff) { () throws(Stop) in
                        try cursor.rest("protocol_name_list[\(i)]", note: extra) { "\"\(ProtocolName(bytes: $0))\"" }
                    }
                    i += 1
                }
            }
        case .extendedMasterSecret, .encryptThenMAC:
            try cursor.rest("trailing_bytes", note: "\(type) has empty extension_data: a decode_error")
        default:
            try cursor.rest("data")
        }
    }

    private func certificate() throws(Stop) {
        try cursor.vector("certificate_list", lengthBytes: 3, min: 0, max: 0xff_ffff) { () throws(Stop) in
            var i = 0
            while !cursor.isAtLimit {
                try cursor.vector("certificate_list[\(i)]", lengthBytes: 3, min: 1, max: 0xff_ffff) { () throws(Stop) in
                    try cursor.rest("certificate_list[\(i)]") { "DER certificate, \($0.count) bytes: " + FieldCursor.opaque($0) }
                }
                i += 1
            }
        }
    }

    private func opaque(_ name: String, lengthBytes: Int, min: Int, max: Int) throws(Stop) {
        try cursor.vector(name, lengthBytes: lengthBytes, min: min, max: max) { () throws(Stop) in
            try cursor.rest(name) { "\($0.count) bytes: " + FieldCursor.opaque($0) }
        }
    }

    private func digitallySigned(prefix: String?) throws(Stop) {
        let body = { () throws(Stop) in
            if self.context.signsWithAlgorithm {
                try self.cursor.codePoint("algorithm", SignatureScheme.self)
            }
            try self.opaque("signature", lengthBytes: 2, min: 0, max: 0xffff)
        }
        if let prefix {
            try cursor.group(prefix, pushPath: true, body)
        } else {
            try body()
        }
    }

    private func serverKeyExchange() throws(Stop) {
        switch context.keyExchange {
        case .dheRSA:
            try cursor.group("params", pushPath: true) { () throws(Stop) in
                try opaque("dh_p", lengthBytes: 2, min: 1, max: 0xffff)
                try opaque("dh_g", lengthBytes: 2, min: 1, max: 0xffff)
                try opaque("dh_Ys", lengthBytes: 2, min: 1, max: 0xffff)
            }
            try digitallySigned(prefix: "signed_params")
        case .ecdheRSA, .ecdheECDSA:
            let readable = try cursor.group("params", pushPath: true) { () throws(Stop) -> Bool in
                let curveType = try cursor.codePoint("curve_params.curve_type", ECCurveType.self)
                switch curveType {
                case .namedCurve:
                    try cursor.codePoint("curve_params.namedcurve", NamedGroup.self)
                case .explicitPrime:
                    // RFC 4492 §5.4 (deprecated by RFC 8422 §5.4, refused with illegal_parameter):
                    // the curve's prime, coefficients, base point, order and cofactor, each opaque<1..2^8-1>.
                    for field in ["prime_p", "curve.a", "curve.b", "base.point", "order", "cofactor"] {
                        try opaque("curve_params.\(field)", lengthBytes: 1, min: 1, max: 0xff)
                    }
                default:
                    // explicit_char2 or an unknown type: what follows cannot be told apart without its layout.
                    try cursor.rest("curve_params_and_rest", note: "curve_type \(curveType.rawValue) is not named_curve; RFC 8422 §5.4 allows only named_curve (illegal_parameter)")
                    return false
                }
                try opaque("public.point", lengthBytes: 1, min: 1, max: 0xff)
                return true
            }
            if readable { try digitallySigned(prefix: "signed_params") }
        case .rsa:
            try cursor.rest("body", note: "RSA key exchange has no ServerKeyExchange: unexpected_message")
        case nil:
            try cursor.rest("params_and_signature", note: "the key exchange is not known (no ServerHello seen)")
        }
    }

    private func clientKeyExchange() throws(Stop) {
        switch context.keyExchange {
        case .rsa:
            try opaque("encrypted_pre_master_secret", lengthBytes: 2, min: 0, max: 0xffff)
        case .dheRSA:
            try opaque("dh_Yc", lengthBytes: 2, min: 1, max: 0xffff)
        case .ecdheRSA, .ecdheECDSA:
            try opaque("ecdh_Yc", lengthBytes: 1, min: 1, max: 0xff)
        case nil:
            try cursor.rest("exchange_keys", note: "the key exchange is not known (no ServerHello seen)")
        }
    }

    private func certificateRequest() throws(Stop) {
        try list("certificate_types", ClientCertificateType.self, lengthBytes: 1, min: 1, max: 0xff)
        if context.signsWithAlgorithm {
            try list("supported_signature_algorithms", SignatureScheme.self, lengthBytes: 2, min: 2, max: 0xfffe)
        }
        try cursor.vector("certificate_authorities", lengthBytes: 2, min: 0, max: 0xffff) { () throws(Stop) in
            var i = 0
            while !cursor.isAtLimit {
                try opaque("certificate_authorities[\(i)]", lengthBytes: 2, min: 1, max: 0xffff)
                i += 1
            }
        }
    }
}
