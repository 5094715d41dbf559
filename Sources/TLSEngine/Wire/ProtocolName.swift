/// RFC 7301 §3.1: `opaque ProtocolName<1..2^8-1>;` — one application protocol identifier, an opaque
/// byte string (the IANA "TLS Application-Layer Protocol Negotiation (ALPN) Protocol IDs" registry
/// lists them as ASCII: `h2`, `http/1.1`, …). It compares byte for byte: `H2` is not `h2`.
public struct ProtocolName: TLSCodable, Hashable, Comparable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The identifier's bytes (1…255 of them on the wire).
    public var bytes: [UInt8]

    public init(bytes: [UInt8]) { self.bytes = bytes }

    /// The UTF-8 bytes of `name` (RFC 7301 §6: registered identifiers are their UTF-8 encoding).
    public init(_ name: String) { bytes = Array(name.utf8) }

    public init(stringLiteral value: String) { self.init(value) }

    /// HTTP/2 over TLS (RFC 9113 §3.2).
    public static let h2: ProtocolName = "h2"
    /// HTTP/1.1 (RFC 9112).
    public static let http11: ProtocolName = "http/1.1"

    /// True when the name can go on the wire: 1…255 bytes.
    public var isValid: Bool { (1...0xff).contains(bytes.count) }

    /// The name as text when it is printable ASCII, else its bytes in hex (`0x…`).
    public var description: String {
        if !bytes.isEmpty, bytes.allSatisfy({ (0x20...0x7e).contains($0) }) { return String(decoding: bytes, as: UTF8.self) }
        return "0x" + Hex.string(bytes)
    }

    public static func < (a: ProtocolName, b: ProtocolName) -> Bool { a.bytes.lexicographicallyPrecedes(b.bytes) }

    public func encode(to writer: inout ByteWriter) {
        writer.writeOpaque(bytes, lengthBytes: 1)
    }

    public init(from reader: inout ByteReader) throws(DecodeError) {
        bytes = try reader.readOpaque(lengthBytes: 1, min: 1, max: 0xff, field: "protocol_name")
    }

    /// Names from a comma-separated list (`"h2,http/1.1"`, as `openssl s_server -alpn` takes them);
    /// nil when an entry is empty or longer than 255 bytes, or the list is empty.
    public static func list(_ text: String) -> [ProtocolName]? {
        let names = text.split(separator: ",", omittingEmptySubsequences: false).map { ProtocolName(String($0)) }
        guard !names.isEmpty, names.allSatisfy(\.isValid) else { return nil }
        return names
    }
}
