/// The timers of one connection.
public enum TCPTimerKind: String, Hashable, Sendable, CustomStringConvertible {
    /// RFC 6298 retransmission timer.
    case retransmission
    /// RFC 9293 §3.8.6.1 zero-window probing (the "persist" timer).
    case persist
    /// RFC 9293 §3.8.6.3 delayed acknowledgment.
    case delayedACK
    /// RFC 9293 §3.6 TIME-WAIT, 2·MSL.
    case timeWait
    public var description: String { rawValue }
}
