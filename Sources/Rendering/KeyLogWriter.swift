import TLSEngine

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
}
