/// A user call that is not allowed in the current state (RFC 9293 §3.10 "error:" replies).
public enum TCPUserError: Error, Hashable, Sendable {
    /// "connection does not exist".
    case connectionDoesNotExist
    /// "connection closing": SEND after CLOSE.
    case connectionClosing
    /// "connection already exists".
    case connectionAlreadyExists
    /// No host with this address in the network harness.
    case unknownHost(IPv4Address)
    /// The local port is in use.
    case portInUse(UInt16)
}
