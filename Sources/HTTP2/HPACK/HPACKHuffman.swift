/// The static Huffman code of HPACK (RFC 7541 §5.2, Appendix B).
///
/// Appendix B's code is canonical: ordered by code length, then by symbol, each code is the
/// previous one plus one (shifted left when the length grows). So the table here holds only the
/// code lengths of the 257 symbols (0…255 and EOS = 256), copied from Appendix B; the codes are
/// rebuilt from them and checked against Appendix B's published codes in the tests.
public enum HPACKHuffman {
    /// Code length in bits of each symbol (RFC 7541 Appendix B).
    static let lengths: [UInt8] = [
        // 0–31: control characters
        13, 23, 28, 28, 28, 28, 28, 28, 28, 24, 30, 28, 28, 30, 28, 28,
        28, 28, 28, 28, 28, 28, 30, 28, 28, 28, 28, 28, 28, 28, 28, 28,
        // 32–63: ' ' ! " # $ % & ' ( ) * + , - . / 0–9 : ; < = > ?
        6, 10, 10, 12, 13, 6, 8, 11, 10, 10, 8, 11, 8, 6, 6, 6,
        5, 5, 5, 6, 6, 6, 6, 6, 6, 6, 7, 8, 15, 6, 12, 10,
        // 64–95: @ A–Z [ \ ] ^ _
        13, 6, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7,
        7, 7, 7, 7, 7, 7, 7, 7, 8, 7, 8, 13, 19, 13, 14, 6,
        // 96–127: ` a–z { | } ~ DEL
        15, 5, 6, 5, 6, 5, 6, 6, 6, 5, 7, 7, 6, 6, 6, 5,
        6, 7, 6, 5, 5, 6, 7, 7, 7, 7, 7, 15, 11, 14, 13, 28,
        // 128–255
        20, 22, 20, 20, 22, 22, 22, 23, 22, 23, 23, 23, 23, 23, 24, 23,
        24, 24, 22, 23, 24, 23, 23, 23, 23, 21, 22, 23, 22, 23, 23, 24,
        22, 21, 20, 22, 22, 23, 23, 21, 23, 22, 22, 24, 21, 22, 23, 23,
        21, 21, 22, 21, 23, 22, 23, 23, 20, 22, 22, 22, 23, 22, 22, 23,
        26, 26, 20, 19, 22, 23, 22, 25, 26, 26, 26, 27, 27, 26, 24, 25,
        19, 21, 26, 27, 27, 26, 27, 24, 21, 21, 26, 26, 28, 27, 27, 27,
        20, 24, 20, 21, 22, 21, 21, 23, 22, 22, 25, 25, 24, 24, 26, 23,
        26, 27, 26, 26, 27, 27, 27, 27, 27, 28, 27, 27, 27, 27, 27, 26,
        // 256: EOS
        30,
    ]

    static let eos = 256

    /// The canonical decoding tables: per length, the first code, how many codes, and where
    /// their symbols start in `sortedSymbols`.
    struct Canonical: Sendable {
        var codes: [UInt32]            // per symbol
        var firstCode: [UInt32]        // per length 0…30
        var count: [Int]
        var offset: [Int]
        var sortedSymbols: [Int]
    }

    static let canonical: Canonical = {
        let maxLength = 30
        let sorted = (0..<lengths.count).sorted { (lengths[$0], $0) < (lengths[$1], $1) }
        var codes = [UInt32](repeating: 0, count: lengths.count)
        var firstCode = [UInt32](repeating: 0, count: maxLength + 1)
        var count = [Int](repeating: 0, count: maxLength + 1)
        var offset = [Int](repeating: 0, count: maxLength + 1)
        var code: UInt32 = 0
        var length = Int(lengths[sorted[0]])
        for (position, symbol) in sorted.enumerated() {
            let l = Int(lengths[symbol])
            if position > 0 {
                code += 1
                if l > length { code <<= UInt32(l - length); length = l }
            }
            if count[l] == 0 { firstCode[l] = code; offset[l] = position }
            count[l] += 1
            codes[symbol] = code
        }
        return Canonical(codes: codes, firstCode: firstCode, count: count, offset: offset, sortedSymbols: sorted)
    }()

    /// The code of a symbol and its length (for tests and the encoder).
    public static func code(of symbol: Int) -> (code: UInt32, length: Int) {
        (canonical.codes[symbol], Int(lengths[symbol]))
    }

    /// The length in octets of `bytes` Huffman-encoded.
    public static func encodedLength(_ bytes: [UInt8]) -> Int {
        (bytes.reduce(0) { $0 + Int(lengths[Int($1)]) } + 7) / 8
    }

    /// `bytes` Huffman-encoded, padded with the most significant bits of EOS (ones).
    public static func encode(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(encodedLength(bytes))
        var accumulator: UInt64 = 0
        var bits = 0
        for b in bytes {
            let (code, length) = code(of: Int(b))
            accumulator = (accumulator << UInt64(length)) | UInt64(code)
            bits += length
            while bits >= 8 {
                bits -= 8
                out.append(UInt8(truncatingIfNeeded: accumulator >> UInt64(bits)))
            }
            accumulator &= (1 << UInt64(bits)) - 1
        }
        if bits > 0 {
            out.append(UInt8(truncatingIfNeeded: (accumulator << UInt64(8 - bits)) | ((1 << UInt64(8 - bits)) - 1)))
        }
        return out
    }

    /// Decodes a Huffman string; EOS inside it, or padding longer than 7 bits or not all ones, is
    /// an error (RFC 7541 §5.2).
    public static func decode(_ bytes: [UInt8]) throws(HPACKError) -> [UInt8] {
        let c = canonical
        var out: [UInt8] = []
        var code: UInt32 = 0
        var length = 0
        var allOnes = true
        for byte in bytes {
            for shift in stride(from: 7, through: 0, by: -1) {
                let bit = UInt32((byte >> UInt8(shift)) & 1)
                code = (code << 1) | bit
                length += 1
                if bit == 0 { allOnes = false }
                guard length <= 30 else { throw .huffmanPadding }
                if c.count[length] > 0, code >= c.firstCode[length], code - c.firstCode[length] < UInt32(c.count[length]) {
                    let symbol = c.sortedSymbols[c.offset[length] + Int(code - c.firstCode[length])]
                    if symbol == eos { throw .huffmanEOS }
                    out.append(UInt8(symbol))
                    code = 0
                    length = 0
                    allOnes = true
                }
            }
        }
        // What is left must be padding: fewer than 8 bits, all ones (a prefix of EOS).
        if length > 7 || !allOnes { throw .huffmanPadding }
        return out
    }
}
