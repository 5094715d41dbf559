#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Trace

/// What a real peer's socket showed (`Phase.socket`, ``SocketNote``) and why a socket call failed
/// (``SocketError``), in English. The words are those of the socket API (connect(2), accept(2),
/// read(2), close(2)); an errno or getaddrinfo code is described by the C library (strerror(3),
/// gai_strerror(3)), whose text is the system's own.
extension Explanations {
    static let englishSockets: [String: String] = [
        "socket.connectFailed": "connect() to {host}:{port} failed: {error}",
        "socket.connected": "connect() returned: {local} → {remote} (the kernel did the three-way handshake)",
        "socket.accepted": "accept() returned: {remote} → {local} (the kernel did the three-way handshake)",
        "socket.writeFailed": "write of {bytes} bytes failed: {error}",
        "socket.notSentFrames": "not sent: {frames} — the peer had already closed the TLS connection",
        "socket.notSentBytes": "not sent: {bytes} bytes — the peer had already closed the TLS connection",
        "socket.serverKeptSending": "the server kept sending: stopped draining after {bytes} bytes",
        "socket.clientKeptSending": "the client kept sending after we were done: stopped draining after {bytes} bytes",
        "socket.closed": "close(): {written} bytes written, {read} bytes read in {reads} read(s)",
        "socket.handshakeDeadline": "handshake deadline of {ms} ms passed",
        "socket.requestDeadline": "request deadline of {ms} ms passed",
        "socket.responseDeadline": "response deadline of {ms} ms passed",
        "socket.responseLimit": "the response reached the limit of {bytes} bytes: stopped reading",
        "socket.serverClosed": "read() returned 0: the server closed the connection",
        "socket.clientClosed": "read() returned 0: the client closed the connection",
        "socketError.lookup": "cannot resolve {host}: {reason}",
        "socketError.noAddress": "cannot resolve {host}: no address",
        "socketError.notIPv4": "cannot resolve {host}: not an IPv4 address",
        "socketError.system": "{call} failed: {reason}",
        "socketError.connectTimeout": "timed out after {ms} ms waiting for connect() to {host}:{port}",
        "socketError.dataTimeout": "timed out after {ms} ms waiting for data from {address}",
        "socketError.deadline": "the deadline had passed",
    ]

    /// What a real peer's socket showed, in this catalogue's words.
    public func socketNote(_ note: SocketNote) -> String {
        func say(_ key: String, _ values: [String: String] = [:]) -> String { self(key, values) ?? key }
        switch note {
        case let .connectFailed(host, port, error):
            return say("socket.connectFailed", ["host": host, "port": "\(port)", "error": socketError(error)])
        case let .connected(local, remote): return say("socket.connected", ["local": local, "remote": remote])
        case let .accepted(remote, local): return say("socket.accepted", ["remote": remote, "local": local])
        case let .writeFailed(bytes, error): return say("socket.writeFailed", ["bytes": "\(bytes)", "error": socketError(error)])
        case let .notSentAfterPeerClosed(frames, bytes):
            return frames.isEmpty ? say("socket.notSentBytes", ["bytes": "\(bytes)"])
                : say("socket.notSentFrames", ["frames": frames.joined(separator: say("list.separator"))])
        case let .stoppedDraining(peer, bytes):
            return say(peer == .server ? "socket.serverKeptSending" : "socket.clientKeptSending", ["bytes": "\(bytes)"])
        case let .closed(written, read, reads):
            return say("socket.closed", ["written": "\(written)", "read": "\(read)", "reads": "\(reads)"])
        case let .handshakeDeadlinePassed(ms): return say("socket.handshakeDeadline", ["ms": "\(ms)"])
        case let .requestDeadlinePassed(ms): return say("socket.requestDeadline", ["ms": "\(ms)"])
        case let .responseDeadlinePassed(ms): return say("socket.responseDeadline", ["ms": "\(ms)"])
        case let .responseLimitReached(bytes): return say("socket.responseLimit", ["bytes": "\(bytes)"])
        case let .readFailed(error): return socketError(error)
        case let .peerClosed(peer): return say(peer == .server ? "socket.serverClosed" : "socket.clientClosed")
        }
    }

    /// Why a socket call failed, in this catalogue's words (the C library's text for an errno or a
    /// getaddrinfo code).
    public func socketError(_ error: SocketError) -> String {
        func say(_ key: String, _ values: [String: String] = [:]) -> String { self(key, values) ?? key }
        switch error {
        case let .resolve(host, .lookup(code)): return say("socketError.lookup", ["host": host, "reason": String(cString: gai_strerror(code))])
        case let .resolve(host, .noAddress): return say("socketError.noAddress", ["host": host])
        case let .resolve(host, .notIPv4): return say("socketError.notIPv4", ["host": host])
        case let .system(call, code): return say("socketError.system", ["call": call, "reason": String(cString: strerror(code))])
        case let .timeout(.connect(host, port), ms): return say("socketError.connectTimeout", ["ms": "\(ms)", "host": host, "port": "\(port)"])
        case let .timeout(.data(address), ms): return say("socketError.dataTimeout", ["ms": "\(ms)", "address": address])
        case .timeout(.deadline, _): return say("socketError.deadline")
        }
    }
}
