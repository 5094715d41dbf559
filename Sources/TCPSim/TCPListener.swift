/// A passive OPEN with a backlog (RFC 4987 §2.2): at most `backlog` connections may sit in
/// SYN-RECEIVED; completed ones wait in the accept queue. With `synCookie` set, a SYN that finds the
/// backlog full is answered statelessly instead of dropped.
public struct TCPListener: Hashable, Sendable {
    public let port: UInt16
    public let backlog: Int
    public let synCookie: SYNCookie?
    /// Half-open connections (SYN-RECEIVED).
    public internal(set) var halfOpen: Set<TCPConnectionID> = []
    /// Connections forked from this listener that have not reached the accept queue.
    var children: Set<TCPConnectionID> = []
    /// Established connections waiting for `accept`.
    public internal(set) var acceptQueue: [TCPConnectionID] = []

    public init(port: UInt16, backlog: Int, synCookie: SYNCookie? = nil) {
        precondition(backlog >= 0, "negative backlog")
        self.port = port
        self.backlog = backlog
        self.synCookie = synCookie
    }
}
