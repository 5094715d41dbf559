import HTTP2
import TLSEngine
import Trace

/// The end of a run in the document: the outcome, in the catalogue's words.
extension RunDocumentBuilder {
    /// How the run ended: the outcome line, why it failed, each connection's outcome.
    func outcome(_ trace: Trace) -> [LadderEntry] {
        let s = trace.summary
        let version = s.version.map(String.init(describing:)) ?? "TLS"
        let suite = s.cipherSuite.map(String.init(describing:)) ?? "?"
        let ems = s.extendedMasterSecret ? say("outcome.ems") : ""
        let alpn = s.applicationProtocol.map { say("outcome.alpn", ["protocol": $0.description]) } ?? ""
        let title = say("heading.outcome")
        var out: [LadderEntry] = [.blank, .heading(title, line: rule(title))]
        switch s.runOutcome {
        case let .alert(failure, afterHandshake):
            let values = ["side": name(failure.sentBy), "alert": "\(failure.alert)"]
            out.append(.line(say(afterHandshake ? "outcome.failedAfterHandshake" : "outcome.failed", values), .alert))
            out += paragraph(say("outcome.why", ["cause": explanations.alertCause(failure.cause)]))
        case .plainHTTP(let responded, _):
            out.append(.line(say(responded ? "outcome.plainHTTP" : "outcome.noResponse")))
        case .handshakeCompleted:
            out.append(.line(say("outcome.success", ["version": version, "suite": suite, "ems": ems, "alpn": alpn])))
            if s.sidesAgree, let m = s.masterSecret { out.append(.line(say("outcome.sameMaster", ["master": short(m)]))) }
        case let .oneSided(side, exchangeFailure):
            // A real peer (`tlslab connect` / `serve`): only our side's events exist.
            let values = ["side": name(side), "version": version, "suite": suite, "ems": ems, "alpn": alpn]
            if let why = exchangeFailure {
                out.append(.line(say("outcome.oneSidedFailed", values.merging(["why": explanations.exchangeFailure(why)]) { a, _ in a }), .alert))
            } else {
                out.append(.line(say("outcome.oneSided", values)))
            }
        case .exchangeFailed(let why):
            out.append(.line(say("outcome.exchangeFailed", ["why": explanations.exchangeFailure(why)]), .alert))
        case .incomplete:
            out.append(.line(say("outcome.incomplete")))
        }
        // An HTTP/2 connection error ends that connection however TLS fared (RFC 9113 §5.4.1).
        for event in trace.events {
            if case .http2(.connectionError(let code, let why)) = event.kind {
                out.append(.line(say("outcome.http2Error", ["side": name(event.actor), "code": code.name, "why": explanations.http2Problem(why)]), .alert))
            }
            if case .http2(.peerConnectionError(let code, let why)) = event.kind {
                out.append(.line(say("outcome.http2Error", ["side": name(event.counterpart), "code": code.name, "why": why]), .alert))
            }
        }
        let all = trace.summaries
        if all.count > 1 {
            for (i, c) in all.enumerated() {
                out.append(.line(say("outcome.connection", ["number": "\(i + 1)", "outcome": CatalogueKey.outcomeWord(c.outcome).flatMap { explanations($0) } ?? c.outcome,
                                                      "resumed": c.resumed ? say("outcome.resumed") : "",
                                                      "master": c.masterSecret.map { say("outcome.connectionMaster", ["master": short($0)]) } ?? ""])))
            }
        }
        return out
    }
}
