import BigNum

/// The operating system's CSPRNG as a ``RandomSource`` (through the standard library's
/// `SystemRandomNumberGenerator`: `getrandom(2)` on Linux, `arc4random_buf` on Apple platforms).
///
/// Use it for real runs only; tests and scenarios inject an ``HMACDRBG`` so a seed reproduces a run.
public final class SystemRandom: RandomSource, Sendable {
    // Stateless: each call makes its own `SystemRandomNumberGenerator`, so sharing is safe.

    public init() {}

    public func bytes(count: Int) -> [UInt8] {
        guard count > 0 else { return [] }
        var generator = SystemRandomNumberGenerator()
        var out = [UInt8]()
        out.reserveCapacity(count)
        while out.count < count {
            var word = generator.next()
            for _ in 0..<min(8, count - out.count) {
                out.append(UInt8(truncatingIfNeeded: word))
                word >>= 8
            }
        }
        return out
    }
}
