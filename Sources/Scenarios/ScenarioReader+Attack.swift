import Foundation
import HTTP2
import PKI
import Simulation
import TCPSim
import TLSCrypto
import TLSEngine
import Trace
import Yams

/// The `attacker` section: who besides the passive eavesdropper acts, and how.
extension ScenarioReader {
    /// Who sends each handshake message in TLS 1.2 (Certificate and Finished: both sides).
    static let messageSenders: [String: [String]] = [
        "ClientHello": ["client"], "ServerHello": ["server"], "Certificate": ["client", "server"],
        "ServerKeyExchange": ["server"], "CertificateRequest": ["server"], "ServerHelloDone": ["server"],
        "ClientKeyExchange": ["client"], "CertificateVerify": ["client"], "Finished": ["client", "server"],
        "HTTPRequest": ["client"], "HTTPResponse": ["server"],
    ]

    /// `attacker`: who besides the passive eavesdropper (always present) acts, and how.
    func attack(_ value: YAMLValue?, certs: [String: NamedCertificate], usesTLS: Bool,
                clientSuites: [CipherSuite]) throws(ScenarioError) -> Attack? {
        guard let value else { return nil }
        let m = try value.mapping(Self.attackerKeys)
        let kinds = ["eavesdropper", "steal_server_key", "mitm", "tamper", "strip_suites", "replay", "early_ccs", "weak_client_random"]
            + Self.tls13AttackKinds
        let kind = try m.required("kind", .oneOf(kinds)).oneOf(kinds)
        let keysFor: [String: [String]] = ["eavesdropper": [], "steal_server_key": [], "mitm": ["certificate"],
                                           "strip_tls13": [], "replay_early_data": [],
                                           "tamper": ["message", "sender", "offset", "value"], "strip_suites": ["suites"],
                                           "replay": ["record"], "early_ccs": [], "weak_client_random": ["process_id", "process_id_space", "clock_window_ms"]]
        let allowed = ["kind"] + (keysFor[kind] ?? [])
        for key in m.keys where !allowed.contains(key) {
            throw m.keyError(key, "key '\(key)' does not apply to attacker kind \(kind); expected one of: \(allowed.joined(separator: ", "))", "scenario.attack.keyNotForKind", ["key": key, "kind": kind, "list": allowed.joined(separator: ", ")])
        }
        // Over plain HTTP only watching and impersonating make sense: there is no handshake to
        // tamper with or strip, no record to replay, no key to steal, no certificate to present.
        if !usesTLS, kind != "eavesdropper", kind != "mitm", kind != "tamper" {
            throw m.keyError("kind", "contradiction: attacker \(kind) needs TLS, but http.tls is false", "scenario.attack.needsTLS", ["kind": kind])
        }
        if !usesTLS, m.has("certificate") {
            throw m.keyError("certificate", "contradiction: over plain HTTP (http.tls: false) the man in the middle presents no certificate", "scenario.attack.noCertificateOverHTTP")
        }
        switch kind {
        case "steal_server_key": return .stealServerKeyAfterwards
        case "mitm":
            let name = try m["certificate"].map { v throws(ScenarioError) in try certificateName(v, certs) } ?? "attacker"
            guard let cert = certs[name], let key = cert.key else {
                throw m.keyError("certificate", "the PKI has no private key for that certificate; the attacker must hold the key", "scenario.attack.noKey")
            }
            return .mitm(identity: TLSIdentity(certificateChain: [cert.certificate.der], key: key))
        case "tamper":
            let messageValue = try m.required("message", .init("a handshake message name: \(Self.handshakeMessages.joined(separator: ", "))", "scenario.expected.messageName", ["list": Self.handshakeMessages.joined(separator: ", ")]))
            let message = try messageValue.oneOf(Self.handshakeMessages)
            // Plain HTTP has no handshake: only its own bytes can be changed.
            if !usesTLS, !message.hasPrefix("HTTP") {
                throw messageValue.error("contradiction: over plain HTTP (http.tls: false) there is no \(message) to tamper with; expected HTTPRequest or HTTPResponse", "scenario.attack.nothingToTamper", ["message": message])
            }
            let senderValue = try m.required("sender", .clientOrServer)
            let sender = try senderValue.oneOf(["client", "server"])
            if let senders = Self.messageSenders[message], !senders.contains(sender) {
                throw m.keyError("sender", "contradiction: the \(sender) never sends a \(message) in TLS 1.2 (only the \(senders.joined(separator: " and ")) does); expected sender: \(senders.joined(separator: " or "))", "scenario.attack.wrongSender", ["sender": sender, "message": message, "senders": senders.joined(separator: " and "), "choices": senders.joined(separator: " or ")])
            }
            let offset = try m.required("offset", .init("a whole number in 0...65535 (byte of the message, header included)", "scenario.expected.messageOffset", ["lowest": "0", "highest": "65535"])).int(0 ... 65_535)
            let newValue = try m["value"].map { v throws(ScenarioError) in UInt8(try v.int(0 ... 255)) }
            return .tamper(TamperTarget(message: message, sender: sender == "client" ? .client : .server, offset: offset, newValue: newValue))
        case "strip_suites":
            let list = try m.required("suites", .init("a list of cipher suite names", "scenario.expected.suiteNames"))
            let strip = try suites(list)
            let items = try list.list()
            for (i, suite) in strip.enumerated() where !clientSuites.contains(suite) {
                let at = i < items.count ? items[i] : list
                throw at.error("contradiction: the client never offers \(suite.nameOrHex) (client.suites), so stripping it changes nothing", "scenario.attack.stripNotOffered", ["suite": suite.nameOrHex])
            }
            if clientSuites.allSatisfy({ strip.contains($0) }) {
                throw list.error("contradiction: stripping every suite the client offers leaves an empty ClientHello list; keep at least one", "scenario.attack.stripEverything")
            }
            return .stripSuites(strip)
        case "replay":
            return .replayApplicationData(index: try m["record"]?.int(0 ... 1000) ?? 0)
        case "early_ccs":
            return .injectEarlyChangeCipherSpec
        case "strip_tls13":
            return .stripTLS13
        case "replay_early_data":
            return .replayEarlyData
        case "weak_client_random":
            var weak = WeakRandom()
            if let v = m["process_id"] { weak.processID = UInt16(try v.int(0 ... 65_535)) }
            if let v = m["process_id_space"] { weak.processIDSpace = try v.int(1 ... 65_536) }
            if let v = m["clock_window_ms"] { weak.clockWindowMilliseconds = try v.int(0 ... 100_000) }
            return .weakClientRandom(weak)
        default:
            return nil
        }
    }
}
