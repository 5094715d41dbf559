import Foundation
@testable import Rendering
@testable import Scenarios
import Simulation
import Testing
import Trace

/// Every arrow the walkthrough and the HTML page draw joins the two parties the event's JSON
/// `direction` names (the JSON renderer reads them off the event independently of the ladder):
/// every built-in run and every lesson, the man-in-the-middle runs, the stripping attack and the
/// on-path TCP lessons included. An event the JSON gives a direction that is drawn at all is drawn
/// as an arrow (a TLS message dropped unread is the one mark: it sits on its receiver's column).
@Suite("Arrows join the parties of the event's JSON direction")
struct ArrowPartiesTests {
    /// The parties of an event's JSON `direction` (an attacker's injected segment's sender is the attacker,
    /// and so is the sender of its changed copy of a segment; a segment it kept goes to the attacker),
    /// nil when the event has none or it names addresses.
    static func direction(_ event: TraceEvent, _ trace: Trace) -> (from: Actor, to: Actor, action: String)? {
        let replaced = PacketIndex(trace).replaced
        guard let fields = JSONLinesRenderer().fields(event, participants: trace.participants, replaced: replaced) else { return nil }
        func string(_ key: String) -> String? {
            guard let value = fields.first(where: { $0.0 == key })?.1, case .string(let s) = value else { return nil }
            return s
        }
        guard let direction = string("direction") else { return nil }
        let ends = direction.components(separatedBy: "->")
        guard ends.count == 2, var from = Actor(rawValue: ends[0]), var to = Actor(rawValue: ends[1]) else { return nil }
        // The attacker's injected segment is drawn from the attacker; the network's late copy of an
        // old segment from the party that sent it in an earlier connection (its direction).
        if string("injected_by") == Actor.attacker.rawValue { from = .attacker }
        // The on-path attacker's changed copy is its own send; the segment it kept ends at the attacker.
        if string("rewritten_by") == Actor.attacker.rawValue { from = .attacker }
        if string("intercepted_by") == Actor.attacker.rawValue { to = .attacker }
        return (from, to, string("action") ?? "")
    }

    /// The party whose rail the page draws at `x` (`rails`: each party's rail, as the page's SVG has it).
    static func party(atX x: Double, _ rails: [Actor: Double]) -> Actor? {
        rails.first { abs($0.value - x) < 0.01 }?.key
    }

    /// Each party's rail as the page draws it (a drawing whose rails moved apart for a wide label, #33,
    /// has them elsewhere than the standard one); the standard drawing's when the page has none.
    static func rails(_ html: String, columns: [Actor]) -> [Actor: Double] {
        var out: [Actor: Double] = [:]
        for match in html.matches(of: /<line class="rail" data-actor="(\w+)" x1="([\d.]+)"/) {
            if let actor = Actor(rawValue: String(match.output.1)), let x = Double(match.output.2) { out[actor] = x }
        }
        #expect(Set(out.keys) == Set(columns), "the page's rails: \(out)")
        return out
    }

    /// Each SVG row's arrow as (sender, receiver), read from the line's end points.
    static func pageArrows(_ html: String, columns: [Actor]) -> [Int: (from: Actor?, to: Actor?)] {
        let drawn = Self.rails(html, columns: columns)
        var out: [Int: (Actor?, Actor?)] = [:]
        for match in html.matches(of: /id="row-(\d+)"[^>]*>\n<title>[^<]*<\/title>\n<rect[^>]*\/>\n<line class="arrow( lost)?" x1="([\d.]+)" y1="[\d.]+" x2="([\d.]+)"/) {
            guard let n = Int(match.output.1), let x1 = Double(match.output.3), let x2 = Double(match.output.4) else { continue }
            let lost = match.output.2 != nil
            // A drawn arrow stops 3 units before the receiver's rail; a lost one half-way.
            let receiverX = lost ? 2 * x2 - x1 : x2 + (x2 > x1 ? 3 : -3)
            out[n] = (party(atX: x1, drawn), party(atX: receiverX, drawn))
        }
        return out
    }

    /// Compares the walkthrough's and the page's arrows with the JSON directions; returns the
    /// number of arrows checked (`rewritten`: how many of them are an attacker's changed copies).
    static func check(_ name: String, _ trace: Trace, rewritten: inout Int) -> Int {
        let walk = Walkthrough(title: name, trace: trace, width: 100_000)
        let html = HTMLRenderer(embedTrace: false).page(name: name, trace: trace)
        let columns: [Actor] = trace.hasAttacker ? [.client, .attacker, .server] : [.client, .server]
        let page = pageArrows(html, columns: columns)
        var checked = 0
        for (index, step) in walk.steps.enumerated() where step.kind == .event {
            let event = trace.events[step.eventIndex]
            guard let expected = direction(event, trace) else { continue }
            if case .dropped = event.kind { continue }  // a message dropped unread: a mark on its receiver
            // What a party received (an HTTP response read from its TLS layer) is its own mark, on the receiver's rail.
            if expected.action.hasSuffix("_received"), step.mark?.isArrow != true {
                #expect(step.mark?.from == expected.to, "\(name) step \(index + 1) (\(step.label)): marked on the receiver's rail")
                continue
            }
            let label = "\(name) step \(index + 1) (\(step.label)): JSON \(expected.from.rawValue)->\(expected.to.rawValue)"
            #expect(step.mark?.isArrow == true && step.mark?.from == expected.from && step.mark?.to == expected.to,
                    "\(label), walkthrough \(String(describing: step.mark?.from))->\(String(describing: step.mark?.to))")
            let drawn = page[index + 1]
            #expect(drawn?.from == expected.from && drawn?.to == expected.to,
                    "\(label), page \(String(describing: drawn?.from))->\(String(describing: drawn?.to))")
            checked += 1
            if case .tcp(.forwarded) = event.kind { rewritten += 1 }
        }
        return checked
    }

    @Test(arguments: BuiltInRun.allCases)
    func builtInRun(_ run: BuiltInRun) throws {
        let trace = Simulation(try run.setup(seed: 1)).run()
        var rewritten = 0
        #expect(Self.check(run.rawValue, trace, rewritten: &rewritten) > 0, "\(run.rawValue): no arrow checked")
        // Each segment an on-path attacker rewrote has an arrow of its own, from the attacker.
        let copies = trace.events.filter { if case .tcp(.forwarded) = $0.kind { true } else { false } }.count
        #expect(rewritten == copies, "\(run.rawValue): \(rewritten) of \(copies) changed copies drawn from the attacker")
        if [.strip, .replay, .tamperServerHello].contains(run) { #expect(copies > 0, "\(run.rawValue) rewrites a segment") }
    }

    @Test func everyLesson() throws {
        var checked = 0, lessons = 0
        var onPathTCP = 0
        for file in Library.files {
            let scenario = try ScenarioParser.parse(text: try String(contentsOfFile: file, encoding: .utf8), file: file)
            guard let trace = scenario.run().trace else { continue }
            lessons += 1
            var rewritten = 0
            let arrows = Self.check(file.components(separatedBy: "/Scenarios/").last ?? file, trace, rewritten: &rewritten)
            let copies = trace.events.filter { if case .tcp(.forwarded) = $0.kind { true } else { false } }.count
            #expect(rewritten == copies, "\(file): \(rewritten) of \(copies) changed copies drawn from the attacker")
            checked += arrows
            if file.contains("/tcp/"), trace.hasAttacker, arrows > 0 { onPathTCP += 1 }
        }
        #expect(lessons >= 100, "\(lessons) lessons with a trace")
        #expect(checked > 1000, "\(checked) arrows checked")
        #expect(onPathTCP > 0, "an on-path TCP lesson was checked")
    }
}
