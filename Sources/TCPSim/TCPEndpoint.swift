/// An address and a port: one end of a connection.
public struct TCPEndpoint: Hashable, Sendable, CustomStringConvertible {
    public var address: IPv4Address
    public var port: UInt16
    public init(_ address: IPv4Address, _ port: UInt16) {
        self.address = address
        self.port = port
    }
    public var description: String { "\(address):\(port)" }
}
