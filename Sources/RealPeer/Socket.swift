#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Trace

/// `SocketError` (a Trace fact) in one English line, for the command line's own error messages and
/// the exchange's failure line (`HTTPEvent.failed`); the trace's readers word it from the catalogue.
extension SocketError: CustomStringConvertible {
    public var description: String {
        switch self {
        case let .resolve(host, .lookup(code)): return "cannot resolve \(host): \(String(cString: gai_strerror(code)))"
        case let .resolve(host, .noAddress): return "cannot resolve \(host): no address"
        case let .resolve(host, .notIPv4): return "cannot resolve \(host): not an IPv4 address"
        case let .system(call, code): return "\(call) failed: \(String(cString: strerror(code)))"
        case let .timeout(.connect(host, port), ms): return "timed out after \(ms) ms waiting for connect() to \(host):\(port)"
        case let .timeout(.data(from), ms): return "timed out after \(ms) ms waiting for data from \(from)"
        case .timeout(.deadline, _): return "the deadline had passed"
        }
    }
}

/// A connected, blocking TCP socket (IPv4 or IPv6). Reads wait with poll(2) so that every wait has
/// a time limit. Closes its descriptor when released. One owner at a time (not for concurrent use).
public final class TCPSocket: @unchecked Sendable {
    public let fd: Int32
    /// "address:port" of each end, as the kernel reports them.
    public let localAddress: String
    public let remoteAddress: String
    public private(set) var isClosed = false

    /// `remote`: the peer's address as accept(2) returned it; getpeername(2) fails once a client
    /// has reset the connection, which would leave the log saying "?".
    init(fd: Int32, remote: String? = nil) {
        self.fd = fd
        localAddress = Self.name(of: fd, peer: false)
        remoteAddress = remote ?? Self.name(of: fd, peer: true)
    }

    deinit { close() }

    /// Resolves `host` (a name or a literal address, through getaddrinfo) and connects to the first
    /// address that answers within `timeoutMilliseconds`.
    public static func connect(host: String, port: UInt16, timeoutMilliseconds: Int32 = 10_000) throws(SocketError) -> TCPSocket {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            throw .resolve(host: host, .lookup(code: status))
        }
        defer { freeaddrinfo(list) }
        var lastError = SocketError.resolve(host: host, .noAddress)
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let info = entry {
            entry = info.pointee.ai_next
            let fd = socket(info.pointee.ai_family, info.pointee.ai_socktype, info.pointee.ai_protocol)
            guard fd >= 0 else { lastError = .system(call: "socket", errno: errno); continue }
            // Non-blocking connect, so that poll(2) can bound the wait.
            let flags = fcntl(fd, F_GETFL, 0)
            _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
            var result = Glibc.connect(fd, info.pointee.ai_addr, info.pointee.ai_addrlen)
            if result != 0 && errno == EINPROGRESS {
                var p = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                let ready = poll(&p, 1, timeoutMilliseconds)
                if ready == 0 {
                    Glibc.close(fd)
                    lastError = .timeout(.connect(host: host, port: port), milliseconds: timeoutMilliseconds)
                    continue
                }
                var soError: Int32 = 0
                var length = socklen_t(MemoryLayout<Int32>.size)
                getsockopt(fd, SOL_SOCKET, SO_ERROR, &soError, &length)
                result = soError == 0 ? 0 : -1
                if soError != 0 { errno = soError }
            }
            guard result == 0 else { lastError = .system(call: "connect", errno: errno); Glibc.close(fd); continue }
            _ = fcntl(fd, F_SETFL, flags)
            return TCPSocket(fd: fd)
        }
        throw lastError
    }

    /// Waits at most `timeoutMilliseconds` for bytes; returns them, or `[]` at end of stream (the peer
    /// closed, or reset the connection).
    public func read(maximum: Int = 65_536, timeoutMilliseconds: Int32) throws(SocketError) -> [UInt8] {
        guard !isClosed else { return [] }
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        var ready: Int32
        repeat { ready = poll(&p, 1, timeoutMilliseconds) } while ready < 0 && errno == EINTR
        if ready < 0 { throw .system(call: "poll", errno: errno) }
        if ready == 0 { throw .timeout(.data(from: remoteAddress), milliseconds: timeoutMilliseconds) }
        var buffer = [UInt8](repeating: 0, count: maximum)
        var n: Int
        repeat {
            n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        } while n < 0 && errno == EINTR
        if n < 0 {
            if errno == ECONNRESET { return [] }
            throw .system(call: "recv", errno: errno)
        }
        return Array(buffer.prefix(n))
    }

    /// Writes every byte (MSG_NOSIGNAL: a closed peer is an error, not SIGPIPE).
    public func write(_ bytes: [UInt8]) throws(SocketError) {
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n < 0 {
                if errno == EINTR { continue }
                throw .system(call: "send", errno: errno)
            }
            sent += n
        }
    }

    /// SO_SNDTIMEO: a write(2) that cannot go on for this long fails (EAGAIN) instead of waiting for
    /// a peer that never reads.
    public func setSendTimeout(milliseconds: Int32) {
        var limit = timeval(tv_sec: .init(milliseconds / 1_000), tv_usec: .init(milliseconds % 1_000 * 1_000))
        _ = setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
    }

    /// shutdown(SHUT_WR): our FIN, reading stays possible.
    public func shutdownWrite() { if !isClosed { _ = shutdown(fd, Int32(SHUT_WR)) } }

    public func close() {
        guard !isClosed else { return }
        isClosed = true
        _ = Glibc.close(fd)
    }

    static func name(of fd: Int32, peer: Bool) -> String {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let ok = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                peer ? getpeername(fd, $0, &length) : getsockname(fd, $0, &length)
            }
        }
        guard ok == 0 else { return "?" }
        return describe(&storage)
    }

    static func describe(_ storage: inout sockaddr_storage) -> String {
        var host = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        var service = [CChar](repeating: 0, count: Int(NI_MAXSERV))
        let length = socklen_t(storage.ss_family == sa_family_t(AF_INET6) ? MemoryLayout<sockaddr_in6>.size : MemoryLayout<sockaddr_in>.size)
        let status = withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                getnameinfo($0, length, &host, socklen_t(host.count), &service, socklen_t(service.count),
                            NI_NUMERICHOST | NI_NUMERICSERV)
            }
        }
        guard status == 0 else { return "?" }
        let h = String(decoding: host.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let s = String(decoding: service.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return h.contains(":") ? "[\(h)]:\(s)" : "\(h):\(s)"
    }
}

/// A listening IPv4 TCP socket. Port 0 lets the kernel choose; ``port`` reads back the one bound.
public final class TCPListener: Sendable {
    public let fd: Int32
    public let port: UInt16
    public let address: String

    public init(address: String = "127.0.0.1", port: UInt16, backlog: Int32 = 1_024) throws(SocketError) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw .system(call: "socket", errno: errno) }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var sin = sockaddr_in()
        sin.sin_family = sa_family_t(AF_INET)
        sin.sin_port = in_port_t(port.bigEndian)
        guard inet_pton(AF_INET, address, &sin.sin_addr) == 1 else {
            Glibc.close(fd)
            throw .resolve(host: address, .notIPv4)
        }
        let bound = withUnsafePointer(to: &sin) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else { let e = errno; Glibc.close(fd); throw .system(call: "bind", errno: e) }
        guard listen(fd, backlog) == 0 else { let e = errno; Glibc.close(fd); throw .system(call: "listen", errno: e) }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        self.fd = fd
        self.port = UInt16(bigEndian: actual.sin_port)
        self.address = address
    }

    deinit { _ = Glibc.close(fd) }

    /// The next connection, or nil when none came within `timeoutMilliseconds` (or poll was interrupted
    /// by a signal, so that the caller can look at its stop flag).
    public func accept(timeoutMilliseconds: Int32) throws(SocketError) -> TCPSocket? {
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let ready = poll(&p, 1, timeoutMilliseconds)
        if ready < 0 { if errno == EINTR { return nil }; throw .system(call: "poll", errno: errno) }
        if ready == 0 { return nil }
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let client = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.accept(fd, $0, &length) }
        }
        if client < 0 {
            if errno == EINTR || errno == ECONNABORTED || errno == EAGAIN { return nil }
            // Out of descriptors or buffers: the client stays in the backlog until a connection closes.
            if errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM { usleep(10_000); return nil }
            throw .system(call: "accept", errno: errno)
        }
        let remote = TCPSocket.describe(&storage)
        return TCPSocket(fd: client, remote: remote == "?" ? nil : remote)
    }
}
