/// One TCP connection as a value (RFC 9293 §3.3): the state, the send and receive sequence
/// variables, buffers and timers. Each input is one `mutating` entry point that returns the segments
/// to send and the events that happened (`TCPOutput`); it never prints, never reads a clock (time is
/// passed in) and uses no randomness (the ISN is given to `open`).
///
/// Only `setState(_:cause:_:)` changes `state`, and it records every change as an event.
public struct TCPConnection: Hashable, Sendable {
    public let localPort: UInt16
    /// The peer's port (learnt from the SYN for a passive open).
    public internal(set) var remotePort: UInt16
    public let config: TCPConfig
    /// Changed only by `setState(_:cause:_:)` (private setter: the compiler enforces it).
    public private(set) var state: TCPState = .closed
    /// Opened by a passive OPEN (RST in SYN-RECEIVED then returns to LISTEN).
    public internal(set) var isPassive = false
    /// Why the connection failed, if it did.
    public internal(set) var error: TCPConnectionError?

    // RFC 9293 §3.3.1 send sequence variables.
    /// ISS, the initial send sequence number.
    public internal(set) var iss = SeqNumber(0)
    /// SND.UNA, the oldest unacknowledged sequence number.
    public internal(set) var sndUna = SeqNumber(0)
    /// SND.NXT, the next sequence number to send (never moved back: retransmissions resend below it).
    public internal(set) var sndNxt = SeqNumber(0)
    /// SND.WND, the peer's advertised window.
    public internal(set) var sndWnd = 0
    var sndWl1 = SeqNumber(0), sndWl2 = SeqNumber(0)
    /// The MSS the peer announced (536 when absent, RFC 9293 §3.7.1).
    public internal(set) var peerMSS = 536

    // RFC 9293 §3.3.1 receive sequence variables.
    /// IRS, the peer's initial sequence number.
    public internal(set) var irs = SeqNumber(0)
    /// RCV.NXT, the next sequence number expected.
    public internal(set) var rcvNxt = SeqNumber(0)

    /// Unacknowledged and unsent octets; `sendQueue[0]` has sequence number `sendQueueSeq`.
    var sendQueue: ByteQueue = []
    var sendQueueSeq = SeqNumber(0)
    /// CLOSE was called: send FIN once the queued data is out.
    var closeRequested = false
    /// The sequence number our FIN took, once sent.
    public internal(set) var finSeq: SeqNumber?

    /// In-order octets not yet read by the application.
    var receiveQueue: ByteQueue = []
    var reassembly = ReassemblyBuffer()
    /// The peer's FIN has been received (end of stream once `receiveQueue` is read).
    public internal(set) var peerFinished = false

    public internal(set) var rto: RTOEstimator
    /// Karn's rule: the one segment being timed, cleared when anything is retransmitted.
    var timedSeq: SeqNumber?
    var timedAt: TCPTime = 0
    var retransmissions = 0
    /// The retransmission timer expired while our SYN (or SYN-ACK) was unacknowledged (RFC 6298 §5.7).
    var synTimedOut = false
    var persistBackoff = 0
    var unackedSegments = 0  // for delayed ACK: full segments received since our last ACK
    var lastAdvertisedWindow = 0
    /// Deadlines of the four timers.
    public internal(set) var timers = Timers()
    /// The time of the current input.
    var now: TCPTime = 0

    /// The deadlines of the connection's timers (nil when not running).
    public struct Timers: Hashable, Sendable {
        public var retransmission: TCPTime?
        public var persist: TCPTime?
        public var delayedACK: TCPTime?
        public var timeWait: TCPTime?
        public init() {}
        subscript(kind: TCPTimerKind) -> TCPTime? {
            get {
                switch kind {
                case .retransmission: retransmission
                case .persist: persist
                case .delayedACK: delayedACK
                case .timeWait: timeWait
                }
            }
            set {
                switch kind {
                case .retransmission: retransmission = newValue
                case .persist: persist = newValue
                case .delayedACK: delayedACK = newValue
                case .timeWait: timeWait = newValue
                }
            }
        }
    }

    /// A connection in CLOSED; call `openActive` or `openPassive` next.
    public init(localPort: UInt16, remotePort: UInt16 = 0, config: TCPConfig = TCPConfig()) {
        precondition(config.mss > 0 && config.receiveBufferSize > 0 && config.receiveBufferSize <= 65_535,
                     "bad TCPConfig")
        self.localPort = localPort
        self.remotePort = remotePort
        self.config = config
        rto = RTOEstimator(config: config)
    }

    // MARK: - Derived values

    /// RCV.WND: free space in the receive buffer.
    public var receiveWindow: Int { max(0, config.receiveBufferSize - receiveQueue.count) }
    /// Octets readable by the application now.
    public var readableCount: Int { receiveQueue.count }
    /// Octets written but not yet acknowledged (sent or not).
    public var unacknowledgedCount: Int { sendQueue.count }
    /// The stream is over: FIN received and every octet read.
    public var isEndOfStream: Bool { peerFinished && receiveQueue.isEmpty }
    /// The effective send MSS.
    var effectiveMSS: Int { max(1, min(config.mss, peerMSS)) }
    /// The earliest running timer.
    public var nextDeadline: TCPTime? {
        // Pairwise rather than `[…].compactMap { $0 }.min()`, which built an array on every input.
        func earlier(_ a: TCPTime?, _ b: TCPTime?) -> TCPTime? {
            guard let a else { return b }
            guard let b else { return a }
            return min(a, b)
        }
        return earlier(earlier(timers.retransmission, timers.persist), earlier(timers.delayedACK, timers.timeWait))
    }

    /// RFC 6298 §5.7's RTO after a SYN timeout (the RFC 2988 initial value).
    static let synTimeoutFallbackRTO = TCPDuration.seconds(3)

    // MARK: - The one place state changes

    /// Changes state and records (from, to, cause). Entering CLOSED stops every timer; entering
    /// TIME-WAIT leaves only the 2·MSL timer running.
    mutating func setState(_ to: TCPState, cause: TCPTransitionCause, _ out: inout TCPOutput) {
        let from = state
        guard from != to else { return }
        state = to
        out.emit(.stateChanged(from: from, to: to, cause: cause))
        switch to {
        case .closed:
            for kind in [TCPTimerKind.retransmission, .persist, .delayedACK, .timeWait] { cancelTimer(kind, &out) }
        case .timeWait:
            for kind in [TCPTimerKind.retransmission, .persist, .delayedACK] { cancelTimer(kind, &out) }
            setTimer(.timeWait, at: now + 2 * config.msl, &out)
        case .established where synTimedOut:
            // RFC 6298 §5.7: "If the timer expires awaiting the ACK of a SYN segment and the TCP
            // implementation is using an RTO less than 3 seconds, the RTO MUST be re-initialized to
            // 3 seconds when data transmission begins (i.e., after the three-way handshake completes)."
            synTimedOut = false
            if config.initialRTO < Self.synTimeoutFallbackRTO {
                rto.reinitialize(to: Self.synTimeoutFallbackRTO)
                out.emit(.rtoReinitialized(rto: rto.rto))
            }
        default:
            break
        }
    }

    mutating func setTimer(_ kind: TCPTimerKind, at deadline: TCPTime, _ out: inout TCPOutput) {
        timers[kind] = deadline
        out.emit(.timerSet(kind, deadline: deadline))
    }

    mutating func cancelTimer(_ kind: TCPTimerKind, _ out: inout TCPOutput) {
        guard timers[kind] != nil else { return }
        timers[kind] = nil
        out.emit(.timerCancelled(kind))
    }

    /// Fails the connection: records the error and goes to CLOSED.
    mutating func fail(_ error: TCPConnectionError, cause: TCPTransitionCause, _ out: inout TCPOutput) {
        self.error = error
        out.emit(.error(error))
        setState(.closed, cause: cause, &out)
    }
}

extension TCPConnection {
    /// Runs `body` on this connection in place (through a dictionary's optional chaining, the stored
    /// value itself, with no copy).
    mutating func mutate<T, E: Error>(_ body: (inout TCPConnection) throws(E) -> T) throws(E) -> T {
        try body(&self)
    }
}
