import TCPSim
import TLSEngine
import Trace

/// The walk's opening screen (the story of the run, the parties, the keys), read off the trace's
/// facts and worded by the catalogue, and the stop that closes each phase with the document's summary.
extension Walkthrough {
    static func opening(title: String, about: String?, page: LessonPage?, trace: Trace, words: RunDocumentBuilder,
                        surface: Surface = .terminal) -> Step {
        let onPage = surface == .page
        func say(_ key: String, _ values: [String: String] = [:]) -> String { words.explanations(key, values) ?? key }
        func party(_ actor: Actor) -> String { say(CatalogueKey.party(actor)) }
        // A lesson opens with its own title; its file name follows in the lesson line.
        let headingTitle = say("walk.opening.title", ["title": page?.title ?? title])
        let heading = "── " + headingTitle + " ──"
        var detail: [String] = []
        if let about { detail.append(about) }
        if let page {
            let kind = CatalogueKey.lessonKind(page.kind).flatMap { words.explanations($0) } ?? page.kind
            detail.append(say("lesson.header", ["name": page.name, "kind": kind]))
            detail += page.description.trimmingTrailingWhitespace().split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            detail.append("")
        }
        // Who talks to whom, read off the wire.
        let metadata = trace.wireMetadata
        if let client = metadata?.client, let server = metadata?.server {
            var values = ["client": "\(client)", "server": "\(server)"]
            values["host"] = metadata?.serverName
            let usedTLS = trace.summary.usedTLS
            // The version the first connection negotiated (RFC 8446 §4.2.1, RFC 5246 §7.4.1.3), never
            // assumed: a run that stops before it is told without one.
            let version = trace.summary.version
            values["version"] = version.map { "\($0)" }
            let key: String
            switch (usedTLS, values["host"] != nil, version != nil) {
            case (false, _, _): key = "walk.story.partiesPlain"
            case (true, true, true): key = "walk.story.partiesTLSHost"
            case (true, true, false): key = "walk.story.partiesTLSHostNoVersion"
            case (true, false, true): key = "walk.story.partiesTLS"
            case (true, false, false): key = "walk.story.partiesTLSNoVersion"
            }
            detail.append(say(key, values))
        } else if !trace.isLessonOnly, trace.summary.clientTraced != trace.summary.serverTraced {
            detail.append(say("walk.story.oneSided", ["side": party(trace.summary.clientTraced ? .client : .server)]))
        }
        if !trace.isLessonOnly {
            detail.append(say(trace.hasAttacker ? (onPage ? "html.story.attacker" : "walk.story.attacker")
                                                : (onPage ? "html.story.eavesdropper" : "walk.story.eavesdropper")))
        }
        // What will be shown: the phases, in order.
        var phases: [String] = []
        for e in trace.events {
            guard case .phase(let phase) = e.kind else { continue }
            let name = words.explanations.phaseName(phase, connection: e.connection)
            if phases.last != name { phases.append(name) }
        }
        if !phases.isEmpty { detail.append(say("walk.story.phases", ["phases": phases.joined(separator: " → ")])) }
        if !trace.isATSDecision { detail.append(say(onPage ? "html.story.ladder" : "walk.story.ladder")) }
        detail.append(say("walk.opening.begin"))
        detail.append("")
        detail.append(say("walk.help.heading"))
        let keyWidth = keyBindings.map { DisplayWidth.columns($0.keys) }.max() ?? 0
        for binding in keyBindings {
            detail.append("  " + DisplayWidth.padded(binding.keys, to: keyWidth) + "   " + say(binding.meaning))
        }
        let ladder = DisplayWidth.columns(heading) > words.width
            ? HexdumpRenderer(width: words.width).wrap(heading, continuationIndent: 3) : [heading]
        return Step(kind: .opening, eventIndex: 0, ladder: ladder, detail: detail, detailWithBytes: detail, label: headingTitle)
    }

    /// The stop that closes a phase: a row "✓ phase" and what the phase achieved (the document's summary).
    static func phaseSummary(_ summary: RunDocument.PhaseSummary, trace: Trace, words: RunDocumentBuilder, printer: LadderPrinter) -> Step {
        let name = words.explanations.phaseName(summary.phase, connection: summary.connection)
        let last = summary.events.upperBound - 1
        let label = "✓ " + words.say("walk.summary.heading", ["phase": name])
        let row = words.row(words.time(trace.events[last].time), label)
        return Step(kind: .phaseSummary, eventIndex: last, ladder: lines(printer.print(row)), detail: summary.sentences,
                    detailWithBytes: summary.sentences, label: label,
                    lines: summary.sentences.map { LadderEntry(.sentence($0, indent: 0), .explanation) })
    }
}
