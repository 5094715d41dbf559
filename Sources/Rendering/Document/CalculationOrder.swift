import TLSCrypto
import Trace

/// The page's TLS 1.3 calculations in an order a learner can redo them: a box that takes a secret
/// of the key schedule (RFC 8446 §7.1) waits until the box that derives that secret has been shown,
/// on the same side and connection. The engine notes some key-schedule steps after it has used
/// their secrets (the client installs its keys for server_application_traffic_secret_0 before it
/// notes that secret's step; the server checks a PSK binder before it notes binder_key's), and a
/// box must not take a value the page has not yet shown how to get.
struct CalculationOrder {
    struct Side: Hashable {
        var actor: Actor
        var connection: Int
    }

    /// The kinds that take a key-schedule secret by its name and so may wait for it.
    static let waits: Set<Calculation.Kind> = [.tls13DeriveSecret, .tls13ExpandLabel, .tls13TrafficKeys, .tls13Finished, .tls13PSKBinder]

    private var derived: [Side: Set<String>] = [:]
    private var waiting: [Side: [String: [Calculation]]] = [:]

    /// The calculations to show now, in order: `made` less those still waiting for a secret, each
    /// released one right after the box that derives what it waited for.
    mutating func place(_ made: [Calculation], connection: Int) -> [Calculation] {
        var out: [Calculation] = []
        for c in made { add(c, side: Side(actor: c.actor, connection: connection), to: &out) }
        return out
    }

    /// What still waits once the run is over (a secret whose step was never shown), by side.
    var unreleased: [(actor: Actor, calculations: [Calculation])] {
        waiting.sorted { ($0.key.connection, $0.key.actor.rawValue) < ($1.key.connection, $1.key.actor.rawValue) }
            .map { ($0.key.actor, $0.value.values.flatMap { $0 }) }
            .filter { !$0.calculations.isEmpty }
    }

    private mutating func add(_ c: Calculation, side: Side, to out: inout [Calculation]) {
        if Self.waits.contains(c.kind),
           let missing = c.inputs.first(where: { TLS13Secret(rawValue: $0.name) != nil && !derived[side, default: []].contains($0.name) }) {
            waiting[side, default: [:]][missing.name, default: []].append(c)
            return
        }
        out.append(c)
        for output in c.outputs {
            derived[side, default: []].insert(output.name)
            if let released = waiting[side]?.removeValue(forKey: output.name) {
                for r in released { add(r, side: side, to: &out) }
            }
        }
    }
}
