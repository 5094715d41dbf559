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
        return TerminalText.escaped(say("cli.serve.log.served", [
            "peer": entry.peer, "version": entry.version ?? "?", "suite": entry.suite ?? "?",
            "ems": say(entry.extendedMasterSecret ? "cli.serve.log.yes" : "cli.serve.log.no"),
            "alpn": entry.applicationProtocol.map { say("cli.serve.log.alpn", ["protocol": $0]) } ?? "",
            "client": entry.clientSubject.map { say("cli.serve.log.client", ["subject": $0]) } ?? "",
            "request": entry.requestLine.map { say("cli.serve.log.request", ["line": $0]) } ?? "",
            "statuses": statuses,
        ]))
    }
}
