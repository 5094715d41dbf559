/// A minimal DER writer (ITU-T X.690 §8, §10) for the few structures we export: SEQUENCE, INTEGER,
/// OCTET STRING, BIT STRING, NULL and fixed OIDs. Writing cannot fail, so the key exports are plain
/// properties.
enum DERWriter {
    /// Tag, definite length (short or long form, X.690 §8.1.3) and content.
    static func tlv(_ tag: UInt8, _ content: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [tag]
        let n = content.count
        if n < 0x80 {
            out.append(UInt8(n))
        } else {
            var lengthBytes: [UInt8] = []
            var rest = n
            while rest > 0 { lengthBytes.insert(UInt8(rest & 0xFF), at: 0); rest >>= 8 }
            out.append(0x80 | UInt8(lengthBytes.count))
            out += lengthBytes
        }
        return out + content
    }

    static func sequence(_ elements: [[UInt8]]) -> [UInt8] { tlv(0x30, elements.flatMap { $0 }) }

    /// A non-negative INTEGER from its minimal big-endian magnitude (empty = 0).
    static func unsignedInteger(_ magnitude: [UInt8]) -> [UInt8] {
        let trimmed = Array(magnitude.drop { $0 == 0 })
        if trimmed.isEmpty { return tlv(0x02, [0]) }
        if let first = trimmed.first, first & 0x80 != 0 { return tlv(0x02, [0] + trimmed) }
        return tlv(0x02, trimmed)
    }

    static func octetString(_ bytes: [UInt8]) -> [UInt8] { tlv(0x04, bytes) }

    /// A BIT STRING of whole octets (no unused bits).
    static func bitString(_ bytes: [UInt8]) -> [UInt8] { tlv(0x03, [0] + bytes) }

    static let null: [UInt8] = [0x05, 0x00]

    /// AlgorithmIdentifier { rsaEncryption, NULL } (RFC 8017 Appendix A.1).
    static let rsaEncryptionAlgorithm: [UInt8] =
        sequence([[0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01], null])
}
