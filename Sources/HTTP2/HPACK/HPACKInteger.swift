/// Integer representation with an N-bit prefix (RFC 7541 §5.1).
public enum HPACKInteger {
    /// The largest value the decoder accepts (a 32-bit length or index is far beyond any real need).
    public static let limit = Int(UInt32.max)

    /// `value` in an N-bit prefix; `flags` are the first octet's bits above the prefix.
    public static func encode(_ value: Int, prefixBits n: Int, flags: UInt8 = 0) -> [UInt8] {
        precondition((1...8).contains(n) && value >= 0)
        let max = (1 << n) - 1
        if value < max { return [flags | UInt8(value)] }
        var out: [UInt8] = [flags | UInt8(max)]
        var rest = value - max
        while rest >= 128 {
            out.append(UInt8(rest % 128 + 128))
            rest /= 128
        }
        out.append(UInt8(rest))
        return out
    }

    /// Reads an integer with an N-bit prefix starting at `position` (the bits above the prefix are
    /// ignored) and moves `position` past it.
    public static func decode(_ bytes: [UInt8], at position: inout Int, prefixBits n: Int) throws(HPACKError) -> Int {
        guard position < bytes.count else { throw .truncated }
        let max = (1 << n) - 1
        var value = Int(bytes[position]) & max
        position += 1
        guard value == max else { return value }
        var shift = 0
        while true {
            guard position < bytes.count else { throw .truncated }
            let b = bytes[position]
            position += 1
            guard shift <= 28 else { throw .integerOverflow }
            value += Int(b & 127) << shift
            guard value <= limit else { throw .integerOverflow }
            if b & 128 == 0 { return value }
            shift += 7
        }
    }
}
