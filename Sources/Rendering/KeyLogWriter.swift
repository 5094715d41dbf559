import TLSEngine
import TLSCrypto

/// The NSS key log format that Wireshark, curl and OpenSSL's `-keylogfile` use: one line
/// `CLIENT_RANDOM <client_random hex> <master_secret hex>` per TLS 1.2 session.
public enum KeyLogWriter {
    public struct Session: Sendable, Hashable {
        public var clientRandom: [UInt8]
        public var masterSecret: [UInt8]

        public init(clientRandom: [UInt8], masterSecret: [UInt8]) {
            self.clientRandom = clientRandom
            self.masterSecret = masterSecret
        }
    }

    public static func text(_ sessions: [Session]) -> String {
        var seen = Set<[UInt8]>()
        var lines = ["# TLS 1.2 key log (NSS format) written by tlslab"]
        for s in sessions where s.clientRandom.count == 32 && s.masterSecret.count == 48 {
            guard seen.insert(s.clientRandom).inserted else { continue }
            lines.append("CLIENT_RANDOM \(Hex.string(s.clientRandom)) \(Hex.string(s.masterSecret))")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// One TLS 1.3 connection's secrets, by the key log's labels (CLIENT_HANDSHAKE_TRAFFIC_SECRET,
    /// SERVER_HANDSHAKE_TRAFFIC_SECRET, CLIENT_TRAFFIC_SECRET_0, SERVER_TRAFFIC_SECRET_0,
    /// EXPORTER_SECRET…): a 1.3 record is protected by a key derived from one of these, so each
    /// one Wireshark is given opens the records of its direction and phase.
    public struct TLS13Session: Sendable, Hashable {
        public var clientRandom: [UInt8]
        public var secrets: [TLS13KeyScheduleStep]

        public init(clientRandom: [UInt8], secrets: [TLS13KeyScheduleStep]) {
            self.clientRandom = clientRandom
            self.secrets = secrets
        }
    }

    /// The key log lines of TLS 1.3 sessions: `LABEL <client_random hex> <secret hex>`, one per
    /// secret that has a label, in the order the schedule made them.
    public static func text(tls13 sessions: [TLS13Session]) -> String {
        var lines = ["# TLS 1.3 key log (NSS format) written by tlslab"]
        for session in sessions where session.clientRandom.count == 32 {
            for step in session.secrets {
                guard let label = step.secret.keyLogLabel else { continue }
                lines.append("\(label) \(Hex.string(session.clientRandom)) \(Hex.string(step.value))")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
