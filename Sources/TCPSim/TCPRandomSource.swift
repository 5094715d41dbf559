/// The only randomness TCPSim uses: 32 random bits at a time, injected by the caller so that a seed
/// reproduces a whole run. The Simulation layer adapts the project's seeded generator to this.
public protocol TCPRandomSource: AnyObject {
    func next32() -> UInt32
}

extension TCPRandomSource {
    /// A uniform value in [0, 1) with 32 bits of resolution.
    public func nextUnit() -> Double { Double(next32()) / 4_294_967_296.0 }
    /// True with probability `p`. Draws nothing when `p` ≤ 0, so fault-free links use no randomness.
    public func chance(_ p: Double) -> Bool { p > 0 && nextUnit() < p }
    /// A uniform value in 0...bound (bound ≥ 0).
    public func upTo(_ bound: Int64) -> Int64 {
        bound <= 0 ? 0 : Int64((UInt64(next32()) << 32 | UInt64(next32())) % UInt64(bound + 1))
    }
}

/// SplitMix64 (Steele, Lea, Flood, "Fast splittable pseudorandom number generators", OOPSLA 2014):
/// a small deterministic generator for tests and standalone use. Not for secrets.
public final class TCPSeededRandom: TCPRandomSource {
    private var state: UInt64
    public init(seed: UInt64) { state = seed }
    public func next64() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    public func next32() -> UInt32 { UInt32(truncatingIfNeeded: next64() >> 32) }
}
