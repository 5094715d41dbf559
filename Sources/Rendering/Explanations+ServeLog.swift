import TLSEngine
import Trace

/// `tlslab serve`'s log line for one connection, worded from its facts (``ServeLogEntry``):
/// `PEER: VERSION SUITE EMS yes ALPN h2, client SUBJECT "GET / HTTP/1.1" → 200`, or `PEER: why it
/// failed`. Protocol names, the request line and the statuses stay as they are in every language.
/// The whole line is escaped (``TerminalText``): what the client sent cannot drive a terminal or
/// forge another log line.
extension Explanations {
    public func serveLogLine(_ entry: ServeLogEntry) -> String {
        func say(_ key: String, _ values: [String: String] = [:]) -> String {
            self(key, values) ?? Explanations.english(key, values) ?? key
        }
        if let failure = entry.failure {
            return TerminalText.escaped(say("cli.serve.log.failed", ["peer": entry.peer, "failure": exchangeFailure(failure)]))
        }
        let statuses = entry.statuses.isEmpty ? "-" : entry.statuses.joined(separator: ", ")
        func answer(_ yes: Bool) -> String { say(yes ? "cli.serve.log.yes" : "cli.serve.log.no") }
        let tls13 = entry.version == "\(ProtocolVersion.tls13)"
        return TerminalText.escaped(say(tls13 ? "cli.serve.log.served13" : "cli.serve.log.served", [
            "peer": entry.peer, "version": entry.version ?? "?", "suite": entry.suite ?? "?",
            "why": entry.versionReason.map(versionReasonNote) ?? "",
            "group": entry.group ?? "?", "psk": answer(entry.resumed), "early": answer(entry.earlyDataAccepted),
            "ems": answer(entry.extendedMasterSecret),
            "alpn": entry.applicationProtocol.map { say("cli.serve.log.alpn", ["protocol": $0]) } ?? "",
            "client": entry.clientSubject.map { say("cli.serve.log.client", ["subject": $0]) } ?? "",
            "request": entry.requestLine.map { say("cli.serve.log.request", ["line": $0]) } ?? "",
            "statuses": statuses,
        ]))
    }

    /// Why the server chose the version (RFC 8446 §4.2.1), as a parenthesis after it in the log line.
    func versionReasonNote(_ reason: VersionChoice.Reason) -> String {
        func say(_ key: String) -> String { self(key, [:]) ?? Explanations.english(key, [:]) ?? key }
        switch reason {
        case .clientOffersTLS13: return say("cli.serve.log.why.clientOffersTLS13")
        case .clientOffersOnlyOlder: return say("cli.serve.log.why.clientOffersOnlyOlder")
        case .tls13Disabled: return say("cli.serve.log.why.tls13Disabled")
        case .noSupportedVersions: return say("cli.serve.log.why.noSupportedVersions")
        // A client's reasons: a server's log never holds them.
        case .serverSelectsTLS13, .serverHelloWithoutSupportedVersions: return ""
        }
    }

    /// The page `tlslab serve` answers every request with: what this connection negotiated, one
    /// fact a line — TLS 1.3's group, PSK resumption and early data, TLS 1.2's extended master secret.
    public func servePage(_ entry: ServeLogEntry) -> String {
        func say(_ key: String, _ values: [String: String] = [:]) -> String {
            self(key, values) ?? Explanations.english(key, values) ?? key
        }
        func answer(_ yes: Bool) -> String { say(yes ? "cli.serve.log.yes" : "cli.serve.log.no") }
        let tls13 = entry.version == "\(ProtocolVersion.tls13)"
        var lines = [say("cli.serve.page.title"),
                     say("cli.serve.page.version", ["version": entry.version ?? "?"]),
                     say("cli.serve.page.suite", ["suite": entry.suite ?? "?"])]
        if let group = entry.group { lines.append(say("cli.serve.page.group", ["group": group])) }
        if tls13 {
            lines.append(say("cli.serve.page.psk", ["answer": answer(entry.resumed)]))
            lines.append(say("cli.serve.page.earlyData", ["answer": answer(entry.earlyDataAccepted)]))
        } else {
            lines.append(say("cli.serve.page.ems", ["answer": answer(entry.extendedMasterSecret)]))
        }
        if let alpn = entry.applicationProtocol { lines.append(say("cli.serve.page.alpn", ["protocol": alpn])) }
        if let name = entry.serverName { lines.append(say("cli.serve.page.serverName", ["name": name])) }
        lines.append(entry.clientSubject.map { say("cli.serve.page.client", ["subject": $0]) } ?? say("cli.serve.page.noClient"))
        // The server name, ALPN name and subject are the client's: each line is escaped on its own.
        return lines.map { TerminalText.escaped($0) }.joined(separator: "\n") + "\n"
    }
}
