import Simulation
import TCPSim
import TLSCrypto
import TLSEngine

/// The trace as JSON Lines: one object per event, then a summary object. The contract (other
/// tools read it):
/// - every object has `"t"` (virtual seconds), `"actor"`, `"event"`;
/// - `"tls_message"`: `"direction"`, `"message"` (e.g. `"ClientHello"`), `"bytes"` (hex of the whole
///   handshake message with its 4-byte header; `"01"` for ChangeCipherSpec), `"action"`;
/// - `"tcp_segment"`: `"direction"` (`"client->server"`), `"seq"`, `"ack"`, `"flags"` (`"SA"`),
///   `"len"`, `"action"` (`"sent"`, `"received"` or `"dropped"`);
/// - last: `{"event":"summary", …}` with hex `client_random`, `server_random`, `premaster_secret`,
///   `master_secret`, `client_verify_data`, `server_verify_data`, the IANA `cipher_suite`,
///   `extended_master_secret`, and `outcome`; a secret a side never obtained is `null`.
public struct JSONLinesRenderer: Sendable {
    public init() {}

    public func render(_ trace: Trace) -> [String] {
        var lines: [String] = []
        for event in trace.events {
            if let fields = fields(event) {
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

    func fields(_ event: TraceEvent) -> [(String, JSONValue)]? {
        switch event.kind {
        case .phase(let name):
            return [("event", .string("phase")), ("name", .string(name))]
        case .http(let h):
            switch h {
            case .requestSent(let r): return [("event", .string("http")), ("action", .string("request_sent")), ("text", .string(r))]
            case .requestReceived(let r): return [("event", .string("http")), ("action", .string("request_received")), ("text", .string(r))]
            case .responseSent(let r): return [("event", .string("http")), ("action", .string("response_sent")), ("text", .string(r))]
            case .responseReceived(let r): return [("event", .string("http")), ("action", .string("response_received")), ("text", .string(r))]
            }
        case .tcp(let kind):
            switch kind {
            case .sent(let p): return segment(p, action: "sent", sender: event.actor)
            case .delivered(let p): return segment(p, action: "received", sender: peer(of: event.actor))
            case .dropped(let p, let reason):
                var f = segment(p, action: "dropped", sender: event.actor)
                f.append(("reason", .string(reason.rawValue)))
                return f
            case .connection(_, .stateChanged(let from, let to, _)):
                return [("event", .string("tcp_state")), ("from", .string("\(from)")), ("to", .string("\(to)"))]
            case .connection(_, .retransmitted(let seg, let attempt)):
                return [("event", .string("tcp_retransmit")), ("seq", .number(String(seg.seq.rawValue))), ("attempt", .number(String(attempt)))]
            default:
                return nil
            }
        case .tls(let tls):
            return tlsFields(tls, actor: event.actor)
        }
    }

    func segment(_ p: TCPPacket, action: String, sender: Actor) -> [(String, JSONValue)] {
        let s = p.segment
        let dir = sender == .network ? "\(p.source)->\(p.destination)" : direction(from: sender)
        return [("event", .string("tcp_segment")), ("direction", .string(dir)), ("seq", .number(String(s.seq.rawValue))),
                ("ack", s.ack.map { .number(String($0.rawValue)) } ?? .null), ("flags", .string(s.flags.compact)),
                ("len", .number(String(s.payload.count))), ("action", .string(action))]
    }

    func tlsFields(_ event: TLSEvent, actor: Actor) -> [(String, JSONValue)]? {
        switch event {
        case .handshakeSent(let m, let bytes):
            return message(name(m), bytes: bytes, action: "sent", sender: actor)
        case .handshakeReceived(let m, let bytes):
            return message(name(m), bytes: bytes, action: "received", sender: peer(of: actor))
        case .changeCipherSpecSent:
            return message("ChangeCipherSpec", bytes: [1], action: "sent", sender: actor)
        case .changeCipherSpecReceived:
            return message("ChangeCipherSpec", bytes: [1], action: "received", sender: peer(of: actor))
        case .alertSent(let alert, let cause):
            return [("event", .string("tls_alert")), ("action", .string("sent")), ("level", .string("\(alert.level)")),
                    ("description", .string(alert.alertDescription.name ?? "\(alert.alertDescription)")), ("cause", .string(cause))]
        case .alertReceived(let alert):
            return [("event", .string("tls_alert")), ("action", .string("received")), ("level", .string("\(alert.level)")),
                    ("description", .string(alert.alertDescription.name ?? "\(alert.alertDescription)"))]
        case .stateChanged(_, let from, let to):
            return [("event", .string("tls_state")), ("from", .string(from.rawValue)), ("to", .string(to.rawValue))]
        case .negotiated(let n):
            return [("event", .string("tls_negotiated")), ("version", .string("\(n.version)")),
                    ("cipher_suite", .string(n.cipherSuite.name ?? n.cipherSuite.hex)),
                    ("extended_master_secret", .bool(n.extendedMasterSecret)), ("resumed", .bool(n.resumed))]
        case .derived(let value):
            return derived(value)
        case .certificateDecision(let peer, let length, let accepted, let detail):
            return [("event", .string("certificate_decision")), ("peer", .string(peer.rawValue)), ("chain_length", .number(String(length))),
                    ("accepted", .bool(accepted)), ("detail", .string(detail))]
        case .handshakeCompleted(let resumed):
            return [("event", .string("tls_handshake_complete")), ("resumed", .bool(resumed))]
        case .applicationDataSent(let d):
            return [("event", .string("tls_application_data")), ("action", .string("sent")), ("len", .number(String(d.count)))]
        case .applicationDataReceived(let d):
            return [("event", .string("tls_application_data")), ("action", .string("received")), ("len", .number(String(d.count)))]
        default:
            return nil
        }
    }

    func message(_ name: String, bytes: [UInt8], action: String, sender: Actor) -> [(String, JSONValue)] {
        [("event", .string("tls_message")), ("direction", .string(direction(from: sender))), ("message", .string(name)),
         ("bytes", .string(Hex.string(bytes))), ("action", .string(action))]
    }

    func derived(_ value: DerivedValue) -> [(String, JSONValue)] {
        func hex(_ b: [UInt8]) -> JSONValue { .string(Hex.string(b)) }
        switch value {
        case .rsaPreMasterEncryption(let pre, let padded, let ct, _):
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
        return JSONObject([
            ("t", .number(seconds(end))), ("actor", .string("network")), ("event", .string("summary")),
            ("client_random", hex(s.clientRandom)), ("server_random", hex(s.serverRandom)),
            ("premaster_secret", hex(s.preMasterSecret)), ("master_secret", hex(s.masterSecret)),
            ("client_verify_data", hex(s.clientVerifyData)), ("server_verify_data", hex(s.serverVerifyData)),
            ("cipher_suite", s.cipherSuite.map { .string($0.name ?? $0.hex) } ?? .null),
            ("version", s.version.map { .string("\($0)") } ?? .null),
            ("extended_master_secret", .bool(s.extendedMasterSecret)), ("resumed", .bool(s.resumed)),
            ("outcome", .string(s.outcome)),
        ])
    }

    func name(_ m: HandshakeMessage) -> String { TextRenderer().messageName(m) }
}

/// A minimal JSON writer: ordered keys, strings escaped per RFC 8259.
enum JSONValue {
    case string(String), number(String), bool(Bool), null
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
                if scalar.value < 0x20 {
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
