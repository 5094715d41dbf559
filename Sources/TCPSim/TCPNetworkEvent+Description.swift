/// A one-line, packetdrill/tcpdump-like rendering of network events, for debugging and test output
/// (the Rendering module owns the real trace formats).
extension TCPNetworkEvent: CustomStringConvertible {
    public var description: String {
        let t = "\(time / 1_000_000).\(String(100_000_000 + (time % 1_000_000) / 1).dropFirst(3))"
        switch kind {
        case .sent(let p): return "\(t) > \(p)"
        case .delivered(let p): return "\(t) < \(p)"
        case .dropped(let p, let reason): return "\(t) x \(p) (\(reason.rawValue))"
        case .forwarded(let p, _): return "\(t) ~ \(p) (changed on the path)"
        case .duplicated(let p): return "\(t) + \(p) (duplicated)"
        case .injected(let p): return "\(t) ! \(p) (injected)"
        case .synCookieSent(let p): return "\(t) > \(p) (SYN cookie)"
        case .synCookieAccepted(let id): return "\(t) \(id): SYN cookie valid"
        case .connection(let id, let e): return "\(t) \(id.local): \(e)"
        }
    }
}
