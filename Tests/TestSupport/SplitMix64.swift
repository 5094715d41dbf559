/// SplitMix64 (Steele, Lea, Flood 2014): a tiny deterministic generator for property tests and
/// mutation sweeps, shared by the test targets so a seed means the same sequence everywhere.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    public var state: UInt64

    /// Starts from `state` as it is.
    public init(state: UInt64) { self.state = state }

    /// Starts from a small seed spread over the state (seeds 0, 1, 2 … give unrelated sequences).
    public init(seed: UInt64) { state = seed &* 0x9E37_79B9_7F4A_7C15 &+ 1 }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A value in 0..<n (0 when n ≤ 0; the tiny modulo bias does not matter here).
    public mutating func below(_ n: Int) -> Int { n <= 0 ? 0 : Int(next() % UInt64(n)) }

    /// A value in `range`.
    public mutating func int(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(next() % UInt64(range.upperBound - range.lowerBound + 1))
    }

    public mutating func bool() -> Bool { next() & 1 == 1 }

    public mutating func bytes(_ count: Int) -> [UInt8] {
        (0 ..< count).map { _ in UInt8(truncatingIfNeeded: next()) }
    }

    public mutating func bytes(_ range: ClosedRange<Int>) -> [UInt8] { bytes(int(range)) }

    public mutating func pick<T>(_ items: [T]) -> T { items[int(0 ... items.count - 1)] }

    public mutating func u16() -> UInt16 { UInt16(truncatingIfNeeded: next()) }
    public mutating func u8() -> UInt8 { UInt8(truncatingIfNeeded: next()) }
}
