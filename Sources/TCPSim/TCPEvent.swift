/// The timers of one connection.
public enum TCPTimerKind: String, Hashable, Sendable, CustomStringConvertible {
    /// RFC 6298 retransmission timer.
    case retransmission
    /// RFC 9293 §3.8.6.1 zero-window probing (the "persist" timer).
    case persist
    /// RFC 9293 §3.8.6.3 delayed acknowledgment.
    case delayedACK
    /// RFC 9293 §3.4.2 TIME-WAIT, 2·MSL.
    case timeWait
    public var description: String { rawValue }
}

/// Why a state changed; says in RFC terms what happened.
public enum TCPTransitionCause: String, Hashable, Sendable, CustomStringConvertible {
    case activeOpen = "active OPEN, SYN sent"
    case passiveOpen = "passive OPEN"
    case synReceived = "SYN received, SYN-ACK sent"
    case synReceivedTwoWay = "SYN received, SYN-ACK sent (two-way strawman: open at once)"
    case synAckReceived = "SYN-ACK received, ACK sent"
    case simultaneousOpen = "SYN received in SYN-SENT (simultaneous open)"
    case ackOfSYN = "ACK of our SYN received"
    case synCookieValidated = "ACK carries a valid SYN cookie"
    case close = "CLOSE, FIN sent"
    case finReceived = "FIN received, ACK sent"
    case ackOfFIN = "ACK of our FIN received"
    case resetReceived = "RST received"
    case synInWindow = "SYN received in SYN-RECEIVED (passive): back to LISTEN"
    case abort = "ABORT"
    case timeWaitExpired = "2·MSL expired"
    case retransmissionLimit = "retransmission limit reached"
    public var description: String { rawValue }
}

/// What went wrong with a connection, as the user would be told (RFC 9293 §3.10).
public enum TCPConnectionError: String, Error, Hashable, Sendable {
    /// RST in answer to our SYN: "connection refused".
    case refused = "connection refused"
    /// RST on a synchronized connection: "connection reset".
    case reset = "connection reset"
    /// Retransmissions exhausted.
    case timedOut = "connection timed out"
    /// The user aborted.
    case aborted = "connection aborted"
}

/// A typed event from one connection. The engine never prints: renderers turn these into text.
public enum TCPEvent: Hashable, Sendable {
    /// The single record of every state change.
    case stateChanged(from: TCPState, to: TCPState, cause: TCPTransitionCause)
    case timerSet(TCPTimerKind, deadline: TCPTime)
    case timerCancelled(TCPTimerKind)
    case timerFired(TCPTimerKind)
    /// A segment sent again after a timeout (`attempt` counts from 1).
    case retransmitted(TCPSegment, attempt: Int)
    /// RFC 6298 §2: a round-trip sample and the new estimator values.
    case rttSample(rtt: TCPTime, srtt: TCPTime, rttvar: TCPTime, rto: TCPTime)
    /// RFC 6298 §5.5: the RTO doubled after a timeout.
    case rtoBackedOff(rto: TCPTime)
    /// In-order payload octets accepted into the receive buffer.
    case dataAccepted(seq: SeqNumber, count: Int)
    /// A segment ahead of RCV.NXT kept for later (out-of-order).
    case outOfOrderBuffered(seq: SeqNumber, count: Int)
    /// A segment wholly before RCV.NXT (a duplicate) or outside the window: dropped and re-ACKed.
    case unacceptableSegment(seq: SeqNumber, length: Int)
    /// An ACK for something not yet sent (RFC 9293 §3.10.7.4 fifth check): dropped, ACK sent.
    case ackOfUnsentData(ack: SeqNumber)
    /// Our window is full: advertising zero.
    case receiveWindowZero
    /// A window update sent after the application read data.
    case windowUpdateSent(window: Int)
    /// The peer advertised a zero window while we have data to send.
    case peerWindowZero
    /// A zero-window probe sent by the persist timer.
    case windowProbeSent
    /// A retransmitted FIN re-acknowledged in TIME-WAIT (2·MSL restarted).
    case finReacknowledgedInTimeWait
    /// RFC 5961 §4 challenge ACK for a SYN on a synchronized connection.
    case challengeACK
    /// The peer's FIN reached the application: no more data will arrive.
    case peerClosed
    /// An RST segment sent (refusal, abort, bad ACK).
    case resetSent(TCPSegment)
    /// The connection failed and the user is told why.
    case error(TCPConnectionError)
}

/// What one input produced: the segments to transmit, in order, and the events that happened.
public struct TCPOutput: Hashable, Sendable {
    public var segments: [TCPSegment] = []
    public var events: [TCPEvent] = []
    public init() {}

    mutating func send(_ segment: TCPSegment) { segments.append(segment) }
    mutating func emit(_ event: TCPEvent) { events.append(event) }

    /// Appends another output after this one.
    public mutating func append(_ other: TCPOutput) {
        segments += other.segments
        events += other.events
    }
}

/// A user call that is not allowed in the current state (RFC 9293 §3.10 "error:" replies).
public enum TCPUserError: Error, Hashable, Sendable {
    /// "connection does not exist".
    case connectionDoesNotExist
    /// "connection closing": SEND after CLOSE.
    case connectionClosing
    /// "connection already exists".
    case connectionAlreadyExists
    /// No such host, listener or connection in the network harness.
    case unknown(String)
    /// The local port is in use.
    case portInUse(UInt16)
}
