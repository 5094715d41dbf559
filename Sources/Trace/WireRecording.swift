import TCPSim

/// One direction of a TCP connection as an observer rebuilds it from the segments it saw:
/// payload placed by sequence number relative to the SYN, retransmissions merged.
public struct StreamBuffer: Sendable {
    public init() {}

    public private(set) var isn: SeqNumber?
    /// The bytes known from offset 0 without a gap.
    public private(set) var bytes: [UInt8] = []
    private var pending: [Int: [UInt8]] = [:]

    /// Adds a segment; returns the stream offset of its first payload byte (nil before the SYN).
    @discardableResult
    public mutating func add(_ segment: TCPSegment) -> Int? {
        if segment.flags.contains(.syn) {
            if isn == nil { isn = segment.seq }
            return nil
        }
        guard let isn else { return nil }
        let offset = Int(segment.seq - (isn + 1))
        guard offset >= 0, !segment.payload.isEmpty else { return offset }
        pending[offset] = segment.payload
        var merged = true
        while merged {
            merged = false
            for (start, chunk) in pending where start <= bytes.count {
                pending[start] = nil
                if start + chunk.count > bytes.count {
                    bytes += chunk[(bytes.count - start)...]
                }
                merged = true
            }
        }
        return offset
    }

    /// The absolute sequence number of a stream offset.
    public func seq(ofOffset offset: Int) -> SeqNumber? { isn.map { $0 + 1 + offset } }
}

/// A TCP connection as an eavesdropper recorded it: who opened it, both byte streams, and when
/// the first byte of each direction was seen.
public struct RecordedFlow: Sendable {
    public var client: TCPEndpoint
    public var server: TCPEndpoint
    public var clientToServer: [UInt8]
    public var serverToClient: [UInt8]
    /// Virtual time (µs) of the first segment carrying client data (the ClientHello).
    public var firstClientDataTime: Int64?
}

extension Trace {
    /// Every TCP connection whose SYN crossed the wire, rebuilt from the segments as sent (what an
    /// eavesdropper next to the sender records), in the order they were opened.
    public var recordedFlows: [RecordedFlow] {
        struct Key: Hashable { var a: TCPEndpoint, b: TCPEndpoint }
        struct Builder {
            var client: TCPEndpoint, server: TCPEndpoint
            var up = StreamBuffer(), down = StreamBuffer()
            var firstData: Int64?
        }
        var order: [Key] = []
        var flows: [Key: Builder] = [:]
        for event in events {
            let packet: TCPPacket
            switch event.kind {
            case .tcp(.sent(let p)), .tcp(.injected(let p)): packet = p
            default: continue
            }
            let src = packet.sourceEndpoint, dst = packet.destinationEndpoint
            let srcFirst = (src.address.rawValue, src.port) < (dst.address.rawValue, dst.port)
            let key = srcFirst ? Key(a: src, b: dst) : Key(a: dst, b: src)
            let seg = packet.segment
            if flows[key] == nil {
                guard seg.flags.contains(.syn), seg.ack == nil else { continue }
                flows[key] = Builder(client: src, server: dst)
                order.append(key)
            }
            guard var b = flows[key] else { continue }
            if src == b.client {
                b.up.add(seg)
                if b.firstData == nil, !seg.payload.isEmpty { b.firstData = event.time }
            } else {
                b.down.add(seg)
            }
            flows[key] = b
        }
        return order.compactMap { key in
            flows[key].map { RecordedFlow(client: $0.client, server: $0.server, clientToServer: $0.up.bytes,
                                          serverToClient: $0.down.bytes, firstClientDataTime: $0.firstData) }
        }
    }
}
