import Simulation
import TLSEngine
import Trace

/// The facts that tell a TLS 1.3 run apart (and that a 1.2 run has too, with its own values): the
/// key-exchange group, whether a HelloRetryRequest came, whether a PSK was accepted, and which parts
/// of the handshake an eavesdropper on the path reads — each read from the trace's events and from
/// the bytes the network carried.
extension ScenarioRunner {
    /// What `eavesdropper_reads` can name: a handshake message whose bytes crossed the wire as they
    /// are (in the clear) and what it shows.
    static let wireReadings = ["server_name", "cipher_suite", "server_certificate", "certificate_request", "client_certificate"]

    static func handshakeFacts(_ trace: Trace, into f: inout [String: FactValue]) {
        f["group"] = .string(group(trace) ?? "none")
        let tls13 = trace.events.compactMap { e -> TLS13Event? in
            if e.connection == 0, e.actor == .client, case .tls(.tls13(let event)) = e.kind { return event }
            return nil
        }
        f["hello_retry_request"] = .bool(tls13.contains { if case .helloRetryRequested = $0 { true } else { false } })
        f["psk_accepted"] = .bool(trace.events.contains {
            if $0.actor == .client, case .tls(.tls13(.pskAccepted)) = $0.kind { true } else { false }
        })
        earlyDataFacts(trace, into: &f)
        var reads: Set<String> = []
        for m in trace.sentHandshakeMessages(connection: 0) where m.inClear {
            switch (m.actor, m.type) {
            case (.client, .clientHello) where m.namesAServer: reads.insert("server_name")
            case (.server, .serverHello): reads.insert("cipher_suite")
            case (.server, .certificate): reads.insert("server_certificate")
            case (.server, .certificateRequest): reads.insert("certificate_request")
            case (.client, .certificate): reads.insert("client_certificate")
            default: break
            }
        }
        f["eavesdropper_reads"] = .list(reads.sorted())
    }

    /// The named group of the first connection's key exchange: a TLS 1.3 key_share both sides used
    /// (RFC 8446 §4.2.8), or a TLS 1.2 ECDHE ServerKeyExchange's curve (RFC 8422 §5.4).
    static func group(_ trace: Trace) -> String? {
        for e in trace.events where e.connection == 0 && e.actor == .client {
            if case .tls(.tls13(.sharedSecret(let group, _, _, _, _))) = e.kind { return NamedGroup.names[group.rawValue] }
        }
        for e in trace.events where e.connection == 0 && e.actor == .server {
            if case .tls(.handshakeSent(.serverKeyExchange(let ske), _)) = e.kind, case .ecdhe(let p) = ske.params {
                return NamedGroup.names[p.namedGroup.rawValue]
            }
        }
        return nil
    }

    /// Why a server refused offered 0-RTT data, as `early_data_refused` names it.
    static let earlyDataRefusals = TLS13EarlyDataRefusal.allCases.map(\.rawValue)

    /// 0-RTT and the downgrade sentinel, over every connection of the run (the replaying attacker's
    /// included): how many times the server accepted early data (RFC 8446 §4.2.10) and why it refused
    /// it each time it did; whether the server's ServerHello.random carried DOWNGRD and the client
    /// refused it (§4.1.3).
    static func earlyDataFacts(_ trace: Trace, into f: inout [String: FactValue]) {
        var accepted = 0
        var refused: [String] = []
        var sentinel = false, detected = false
        for e in trace.events {
            guard case .tls(let event) = e.kind else { continue }
            switch (e.actor, event) {
            case (.server, .tls13(.earlyDataAccepted)): accepted += 1
            case (.server, .tls13(.earlyDataRejected(let why))): refused.append(why.rawValue)
            case (.server, .downgradeSentinelWritten): sentinel = true
            case (.client, .tls13(.downgradeDetected)): detected = true
            default: break
            }
        }
        f["early_data_accepted"] = .int(accepted)
        f["early_data_refused"] = .list(refused)
        f["downgrade_sentinel"] = .bool(sentinel)
        f["downgrade_detected"] = .bool(detected)
    }
}
