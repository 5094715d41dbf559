/// RFC 6066 §3: `struct { NameType name_type; select (name_type) { case host_name: HostName; } name; } ServerName;`
/// with `opaque HostName<1..2^16-1>;` (name_type host_name(0) is the only one defined).
public struct ServerName: TLSCodable, Hashable {
    /// RFC 6066: `enum { host_name(0), (255) } NameType;`
    public var nameType: UInt8
    /// The name bytes (an ASCII DNS host name for host_name).
    public var name: [UInt8]

    public static let hostNameType: UInt8 = 0

    public init(nameType: UInt8 = ServerName.hostNameType, name: [UInt8]) {
        self.nameType = nameType
        self.name = name
    }

    /// A host_name entry.
    public init(hostName: String) {
        self.init(nameType: ServerName.hostNameType, name: Array(hostName.utf8))
    }

    /// The host name, when this is a host_name entry of printable ASCII.
    public var hostName: String? {
        guard nameType == ServerName.hostNameType, name.allSatisfy({ (0x21...0x7e).contains($0) }) else { return nil }
        return String(decoding: name, as: UTF8.self)
    }

    /// RFC 6066 §3: "HostName" contains the fully qualified DNS hostname of the server, "represented
    /// as a byte string using ASCII encoding" (internationalized names as A-labels, RFC 5890). The
    /// first byte a DNS host name cannot hold, with its offset: anything but letters, digits, hyphen
    /// and dot (RFC 1123 §2.1), and underscore, which DNS names carry in practice — so a NUL, a
    /// control, a space, a slash or a raw UTF-8 byte. nil when every byte is one of those.
    public var firstNonHostNameByte: (offset: Int, byte: UInt8)? {
        for (offset, byte) in name.enumerated() {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"):
                continue
            default:
                return (offset, byte)
            }
        }
        return nil
    }

    public func encode(to writer: inout ByteWriter) {
        writer.writeUInt8(nameType)
        writer.writeOpaque(name, lengthBytes: 2)
    }

    public init(from reader: inout ByteReader) throws(DecodeError) {
        nameType = UInt8(try reader.readUInt(width: 1, field: "name_type", as: .nameType))
        guard nameType == ServerName.hostNameType else {
            // RFC 6066 §3 defines no other name type, so its length cannot be known.
            throw .malformed(field: "server_name.name_type", reason: .unknownServerNameType(nameType))
        }
        name = try reader.readOpaque(lengthBytes: 2, min: 1, max: 0xffff, field: "host_name", as: .hostName)
    }
}
