/// A user call that is not allowed in the current state (RFC 9293 §3.10 "error:" replies).
public enum TCPUserError: Error, Hashable, Sendable {
    /// "connection does not exist".
    case connectionDoesNotExist
    /// "connection closing": SEND after CLOSE.
    case connectionClosing
    /// "connection already exists".
    case connectionAlreadyExists
    /// No such host, listener or connection in the network harness.
    case unknown(String)
    /// The local port is in use.
    case portInUse(UInt16)
}
