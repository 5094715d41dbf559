/// A value with one exact wire encoding (RFC 5246 §4): `decode(encode(m)) == m`, and for every
/// byte string `b` that decodes, `encode(decode(b)) == b`.
public protocol TLSCodable: Equatable, Sendable {
    /// Appends the wire form to `writer`.
    func encode(to writer: inout ByteWriter)
    /// Reads one value from `reader`, leaving it just after the value.
    init(from reader: inout ByteReader) throws(DecodeError)
}

extension TLSCodable {
    /// The wire form.
    public var encoded: [UInt8] {
        var w = ByteWriter()
        encode(to: &w)
        return w.bytes
    }

    /// Decodes a value that must fill `bytes` exactly (trailing bytes are a `decode_error`).
    public init(decoding bytes: [UInt8]) throws(DecodeError) {
        var r = ByteReader(bytes)
        self = try Self(from: &r)
        try r.expectEnd(field: String(describing: Self.self))
    }
}
