import Languages
@testable import Rendering
import Simulation
import Testing
import Trace

/// Issue #33: a ladder label on the page is shown whole — wrapped inside its lane (between the rails
/// on either side), or, when a value in it is wider than the lane, in the notes column right of the
/// last rail — never cut with "…".
@Suite("Ladder labels: whole, inside their lane")
struct LadderLabelLayoutTests {
    static func walk(_ run: BuiltInRun, _ explanations: Explanations = .english) throws -> Walkthrough {
        Walkthrough(title: run.rawValue, trace: Simulation(try run.setup(seed: 1)).run(), width: 100_000,
                    explanations: explanations, surface: .page)
    }

    static let hex64 = "05693badff2695c3a0b24e64cb5e5797f91e7c1c460335e11939d8af33ea319a"

    /// A value no lane can hold is never cut: the wrapper would have to break inside it, so the
    /// label has no lines in that lane; a wide enough lane holds it whole.
    @Test func aValueWiderThanTheLaneIsNotBroken() throws {
        let text = "attacker: client_random = \(Self.hex64)"
        #expect(HTMLRenderer.labelLines(text, columns: 38) == nil)
        let lines = try #require(HTMLRenderer.labelLines(text, columns: 70))
        #expect(lines == ["attacker: client_random =", Self.hex64])
    }

    /// The lane check catches a label that crosses a rail: the attacker's label drawn on one line,
    /// as the page did before it wrapped, fails it; the same label laid out passes, wrapped.
    @Test func theLaneCheckCatchesALabelCrossingARail() throws {
        let walk = try Self.walk(.mitm)
        let renderer = HTMLRenderer()
        let columns: [Actor] = [.client, .attacker, .server]
        let step = try #require(walk.steps.first { $0.mark?.from == .attacker && $0.mark?.to == nil && $0.label.count > 80 })
        var placement = renderer.placement(step, columns: columns)
        #expect(placement.lines.count > 1 && placement.staysInLane && !placement.inNotes, "\(placement)")
        placement.lines = [step.label]
        #expect(!placement.staysInLane, "one long line between the attacker's and the server's rails")
    }

    /// A label deliberately too long for its lane (a whole 64-digit value beside the attacker's
    /// dot) goes to the notes column whole, and widens the drawing to hold it.
    @Test func aLabelTooLongForItsLaneGoesToTheNotesColumn() throws {
        let walk = try Self.walk(.mitm)
        let renderer = HTMLRenderer()
        let columns: [Actor] = [.client, .attacker, .server]
        var step = try #require(walk.steps.first { $0.mark?.from == .attacker && $0.mark?.to == nil })
        step.label = "attacker: premaster = \(Self.hex64)\(Self.hex64.prefix(32)) (48 bytes), never sent in the clear"
        let placement = renderer.placement(step, columns: columns)
        #expect(placement.inNotes && placement.staysInLane, "\(placement)")
        #expect(placement.left > HTMLRenderer.LadderGeometry.server, "right of the last rail")
        #expect(HTMLRenderer.joinsBack(placement.lines, into: step.label), "\(placement.lines)")
        #expect(placement.lines.contains { $0.contains(Self.hex64) })
    }

    /// Every label of a run with an attacker and of a plain one, in English and Chinese, stays in
    /// its lane and is whole; some wrap (the check shows something). A label goes to the notes column
    /// only when a piece no line may break inside (a cipher suite's name with its Chinese comma) is
    /// wider than its lane.
    @Test(arguments: [(BuiltInRun.mitm, Language.en), (.mitm, .zh), (.rsa, .en), (.rsa, .zh),
                      (.tls13MITM, .en), (.strip, .zh)])
    func everyLabelStaysInItsLane(run: BuiltInRun, language: Language) throws {
        let explanations = Explanations.catalogue(for: language)
        let walk = try Self.walk(run, explanations)
        let renderer = HTMLRenderer(explanations: explanations)
        let columns: [Actor] = walk.trace.hasAttacker ? [.client, .attacker, .server] : [.client, .server]
        var wrapped = 0
        for step in walk.steps {
            let placement = renderer.placement(step, columns: columns)
            #expect(placement.staysInLane, "\(run.rawValue): \(placement)")
            #expect(HTMLRenderer.joinsBack(placement.lines, into: renderer.fullLabel(step)), "\(run.rawValue): \(placement.lines)")
            if placement.inNotes {
                let widest = renderer.fullLabel(step).split(separator: " ").flatMap { DisplayWidth.breakablePieces($0) }.map { DisplayWidth.columns($0) }.max() ?? 0
                #expect(widest > HTMLRenderer.columns(HTMLRenderer.LadderGeometry.server - HTMLRenderer.LadderGeometry.attacker - 15), "\(run.rawValue): \(step.label)")
            }
            if placement.lines.count > 1 { wrapped += 1 }
        }
        #expect(wrapped > 0, "\(run.rawValue): no label wrapped")
    }

    /// Issue #33: the runs whose labels hold a piece wider than a standard lane (an HKDF call with its
    /// first argument in the 0-RTT attack runs, a cipher suite's name with its Chinese comma in `strip`)
    /// get rails just far enough apart for it, the drawing no wider than fits beside the step on a
    /// laptop, and no label in the notes column; a run without such a piece keeps the standard rails.
    @Test(arguments: [(BuiltInRun.strip, Language.zh, true), (.tls13ZeroRTTReplay, .en, true), (.tls13ZeroRTTSingleUse, .en, true),
                      (.tls13ZeroRTTRecorded, .en, true), (.mitm, .en, false), (.rsa, .zh, false)])
    func railsMoveApartJustEnoughForTheWidestPiece(run: BuiltInRun, language: Language, moves: Bool) throws {
        typealias G = HTMLRenderer.LadderGeometry
        let explanations = Explanations.catalogue(for: language)
        let walk = try Self.walk(run, explanations)
        let renderer = HTMLRenderer(explanations: explanations)
        let columns = renderer.ladderColumns(walk.trace)
        let standard = HTMLRenderer.LadderRails.standard(columns)
        let rails = renderer.ladderRails(walk, columns: columns)
        let tooWide = walk.steps.filter { renderer.placement($0, rails: standard).inNotes }
        #expect(tooWide.isEmpty != moves, "\(run.rawValue): \(tooWide.map(\.label))")
        #expect((rails.gap > standard.gap) == moves && rails.width <= G.widest, "\(run.rawValue): \(rails)")
        for step in walk.steps {
            let placement = renderer.placement(step, rails: rails)
            #expect(!placement.inNotes && placement.staysInLane && placement.right <= rails.width, "\(run.rawValue): \(placement)")
        }
        // Just enough: two units less between the rails and the widest piece no longer fits its lane.
        if moves {
            let closer = HTMLRenderer.LadderRails(columns: columns, gap: rails.gap - 2)
            #expect(walk.steps.contains { renderer.placement($0, rails: closer).inNotes }, "\(run.rawValue): \(rails.gap)")
        }
    }
}
