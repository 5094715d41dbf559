import TLSCrypto
import TLSEngine

extension Trace {
    /// Every TLS 1.3 session's client_random and key-schedule steps, as the client side of each
    /// connection computed them (RFC 8446 §7.1), in the order the sessions began: what a TLS 1.3
    /// NSS key log lists (`CLIENT_HANDSHAKE_TRAFFIC_SECRET <client_random> <secret>`, …).
    public var tls13SessionSecrets: [(clientRandom: [UInt8], steps: [TLS13KeyScheduleStep])] {
        keyLogEntries.compactMap { entry in
            if case .tls13(let steps) = entry.secrets { return (entry.clientRandom, steps) }
            return nil
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
