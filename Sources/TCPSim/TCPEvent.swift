/// A typed event from one connection. The engine never prints: renderers turn these into text.
public enum TCPEvent: Hashable, Sendable {
    /// The single record of every state change.
    case stateChanged(from: TCPState, to: TCPState, cause: TCPTransitionCause)
    case timerSet(TCPTimerKind, deadline: TCPTime)
    case timerCancelled(TCPTimerKind)
    case timerFired(TCPTimerKind)
    /// SND.UNA advanced: the peer acknowledged sequence numbers `from` ..< `upTo` — `dataOctets`
    /// octets of data, and our SYN and/or FIN when `syn` / `fin` (each takes one sequence number).
    case acknowledged(from: SeqNumber, upTo: SeqNumber, dataOctets: Int, syn: Bool, fin: Bool)
    /// A segment sent again after a timeout (`attempt` counts from 1).
    case retransmitted(TCPSegment, attempt: Int)
    /// RFC 6298 §2: a round-trip sample and the new estimator values.
    case rttSample(rtt: TCPTime, srtt: TCPTime, rttvar: TCPTime, rto: TCPTime)
    /// RFC 6298 §5.5: the RTO doubled after a timeout.
    case rtoBackedOff(rto: TCPTime)
    /// RFC 6298 §5.7: the SYN (or SYN-ACK) timed out while RTO was under 3 s, so RTO is set to 3 s
    /// as data transfer begins.
    case rtoReinitialized(rto: TCPTime)
    /// In-order payload octets accepted into the receive buffer.
    case dataAccepted(seq: SeqNumber, count: Int)
    /// A segment ahead of RCV.NXT kept for later (out-of-order).
    case outOfOrderBuffered(seq: SeqNumber, count: Int)
    /// A segment wholly before RCV.NXT (a duplicate) or outside the window: dropped and re-ACKed.
    case unacceptableSegment(seq: SeqNumber, length: Int)
    /// A segment dropped without any reply (RFC 9293 §3.10.7's silent "drop the segment" steps).
    case segmentDiscarded(TCPDiscardReason)
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
    /// RFC 5961 challenge ACK: for a SYN on a synchronized connection (§4), or an RST in the window
    /// but not exactly at RCV.NXT (§3.2).
    case challengeACK
    /// The peer's FIN reached the application: no more data will arrive.
    case peerClosed
    /// An RST segment sent (refusal, abort, bad ACK).
    case resetSent(TCPSegment)
    /// The connection failed and the user is told why.
    case error(TCPConnectionError)
}
