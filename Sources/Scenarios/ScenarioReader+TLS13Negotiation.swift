import Simulation
import TLSEngine

/// What a `version: "1.3"` lesson can set up beyond one 1.3 client and one 1.3 server: sides that
/// also speak TLS 1.2 (`versions`, RFC 8446 §4.2.1), the attacker that strips TLS 1.3 from the
/// ClientHello (`strip_tls13`, §4.1.3), 0-RTT early data (`early_data`, §2.3, §4.2.10) with the
/// server's anti-replay (§8), and the attacker that replays the 0-RTT flight (`replay_early_data`, §8).
extension ScenarioReader {
    /// The attacker kinds that only a 1.3 world has.
    static let tls13AttackKinds = ["strip_tls13", "replay_early_data"]
    static let antiReplayNames = ["none", "single_use_tickets", "client_hello_recording"]
    static let earlyDataKeys = ["max_size", "accepts", "anti_replay", "window_ms"]

    /// `versions`: a list of `"1.3"` and `"1.2"`, each once, at least one.
    func tlsVersions(_ value: YAMLValue) throws(ScenarioError) -> Set<String> {
        var out: Set<String> = []
        for item in try value.list() {
            let v = try item.oneOf(["1.3", "1.2"])
            guard out.insert(v).inserted else {
                throw item.error("contradiction: \(v) is listed twice", "scenario.tls13.listedTwice", ["name": v])
            }
        }
        guard !out.isEmpty else { throw value.error("expected at least one version: \"1.3\", \"1.2\"", "scenario.tls13.noVersion") }
        return out
    }

    /// Refuses, in a 1.2 world, the keys and attacker kinds that need a 1.3 side.
    func refuseTLS13Negotiation(server: YAMLMapping?, client: YAMLMapping?, top: YAMLMapping) throws(ScenarioError) {
        for (side, m) in [("server", server), ("client", client)] {
            guard let m else { continue }
            for key in ["versions", "early_data"] where m.has(key) {
                throw m.keyError(key, "key '\(side).\(key)' applies to version \"1.3\" only (supported_versions and early_data are TLS 1.3 extensions, RFC 8446 §4.2.1, §4.2.10); add version: \"1.3\" at the top level",
                                 "scenario.tls13.negotiationOnlyFor13", ["key": "\(side).\(key)"])
            }
        }
        if let a = top["attacker"], !a.isNull, let m = try? a.mapping(Self.attackerKeys),
           let k = m["kind"], case .scalar(let s) = k.node, Self.tls13AttackKinds.contains(s.string) {
            throw m.keyError("kind", "attacker \(s.string) acts on a TLS 1.3 ClientHello (RFC 8446 §4.1.3, §8); add version: \"1.3\" at the top level",
                             "scenario.tls13.attackOnlyFor13", ["kind": s.string])
        }
    }

    /// The 1.3 world's versions, early data and the attackers that act on them, checked against each other.
    func tls13Negotiation(_ options: inout TLS13Options, server: YAMLMapping?, client: YAMLMapping?, top: YAMLMapping,
                          attack: Attack?, resumes: Bool) throws(ScenarioError) {
        let serverVersions = try server?["versions"].map { v throws(ScenarioError) in try tlsVersions(v) } ?? ["1.3"]
        let clientVersions = try client?["versions"].map { v throws(ScenarioError) in try tlsVersions(v) } ?? ["1.3"]
        if let client, !clientVersions.contains("1.3") {
            throw client.keyError("versions", "contradiction: a client that offers TLS 1.2 alone sends no supported_versions (RFC 8446 §4.2.1): that is a version \"1.2\" lesson; list \"1.3\" too",
                                  "scenario.tls13.clientWithout13")
        }
        if let server, !clientVersions.contains("1.2"), !serverVersions.contains("1.3") {
            throw server.keyError("versions", "contradiction: the client offers TLS 1.3 alone and the server speaks TLS 1.2 alone: no version in common (RFC 8446 §4.2.1); add \"1.2\" to client.versions",
                                  "scenario.tls13.noCommonVersion")
        }
        options.clientOffersTLS12 = clientVersions.contains("1.2")
        options.serverVersions = serverVersions == ["1.3"] ? .tls13Only : serverVersions == ["1.2"] ? .tls12Only : .tls13AndTLS12
        let dual = options.clientOffersTLS12 || options.serverVersions != .tls13Only
        let early = try earlyData(server: server, client: client, resumes: resumes)
        options.earlyData = early
        if dual {
            // The dual-version engines offer no ticket and ask for no certificate.
            let side = options.clientOffersTLS12 ? "client" : "server"
            let refused: [(YAMLMapping?, String, Bool)] = [
                (top["http"].flatMap { try? $0.mapping(Self.httpKeys) }, "resumption", resumes),
                (server, "client_auth", options.clientAuthentication != .none),
                (server, "early_data", server?.has("early_data") == true),
                (client, "early_data", client?.has("early_data") == true),
            ]
            for (m, key, set) in refused where set {
                guard let m else { continue }
                throw m.keyError(key, "contradiction: \(key) is not modelled when a side also speaks TLS 1.2 (\(side).versions lists \"1.2\"): TLSLab's dual-version engines offer no ticket and ask for no certificate; remove \(key) or the \"1.2\"",
                                 "scenario.tls13.notWithTLS12", ["key": key, "side": side])
            }
        }
        guard let a = top["attacker"], !a.isNull, let m = try? a.mapping(Self.attackerKeys) else { return }
        switch attack {
        case .stripTLS13? where !options.clientOffersTLS12:
            throw m.keyError("kind", "contradiction: strip_tls13 takes TLS 1.3 out of a ClientHello that also offers TLS 1.2, so the server answers 1.2 (RFC 8446 §4.1.3); this client offers 1.3 alone: add client.versions: [\"1.3\", \"1.2\"]",
                             "scenario.tls13.stripNeedsTLS12")
        case .replayEarlyData? where early?.clientSends != true:
            throw m.keyError("kind", "contradiction: replay_early_data replays a first flight that carries 0-RTT data (RFC 8446 §8); this client sends none: set server.early_data and client.early_data: true",
                             "scenario.tls13.replayNeedsEarlyData")
        default:
            break
        }
    }

    /// `server.early_data` (the tickets allow 0-RTT, and what the server does with it) and
    /// `client.early_data` (the resuming client sends its first request as 0-RTT data).
    func earlyData(server: YAMLMapping?, client: YAMLMapping?, resumes: Bool) throws(ScenarioError) -> TLS13EarlyDataOptions? {
        let sends = try client?["early_data"]?.bool() ?? false
        guard let server, let value = server["early_data"] else {
            if sends, let client {
                throw client.keyError("early_data", "contradiction: the client sends 0-RTT data only with a ticket whose early_data extension allows it (RFC 8446 §4.2.10, §4.6.1); add server.early_data",
                                      "scenario.tls13.earlyDataNeedsServer")
            }
            return nil
        }
        if !resumes {
            throw server.keyError("early_data", "contradiction: 0-RTT data is sent with a PSK from an earlier connection's NewSessionTicket (RFC 8446 §2.3); set http.resumption: true",
                                  "scenario.tls13.earlyDataNeedsResumption")
        }
        let m = try value.mapping(Self.earlyDataKeys)
        var options = TLS13EarlyDataOptions(clientSends: sends)
        if let v = m["max_size"] { options.maxEarlyDataSize = UInt32(try v.int(1 ... 16_777_216)) }
        if let v = m["accepts"] { options.accepts = try v.bool() }
        let antiReplay = try m["anti_replay"]?.oneOf(Self.antiReplayNames) ?? "none"
        options.singleUseTickets = antiReplay == "single_use_tickets"
        if antiReplay == "client_hello_recording" {
            options.recordingWindowMilliseconds = UInt64(try m["window_ms"]?.int(1 ... 604_800_000) ?? 10_000)
        } else if m.has("window_ms") {
            throw m.keyError("window_ms", "contradiction: window_ms is the recording window of anti_replay: client_hello_recording (RFC 8446 §8.2); anti_replay is \(antiReplay)",
                             "scenario.tls13.windowWithoutRecording", ["mode": antiReplay])
        }
        return options
    }
}
