/// An IPv4 address (RFC 791), used for the TCP pseudo-header (RFC 9293 §3.1) and for routing in
/// the simulated network.
public struct IPv4Address: Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt32
    public init(_ rawValue: UInt32) { self.rawValue = rawValue }
    public init(_ a: UInt8, _ b: UInt8, _ c: UInt8, _ d: UInt8) {
        rawValue = UInt32(a) << 24 | UInt32(b) << 16 | UInt32(c) << 8 | UInt32(d)
    }

    /// The four octets in network order.
    public var octets: [UInt8] {
        [UInt8(truncatingIfNeeded: rawValue >> 24), UInt8(truncatingIfNeeded: rawValue >> 16),
         UInt8(truncatingIfNeeded: rawValue >> 8), UInt8(truncatingIfNeeded: rawValue)]
    }

    public var description: String { octets.map(String.init).joined(separator: ".") }
}

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

/// A TCP segment carried between two IPv4 addresses (what an IP datagram would carry).
public struct TCPPacket: Hashable, Sendable, CustomStringConvertible {
    public var source: IPv4Address
    public var destination: IPv4Address
    public var segment: TCPSegment
    public init(source: IPv4Address, destination: IPv4Address, segment: TCPSegment) {
        self.source = source
        self.destination = destination
        self.segment = segment
    }
    public var sourceEndpoint: TCPEndpoint { TCPEndpoint(source, segment.sourcePort) }
    public var destinationEndpoint: TCPEndpoint { TCPEndpoint(destination, segment.destinationPort) }
    public var description: String { "\(sourceEndpoint) > \(destinationEndpoint): \(segment)" }
}
