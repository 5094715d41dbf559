import TLSCrypto
import TLSEngine

extension Trace {
    /// Every TLS 1.3 session's client_random and key-schedule steps, as the client side of each
    /// connection computed them (RFC 8446 §7.1), in the order the sessions began: what a TLS 1.3
    /// NSS key log lists (`CLIENT_HANDSHAKE_TRAFFIC_SECRET <client_random> <secret>`, …).
    public var tls13SessionSecrets: [(clientRandom: [UInt8], steps: [TLS13KeyScheduleStep])] {
        struct Side: Hashable { var actor: Actor, connection: Int, peer: Actor? }
        var randoms: [Side: [UInt8]] = [:]
        var order: [Side] = []
        var steps: [Side: [TLS13KeyScheduleStep]] = [:]
        for e in events {
            guard case .tls(let tls) = e.kind else { continue }
            let side = Side(actor: e.actor, connection: e.connection, peer: e.peer)
            switch tls {
            case .handshakeSent(.clientHello(let ch), _) where randoms[side] == nil:
                randoms[side] = ch.random.bytes
                order.append(side)
            case .tls13(.keySchedule(let step)) where randoms[side] != nil:
                steps[side, default: []].append(step)
            default:
                break
            }
        }
        return order.compactMap { side in
            guard let r = randoms[side], let s = steps[side], !s.isEmpty else { return nil }
            return (r, s)
        }
    }

    /// Each side's key-schedule steps on one connection, in order (the `tls13_secret` objects).
    public func tls13Steps(of actor: Actor, connection: Int = 0) -> [TLS13KeyScheduleStep] {
        events.compactMap { e in
            guard e.actor == actor, e.connection == connection, case .tls(.tls13(.keySchedule(let step))) = e.kind else { return nil }
            return step
        }
    }
}
