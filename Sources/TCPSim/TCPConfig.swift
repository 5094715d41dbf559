/// Per-connection parameters. Defaults follow the RFCs; tests shorten the timers.
public struct TCPConfig: Hashable, Sendable {
    /// The MSS we announce and use (RFC 9293 §3.7.1; 1460 for Ethernet).
    public var mss: Int = 1460
    /// Receive buffer in octets; the advertised window is what is free in it (max 65,535: no scaling).
    public var receiveBufferSize: Int = 65_535
    /// Maximum Segment Lifetime; TIME-WAIT lasts 2·MSL (RFC 9293 §3.6; MSL is 2 minutes in §3.4.2).
    public var msl: TCPTime = TCPDuration.seconds(30)
    /// RFC 6298 §2.1: the RTO before any measurement (1 s).
    public var initialRTO: TCPTime = TCPDuration.seconds(1)
    /// RFC 6298 §2.4: the lower bound (1 s; stacks often use 200 ms).
    public var minimumRTO: TCPTime = TCPDuration.seconds(1)
    /// RFC 6298 §2.5: an upper bound of at least 60 s.
    public var maximumRTO: TCPTime = TCPDuration.seconds(60)
    /// RFC 6298's G, the clock granularity.
    public var clockGranularity: TCPTime = TCPDuration.milliseconds(1)
    /// Retransmissions of one data or FIN segment before the connection is given up.
    public var maximumRetransmissions: Int = 8
    /// Retransmissions of a SYN or SYN-ACK before giving up (Linux's tcp_syn_retries is 6).
    public var maximumSYNRetransmissions: Int = 5
    /// Delayed ACK (RFC 9293 §3.8.6.3): nil acknowledges every segment at once; otherwise the delay
    /// (under 0.5 s), with at least every second full segment acknowledged at once.
    public var delayedACK: TCPTime? = nil
    public var handshake: TCPHandshakeMode = .threeWay

    public init() {}
}
