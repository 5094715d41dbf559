/// A TCP sequence number (RFC 9293 §3.4): a 32-bit value whose arithmetic is modulo 2^32.
///
/// Comparison is only meaningful between numbers less than 2^31 apart, so the order is not
/// transitive over the whole space. That is why this type is deliberately *not* `Comparable`:
/// use `isBefore(_:)`, `isAfter(_:)` and friends, which say exactly what they compute.
public struct SeqNumber: Hashable, Sendable, CustomStringConvertible {
    /// The 32 bits on the wire.
    public var rawValue: UInt32

    public init(_ rawValue: UInt32) { self.rawValue = rawValue }

    public var description: String { String(rawValue) }

    /// `lhs + n` modulo 2^32 (`n` may be negative).
    public static func + (lhs: SeqNumber, rhs: Int) -> SeqNumber {
        SeqNumber(lhs.rawValue &+ UInt32(truncatingIfNeeded: rhs))
    }

    /// `lhs - n` modulo 2^32.
    public static func - (lhs: SeqNumber, rhs: Int) -> SeqNumber {
        SeqNumber(lhs.rawValue &- UInt32(truncatingIfNeeded: rhs))
    }

    public static func += (lhs: inout SeqNumber, rhs: Int) { lhs = lhs + rhs }

    /// The signed distance from `rhs` to `lhs` (RFC 9293 §3.4 "modulo 2^32" comparison): positive when
    /// `lhs` is after `rhs`. Well defined while the two are less than 2^31 apart.
    public static func - (lhs: SeqNumber, rhs: SeqNumber) -> Int32 {
        Int32(bitPattern: lhs.rawValue &- rhs.rawValue)
    }

    /// `self` comes strictly before `other` (`self < other` modulo 2^32).
    public func isBefore(_ other: SeqNumber) -> Bool { (self - other) < 0 }
    /// `self` comes strictly after `other`.
    public func isAfter(_ other: SeqNumber) -> Bool { (self - other) > 0 }
    /// `self =< other` modulo 2^32.
    public func isAtOrBefore(_ other: SeqNumber) -> Bool { (self - other) <= 0 }
    /// `self >= other` modulo 2^32.
    public func isAtOrAfter(_ other: SeqNumber) -> Bool { (self - other) >= 0 }

    /// `start =< self < start + count`, the window test of RFC 9293 §3.4 (`count` ≥ 0).
    public func isWithin(start: SeqNumber, count: Int) -> Bool {
        let offset = Int(rawValue &- start.rawValue)  // 0 ..< 2^32
        return offset < count
    }

    /// The later of two sequence numbers (wrap-safe).
    public static func latest(_ a: SeqNumber, _ b: SeqNumber) -> SeqNumber { a.isAfter(b) ? a : b }
}
