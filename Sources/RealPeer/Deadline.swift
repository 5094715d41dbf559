#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Trace

/// A point on the monotonic clock that a whole phase (a handshake, a request) must finish by. Each
/// read waits at most the smaller of its own limit and what is left of the deadline, so a peer that
/// drips one byte at a time cannot stretch a phase past it.
public struct Deadline: Sendable {
    /// The phase's whole budget, for messages.
    public let milliseconds: Int32
    private let end: Int64

    public init(milliseconds: Int32) {
        self.milliseconds = milliseconds
        end = Self.nowMilliseconds() + Int64(milliseconds)
    }

    static func nowMilliseconds() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Int64(ts.tv_sec) * 1_000 + Int64(ts.tv_nsec) / 1_000_000
    }

    /// Milliseconds left (0 once passed).
    public var remaining: Int32 { Int32(clamping: max(0, end - Self.nowMilliseconds())) }
    public var hasPassed: Bool { remaining == 0 }

    /// The wait for one read: the per-read limit, cut to what is left.
    public func limit(_ perRead: Int32) -> Int32 { min(perRead, remaining) }
}

extension TCPSocket {
    /// One read that waits at most `perRead` and never past `deadline` (a timeout once it has passed).
    func read(before deadline: Deadline, perRead: Int32) throws(SocketError) -> [UInt8] {
        if deadline.hasPassed { throw SocketError.timeout(.deadline, milliseconds: 0) }
        return try read(timeoutMilliseconds: deadline.limit(perRead))
    }

    /// How a bounded drain ended.
    public struct Drain: Sendable, Equatable {
        public var bytes = 0
        /// The peer closed (or reset): everything it sent was read.
        public var reachedEnd = false
        /// Stopped by the time or byte bound while the peer was still sending.
        public var cutShort = false
    }

    /// Reads and discards what the peer still sends, so that close() does not turn unread bytes into
    /// a reset that could destroy the alert or answer just written — but for at most `milliseconds`
    /// in all and `maxBytes` octets: a peer that keeps sending cannot hold the connection open.
    public func drain(milliseconds: Int32 = 1_000, maxBytes: Int = 65_536) -> Drain {
        var result = Drain()
        let deadline = Deadline(milliseconds: milliseconds)
        while true {
            if result.bytes >= maxBytes || deadline.hasPassed {
                result.cutShort = true
                break
            }
            // A quiet peer (300 ms without a byte) is taken as done.
            guard let chunk = try? read(maximum: min(16_384, maxBytes - result.bytes),
                                        timeoutMilliseconds: deadline.limit(300)) else {
                result.cutShort = deadline.hasPassed
                break
            }
            if chunk.isEmpty { result.reachedEnd = true; break }
            result.bytes += chunk.count
        }
        return result
    }
}
