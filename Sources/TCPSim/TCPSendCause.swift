/// Why a TCP sent a segment: the decision the engine took at the moment it sent it (RFC 9293's
/// "send" steps, RFC 6298's retransmission, RFC 5961's challenge ACK). Carried by the packet the
/// network records as `sent`, so no reader has to infer it from the neighbouring events.
public enum TCPSendCause: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// SYN of an active OPEN (§3.10.1).
    case activeOpen
    /// SYN-ACK answering a SYN: in LISTEN (§3.10.7.2), on a simultaneous open (§3.10.7.3), again
    /// for a retransmitted SYN in SYN-RECEIVED, or a stateless SYN-cookie answer.
    case synAcknowledgment
    /// The ACK that completes the three-way handshake (§3.10.7.3).
    case handshakeACK
    /// New data from the send queue, within the peer's window (§3.8.6); a last segment may carry the FIN.
    case data
    /// A FIN alone, once all queued data is out and CLOSE was called (§3.10.4).
    case fin
    /// The retransmission timer expired: the oldest unacknowledged segment again (RFC 6298 §5.4).
    case retransmission
    /// A pure ACK for received text or a FIN, sent at once (§3.10.7.4 seventh and eighth).
    case acknowledgment
    /// A pure ACK the delayed-ACK timer sent (§3.8.6.3).
    case delayedACK
    /// A duplicate ACK for a gap: a segment arrived ahead of RCV.NXT (§3.10.7.4 seventh).
    case duplicateACK
    /// An ACK answering an unacceptable segment (an old duplicate, one outside the window) (§3.10.7.4 first).
    case unacceptableSegment
    /// The retransmitted FIN re-acknowledged in TIME-WAIT (§3.10.7.4 eighth).
    case finReacknowledged
    /// An ACK answering an ACK of data never sent (§3.10.7.4 fifth).
    case ackOfUnsentData
    /// A window update after the application read data (§3.8.6.2.2).
    case windowUpdate
    /// A zero-window probe from the persist timer (§3.8.6.1).
    case windowProbe
    /// RFC 5961 challenge ACK (an RST or SYN in the window, not exactly at RCV.NXT).
    case challengeACK
    /// An RST: a refusal, a reply to a segment for no connection, a bad ACK, or ABORT (§3.10.7.1, §3.10.5).
    case reset

    public var description: String { rawValue }
}
