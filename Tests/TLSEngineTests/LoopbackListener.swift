#if canImport(Glibc)
import Glibc

/// A TCP socket listening on 127.0.0.1 at a port the kernel picks, for a peer started by a test to
/// connect to; the caller closes `descriptor`.
struct LoopbackListener {
    let descriptor: Int32
    let port: Int

    struct Failed: Error {}

    init() throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw Failed() }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let fd = descriptor
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
        guard bound == 0, listen(fd, 1) == 0 else { close(fd); throw Failed() }
        withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { _ = getsockname(fd, $0, &length) } }
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    /// The next connection, with reads that give up after five seconds.
    func accept() throws -> LoopbackConnection {
        let connection = Glibc.accept(descriptor, nil, nil)
        guard connection >= 0 else { throw Failed() }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        return LoopbackConnection(descriptor: connection)
    }
}

/// An accepted connection: bytes out as they are, bytes in as they come (empty when the peer
/// closed or five seconds passed); the caller closes `descriptor`.
struct LoopbackConnection {
    let descriptor: Int32

    func write(_ bytes: [UInt8]) { _ = bytes.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, 0) } }

    func read() -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let n = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        return n > 0 ? Array(buffer.prefix(n)) : []
    }
}
#endif
