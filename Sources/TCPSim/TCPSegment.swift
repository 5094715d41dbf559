/// One TCP segment as a value (RFC 9293 §3.1): ports, sequence and acknowledgment numbers, control
/// bits, window, the MSS option (RFC 9293 §3.2, kind 2) and the payload.
///
/// `ack` is present exactly when the ACK bit is set: the initializer keeps the two consistent.
public struct TCPSegment: Hashable, Sendable, CustomStringConvertible {
    public var sourcePort: UInt16
    public var destinationPort: UInt16
    /// RFC 9293: Sequence Number, the first sequence number of this segment (the ISN when SYN is set).
    public var seq: SeqNumber
    /// RFC 9293: Acknowledgment Number, the next sequence number the sender expects; nil without ACK.
    public private(set) var ack: SeqNumber?
    /// The control bits; ACK is set exactly when `ack` is non-nil.
    public private(set) var flags: TCPFlags
    /// RFC 9293: Window, the number of octets the sender is willing to accept (no window scaling here).
    public var window: UInt16
    /// RFC 9293 §3.7.1: the Maximum Segment Size option (only meaningful on SYN segments).
    public var mss: UInt16?
    /// RFC 9293: Urgent Pointer (carried for round trips; the simulator never sets URG).
    public var urgentPointer: UInt16
    public var payload: [UInt8]

    public init(
        sourcePort: UInt16, destinationPort: UInt16, seq: SeqNumber, ack: SeqNumber? = nil,
        flags: TCPFlags = [], window: UInt16 = 0, mss: UInt16? = nil, urgentPointer: UInt16 = 0,
        payload: [UInt8] = []
    ) {
        self.sourcePort = sourcePort
        self.destinationPort = destinationPort
        self.seq = seq
        self.ack = ack
        var f = flags
        if ack != nil { f.insert(.ack) } else { f.remove(.ack) }
        self.flags = f
        self.window = window
        self.mss = mss
        self.urgentPointer = urgentPointer
        self.payload = payload
    }

    /// RFC 9293 §3.4 SEG.LEN: payload octets plus one for SYN and one for FIN.
    public var segmentLength: Int {
        payload.count + (flags.contains(.syn) ? 1 : 0) + (flags.contains(.fin) ? 1 : 0)
    }

    /// The sequence number just after this segment (SEG.SEQ + SEG.LEN).
    public var endSeq: SeqNumber { seq + segmentLength }

    /// Sets or clears the acknowledgment number (and the ACK bit with it).
    public mutating func setAck(_ ack: SeqNumber?) {
        self.ack = ack
        if ack != nil { flags.insert(.ack) } else { flags.remove(.ack) }
    }

    /// Sets or clears control bits other than ACK (ACK follows `ack`).
    public mutating func setFlag(_ flag: TCPFlags, _ on: Bool) {
        let f = flag.subtracting(.ack)
        if on { flags.formUnion(f) } else { flags.subtract(f) }
    }

    /// tcpdump style: `Flags [S.], seq 300, ack 101, win 65535, options [mss 1460], length 0`.
    public var description: String {
        var s = "Flags [\(flags.tcpdumpNotation)], seq \(seq)"
        if payload.count > 0 { s += ":\(seq + payload.count)" }
        if let ack { s += ", ack \(ack)" }
        s += ", win \(window)"
        if let mss { s += ", options [mss \(mss)]" }
        s += ", length \(payload.count)"
        return s
    }
}
