/// What a real peer's socket showed, as the driver observed it: the kernel's connect or accept, a
/// failed write, a deadline, the peer's close, our close. The renderers word it; addresses are as
/// the kernel reported them ("address:port").
public enum SocketNote: Sendable, Hashable {
    /// connect(2) to `host`:`port` failed.
    case connectFailed(host: String, port: UInt16, SocketError)
    /// connect(2) returned: the kernel did TCP's three-way handshake.
    case connected(local: String, remote: String)
    /// accept(2) returned: the kernel did TCP's three-way handshake.
    case accepted(remote: String, local: String)
    /// A write of `bytes` bytes failed.
    case writeFailed(bytes: Int, SocketError)
    /// HTTP/2 frames (`frames`, their type names; empty: `bytes` bytes) were not sent: the peer had
    /// already closed the TLS connection.
    case notSentAfterPeerClosed(frames: [String], bytes: Int)
    /// `peer` kept sending after this side was done; the bounded drain stopped after `bytes` bytes.
    case stoppedDraining(peer: Actor, bytes: Int)
    /// close(2), with the connection's totals.
    case closed(written: Int, read: Int, reads: Int)
    /// The handshake did not finish within its deadline.
    case handshakeDeadlinePassed(milliseconds: Int)
    /// The request did not arrive within its deadline.
    case requestDeadlinePassed(milliseconds: Int)
    /// The response did not arrive whole within its deadline.
    case responseDeadlinePassed(milliseconds: Int)
    /// The response reached the client's size limit: reading stopped.
    case responseLimitReached(bytes: Int)
    /// A read failed.
    case readFailed(SocketError)
    /// read(2) returned 0: `peer` closed the connection.
    case peerClosed(Actor)
}

/// Why a socket operation failed, as a fact.
public enum SocketError: Error, Sendable, Hashable {
    /// getaddrinfo(3) could not resolve the host.
    case resolve(host: String, ResolveFailure)
    /// A system call failed with errno.
    case system(call: String, errno: Int32)
    /// poll(2) saw nothing within the time limit.
    case timeout(Wait, milliseconds: Int32)

    public enum ResolveFailure: Sendable, Hashable {
        /// getaddrinfo's own error code (gai_strerror(3) describes it).
        case lookup(code: Int32)
        /// The lookup gave no address to try.
        case noAddress
        /// A listening address must be a literal IPv4 address.
        case notIPv4
    }

    /// What the socket was waiting for.
    public enum Wait: Sendable, Hashable {
        case connect(host: String, port: UInt16)
        case data(from: String)
        /// The exchange's deadline had already passed before the read.
        case deadline
    }
}
