/// A TCP segment carried between two IPv4 addresses (what an IP datagram would carry).
public struct TCPPacket: Hashable, Sendable, CustomStringConvertible {
    public var source: IPv4Address
    public var destination: IPv4Address
    public var segment: TCPSegment
    /// Why the sending TCP sent it (nil: not a TCP's own decision — a segment injected by the
    /// scenario or an attacker).
    public var cause: TCPSendCause?
    public init(source: IPv4Address, destination: IPv4Address, segment: TCPSegment, cause: TCPSendCause? = nil) {
        self.source = source
        self.destination = destination
        self.segment = segment
        self.cause = cause
    }
    public var sourceEndpoint: TCPEndpoint { TCPEndpoint(source, segment.sourcePort) }
    public var destinationEndpoint: TCPEndpoint { TCPEndpoint(destination, segment.destinationPort) }
    public var description: String { "\(sourceEndpoint) > \(destinationEndpoint): \(segment)" }
}
