/// What a dissected field's bytes mean, as a fact; the renderers word it (`dissect.value.*`).
/// Registry names, numbers and hex are the same in every language and are kept as `text`.
public enum FieldValue: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// Nothing to say beyond the field's name (a structure).
    case none
    /// Language-neutral text: a registry name with its code (`TLS 1.2 (0x0303)`), a number, a quoted name.
    case text(String)
    /// Opaque bytes, in hex.
    case bytes(OpaqueBytes)
    /// A vector's opaque contents, with their count.
    case sizedBytes(OpaqueBytes)
    /// One DER certificate of certificate_list (RFC 5246 §7.4.2).
    case certificate(OpaqueBytes)
    /// A NewSessionTicket's ticket, opaque to the client (RFC 5077 §3.3).
    case ticket(OpaqueBytes)
    /// A record's fragment: its length.
    case fragment(length: Int)
    /// ticket_lifetime_hint, seconds (0: no recommendation, RFC 5077 §3.3).
    case lifetimeHint(UInt32)
    /// A length counted in 32-bit words, as TCP's data offset counts the header (RFC 9293 §3.1).
    case lengthInWords(Int)
    /// A registry or enumeration number TLSLab has no name for.
    case unnamed(UnnamedNumber)

    public init(stringLiteral value: String) { self = .text(value) }

    /// A code point: its registry name with its number (`x25519 (0x001d)`), or the number TLSLab has
    /// no name for.
    public static func codePoint<T: CodePoint>(_ value: T) -> FieldValue {
        value.name.map { .text("\($0) (\(value.hex))") } ?? .unnamed(UnnamedNumber(value))
    }

    /// A code point naming a structure (a record's type, a handshake message, an extension): its
    /// registry name alone, or the number TLSLab has no name for.
    public static func codePointLabel<T: CodePoint>(_ value: T) -> FieldValue {
        value.name.map { .text($0) } ?? .unnamed(UnnamedNumber(value))
    }

    /// The text of a `text` value, else nil.
    public var text: String? {
        if case .text(let s) = self { return s }
        return nil
    }

    /// The bytes of an opaque value, else nil.
    public var opaque: OpaqueBytes? {
        switch self {
        case .bytes(let b), .sizedBytes(let b), .certificate(let b), .ticket(let b): return b
        default: return nil
        }
    }

    /// A debugging form (the renderers word values from their catalogue).
    public var description: String {
        switch self {
        case .none: return ""
        case .text(let s): return s
        case .bytes(let b): return b.description
        case .sizedBytes(let b): return "\(b.count) bytes: \(b)"
        case .certificate(let b): return "DER certificate, \(b.count) bytes: \(b)"
        case .ticket(let b): return "\(b.count) bytes, opaque to the client: \(b)"
        case .fragment(let n): return "\(n) bytes"
        case .lifetimeHint(let s): return "\(s) s"
        case .lengthInWords(let n): return "\(n) (\(n * 4) bytes)"
        case .unnamed(let u): return "unnamed \(u.registry.rawValue) \(u.shown)"
        }
    }
}

/// Opaque bytes as a dissection shows them: all of them up to 32, else the first 16 and the count.
public struct OpaqueBytes: Hashable, Sendable, CustomStringConvertible {
    /// How many bytes the field holds.
    public var count: Int
    /// The bytes shown: all of them, or the first 16 of a longer field.
    public var shown: [UInt8]

    public static let wholeUpTo = 32
    public static let prefixShown = 16

    public init(_ bytes: [UInt8]) {
        count = bytes.count
        shown = bytes.count <= Self.wholeUpTo ? bytes : Array(bytes.prefix(Self.prefixShown))
    }

    /// True when `shown` holds every byte.
    public var isWhole: Bool { shown.count == count }

    /// Hex, with a trailing `…` when bytes are left out.
    public var hex: String { Hex.string(shown) + (isWhole ? "" : "…") }

    public var description: String { isWhole ? hex : "\(hex) (\(count) bytes)" }
}
