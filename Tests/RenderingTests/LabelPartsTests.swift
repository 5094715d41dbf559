@testable import Rendering
import Simulation
import TCPSim
import Testing
import Trace

/// Issue #32 item 1: a row's label as typed parts (flags, seq, ack, len, message name, size), read
/// off the event; the HTML page lays its arrow labels out from them, leaving whole parts out.
@Suite("Row labels as typed parts")
struct LabelPartsTests {
    static func trace(_ run: BuiltInRun) throws -> Trace { Simulation(try run.setup(seed: 1)).run() }

    @Test(arguments: [BuiltInRun.rsa, .mitm, .lossy, .strip])
    func partsAreTheEventsFacts(run: BuiltInRun) throws {
        let trace = try Self.trace(run)
        let document = RunDocumentBuilder(verbosity: .normal, width: 200).prepared(for: trace).document(for: trace)
        var segments = 0, messages = 0
        for step in document.steps {
            guard case .message = step.kind, let row = step.entries.first(where: { $0.mark != nil }) else { continue }
            switch trace.events[step.eventIndex].kind {
            case .tcp(.sent(let p)), .tcp(.dropped(let p, _)):
                segments += 1
                #expect(row.label.contains(.flags(p.segment.flags.compact)))
                #expect(row.label.contains(.seq(p.segment.seq.rawValue)))
                #expect(row.label.contains(.length(p.segment.payload.count)))
                if let ack = p.segment.ack { #expect(row.label.contains(.ack(ack.rawValue))) }
            case .tls(.handshakeSent(let message, let wire)):
                messages += 1
                #expect(row.label == [.protocolName("TLS"), .message(message.type.messageName), .bytes(wire.count)])
            default:
                break
            }
        }
        #expect(segments > 5 && messages > 3, "\(run.rawValue): \(segments) segments, \(messages) messages")
    }

    /// However narrow the arrow (down to 24 columns; the page's narrowest lane, between the attacker
    /// and a party, holds 38), its label keeps every part (protocol, flags, seq, ack, len, message
    /// name, size): it wraps onto more lines between parts, never inside a number, and each line fits.
    @Test func arrowLabelsKeepEveryPartOnMoreLines() throws {
        var wrapped = 0
        for run in [BuiltInRun.rsa, .mitm] {
            let walk = Walkthrough(title: run.rawValue, trace: try Self.trace(run), width: 100_000)
            let renderer = HTMLRenderer()
            for step in walk.steps where !step.labelParts.isEmpty {
                let full = renderer.labelText(step.labelParts)
                for room in [24, 30, 38, 60, 90] {
                    let lines = try #require(HTMLRenderer.labelLines(full, columns: room), "\(full) in \(room) columns")
                    #expect(lines.allSatisfy { DisplayWidth.columns($0) <= room }, "\(lines)")
                    #expect(lines.joined(separator: " ") == full, "\(lines)")
                    if lines.count > 1 { wrapped += 1 }
                    for part in step.labelParts {
                        switch part {
                        case .seq(let n): #expect(lines.contains { $0.contains("seq=\(n)") }, "\(lines)")
                        case .ack(let n): #expect(lines.contains { $0.contains("ack=\(n)") }, "\(lines)")
                        case .flags(let f): #expect(lines.contains { $0.contains("[\(f)]") }, "\(lines)")
                        default: break
                        }
                    }
                }
            }
        }
        #expect(wrapped > 20)
    }

    /// The page's arrows show the segment's numbers when there is room (the walkthrough's row
    /// keeps them below it).
    @Test func thePageShowsSequenceNumbers() throws {
        let trace = try Self.trace(.rsa)
        let html = HTMLRenderer().page(name: "rsa", trace: trace)
        guard case .tcp(.sent(let syn)) = try #require(trace.events.first { if case .tcp(.sent) = $0.kind { true } else { false } })?.kind else {
            Issue.record("no segment")
            return
        }
        #expect(html.contains(">TCP [S] seq=\(syn.segment.seq.rawValue) len=0</text>"))
    }
}
