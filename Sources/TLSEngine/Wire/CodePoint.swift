import Foundation

/// A TLS registry value (an IANA code point): a raw integer with named constants.
///
/// Unknown values are kept as they are, so they round-trip, and print as `unknown(0x1234)` in a
/// debugging description; a dissection records them as an ``UnnamedNumber`` the renderers word.
public protocol CodePoint: TLSCodable, Hashable, Comparable, CustomStringConvertible {
    associatedtype RawValue: FixedWidthInteger & UnsignedInteger & Sendable
    var rawValue: RawValue { get }
    init(rawValue: RawValue)
    /// The registry names of the known values.
    static var names: [RawValue: String] { get }
    /// Which registry the values come from.
    static var registry: CodePointRegistry { get }
}

extension CodePoint {
    /// The registry name, or nil for an unknown value.
    public var name: String? { Self.names[rawValue] }

    /// The value with this registry name (case-insensitive), or written as hex (`0x009c`).
    public init?(name text: String) {
        let wanted = text.trimmingCharacters(in: .whitespaces)
        if let match = Self.names.first(where: { $0.value.caseInsensitiveCompare(wanted) == .orderedSame }) {
            self.init(rawValue: match.key)
            return
        }
        let lower = wanted.lowercased()
        guard lower.hasPrefix("0x"), let v = RawValue(lower.dropFirst(2), radix: 16) else { return nil }
        self.init(rawValue: v)
    }

    /// True when the value has a name in `names`.
    public var isKnown: Bool { name != nil }

    /// The value as hex with the width of its wire form (`0x009c`).
    public var hex: String {
        let digits = String(rawValue, radix: 16)
        let width = RawValue.bitWidth / 4
        return "0x" + String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    /// The registry name, or the value as hex when it has none (`0x5a5a`): how a code point is shown
    /// wherever TLSLab names one for a reader (the ladder, JSON Lines, serve's log, lesson facts).
    public var nameOrHex: String { name ?? hex }

    public var description: String { name ?? "unknown(\(hex))" }

    public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }

    public func encode(to writer: inout ByteWriter) {
        writer.writeUInt(UInt32(rawValue), width: RawValue.bitWidth / 8)
    }

    public init(from reader: inout ByteReader) throws(DecodeError) {
        let value = try reader.readUInt(width: RawValue.bitWidth / 8, field: String(describing: Self.self))
        self.init(rawValue: RawValue(truncatingIfNeeded: value))
    }

    /// The wire size of one value, in bytes.
    public static var wireSize: Int { RawValue.bitWidth / 8 }
}
