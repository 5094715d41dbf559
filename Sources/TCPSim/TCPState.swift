/// The eleven connection states of RFC 9293 §3.3.2, printed with their RFC names.
public enum TCPState: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    case closed = "CLOSED"
    case listen = "LISTEN"
    case synSent = "SYN-SENT"
    case synReceived = "SYN-RECEIVED"
    case established = "ESTABLISHED"
    case finWait1 = "FIN-WAIT-1"
    case finWait2 = "FIN-WAIT-2"
    case closeWait = "CLOSE-WAIT"
    case closing = "CLOSING"
    case lastAck = "LAST-ACK"
    case timeWait = "TIME-WAIT"

    public var description: String { rawValue }

    /// States in which both sequence numbers are known (RFC 9293 §3.10.7.4 "Otherwise").
    public var isSynchronized: Bool {
        switch self {
        case .closed, .listen, .synSent: false
        default: true
        }
    }

    /// The edges of RFC 9293 Figure 5 (the state diagram), plus the reset, abort and timeout edges the
    /// event-processing text (§3.10) adds: any synchronized state may fall to CLOSED. A transition
    /// outside this set is a bug (or the strawman two-way handshake, which is not TCP).
    public static func isRFCEdge(from: TCPState, to: TCPState) -> Bool {
        switch (from, to) {
        case (.closed, .listen), (.closed, .synSent),
             (.listen, .synReceived), (.listen, .synSent), (.listen, .closed),
             (.synSent, .synReceived), (.synSent, .established), (.synSent, .closed),
             (.synReceived, .established), (.synReceived, .finWait1), (.synReceived, .listen),
             (.established, .finWait1), (.established, .closeWait),
             (.finWait1, .finWait2), (.finWait1, .closing), (.finWait1, .timeWait),
             (.finWait2, .timeWait),
             (.closeWait, .lastAck),
             (.closing, .timeWait),
             (.lastAck, .closed), (.timeWait, .closed):
            true
        case (let f, .closed):
            f.isSynchronized
        default:
            false
        }
    }
}
