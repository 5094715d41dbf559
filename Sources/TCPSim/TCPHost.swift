/// One simulated host: its connections, listeners and ISN generator. A reference, so that the network
/// changes a host's tables where they are stored (a host value copied out of the network's table would
/// make the next change copy its whole connection table).
final class TCPHost {
    let address: IPv4Address
    var config: TCPConfig
    var isn: ISNGenerator
    var connections: [TCPConnectionID: TCPConnection] = [:]
    var listeners: [UInt16: TCPListener] = [:]
    /// The last state of connections that reached CLOSED.
    var closed: [TCPConnectionID: TCPConnection] = [:]
    var nextEphemeralPort: UInt16 = 49_152

    init(address: IPv4Address, config: TCPConfig, isn: ISNGenerator) {
        self.address = address
        self.config = config
        self.isn = isn
    }
}
