import Simulation
import TLSEngine

/// `version: "1.3"`: a `kind: tls` world spoken in TLS 1.3 (RFC 8446) instead of 1.2 — the 1.3
/// suites, the client's groups and key shares, the server's groups; every 1.2 key that has no
/// meaning in 1.3 is refused with the RFC's reason.
extension ScenarioReader {
    static let tls13SuiteNames = TLS13CipherSuite.allCases.map(\.name)
    /// The groups the TLS 1.3 engine makes key shares for (RFC 8446 §4.2.7).
    static let tls13Groups: [NamedGroup] = [.x25519, .secp256r1, .secp384r1, .secp521r1]
    static var tls13GroupNames: [String] { tls13Groups.compactMap { NamedGroup.names[$0.rawValue] } }

    /// The top-level `version`: `"1.2"` (the default) or `"1.3"`; true for 1.3.
    func tls13Version(_ top: YAMLMapping) throws(ScenarioError) -> Bool {
        guard let v = top["version"] else { return false }
        return try v.oneOf(["1.2", "1.3"]) == "1.3"
    }

    /// Refuses, for a 1.3 world, the keys that only a TLS 1.2 handshake gives a meaning to, each with
    /// the RFC 8446 rule that removed what it sets.
    func refuseTLS12Keys(_ top: YAMLMapping) throws(ScenarioError) {
        for side in ["server", "client"] {
            guard let value = top[side], !value.isNull else { continue }
            let m = try value.mapping(side == "server" ? Self.serverKeys : Self.clientKeys)
            for key in ["min_version", "max_version"] where m.has(key) {
                throw m.keyError(key, "contradiction: version \"1.3\" fixes this side at TLS 1.3 (supported_versions, RFC 8446 §4.2.1); \(key) chooses among TLS 1.0–1.2 and plays no part in a 1.3 lesson",
                                 "scenario.tls13.versionRange", ["key": key])
            }
            if m.has("ems") {
                throw m.keyError("ems", "contradiction: extended_master_secret (RFC 7627) is not a TLS 1.3 extension (RFC 8446 §4.2): every secret of the 1.3 key schedule already hashes the transcript (§7.1)",
                                 "scenario.tls13.ems")
            }
            if m.has("dh_group") {
                throw m.keyError("dh_group", "contradiction: TLS 1.3 has no ServerKeyExchange and no server-chosen Diffie-Hellman prime (RFC 8446 §1.2): the group is one of the named supported_groups, its share sent in key_share (§4.2.7, §4.2.8); use server.groups",
                                 "scenario.tls13.dhGroup")
            }
            if m.has("min_dh_bits") {
                throw m.keyError("min_dh_bits", "contradiction: TLS 1.3 has no server-chosen Diffie-Hellman prime to bound, only named groups (RFC 8446 §4.2.7); use client.groups",
                                 "scenario.tls13.minDHBits")
            }
            if m.has("alpn") {
                throw m.keyError("alpn", "contradiction: TLSLab's TLS 1.3 engine does not send ALPN, so \(side).alpn would never be sent; ALPN is shown in TLS 1.2 lessons",
                                 "scenario.tls13.alpn", ["side": side])
            }
        }
        if let h = top["http"], !h.isNull {
            let m = try h.mapping(Self.httpKeys)
            if let mode = m["mode"], case .scalar(let s) = mode.node, s.string == "h2" {
                throw m.keyError("mode", "contradiction: HTTP/2 over TLS is chosen with ALPN (RFC 9113 §3.2), which TLSLab's TLS 1.3 engine does not send; use mode keep-alive or http/1.0",
                                 "scenario.tls13.h2")
            }
            if let r = m["resumption"], case .scalar(let s) = r.node, s.string == "ticket" {
                throw m.keyError("resumption", "contradiction: TLS 1.3 replaced session IDs and RFC 5077 session tickets with one PSK exchange (RFC 8446 §1.2, §2.2); write resumption: true, a PSK from the server's NewSessionTicket",
                                 "scenario.tls13.resumptionTicket")
            }
        }
        if let a = top["attacker"], !a.isNull {
            let m = try a.mapping(Self.attackerKeys)
            if let k = m["kind"], case .scalar(let s) = k.node {
                if s.string == "early_ccs" {
                    throw m.keyError("kind", "contradiction: a TLS 1.3 peer drops a ChangeCipherSpec record of the single byte 01 that arrives after the first ClientHello and before the peer's Finished (RFC 8446 §5), so the early ChangeCipherSpec attack (CVE-2014-0224) has nothing to act on",
                                     "scenario.tls13.earlyCCS")
                }
                if ["tamper", "strip_suites", "replay", "weak_client_random"].contains(s.string) {
                    throw m.keyError("kind", "contradiction: attacker \(s.string) is not modelled for version \"1.3\"; expected one of: eavesdropper, steal_server_key, mitm, strip_tls13, replay_early_data",
                                     "scenario.tls13.attack", ["kind": s.string])
                }
            }
        }
    }

    /// Refuses `groups` and `key_share` in a 1.2 world: 1.2 negotiates its curve in the suite's
    /// ServerKeyExchange, and the lesson would not use them.
    func refuseTLS13Keys(server: YAMLMapping?, client: YAMLMapping?) throws(ScenarioError) {
        for (side, m) in [("server", server), ("client", client)] {
            guard let m else { continue }
            for key in ["groups", "key_share"] where m.has(key) {
                throw m.keyError(key, "key '\(side).\(key)' applies to version \"1.3\" only (TLS 1.3 names its groups in supported_groups and sends key_share, RFC 8446 §4.2.7, §4.2.8); add version: \"1.3\" at the top level",
                                 "scenario.tls13.keyOnlyFor13", ["key": "\(side).\(key)"])
            }
        }
    }

    /// A list of TLS 1.3 suites; a TLS 1.2 suite's name is refused with the rule that removed it.
    func tls13Suites(_ value: YAMLValue) throws(ScenarioError) -> [TLS13CipherSuite] {
        var out: [TLS13CipherSuite] = []
        let list = Self.tls13SuiteNames.joined(separator: ", ")
        for item in try value.list() {
            if case .scalar(let s) = item.node, let old = CipherSuite.allImplementedWithECDSA.first(where: { $0.name == s.string }),
               let p = old.parameters {
                let name = s.string
                if p.keyExchange == .rsa {
                    throw item.error("\(name) uses RSA key transport, which TLS 1.3 removed (RFC 8446 §1.2: static RSA and Diffie-Hellman suites are gone, every public-key based key exchange is ephemeral); expected one of: \(list)",
                                     "scenario.tls13.rsaSuite", ["suite": name, "list": list])
                }
                if p.mac != .none {
                    throw item.error("\(name) protects records with CBC and HMAC, which TLS 1.3 removed (RFC 8446 §1.2: only AEAD algorithms remain); expected one of: \(list)",
                                     "scenario.tls13.cbcSuite", ["suite": name, "list": list])
                }
                throw item.error("\(name) is a TLS 1.2 suite: a TLS 1.3 suite names only the AEAD and the hash, and the key exchange is negotiated apart, in supported_groups and key_share (RFC 8446 §4.1.1, §B.4); expected one of: \(list)",
                                 "scenario.tls13.tls12Suite", ["suite": name, "list": list])
            }
            let name = try item.oneOf(Self.tls13SuiteNames)
            guard let suite = TLS13CipherSuite.allCases.first(where: { $0.name == name }) else { continue }
            guard !out.contains(suite) else {
                throw item.error("contradiction: \(name) is listed twice", "scenario.tls13.listedTwice", ["name": name])
            }
            out.append(suite)
        }
        guard !out.isEmpty else { throw value.error("expected at least one cipher suite", "scenario.tls.noSuite") }
        return out
    }

    /// A list of named groups (x25519, secp256r1, secp384r1, secp521r1), each once.
    func tls13Groups(_ value: YAMLValue, allowEmpty: Bool = false) throws(ScenarioError) -> [NamedGroup] {
        var out: [NamedGroup] = []
        for item in try value.list() {
            let name = try item.oneOf(Self.tls13GroupNames)
            guard let group = Self.tls13Groups.first(where: { NamedGroup.names[$0.rawValue] == name }) else { continue }
            guard !out.contains(group) else {
                throw item.error("contradiction: \(name) is listed twice", "scenario.tls13.listedTwice", ["name": name])
            }
            out.append(group)
        }
        guard !out.isEmpty else { throw value.error("expected at least one group", "scenario.tls13.noGroup") }
        return out
    }

    /// What the 1.3 client offers and the 1.3 server accepts: suites, groups, key shares,
    /// resumption by PSK and client authentication (set by the caller from the world).
    func tls13Options(server: YAMLMapping?, client: YAMLMapping?) throws(ScenarioError) -> TLS13Options {
        var options = TLS13Options(suites: TLS13CipherSuite.allCases, groups: [.x25519, .secp256r1], keyShareGroups: [.x25519],
                                   serverGroups: [.x25519, .secp256r1])
        if let v = client?["suites"] { options.suites = try tls13Suites(v) }
        if let v = server?["suites"] { options.serverSuites = try tls13Suites(v) }
        if let v = server?["groups"] { options.serverGroups = try tls13Groups(v) }
        if let v = client?["groups"] {
            options.groups = try tls13Groups(v)
            // Without key_share the client guesses its most preferred group.
            options.keyShareGroups = Array(options.groups.prefix(1))
        }
        if let client, let v = client["key_share"] {
            let shares = try tls13Groups(v)
            for (i, group) in shares.enumerated() where !options.groups.contains(group) {
                let name = NamedGroup.names[group.rawValue] ?? "\(group.rawValue)"
                throw (try v.list())[i].error("contradiction: key_share offers \(name), which client.groups does not list; each share must be for a group in supported_groups (RFC 8446 §4.2.8)",
                                               "scenario.tls13.shareNotOffered", ["group": name])
            }
            options.keyShareGroups = shares
        }
        return options
    }
}
