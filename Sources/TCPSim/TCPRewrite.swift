/// What an on-path hook (`TCPNetwork.onPath`) changed in a segment it passed on, field by field:
/// the sequence and acknowledgment numbers when they differ, and each payload octet that differs,
/// by its offset in the payload. Compared over the payload both segments have (the hooks TLSLab
/// runs keep every segment's length).
public struct TCPRewrite: Hashable, Sendable {
    /// A number the hook wrote instead of the sender's.
    public struct NumberChange: Hashable, Sendable {
        public var old: SeqNumber
        public var new: SeqNumber
    }

    /// One payload octet the hook wrote instead of the sender's.
    public struct OctetChange: Hashable, Sendable {
        /// Offset in the segment's payload (0: its first octet).
        public var offset: Int
        public var old: UInt8
        public var new: UInt8
    }

    public var seq: NumberChange?
    /// nil when both segments carry the same acknowledgment number (or neither carries one).
    public var ack: NumberChange?
    public var octets: [OctetChange]

    public init(seq: NumberChange? = nil, ack: NumberChange? = nil, octets: [OctetChange] = []) {
        self.seq = seq
        self.ack = ack
        self.octets = octets
    }

    /// The differences between the segment as sent and as the hook passed it on.
    public init(from sent: TCPSegment, to carried: TCPSegment) {
        seq = sent.seq == carried.seq ? nil : NumberChange(old: sent.seq, new: carried.seq)
        if let old = sent.ack, let new = carried.ack, old != new { ack = NumberChange(old: old, new: new) }
        octets = zip(sent.payload.indices, carried.payload.indices).compactMap { i, j in
            sent.payload[i] == carried.payload[j] ? nil : OctetChange(offset: i - sent.payload.startIndex, old: sent.payload[i], new: carried.payload[j])
        }
    }
}

/// The network's own numbering of the packets it carries, in the order they were put on the wire
/// (sent by a TCP, injected, or passed on changed by an on-path hook): which packet an event is
/// about, and what caused it. A duplicate copy keeps its packet's number.
public struct TCPPacketLinks: Hashable, Sendable {
    /// The packet the event puts on the wire, delivers, drops or duplicates.
    public var packet: Int
    /// A segment a TCP sent while handling an arrival (a SYN-ACK answering a SYN, an ACK, an RST):
    /// the number of the packet that arrived. nil when a user call or a timer sent it.
    public var answering: Int?
    /// A `forwarded` packet: the number of the packet the hook received and replaced with it.
    public var replacing: Int?

    public init(packet: Int, answering: Int? = nil, replacing: Int? = nil) {
        self.packet = packet
        self.answering = answering
        self.replacing = replacing
    }
}
