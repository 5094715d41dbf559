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
