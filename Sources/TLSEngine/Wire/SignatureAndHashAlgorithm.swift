/// RFC 5246 §7.4.1.4.1:
/// `struct { HashAlgorithm hash; SignatureAlgorithm signature; } SignatureAndHashAlgorithm;`
///
/// The same two bytes as a `SignatureScheme`; TLSLab stores `SignatureScheme` in messages and uses
/// this type to show the TLS 1.2 reading of a value.
public struct SignatureAndHashAlgorithm: TLSCodable, Hashable, CustomStringConvertible {
    public var hash: HashAlgorithm
    public var signature: SignatureAlgorithm

    public init(hash: HashAlgorithm, signature: SignatureAlgorithm) {
        self.hash = hash
        self.signature = signature
    }

    /// The same two bytes read as a TLS 1.3-style scheme.
    public var scheme: SignatureScheme {
        SignatureScheme(rawValue: UInt16(hash.rawValue) << 8 | UInt16(signature.rawValue))
    }

    public var description: String { "{hash: \(hash), signature: \(signature)}" }

    public func encode(to writer: inout ByteWriter) {
        hash.encode(to: &writer)
        signature.encode(to: &writer)
    }

    public init(from reader: inout ByteReader) throws(DecodeError) {
        hash = try HashAlgorithm(from: &reader)
        signature = try SignatureAlgorithm(from: &reader)
    }
}
