/// Readable one-line descriptions of connection events (RFC language, microsecond times).
extension TCPEvent: CustomStringConvertible {
    public var description: String {
        switch self {
        case .stateChanged(let from, let to, let cause): "\(from) → \(to) (\(cause))"
        case .timerSet(let kind, let deadline): "\(kind) timer set for \(deadline) µs"
        case .timerCancelled(let kind): "\(kind) timer cancelled"
        case .timerFired(let kind): "\(kind) timer fired"
        case let .acknowledged(from, upTo, octets, syn, fin):
            "acknowledged \(from) ..< \(upTo): \(octets) data octets" + (syn ? ", our SYN" : "") + (fin ? ", our FIN" : "")
        case .retransmitted(let s, let attempt): "retransmission #\(attempt): \(s)"
        case .rttSample(let rtt, let srtt, let rttvar, let rto): "RTT \(rtt) µs: SRTT \(srtt), RTTVAR \(rttvar), RTO \(rto)"
        case .rtoBackedOff(let rto): "RTO backed off to \(rto) µs"
        case .rtoReinitialized(let rto): "SYN timed out earlier: RTO re-initialized to \(rto) µs (RFC 6298 §5.7)"
        case .segmentDiscarded(let reason): "segment discarded: \(reason.rawValue)"
        case .dataAccepted(let seq, let count): "accepted \(count) octets at \(seq)"
        case .outOfOrderBuffered(let seq, let count): "out of order: held \(count) octets at \(seq)"
        case .unacceptableSegment(let seq, let length): "unacceptable segment seq \(seq) len \(length): dropped, ACK sent"
        case .ackOfUnsentData(let ack): "ACK \(ack) for data not yet sent: dropped, ACK sent"
        case .receiveWindowZero: "receive window is zero"
        case .windowUpdateSent(let w): "window update: \(w)"
        case .peerWindowZero: "peer's window is zero"
        case .windowProbeSent: "zero-window probe"
        case .finReacknowledgedInTimeWait: "retransmitted FIN re-ACKed in TIME-WAIT"
        case .challengeACK: "challenge ACK"
        case .peerClosed: "peer closed its side (FIN)"
        case .resetSent(let s): "RST sent: \(s)"
        case .error(let e): "error: \(e.rawValue)"
        }
    }
}
