import HTTP2
@testable import Rendering
import Simulation
import Testing
import Trace
import Trust

@Suite("Walkthrough: steps, keys and the screen")
struct WalkthroughTests {
    static func walkthrough(_ run: BuiltInRun = .rsa, width: Int = 80) throws -> Walkthrough {
        Walkthrough(title: run.rawValue, trace: Simulation(try run.setup(seed: 1)).run(), width: width)
    }

    @Test func stepsFollowTheRunInOrder() throws {
        let w = try Self.walkthrough()
        let heads = w.steps.map(\.headline)
        func index(_ text: String) -> Int? { heads.firstIndex { $0.contains(text) } }
        let order = ["TCP three-way handshake", "TCP [S]", "TLS ClientHello", "TLS ServerHello", "TLS Certificate",
                     "TLS ServerHelloDone", "TLS ClientKeyExchange", "TLS Finished", "HTTP request", "Outcome"]
        let positions = order.map(index)
        #expect(!positions.contains(nil), "missing steps: \(zip(order, positions).filter { $0.1 == nil }.map(\.0))")
        let found = positions.compactMap { $0 }
        #expect(found == found.sorted(), "steps out of order: \(zip(order, found).map { "\($0.0)@\($0.1)" })")
        #expect(heads.last?.contains("Outcome") == true, "the outcome closes the walk")
        #expect(w.steps.last?.detail.contains { $0.hasPrefix("Success: TLS 1.2") } == true)
        // The ClientHello step explains and shows the value it introduces.
        let hello = try #require(index("TLS ClientHello"))
        #expect(w.steps[hello].detail.joined().contains("client_random"))
    }

    @Test func keysMoveTheCursor() throws {
        let w = try Self.walkthrough()
        var c = Walkthrough.Cursor()
        c = w.apply(.back, to: c)
        #expect(c.step == 0, "back at the first step stays there")
        for _ in 0..<3 { c = w.apply(Walkthrough.key([UInt8(ascii: "n")]), to: c) }
        c = w.apply(Walkthrough.key([0x20]), to: c)
        c = w.apply(Walkthrough.key([0x0d]), to: c)
        #expect(c.step == 5)
        c = w.apply(Walkthrough.key([UInt8(ascii: "b")]), to: c)
        #expect(c.step == 4)
        for byte in Array("g12".utf8) { c = w.apply(Walkthrough.key([byte]), to: c) }
        #expect(c.jumpDigits == "12")
        c = w.apply(.enter, to: c)
        #expect(c.step == 11 && c.jumpDigits == nil, "g 12 Enter shows step 12 (index 11)")
        for byte in Array("g99999".utf8) { c = w.apply(Walkthrough.key([byte]), to: c) }
        c = w.apply(.enter, to: c)
        #expect(c.step == 11, "a jump past the end stays where it was")
        #expect(c.notice == .noSuchStep(requested: 99999, count: w.steps.count))
        let refused = w.screen(c, width: 80, height: 24).last ?? ""
        #expect(refused.contains("There is no step 99999") && refused.contains("1 to \(w.steps.count)"), "the footer says so: \(refused)")
        for byte in Array("g0".utf8) { c = w.apply(Walkthrough.key([byte]), to: c) }
        c = w.apply(.enter, to: c)
        #expect(c.step == 11 && c.notice == .noSuchStep(requested: 0, count: w.steps.count), "g0 is refused too")
        c = w.apply(.next, to: c)
        #expect(c.notice == nil && c.step == 12, "the next key clears the notice")
        c = w.apply(.last, to: c)
        c = w.apply(Walkthrough.key([UInt8(ascii: "g")]), to: c)
        c = w.apply(Walkthrough.key([0x1b]), to: c)
        #expect(c.jumpDigits == nil, "Esc cancels a jump")
        c = w.apply(Walkthrough.key([0x1b, 0x5b, 0x44]), to: c)
        #expect(c.step == w.steps.count - 2, "left arrow goes back")
        #expect(w.apply(Walkthrough.key([UInt8(ascii: "k")]), to: c).showKnowledge)
        #expect(w.apply(Walkthrough.key([UInt8(ascii: "x")]), to: c).showBytes)
        #expect(w.apply(Walkthrough.key([UInt8(ascii: "q")]), to: c).finished)
        #expect(w.apply(Walkthrough.key([0x03]), to: c).finished, "Ctrl-C as a byte quits too")
    }

    @Test(arguments: [(80, 24), (100, 40), (40, 12)])
    func everyScreenFitsTheTerminal(size: (Int, Int)) throws {
        let w = try Self.walkthrough(width: size.0)
        for step in 0..<w.steps.count {
            for (k, x) in [(false, false), (true, false), (false, true), (true, true)] {
                var c = Walkthrough.Cursor()
                c.step = step
                c.showKnowledge = k
                c.showBytes = x
                let screen = w.screen(c, width: size.0, height: size.1)
                #expect(screen.count == size.1)
                #expect(screen.allSatisfy { $0.count <= size.0 }, "step \(step) k=\(k) x=\(x): \(screen.filter { $0.count > size.0 })")
                #expect(screen.contains { $0.hasPrefix("▶") }, "the current step is on screen (step \(step))")
            }
        }
    }

    /// `x` and `k` stack their panels under the explanation in one pane (neither hides the other),
    /// each switched on moves the window to it, `d`/`u` move half a window, and a step that sends
    /// nothing says so when its bytes are asked for.
    @Test func bytesAndKnowledgeStackInOnePane() throws {
        let w = try Self.walkthrough(width: 100)
        var c = Walkthrough.Cursor()
        c.step = try #require(w.steps.firstIndex { $0.headline.contains("TLS ClientHello") })
        c = w.apply(Walkthrough.key([UInt8(ascii: "x")]), to: c)
        c = w.clamped(c, width: 100, height: 40)
        let bytes = w.screen(c, width: 100, height: 40).joined(separator: "\n")
        #expect(bytes.contains("client_version"), "x shows the ClientHello's fields")
        c = w.apply(Walkthrough.key([UInt8(ascii: "k")]), to: c)
        c = w.clamped(c, width: 100, height: 40)
        #expect(c.showBytes && c.showKnowledge)
        let both = w.screen(c, width: 100, height: 40).joined(separator: "\n")
        #expect(both.contains("Who knows what so far") && both.contains("client_random"), "k's table is in view")
        // The bytes are still in the pane, above the table: scrolling up reaches them.
        let pane = w.paneLines(c, step: w.steps[c.step], width: 100).joined(separator: "\n")
        #expect(pane.contains("client_version") && pane.contains("Who knows what so far"))
        #expect(pane.range(of: "client_version")!.lowerBound < pane.range(of: "Who knows what so far")!.lowerBound)
        // d moves half the window.
        let before = c.scroll
        c = w.apply(Walkthrough.key([UInt8(ascii: "u")]), to: c)
        #expect(c.scroll == max(0, before - c.paneRows / 2))
        // A state change sends nothing: x says so instead of showing nothing.
        var d = Walkthrough.Cursor()
        d.step = try #require(w.steps.firstIndex { $0.headline.contains("CLOSED → SYN-SENT") })
        d.showBytes = true
        #expect(w.screen(d, width: 100, height: 40).joined(separator: "\n").contains("No bytes for this step"))
    }

    @Test func knowledgeAndBytesToggles() throws {
        let w = try Self.walkthrough(width: 100)
        let kx = try #require(w.steps.firstIndex { $0.headline.contains("TLS ClientKeyExchange") })
        var c = Walkthrough.Cursor()
        c.step = kx
        let plain = w.screen(c, width: 100, height: 40).joined(separator: "\n")
        #expect(!plain.contains("Who knows what"))
        c.showKnowledge = true
        let knowledge = w.screen(c, width: 100, height: 40).joined(separator: "\n")
        #expect(knowledge.contains("Who knows what") && knowledge.contains("premaster secret"))
        c.showKnowledge = false
        c.showBytes = true
        let bytes = w.screen(c, width: 100, height: 40).joined(separator: "\n")
        #expect(bytes.contains("msg_type = client_key_exchange (0x10)  [10]"), "each field with its offset, name, meaning and bytes")
        #expect(bytes.contains("encrypted_pre_master_secret") && !bytes.contains("not known"), "dissected with the negotiated suite: \(bytes)")
    }

    /// The knowledge panel is computed up to the current step: at the ClientHello nobody has a master secret yet.
    @Test func knowledgeGrowsWithTheSteps() throws {
        let w = try Self.walkthrough(width: 100)
        let hello = try #require(w.steps.firstIndex { $0.headline.contains("TLS ClientHello") })
        var c = Walkthrough.Cursor()
        c.showKnowledge = true
        c.step = hello
        let early = w.screen(c, width: 100, height: 40).first { $0.hasPrefix("master secret") }
        c.step = w.steps.count - 1
        let late = w.screen(c, width: 100, height: 40).first { $0.hasPrefix("master secret") }
        #expect(early?.contains("knows") == false, "early: \(early ?? "-")")
        #expect(late?.contains("knows") == true, "late: \(late ?? "-")")
    }

    /// At 80×24 nothing of a step is lost: every line of its detail (with or without bytes) is on
    /// the screen at some scroll position, and the scroll keys are in the footer.
    @Test func scrollingReachesEveryLineAt80x24() throws {
        let w = try Self.walkthrough(width: 80)
        for index in 0..<w.steps.count {
            for bytes in [false, true] {
                var c = Walkthrough.Cursor()
                c.step = index
                c.showBytes = bytes
                let step = w.steps[index]
                let wanted = (bytes ? step.detailWithBytes : step.detail).flatMap { w.wrap($0, 80) }
                var seen = Set<String>()
                var previous: [String] = []
                for _ in 0..<200 {
                    let screen = w.screen(c, width: 80, height: 24)
                    #expect(screen.last?.contains("d/u scroll") == true)
                    seen.formUnion(screen)
                    if screen == previous { break }
                    previous = screen
                    c = w.apply(.scrollDown, to: c)
                }
                let missing = wanted.filter { !seen.contains($0) }
                #expect(missing.isEmpty, "step \(index + 1) bytes=\(bytes): never shown: \(missing.prefix(3))")
            }
        }
        // Moving to another step starts at the top again; u scrolls back.
        var c = Walkthrough.Cursor()
        c = w.apply(Walkthrough.key([UInt8(ascii: "d")]), to: c)
        c = w.apply(Walkthrough.key([UInt8(ascii: "u")]), to: c)
        #expect(c.scroll == 0)
        c = w.apply(Walkthrough.key([0x1b, 0x5b, 0x36, 0x7e]), to: c)
        #expect(c.scroll > 0, "PgDn scrolls")
        c = w.apply(.next, to: c)
        #expect(c.scroll == 0)
        #expect(w.apply(Walkthrough.key([UInt8(ascii: "k")]), to: c).showKnowledge, "k stays the knowledge toggle")
    }

    /// The knowledge panel shows whole rows and no half sentence at 80×24.
    @Test func knowledgePanelLosesNoHalfSentence() throws {
        let w = try Self.walkthrough(width: 80)
        var c = Walkthrough.Cursor()
        c.showKnowledge = true
        c.step = w.steps.count - 1
        let screen = w.screen(c, width: 80, height: 24)
        #expect(screen.contains { $0.contains("Who knows what so far") })
        #expect(!screen.contains { $0.contains("The eavesdropper column is measured") }, "remarks are left out whole")
    }
}
