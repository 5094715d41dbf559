import HTTP2
import PKI
import TCPSim
import TLSCrypto
import TLSEngine
import Trace

/// The trace as JSON Lines: one object per event, then a summary object. The contract (other
/// tools read it; README "The JSON Lines contract" says the same):
/// - every object has `"t"` (virtual seconds), `"actor"`, `"event"`;
/// - `"tls_message"`: `"direction"`, `"message"` (e.g. `"ClientHello"`), `"bytes"` (hex of the whole
///   handshake message with its 4-byte header; `"01"` for ChangeCipherSpec), `"action"`;
///   `"tls_alert"`: `"direction"`, `"level"`, `"description"`, `"action"`. A message or alert is
///   `"sent"` once and then `"received"` once or `"dropped"` once, with a `"reason"`;
/// - `"tcp_segment"`: `"direction"` (`"client->server"`), `"seq"`, `"ack"`, `"flags"` (`"SA"`),
///   `"len"`, `"action"` (`"sent"`, `"received"` or `"dropped"`);
/// - `"http"` and `"http2"` objects that send or receive (`"action"` ending in `_sent` or
///   `_received`, and `"request_retried"`) have a `"direction"` too;
/// - `"chain_validation"`: the ordered checks per link behind a `"certificate_decision"`;
/// - last: `{"event":"summary", …}` with hex `client_random`, `server_random`, `premaster_secret`,
///   `master_secret`, `client_verify_data`, `server_verify_data`, the IANA `cipher_suite`,
///   `extended_master_secret`, and `outcome`. Per side, never merged: the randoms and verify_data
///   as their sender sent them; premaster and master as the client derived them (`null` only
///   when the client never did; the server's view only in a trace without the client).
///
/// Extensions for runs with an attacker or several connections: `"direction"` names the two ends
/// of the object's connection, sender first — behind a MITM `"client->attacker"`,
/// `"attacker->client"`, `"attacker->server"`, `"server->attacker"`; a segment an on-path
/// attacker injects has `"injected_by":"attacker"`, the network's late copy of an old segment
/// `"injected_by":"network"`; a segment an on-path attacker kept has `"intercepted_by":"attacker"`,
/// and the changed copy it sent in its place is a `"tcp_rewritten"` object (the `tcp_segment` keys,
/// `"rewritten_by":"attacker"`, and `"changes"`: `seq` and `ack` as `old`/`new` when changed,
/// `payload` as `offset`/`old`/`new` hex bytes); `"attack"` objects (`"kind"`: `tamper`,
/// `strip_suites`, `replay`, `key_stolen`, `seed_search`, `learned`, `failed`, `position`);
/// `"compute"` objects (virtual CPU: `operations` in English words, `operation_ids` as identifiers); a `"connection"` number on events of connections after the
/// first; and in the summary `connections`, `full_handshakes`, `abbreviated_handshakes`,
/// `requests`, `responses`, `round_trips`, `last_response_t`, `cpu_time` — and for HTTP/2 runs
/// `streams`, `hpack_raw_bytes`, `hpack_encoded_bytes`, `pushed_responses`, plus `"http2"` objects
/// per frame.
/// The summary's secrets and outcome are the first connection's.
public struct JSONLinesRenderer: Sendable {
    public init() {}

    public func render(_ trace: Trace) -> [String] {
        var lines: [String] = []
        let replaced = PacketIndex(trace).replaced
        for event in trace.events {
            if var fields = fields(event, participants: trace.participants, replaced: replaced) {
                // Runs with several connections number them (from 0); single-connection output is unchanged.
                if event.connection > 0 { fields.append(("connection", .number(String(event.connection)))) }
                lines.append(JSONObject([("t", .number(seconds(event.time))), ("actor", .string(event.actor.rawValue))] + fields).text)
            }
        }
        lines.append(summary(trace).text)
        return lines
    }

    func seconds(_ micros: Int64) -> String {
        let whole = micros / 1_000_000, frac = micros % 1_000_000
        let digits = String(frac)
        return "\(whole).\(String(repeating: "0", count: 6 - digits.count))\(digits)"
    }

    func direction(from sender: Actor) -> String {
        sender == .client ? "client->server" : sender == .server ? "server->client" : "\(sender.rawValue)"
    }

    func peer(of actor: Actor) -> Actor { actor == .client ? .server : .client }

    /// `replaced`: the packet numbers of the segments an attacker on the path kept, passing on its own copy.
    func fields(_ event: TraceEvent, participants: [IPv4Address: Actor] = [:], replaced: Set<Int> = []) -> [(String, JSONValue)]? {
        switch event.kind {
        case .attack(let a):
            return attack(a)
        case .compute(let operations, let duration):
            return [("event", .string("compute")), ("operations", .array(operations.map { .string(Explanations.english.operationName($0)) })),
                    ("operation_ids", .array(operations.map { .string($0.identifier) })),
                    ("duration", .number(seconds(duration)))]
        case .phase(let phase):
            return [("event", .string("phase")), ("id", .string(phase.identifier)),
                    ("name", .string(Explanations.english.phaseName(phase, connection: event.connection)))]
        case .chainValidation(let v):
            return chainValidation(v)
        case .lesson(let l):
            return lesson(l)
        case .dropped(let undelivered):
            let direction = "\(event.counterpart.rawValue)->\(event.actor.rawValue)"
            var f: [(String, JSONValue)]
            switch undelivered.content {
            case .handshake(let m, let bytes):
                f = message(name(m), bytes: bytes, action: "dropped", direction: direction)
            case .changeCipherSpec:
                f = message("ChangeCipherSpec", bytes: [1], action: "dropped", direction: direction)
            case .alert(let alert):
                f = [("event", .string("tls_alert")), ("action", .string("dropped")), ("direction", .string(direction)),
                     ("level", .string("\(alert.level)")), ("description", .string(alert.alertDescription.nameOrHex))]
            }
            f.append(("reason", .string(Explanations.english.dropReason(undelivered.reason, receiver: event.actor))))
            return f
        case .http(let h):
            return withDirection(httpFields(h), event)
        case .http2(let h):
            return withDirection(http2(h), event)
        case .tcp(let kind):
            return tcpFields(kind, event: event, participants: participants, replaced: replaced)
        case .tls(let tls):
            return tlsFields(tls, actor: event.actor, peer: event.counterpart)
        }
    }

    /// An HTTP or HTTP/2 line with its `direction`: sender->receiver on the event's connection
    /// (behind a MITM the attacker is the client's peer), as for TLS messages; none where nothing is sent or received.
    func withDirection(_ fields: [(String, JSONValue)], _ event: TraceEvent) -> [(String, JSONValue)] {
        guard let action = fields.first(where: { $0.0 == "action" })?.1, case .string(let a) = action else { return fields }
        if a.hasSuffix("_sent") || a == "request_retried" {
            return fields + [("direction", .string("\(event.actor.rawValue)->\(event.counterpart.rawValue)"))]
        }
        if a.hasSuffix("_received") {
            return fields + [("direction", .string("\(event.counterpart.rawValue)->\(event.actor.rawValue)"))]
        }
        return fields
    }

    func httpFields(_ h: HTTPEvent) -> [(String, JSONValue)] {
        switch h {
        case .requestSent(let r): return [("event", .string("http")), ("action", .string("request_sent")), ("text", .string(r))]
        case .requestRetried(let r, let refused):
            return [("event", .string("http")), ("action", .string("request_retried")), ("text", .string(r)),
                    ("refused_stream", .number(String(refused)))]
        case .requestReceived(let r): return [("event", .string("http")), ("action", .string("request_received")), ("text", .string(r))]
        case .responseSent(let r): return [("event", .string("http")), ("action", .string("response_sent")), ("text", .string(r))]
        case .responseReceived(let r): return [("event", .string("http")), ("action", .string("response_received")), ("text", .string(r))]
        case .failed(let why): return [("event", .string("http")), ("action", .string("failed")), ("reason", .string(Explanations.english.exchangeFailure(why)))]
        }
    }

    func tcpFields(_ kind: TCPNetworkEvent.Kind, event: TraceEvent, participants: [IPv4Address: Actor], replaced: Set<Int> = []) -> [(String, JSONValue)]? {
        func named(_ address: IPv4Address, or fallback: Actor) -> String { (participants[address] ?? fallback).rawValue }
        switch kind {
        case .sent(let p):
            var f = segment(p, action: "sent", sender: event.actor, receiver: named(p.destination, or: peer(of: event.actor)))
            // The attacker on the path kept it: its changed copy (`tcp_rewritten`) went on instead.
            if let number = event.packetLinks?.packet, replaced.contains(number) { f.append(("intercepted_by", .string("attacker"))) }
            return f
        case .forwarded(let p, let rewrite):
            var f = segment(p, action: "sent", sender: participants[p.source] ?? .client, receiver: named(p.destination, or: .server))
            f[0] = ("event", .string("tcp_rewritten"))
            f.append(("rewritten_by", .string("attacker")))
            var changes: [(String, JSONValue)] = []
            if let seq = rewrite.seq { changes.append(("seq", .object([("old", .number("\(seq.old.rawValue)")), ("new", .number("\(seq.new.rawValue)"))]))) }
            if let ack = rewrite.ack { changes.append(("ack", .object([("old", .number("\(ack.old.rawValue)")), ("new", .number("\(ack.new.rawValue)"))]))) }
            changes.append(("payload", .array(rewrite.octets.map { c in
                .object([("offset", .number("\(c.offset)")), ("old", .string(Hex.string([c.old]))), ("new", .string(Hex.string([c.new])))])
            })))
            f.append(("changes", .object(changes)))
            return f
        case .delivered(let p):
            return segment(p, action: "received", sender: participants[p.source] ?? peer(of: event.actor), receiver: event.actor.rawValue)
        case .injected(let p):
            var f = segment(p, action: "sent", sender: participants[p.source] ?? .client, receiver: named(p.destination, or: .server))
            // The attacker's segment, or the network's late copy of an earlier connection's (an old duplicate).
            f.append(("injected_by", .string(event.actor == .network ? "network" : "attacker")))
            return f
        case .dropped(let p, let reason):
            var f = segment(p, action: "dropped", sender: event.actor, receiver: named(p.destination, or: peer(of: event.actor)))
            f.append(("reason", .string(reason.rawValue)))
            return f
        case .connection(_, .stateChanged(let from, let to, _)):
            return [("event", .string("tcp_state")), ("from", .string("\(from)")), ("to", .string("\(to)"))]
        case .connection(_, .retransmitted(let seg, let attempt)):
            return [("event", .string("tcp_retransmit")), ("seq", .number(String(seg.seq.rawValue))), ("attempt", .number(String(attempt)))]
        default:
            return nil
        }
    }

    /// `"event":"chain_validation"`: `peer`, `result` (proceed / unspecified /
    /// recoverableTrustFailure / fatalTrustFailure), `path` (subjects, leaf first) and `checks` in
    /// order, each with `depth`, `kind`, `passed`, `detail`, and for signatures `hash1`, `hash2`,
    /// `pkcs1_block` and `digest_info` (hex), plus `ecdsa_r` and `ecdsa_s` for an ECDSA signature.
    /// The AFNetworking release as JSON names it: its version ("2.5.1", "2.5.2"; "2.5.3+" for the
    /// behaviour of 2.5.3 and later).
    static let afNetworkingRelease: [AFSecurityPolicy.Behaviour: String] = [.current: "2.5.3+", .v2_5_1: "2.5.1", .v2_5_2: "2.5.2"]

    func chainValidation(_ v: ChainValidationTrace) -> [(String, JSONValue)] {
        let r = v.result
        let checks: [JSONValue] = r.checks.map { c in
            var pairs: [(String, JSONValue)] = [("depth", .number(String(c.depth))), ("kind", .string(c.kind.rawValue)),
                                                ("subject", .string(c.subject)), ("passed", .bool(c.passed)),
                                                ("detail", .string(Explanations.english.chainCheckDetail(c)))]
            // The finding as typed facts: its name and values (the catalogue's placeholders).
            let (key, values) = Explanations.english.chainCheckWords(c.finding)
            pairs.append(("finding", .string(String(key.dropFirst("check.".count)))))
            if !values.isEmpty { pairs.append(("finding_values", .object(values.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) }))) }
            if let sig = c.signature {
                pairs += [("algorithm", .string("\(sig.algorithm)")), ("hash1", .string(Hex.string(sig.hash1))),
                          ("hash2", sig.hash2.map { .string(Hex.string($0)) } ?? .null),
                          ("pkcs1_block", sig.recoveredBlock.map { .string(Hex.string($0.encodedMessage)) } ?? .null),
                          ("digest_info", sig.recoveredBlock.map { .string(Hex.string($0.digestInfo)) } ?? .null)]
                if let r = sig.ecdsaR, let s = sig.ecdsaS { pairs += [("ecdsa_r", .string(Hex.string(r))), ("ecdsa_s", .string(Hex.string(s)))] }
            }
            return .object(pairs)
        }
        return [("event", .string("chain_validation")), ("peer", .string(v.peer.rawValue)), ("result", .string(r.result.rawValue)),
                ("path", .array(r.path.map { .string("\($0.subject)") })), ("anchor_store", r.anchorStore.map { .string(Explanations.english.trustStoreName($0)) } ?? .null),
                ("checks", .array(checks))]
            + (v.afNetworkingRelease.map { [("afnetworking_release", .string(Self.afNetworkingRelease[$0] ?? $0.rawValue))] } ?? [])
    }

    func segment(_ p: TCPPacket, action: String, sender: Actor, receiver: String) -> [(String, JSONValue)] {
        let s = p.segment
        let dir = sender == .network ? "\(p.source)->\(p.destination)" : "\(sender.rawValue)->\(receiver)"
        return [("event", .string("tcp_segment")), ("direction", .string(dir)), ("seq", .number(String(s.seq.rawValue))),
                ("ack", s.ack.map { .number(String($0.rawValue)) } ?? .null), ("flags", .string(s.flags.compact)),
                ("len", .number(String(s.payload.count))), ("action", .string(action))]
    }

    func tlsFields(_ event: TLSEvent, actor: Actor, peer: Actor) -> [(String, JSONValue)]? {
        switch event {
        case .handshakeSent(let m, let bytes):
            return message(name(m), bytes: bytes, action: "sent", direction: "\(actor.rawValue)->\(peer.rawValue)")
        case .handshakeReceived(let m, let bytes):
            return message(name(m), bytes: bytes, action: "received", direction: "\(peer.rawValue)->\(actor.rawValue)")
        case .changeCipherSpecSent:
            return message("ChangeCipherSpec", bytes: [1], action: "sent", direction: "\(actor.rawValue)->\(peer.rawValue)")
        case .changeCipherSpecReceived:
            return message("ChangeCipherSpec", bytes: [1], action: "received", direction: "\(peer.rawValue)->\(actor.rawValue)")
        case .alertSent(let alert, let cause):
            return [("event", .string("tls_alert")), ("action", .string("sent")), ("direction", .string("\(actor.rawValue)->\(peer.rawValue)")),
                    ("level", .string("\(alert.level)")),
                    ("description", .string(alert.alertDescription.nameOrHex)),
                    ("cause", .string(Explanations.english.alertCause(cause)))]
        case .alertReceived(let alert):
            return [("event", .string("tls_alert")), ("action", .string("received")), ("direction", .string("\(peer.rawValue)->\(actor.rawValue)")),
                    ("level", .string("\(alert.level)")),
                    ("description", .string(alert.alertDescription.nameOrHex))]
        case .stateChanged(_, let from, let to):
            return [("event", .string("tls_state")), ("from", .string(from.rawValue)), ("to", .string(to.rawValue))]
        case .negotiated(let n):
            return [("event", .string("tls_negotiated")), ("version", .string("\(n.version)")),
                    ("cipher_suite", .string(n.cipherSuite.nameOrHex)),
                    ("extended_master_secret", .bool(n.extendedMasterSecret)), ("resumed", .bool(n.resumed))]
                + (n.applicationProtocol.map { [("alpn", .string($0.description))] } ?? [])
                + (n.encryptThenMAC ? [("encrypt_then_mac", .bool(true))] : [])
        case .derived(let value):
            return derived(value)
        case .certificateDecision(let peer, let length, let accepted, let account, _):
            var fields: [(String, JSONValue)] = [("event", .string("certificate_decision")), ("peer", .string(peer.rawValue)),
                                                  ("chain_length", .number(String(length))), ("accepted", .bool(accepted)),
                                                  ("detail", .string(Explanations.english.certificateAccount(account)))]
            if case .decidedBy(let reasons, _) = account {
                // The policy's steps as typed facts: each step's catalogue key and its English line.
                fields.append(("steps", .array(reasons.map { reason in
                    .object([("key", .string(Explanations.english.trustReasonKey(reason).0)),
                             ("text", .string(Explanations.english.trustReason(reason)))])
                })))
            }
            return fields
        case .handshakeCompleted(let resumed):
            return [("event", .string("tls_handshake_complete")), ("resumed", .bool(resumed))]
        case .sessionTicketRefused(let reason):
            return [("event", .string("tls_session_ticket_refused")), ("reason", .string(reason.rawValue))]
        case .sessionExpired(let expiry):
            return [("event", .string("tls_session_expired")), ("offer", .string(expiry.offer.rawValue)),
                    ("age", expiry.ageSeconds.map { .number(String($0)) } ?? .null),
                    ("lifetime", .number(String(expiry.lifetimeSeconds)))]
        case .resumptionDeclined(let declined):
            return [("event", .string("tls_resumption_declined")), ("offer", .string(declined.offer.rawValue)),
                    ("rule", .string(declined.rule.rawValue))]
        case .sessionTicketExpired(let expiry):
            return [("event", .string("tls_session_ticket_expired")), ("age", .number(String(expiry.ageSeconds))),
                    ("lifetime_hint", .number(String(expiry.lifetimeHintSeconds)))]
        case .applicationDataSent(let d):
            return [("event", .string("tls_application_data")), ("action", .string("sent")), ("len", .number(String(d.count)))]
        case .applicationDataReceived(let d):
            return [("event", .string("tls_application_data")), ("action", .string("received")), ("len", .number(String(d.count)))]
        case .tls13(let fact):
            return tls13Fields(fact)
        case .versionChosen(let choice):
            return [("event", .string("tls_version_chosen")), ("version", .string("\(choice.version)")),
                    ("reason", .string(choice.reason.identifier))]
        case .downgradeSentinelWritten(let sentinel):
            return [("event", .string("tls_downgrade_sentinel")), ("version", .string("\(sentinel.version)")),
                    ("sentinel", .string(Hex.string(sentinel.bytes))), ("server_random", .string(Hex.string(sentinel.serverRandom)))]
        default:
            return nil
        }
    }

    func message(_ name: String, bytes: [UInt8], action: String, direction: String) -> [(String, JSONValue)] {
        [("event", .string("tls_message")), ("direction", .string(direction)), ("message", .string(name)),
         ("bytes", .string(Hex.string(bytes))), ("action", .string(action))]
    }

    func derived(_ value: DerivedValue) -> [(String, JSONValue)] {
        func hex(_ b: [UInt8]) -> JSONValue { .string(Hex.string(b)) }
        switch value {
        case .rsaPreMasterEncryption(let pre, let padded, let ct, _, _, _):
            return [("event", .string("tls_derived")), ("name", .string("rsa_premaster_encryption")), ("premaster_secret", hex(pre)),
                    ("padded_block", hex(padded)), ("ciphertext", hex(ct))]
        case .rsaPreMasterDecryption(let ct, let dec, let pre):
            return [("event", .string("tls_derived")), ("name", .string("rsa_premaster_decryption")), ("ciphertext", hex(ct)),
                    ("decrypted", dec.map(hex) ?? .null), ("premaster_secret", hex(pre))]
        case .dhAgreement(let p, let g, let group, let x, let y, let peer, let pre):
            return [("event", .string("tls_derived")), ("name", .string("dh_agreement")), ("group", .string(group)), ("p", hex(p)),
                    ("g", hex(g)), ("private_exponent", hex(x)), ("public_value", hex(y)), ("peer_public_value", hex(peer)),
                    ("premaster_secret", hex(pre))]
        case .ecdhAgreement(let curve, let priv, let pub, let peer, let pre):
            return [("event", .string("tls_derived")), ("name", .string("ecdh_agreement")), ("curve", .string("\(curve)")),
                    ("private_key", hex(priv)), ("public_key", hex(pub)), ("peer_public_key", hex(peer)), ("premaster_secret", hex(pre))]
        case .transcriptHash(let purpose, let length, let hash):
            return [("event", .string("tls_derived")), ("name", .string("transcript_hash")), ("purpose", .string(purpose)),
                    ("transcript_length", .number(String(length))), ("hash", hex(hash))]
        case .masterSecret(let pre, let label, let seed, let prf, let master):
            return [("event", .string("tls_derived")), ("name", .string("master_secret")), ("premaster_secret", hex(pre)),
                    ("label", .string(label)), ("seed", hex(seed)), ("prf", .string("\(prf)")), ("master_secret", hex(master))]
        case .keyBlock(let seed, let prf, let block, let keys):
            return [("event", .string("tls_derived")), ("name", .string("key_block")), ("seed", hex(seed)), ("prf", .string("\(prf)")),
                    ("key_block", hex(block)), ("client_write_key", hex(keys.clientWriteKey)), ("server_write_key", hex(keys.serverWriteKey)),
                    ("client_write_mac_key", hex(keys.clientWriteMACKey)), ("server_write_mac_key", hex(keys.serverWriteMACKey)),
                    ("client_write_iv", hex(keys.clientWriteIV)), ("server_write_iv", hex(keys.serverWriteIV))]
        case .verifyData(let sender, let label, let hash, let data):
            return [("event", .string("tls_derived")), ("name", .string("verify_data")), ("sender", .string(sender.rawValue)),
                    ("label", .string(label)), ("handshake_hash", hex(hash)), ("verify_data", hex(data))]
        }
    }

    func summary(_ trace: Trace) -> JSONObject {
        let s = trace.summary
        let end = trace.events.last?.time ?? 0
        func hex(_ b: [UInt8]?) -> JSONValue { b.map { .string(Hex.string($0)) } ?? .null }
        var fields: [(String, JSONValue)] = [
            ("t", .number(seconds(end))), ("actor", .string("network")), ("event", .string("summary")),
            ("client_random", hex(s.clientRandom)), ("server_random", hex(s.serverRandom)),
            ("premaster_secret", hex(s.preMasterSecret)), ("master_secret", hex(s.masterSecret)),
            ("client_verify_data", hex(s.clientVerifyData)), ("server_verify_data", hex(s.serverVerifyData)),
            ("cipher_suite", s.cipherSuite.map { .string($0.nameOrHex) } ?? .null),
            ("version", s.version.map { .string("\($0)") } ?? .null),
            ("extended_master_secret", .bool(s.extendedMasterSecret)), ("resumed", .bool(s.resumed)),
        ]
        // Only when ALPN agreed on a protocol (RFC 7301), so runs without it print what they always did.
        if let alpn = s.applicationProtocol { fields.append(("alpn", .string(alpn.description))) }
        fields.append(("outcome", .string(s.runOutcome.word)))
        // Only for a real peer's failed exchange (`tlslab connect`/`serve`).
        if let why = s.exchangeFailure { fields.append(("failure", .string(Explanations.english.exchangeFailure(why)))) }
        return JSONObject(fields + statistics(trace))
    }

    /// Counts over the run (several connections, requests, round trips, virtual time).
    func statistics(_ trace: Trace) -> [(String, JSONValue)] {
        let st = trace.statistics
        return [("connections", .number(String(st.connections))), ("full_handshakes", .number(String(st.fullHandshakes))),
                ("abbreviated_handshakes", .number(String(st.abbreviatedHandshakes))), ("requests", .number(String(st.requests))),
                ("responses", .number(String(st.responses))), ("round_trips", .number(String(st.roundTrips))),
                ("round_trips_to_first_byte", st.roundTripsToFirstByte.map { .number(String($0)) } ?? .null),
                ("last_response_t", st.lastResponseTime.map { .number(seconds($0)) } ?? .null),
                ("cpu_time", .number(seconds(st.cpuTime)))]
            + (st.usedHTTP2 ? [("streams", .number(String(st.http2Streams))), ("hpack_raw_bytes", .number(String(st.hpackRawBytes))),
                               ("hpack_encoded_bytes", .number(String(st.hpackEncodedBytes))),
                               ("pushed_responses", .number(String(st.pushedResponses))),
                               ("http2_error", st.http2Error.map { .string($0) } ?? .null)] : [])
    }

    /// `"event":"http2"`: `action` (`chosen` with `protocol`, `preface_sent`, `preface_received`,
    /// `frame_sent`, `frame_received`, `connection_error` and `connection_error_received` (the peer's
    /// GOAWAY) with `error` and `reason`, `stream_error` with `stream`, `error`, `reason`); a frame's
    /// `type`, `stream`, `flags`, `length`, and for a header block `headers` ("name: value"),
    /// `hpack_raw` (octets of the names and values) and `hpack_encoded` (octets of the block);
    /// SETTINGS: `settings` (`name`/`value` objects, an ACK's empty); WINDOW_UPDATE: `increment`;
    /// RST_STREAM: `error`; GOAWAY: `last_stream` and `error` (error codes by name, RFC 9113 §7).
    func http2(_ h: HTTP2Event) -> [(String, JSONValue)] {
        var f: [(String, JSONValue)] = [("event", .string("http2"))]
        func frame(_ t: HTTP2FrameTrace, _ action: String) {
            f += [("action", .string(action)), ("type", .string(t.typeName)), ("stream", .number(String(t.streamID))),
                  ("flags", .array(t.flagNames.map { .string($0) })), ("length", .number(String(t.length)))]
            if case .pushPromise(let promised, _) = t.frame.payload { f.append(("promised_stream", .number(String(promised)))) }
            switch t.frame.payload {
            case .goaway(let last, let code, _):
                f += [("last_stream", .number(String(last))), ("error", .string(HTTP2ErrorCode(rawValue: code)?.name ?? String(code)))]
            case .rstStream(let code):
                f.append(("error", .string(HTTP2ErrorCode(rawValue: code)?.name ?? String(code))))
            case .settings(let list):
                f.append(("settings", .array(list.map { id, value in
                    .object([("name", .string(HTTP2Setting(rawValue: id)?.name ?? "0x" + String(id, radix: 16))), ("value", .number(String(value)))])
                })))
            case .windowUpdate(let increment):
                f.append(("increment", .number(String(increment))))
            default:
                break
            }
            if let hpack = t.hpack {
                f += [("headers", .array(hpack.fields.map { .string($0.description) })),
                      ("hpack_raw", .number(String(hpack.rawSize))), ("hpack_encoded", .number(String(hpack.encodedSize)))]
            }
        }
        switch h {
        case .chosen(let how): f += [("action", .string("chosen")), ("protocol", .string(how.rawValue))]
        case .prefaceSent: f.append(("action", .string("preface_sent")))
        case .prefaceReceived: f.append(("action", .string("preface_received")))
        case .frameSent(let t): frame(t, "frame_sent")
        case .frameReceived(let t): frame(t, "frame_received")
        case .connectionError(let code, let why):
            f += [("action", .string("connection_error")), ("error", .string(code.name)), ("reason", .string(Explanations.english.http2Problem(why)))]
        case .streamError(let stream, let code, let why):
            f += [("action", .string("stream_error")), ("stream", .number(String(stream))), ("error", .string(code.name)),
                  ("reason", .string(Explanations.english.http2Problem(why)))]
        case .peerConnectionError(let code, let why):
            f += [("action", .string("connection_error_received")), ("error", .string(code.name)), ("reason", .string(why))]
        }
        return f
    }

    func attack(_ a: AttackEvent) -> [(String, JSONValue)] {
        func hex(_ b: [UInt8]) -> JSONValue { .string(Hex.string(b)) }
        var f: [(String, JSONValue)] = [("event", .string("attack"))]
        switch a {
        case .position(let position):
            f += [("kind", .string("position")), ("detail", .string(Explanations.english.attackPosition(position)))]
        case .tampered(let message, let sender, let offset, let old, let new):
            f += [("kind", .string("tamper")), ("message", .string(message)), ("sender", .string(sender.rawValue)),
                  ("offset", .number(String(offset))), ("old", hex([old])), ("new", hex([new]))]
        case .strippedSuites(let removed, let kept, let how):
            f += [("kind", .string("strip_suites")), ("removed", .array(removed.map { .string($0.nameOrHex) })),
                  ("kept", .array(kept.map { .string($0.nameOrHex) })), ("detail", .string(Explanations.english.stripping(how))),
                  ("how", .string(how.identifier))]
        case .strippedTLS13(let removed, let bytes):
            f += [("kind", .string("strip_tls13")), ("removed", .array(removed.map { .string("\($0)") })),
                  ("padding_bytes", .number(String(bytes)))]
        case .replayed(let bytes, let seq):
            f += [("kind", .string("replay")), ("record_bytes", .number(String(bytes))), ("seq", .number(String(seq)))]
        case .injectedChangeCipherSpec(let seq):
            f += [("kind", .string("early_ccs")), ("seq", .number(String(seq)))]
        case .recordedEarlyFlight(let bytes, let records):
            f += [("kind", .string("recorded_early_flight")), ("bytes", .number(String(bytes))), ("records", .number(String(records)))]
        case .replayedEarlyFlight(let bytes):
            f += [("kind", .string("replayed_early_flight")), ("bytes", .number(String(bytes)))]
        case .keyStolen(let bits):
            f += [("kind", .string("key_stolen")), ("modulus_bits", .number(String(bits)))]
        case .seedSearch(let candidates, let found):
            f += [("kind", .string("seed_search")), ("candidates", .number(String(candidates))),
                  ("seed", found.map { .number(String($0)) } ?? .null)]
        case .learned(let secret, let value, let how):
            f += [("kind", .string("learned")), ("secret", .string(secret.rawValue)), ("value", hex(value)),
                  ("how", .string(Explanations.english.secretSource(how)))]
        case .failed(let why):
            f += [("kind", .string("failed")), ("detail", .string(Explanations.english.attackFailure(why)))]
        }
        return f
    }

    /// The message's RFC name (`ClientHello`), as its type names it.
    func name(_ m: HandshakeMessage) -> String { m.type.messageName }
}

/// A minimal JSON writer: ordered keys, strings escaped per RFC 8259.
indirect enum JSONValue {
    case string(String), number(String), bool(Bool), null, array([JSONValue])

    /// A nested object, written verbatim (the `.number` case writes its text as is).
    static func object(_ pairs: [(String, JSONValue)]) -> JSONValue { .number(JSONObject(pairs).text) }
}

struct JSONObject {
    var pairs: [(String, JSONValue)]
    init(_ pairs: [(String, JSONValue)]) { self.pairs = pairs }

    var text: String {
        "{" + pairs.map { "\(Self.quote($0.0)):\(Self.encode($0.1))" }.joined(separator: ",") + "}"
    }

    static func encode(_ v: JSONValue) -> String {
        switch v {
        case .string(let s): return quote(s)
        case .number(let n): return n
        case .bool(let b): return b ? "true" : "false"
        case .null: return "null"
        case .array(let items): return "[" + items.map(encode).joined(separator: ",") + "]"
        }
    }

    static func quote(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                // A peer's text (a certificate's subject, a header) may hold C1 and bidirectional
                // controls: escaped as the terminal text escapes them, so no viewer acts on them.
                if scalar.value < 0x20 || TerminalText.needsEscape(scalar) {
                    let h = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - h.count) + h
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
