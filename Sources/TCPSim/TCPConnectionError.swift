/// What went wrong with a connection, as the user would be told (RFC 9293 §3.10).
public enum TCPConnectionError: String, Error, Hashable, Sendable {
    /// RST in answer to our SYN: "connection refused".
    case refused = "connection refused"
    /// RST on a synchronized connection: "connection reset".
    case reset = "connection reset"
    /// Retransmissions exhausted.
    case timedOut = "connection timed out"
    /// The user aborted.
    case aborted = "connection aborted"
}
