/// RFC 5246 §7.4.1.4: `struct { ExtensionType extension_type; opaque extension_data<0..2^16-1>; } Extension;`
///
/// The extensions TLSLab understands are decoded; any other type is kept as `unknown` with its
/// exact bytes, so it round-trips.
public enum TLSExtension: TLSCodable, Hashable {
    /// RFC 6066 §3: `ServerName server_name_list<1..2^16-1>` in a ClientHello. A server
    /// acknowledges with empty extension_data, which decodes as an empty list.
    case serverName([ServerName])
    /// RFC 5246 §7.4.1.4.1: `SignatureAndHashAlgorithm supported_signature_algorithms<2..2^16-2>;`
    case signatureAlgorithms([SignatureScheme])
    /// RFC 8422 §5.1.1 / RFC 7919: `NamedGroup named_group_list<2..2^16-1>;`
    case supportedGroups([NamedGroup])
    /// RFC 8422 §5.1.2: `ECPointFormat ec_point_format_list<1..2^8-1>;`
    case ecPointFormats([ECPointFormat])
    /// RFC 7627 §5.1: empty extension_data.
    case extendedMasterSecret
    /// RFC 5746 §3.2: `opaque renegotiated_connection<0..255>;`
    case renegotiationInfo([UInt8])
    /// RFC 5077 §3.2: the ticket (empty when asking for a new one, and in the ServerHello).
    case sessionTicket([UInt8])
    /// RFC 7366 §2: empty extension_data.
    case encryptThenMAC
    /// RFC 7301 §3.1: `ProtocolName protocol_name_list<2..2^16-1>;` — the client's protocols in its
    /// order of preference; in a ServerHello exactly one, the server's choice (checked by
    /// ``ServerHello``, since the extension's body alone does not say which hello it is in).
    case applicationLayerProtocolNegotiation([ProtocolName])
    /// Any other extension, kept byte for byte.
    case unknown(ExtensionType, [UInt8])

    public var type: ExtensionType {
        switch self {
        case .serverName: return .serverName
        case .signatureAlgorithms: return .signatureAlgorithms
        case .supportedGroups: return .supportedGroups
        case .ecPointFormats: return .ecPointFormats
        case .extendedMasterSecret: return .extendedMasterSecret
        case .renegotiationInfo: return .renegotiationInfo
        case .sessionTicket: return .sessionTicket
        case .encryptThenMAC: return .encryptThenMAC
        case .applicationLayerProtocolNegotiation: return .applicationLayerProtocolNegotiation
        case let .unknown(type, _): return type
        }
    }

    /// The extension_data bytes.
    public var data: [UInt8] {
        var w = ByteWriter()
        switch self {
        case let .serverName(names):
            if !names.isEmpty { w.writeList(names, lengthBytes: 2) }
        case let .signatureAlgorithms(schemes):
            w.writeList(schemes, lengthBytes: 2)
        case let .supportedGroups(groups):
            w.writeList(groups, lengthBytes: 2)
        case let .ecPointFormats(formats):
            w.writeList(formats, lengthBytes: 1)
        case .extendedMasterSecret, .encryptThenMAC:
            break
        case let .renegotiationInfo(connection):
            w.writeOpaque(connection, lengthBytes: 1)
        case let .sessionTicket(ticket):
            w.writeBytes(ticket)
        case let .applicationLayerProtocolNegotiation(names):
            w.writeList(names, lengthBytes: 2)
        case let .unknown(_, data):
            w.writeBytes(data)
        }
        return w.bytes
    }

    public func encode(to writer: inout ByteWriter) {
        type.encode(to: &writer)
        writer.writeOpaque(data, lengthBytes: 2)
    }

    public init(from reader: inout ByteReader) throws(DecodeError) {
        let type = try reader.readCodePoint(ExtensionType.self, field: "extension_type")
        // A dissection names the vector `extension_data`: its type is the field before it.
        self = try reader.readVector(lengthBytes: 2, min: 0, max: 0xffff, field: "extension_data(\(type))",
                                     recordedAs: "extension_data") { (body: inout ByteReader) throws(DecodeError) in
            try TLSExtension.decodeData(type: type, from: &body)
        }
    }

    private static func decodeData(type: ExtensionType, from r: inout ByteReader) throws(DecodeError) -> TLSExtension {
        switch type {
        case .serverName:
            if r.isAtEnd { return .serverName([]) }
            return .serverName(try r.readVector(lengthBytes: 2, min: 1, max: 0xffff, field: "server_name_list") {
                (list: inout ByteReader) throws(DecodeError) in
                var names: [ServerName] = []
                while !list.isAtEnd {
                    names.append(try list.readStructure("server_name_list[\(names.count)]") { (r: inout ByteReader) throws(DecodeError) in try ServerName(from: &r) })
                }
                return names
            })
        case .signatureAlgorithms:
            return .signatureAlgorithms(try r.readList(of: SignatureScheme.self, lengthBytes: 2, min: 2, max: 0xfffe,
                                                       elementSize: 2, field: "supported_signature_algorithms"))
        case .supportedGroups:
            return .supportedGroups(try r.readList(of: NamedGroup.self, lengthBytes: 2, min: 2, max: 0xffff,
                                                   elementSize: 2, field: "named_group_list"))
        case .ecPointFormats:
            return .ecPointFormats(try r.readList(of: ECPointFormat.self, lengthBytes: 1, min: 1, max: 0xff,
                                                  elementSize: 1, field: "ec_point_format_list"))
        case .extendedMasterSecret:
            return .extendedMasterSecret
        case .encryptThenMAC:
            return .encryptThenMAC
        case .renegotiationInfo:
            return .renegotiationInfo(try r.readOpaque(lengthBytes: 1, min: 0, max: 0xff, field: "renegotiated_connection", as: .hex))
        case .sessionTicket:
            return .sessionTicket(r.readRest(field: "ticket"))
        case .applicationLayerProtocolNegotiation:
            // Every name is <1..2^8-1> (an empty one is a decode_error), the list <2..2^16-1>.
            return .applicationLayerProtocolNegotiation(try r.readVector(lengthBytes: 2, min: 2, max: 0xffff,
                                                                         field: "protocol_name_list") { (list: inout ByteReader) throws(DecodeError) in
                var names: [ProtocolName] = []
                while !list.isAtEnd {
                    names.append(ProtocolName(bytes: try list.readOpaque(lengthBytes: 1, min: 1, max: 0xff,
                                                                          field: "protocol_name_list[\(names.count)]", as: .protocolName)))
                }
                return names
            })
        default:
            if let carrier = r.recorder?.extensionCarrier {
                // Dissecting: read with the decoder the TLS 1.3 engine interprets this extension with.
                let start = r.position
                if try readTLS13Data(type: type, in: carrier, from: &r) { return .unknown(type, Array(r.bytes[start ..< r.end])) }
            }
            return .unknown(type, r.readRest(field: "data"))
        }
    }

    /// Reads an optional extensions block (RFC 5246 §7.4.1.2: present only when bytes follow
    /// compression_methods): `Extension extensions<0..2^16-1>;` Duplicate types are rejected.
    static func decodeBlock(from reader: inout ByteReader) throws(DecodeError) -> [TLSExtension]? {
        if reader.isAtEnd { return nil }
        return try reader.readVector(lengthBytes: 2, min: 0, max: 0xffff, field: "extensions") { (block: inout ByteReader) throws(DecodeError) in
            var out: [TLSExtension] = []
            var seen = Set<ExtensionType>()
            while !block.isAtEnd {
                let ext: TLSExtension
                if block.recorder != nil {
                    // Dissecting: each extension is a structure named by its place, showing its type.
                    let type = block.remaining >= 2 ? ExtensionType(rawValue: UInt16(block.bytes[block.position]) << 8
                        | UInt16(block.bytes[block.position + 1])) : nil
                    ext = try block.readStructure("extensions[\(out.count)]", value: type.map { FieldCursor.label($0) } ?? .none) {
                        (r: inout ByteReader) throws(DecodeError) in try TLSExtension(from: &r)
                    }
                } else {
                    ext = try TLSExtension(from: &block)
                }
                guard seen.insert(ext.type).inserted else { throw .duplicateExtension(ext.type) }
                out.append(ext)
            }
            return out
        }
    }

    static func encodeBlock(_ extensions: [TLSExtension]?, to writer: inout ByteWriter) {
        if let extensions { writer.writeList(extensions, lengthBytes: 2) }
    }
}

extension Array where Element == TLSExtension {
    /// The extension of `type`, if present.
    public func first(ofType type: ExtensionType) -> TLSExtension? { first { $0.type == type } }

    /// True when an extension of `type` is present.
    public func contains(type: ExtensionType) -> Bool { contains { $0.type == type } }

    /// The protocol_name_list of the application_layer_protocol_negotiation extension (RFC 7301), if present.
    public var applicationProtocols: [ProtocolName]? {
        for case let .applicationLayerProtocolNegotiation(names) in self { return names }
        return nil
    }
}
