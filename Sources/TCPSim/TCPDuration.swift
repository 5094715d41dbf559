/// Virtual time in microseconds. The simulator never reads a real clock.
public typealias TCPTime = Int64

/// Durations in microseconds, named for readability.
public enum TCPDuration {
    public static func milliseconds(_ n: Int64) -> TCPTime { n * 1_000 }
    public static func seconds(_ n: Int64) -> TCPTime { n * 1_000_000 }
}
