/// A connection's identity seen from one host: the local and the remote endpoint
/// (RFC 9293 §3.3.1's "socket pair").
public struct TCPFourTuple: Hashable, Sendable, CustomStringConvertible {
    public var local: TCPEndpoint
    public var remote: TCPEndpoint
    public init(local: TCPEndpoint, remote: TCPEndpoint) {
        self.local = local
        self.remote = remote
    }
    /// The same connection seen from the other end.
    public var reversed: TCPFourTuple { TCPFourTuple(local: remote, remote: local) }
    public var description: String { "\(local)<->\(remote)" }
}

/// A connection handle in a `TCPNetwork`: the four-tuple as seen by the host that owns it.
public typealias TCPConnectionID = TCPFourTuple
