/// How connections are opened. Real TCP is `.threeWay`; `.twoWay` is the teaching strawman in which a
/// SYN alone opens the passive side (RFC 9293 §3.5 explains why this fails with old duplicate SYNs).
public enum TCPHandshakeMode: String, Hashable, Sendable {
    case threeWay
    case twoWay
}
