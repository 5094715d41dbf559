extension DissectionSession {

    // MARK: Handshake messages (RFC 5246 §7.4)

    /// One message, walked field by field, then judged by the engine: when its bytes are all there,
    /// the engine's reassembler and codec read them and the error they throw is attached.
    func handshakeMessage() throws(Stop) {
        let start = cursor.position
        var end: Int?
        if cursor.remaining >= HandshakeMessage.headerLength,
           let announced = HandshakeMessage.announcedBodyLength(in: cursor.bytes[..<cursor.limit], at: start),
           start + HandshakeMessage.headerLength + announced <= cursor.limit {
            end = start + HandshakeMessage.headerLength + announced
        }
        var stop: Stop?
        do { try walkHandshakeMessage() } catch { stop = error }
        judgeHandshake(start: start, end: end)
        if let stop { throw stop }
    }

    /// The engine's verdict on a message: `HandshakeReassembler` (the announced length) and the codec
    /// (`RawHandshakeMessage.decode`, with the context the hellos so far fixed), as a receiver reads it.
    private func judgeHandshake(start: Int, end: Int?) {
        var reassembler = HandshakeReassembler()
        reassembler.append(Array(cursor.bytes[start ..< (end ?? min(cursor.limit, start + HandshakeMessage.headerLength))]))
        do {
            guard end != nil, let raw = try reassembler.next() else { return }
            _ = try raw.decode(context: context)
        } catch {
            attach(.invalidMessage(error), to: Self.field(named: error))
        }
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

    private func walkHandshakeMessage() throws(Stop) {
        let typeByte: UInt8? = cursor.isAtLimit ? nil : cursor.bytes[cursor.position]
        let type = HandshakeType(rawValue: typeByte ?? 0)
        try cursor.group("handshake", value: .text(type.description)) { () throws(Stop) in
            try cursor.codePoint("msg_type", HandshakeType.self)
            let available = cursor.remaining - 3
            let length = try cursor.uint("length", width: 3, notes: { n in
                n > available ? [.declaresMore(declared: n, present: max(available, 0))] : []
            })
            guard length > 0 else {
                if type != .helloRequest, type != .serverHelloDone, type.isKnown {
                    // An empty body where one is required: the first field is missing.
                    try cursor.leaf("body", count: 1) { _ in .none }
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
            try cursor.leaf("verify_data", count: context.verifyDataLength) { .text(Hex.string($0)) }
        case .newSessionTicket:
            // RFC 5077 §3.3: uint32 ticket_lifetime_hint; opaque ticket<0..2^16-1>.
            try cursor.uint("ticket_lifetime_hint", width: 4, value: { .lifetimeHint(UInt32($0)) })
            try cursor.vector("ticket", lengthBytes: 2) { () throws(Stop) in
                try cursor.rest("ticket") { .ticket(OpaqueBytes($0)) }
            }
        case .helloRequest, .serverHelloDone:
            break
        default:
            try cursor.rest("body", notes: [.notModelled(type)])
        }
    }

    private func random() throws(Stop) {
        try cursor.group("random", pushPath: true) { () throws(Stop) in
            try cursor.uint("gmt_unix_time", width: 4, value: { n in .text("\(n) (0x\(Hex.string([UInt8(n >> 24), UInt8(n >> 16 & 0xff), UInt8(n >> 8 & 0xff), UInt8(n & 0xff)])))") })
            try cursor.leaf("random_bytes", count: 28) { .text(Hex.string($0)) }
        }
    }

    private func sessionID() throws(Stop) {
        try cursor.vector("session_id", lengthBytes: 1) { () throws(Stop) in
            try cursor.rest("session_id") { .text(Hex.string($0)) }
        }
    }

    private func list<T: CodePoint>(_ name: String, _ type: T.Type, lengthBytes: Int) throws(Stop) {
        try cursor.vector(name, lengthBytes: lengthBytes) { () throws(Stop) in
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
        try list("cipher_suites", CipherSuite.self, lengthBytes: 2)
        try list("compression_methods", CompressionMethod.self, lengthBytes: 1)
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
        try cursor.vector("extensions", lengthBytes: 2) { () throws(Stop) in
            var i = 0
            while !cursor.isAtLimit {
                let typeByte = cursor.remaining >= 2
                    ? ExtensionType(rawValue: UInt16(cursor.bytes[cursor.position]) << 8 | UInt16(cursor.bytes[cursor.position + 1]))
                    : nil
                try cursor.group("extensions[\(i)]", value: typeByte.map { .text($0.description) } ?? .none, pushPath: true) { () throws(Stop) in
                    let type = try cursor.codePoint("extension_type", ExtensionType.self)
                    seen.insert(type)
                    try cursor.vector("extension_data", lengthBytes: 2) { () throws(Stop) in
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
            try cursor.vector("server_name_list", lengthBytes: 2) { () throws(Stop) in
                var i = 0
                while !cursor.isAtLimit {
                    try cursor.group("server_name_list[\(i)]", pushPath: true) { () throws(Stop) in
                        let nameType = try cursor.uint("name_type", width: 1, value: { .text($0 == 0 ? "host_name (0)" : "unknown(\($0))") })
                        if nameType == 0 {
                            try cursor.vector("host_name", lengthBytes: 2) { () throws(Stop) in
                                try cursor.rest("host_name") { .text(ServerName(name: $0).hostName.map { "\"\($0)\"" } ?? Hex.string($0)) }
                            }
                        } else {
                            try cursor.rest("name")
                        }
                    }
                    i += 1
                }
            }
        case .signatureAlgorithms:
            try list("supported_signature_algorithms", SignatureScheme.self, lengthBytes: 2)
        case .supportedGroups:
            try list("named_group_list", NamedGroup.self, lengthBytes: 2)
        case .ecPointFormats:
            try list("ec_point_format_list", ECPointFormat.self, lengthBytes: 1)
        case .renegotiationInfo:
            try cursor.vector("renegotiated_connection", lengthBytes: 1) { () throws(Stop) in
                try cursor.rest("renegotiated_connection") { .text(Hex.string($0)) }
            }
        case .sessionTicket:
            try cursor.rest("ticket")
        case .applicationLayerProtocolNegotiation:
            // RFC 7301 §3.1: ProtocolName protocol_name_list<2..2^16-1>, each opaque <1..2^8-1>.
            try cursor.vector("protocol_name_list", lengthBytes: 2) { () throws(Stop) in
                var i = 0
                while !cursor.isAtLimit {
                    try cursor.vector("protocol_name_list[\(i)]", lengthBytes: 1) { () throws(Stop) in
                        try cursor.rest("protocol_name_list[\(i)]") { .text("\"\(ProtocolName(bytes: $0))\"") }
                    }
                    i += 1
                }
            }
        case .extendedMasterSecret, .encryptThenMAC:
            try cursor.rest("trailing_bytes")
        default:
            try cursor.rest("data")
        }
    }

    private func certificate() throws(Stop) {
        try cursor.vector("certificate_list", lengthBytes: 3) { () throws(Stop) in
            var i = 0
            while !cursor.isAtLimit {
                try cursor.vector("certificate_list[\(i)]", lengthBytes: 3) { () throws(Stop) in
                    try cursor.rest("certificate_list[\(i)]") { .certificate(OpaqueBytes($0)) }
                }
                i += 1
            }
        }
    }

    private func opaque(_ name: String, lengthBytes: Int) throws(Stop) {
        try cursor.vector(name, lengthBytes: lengthBytes) { () throws(Stop) in
            try cursor.rest(name) { .sizedBytes(OpaqueBytes($0)) }
        }
    }

    private func digitallySigned(prefix: String?) throws(Stop) {
        let body = { () throws(Stop) in
            if self.context.signsWithAlgorithm {
                try self.cursor.codePoint("algorithm", SignatureScheme.self)
            }
            try self.opaque("signature", lengthBytes: 2)
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
                try opaque("dh_p", lengthBytes: 2)
                try opaque("dh_g", lengthBytes: 2)
                try opaque("dh_Ys", lengthBytes: 2)
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
                        try opaque("curve_params.\(field)", lengthBytes: 1)
                    }
                default:
                    // explicit_char2 or an unknown type: what follows cannot be told apart without its layout.
                    try cursor.rest("curve_params_and_rest")
                    return false
                }
                try opaque("public.point", lengthBytes: 1)
                return true
            }
            if readable { try digitallySigned(prefix: "signed_params") }
        case .rsa:
            try cursor.rest("body")
        case nil:
            try cursor.rest("params_and_signature")
        }
    }

    private func clientKeyExchange() throws(Stop) {
        switch context.keyExchange {
        case .rsa:
            try opaque("encrypted_pre_master_secret", lengthBytes: 2)
        case .dheRSA:
            try opaque("dh_Yc", lengthBytes: 2)
        case .ecdheRSA, .ecdheECDSA:
            try opaque("ecdh_Yc", lengthBytes: 1)
        case nil:
            try cursor.rest("exchange_keys")
        }
    }

    private func certificateRequest() throws(Stop) {
        try list("certificate_types", ClientCertificateType.self, lengthBytes: 1)
        if context.signsWithAlgorithm {
            try list("supported_signature_algorithms", SignatureScheme.self, lengthBytes: 2)
        }
        try cursor.vector("certificate_authorities", lengthBytes: 2) { () throws(Stop) in
            var i = 0
            while !cursor.isAtLimit {
                try opaque("certificate_authorities[\(i)]", lengthBytes: 2)
                i += 1
            }
        }
    }
}
