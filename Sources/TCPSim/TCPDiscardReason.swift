/// Why a connection (or a listener) dropped an arriving segment without any reply: the silent
/// "drop the segment and return" steps of RFC 9293 §3.10.7.
public enum TCPDiscardReason: String, Hashable, Sendable {
    /// §3.10.7.2 first: an incoming RST in LISTEN is ignored.
    case resetInListen = "RST in LISTEN ignored"
    /// §3.10.7.2 fourth: neither SYN, ACK nor RST reached a LISTEN.
    case noSYNInListen = "neither SYN nor ACK in LISTEN"
    /// §3.10.7.3 first: an RST whose ACK does not acknowledge our SYN.
    case resetWithUnacceptableACK = "RST with an unacceptable ACK in SYN-SENT"
    /// §3.10.7.3 second: an RST without ACK in SYN-SENT.
    case resetWithoutACKInSynSent = "RST without ACK in SYN-SENT"
    /// §3.10.7.3 fifth: neither SYN nor RST in SYN-SENT.
    case noSYNInSynSent = "neither SYN nor RST in SYN-SENT"
    /// §3.10.7.4 first: an RST that fails the acceptability test.
    case resetOutOfWindow = "RST outside the receive window"
    /// §3.10.7.4 fifth: a segment without the ACK bit on a synchronized connection.
    case noACK = "segment without ACK"
}
