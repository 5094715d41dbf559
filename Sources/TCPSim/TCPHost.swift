/// One simulated host: its connections, listeners and ISN generator.
struct TCPHost {
    let address: IPv4Address
    var config: TCPConfig
    var isn: ISNGenerator
    var connections: [TCPConnectionID: TCPConnection] = [:]
    var listeners: [UInt16: TCPListener] = [:]
    /// The last state of connections that reached CLOSED.
    var closed: [TCPConnectionID: TCPConnection] = [:]
    var nextEphemeralPort: UInt16 = 49_152
}
