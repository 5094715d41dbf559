import Foundation
import HTTP2
@testable import Rendering
import Simulation
import Testing
import TLSEngine
import Trace

/// What a newcomer sees in the walkthrough's first minute (issue 25): the opening screen, a teaching
/// sentence on every step, sticky column headers with the time unit, names never cut, the panels
/// leaving the ladder room, the help overlay, refused jumps, autoplay and the phase summaries.
@Suite("Walkthrough: the first minute")
struct WalkthroughFirstMinuteTests {
    static func walkthrough(_ run: BuiltInRun = .rsa, width: Int = 80) throws -> Walkthrough {
        Walkthrough(title: run.rawValue, trace: Simulation(try run.setup(seed: 1)).run(), width: width, about: Explanations.english("run.summary.\(run.rawValue)"))
    }

    /// A line that teaches: words, not only the segment's numbers.
    static func teaches(_ line: String) -> Bool {
        let text = line.trimmingCharacters(in: .whitespaces)
        return text.split(separator: " ").count >= 4 && !text.hasPrefix("seq=")
    }

    /// Every step of every built-in run says something that teaches: no "nothing more to say".
    @Test(arguments: BuiltInRun.allCases)
    func everyStepTeaches(run: BuiltInRun) throws {
        let w = try Self.walkthrough(run, width: 100)
        let silent = w.steps.enumerated().filter { _, step in !step.detail.contains(where: Self.teaches) }
        #expect(silent.isEmpty, "\(run.rawValue): \(silent.count) step(s) without a sentence: \(silent.prefix(5).map { "\($0.offset + 1): \($0.element.headline)" })")
        for step in 0..<w.steps.count {
            var c = Walkthrough.Cursor()
            c.step = step
            #expect(!w.screen(c, width: 100, height: 30).joined().contains("nothing more to say"))
        }
    }

    /// The opening screen: the title, who talks to whom, the phases to come, the parties as column
    /// headers with the time unit, and the keys; the first ladder step follows.
    @Test func openingScreenTellsTheStory() throws {
        let w = try Self.walkthrough(.rsa, width: 100)
        #expect(w.steps.first?.kind == .opening)
        let screen = w.screen(Walkthrough.Cursor(), width: 100, height: 40)
        let text = screen.joined(separator: "\n")
        #expect(screen[0].contains("step 1/\(w.steps.count)"))
        #expect(screen[1].contains("ms") && screen[1].contains("client") && screen[1].contains("server"), "column header: \(screen[1])")
        #expect(text.contains("TLSLab: rsa"))
        #expect(text.contains(Explanations.english("run.summary.rsa") ?? "—"))
        #expect(text.contains("192.0.2.10:49152") && text.contains("198.51.100.20:443") && text.contains("example.com"), "who talks to whom: \(text)")
        #expect(text.contains("TCP three-way handshake → TLS handshake"), "the phases to come")
        #expect(text.contains("eavesdropper"))
        for binding in Walkthrough.keyBindings {
            #expect(text.contains(binding.keys), "the key \(binding.keys) is listed")
        }
        var c = Walkthrough.Cursor()
        c = w.apply(.next, to: c)
        #expect(w.steps[c.step].headline.contains("TCP three-way handshake"), "then the first step")
    }

    /// The column header (parties and time unit) is on every screen, at every step and size.
    @Test(arguments: [(60, 20), (80, 24), (120, 40)])
    func columnHeaderStaysVisible(size: (Int, Int)) throws {
        for run in [BuiltInRun.rsa, .dhe, .mitm] {
            let w = try Self.walkthrough(run, width: size.0)
            for step in 0..<w.steps.count {
                for k in [false, true] {
                    var c = Walkthrough.Cursor()
                    c.step = step
                    c.showKnowledge = k
                    let screen = w.screen(c, width: size.0, height: size.1)
                    #expect(screen.count == size.1)
                    #expect(screen.allSatisfy { DisplayWidth.columns($0) <= size.0 })
                    let header = screen[1].split(separator: " ").map(String.init)
                    #expect(header == ["ms", "client"] + (run == .mitm ? ["attacker"] : []) + ["server"],
                            "\(run) step \(step + 1): the parties, each a word of its own: \(screen[1])")
                    #expect(screen.contains { $0.hasPrefix("▶") })
                }
            }
        }
    }

    /// At 60 columns the rails and times shrink and the rows wrap: every message name is whole on the
    /// ladder, and no ladder line is cut.
    @Test(arguments: [BuiltInRun.rsa, .dhe, .mitm, .h2])
    func namesAreNeverCutAt60Columns(run: BuiltInRun) throws {
        let trace = Simulation(try run.setup(seed: 1)).run()
        let w = Walkthrough(title: run.rawValue, trace: trace, width: 60)
        for step in w.steps {
            for line in step.ladder {
                #expect(DisplayWidth.columns(line) <= 59, "\(line)")
                #expect(!line.hasSuffix("…"), "cut: \(line)")
            }
        }
        for (index, event) in trace.events.enumerated() {
            guard case .tls(.handshakeSent(let message, _)) = event.kind else { continue }
            let step = try #require(w.steps.first { $0.eventIndex == index && $0.kind == .event })
            #expect(step.headline.contains("TLS " + message.type.messageName), "\(message.type.messageName) whole on the ladder: \(step.ladder)")
        }
        // A segment carrying several messages names them all, wrapping over rails that continue.
        let flight = try #require(w.steps.first { $0.headline.contains("TCP [") && $0.headline.contains("ServerHello") })
        #expect(flight.headline.contains("Certificate"))
    }

    /// With the knowledge panel and the bytes on, at least 15 ladder lines stay visible at 30 rows.
    @Test func panelsLeaveTheLadder15LinesAt30Rows() throws {
        for width in [60, 80, 120] {
            let w = try Self.walkthrough(.dhe, width: width)
            for step in stride(from: 15, to: w.steps.count, by: 3) {
                for (k, x) in [(true, false), (false, true), (true, true)] {
                    var c = Walkthrough.Cursor()
                    c.step = step
                    c.showKnowledge = k
                    c.showBytes = x
                    let screen = w.screen(c, width: width, height: 30)
                    let separator = try #require(screen.dropFirst(2).firstIndex { $0.hasPrefix("───") })
                    #expect(separator - 2 >= 15, "width \(width) step \(step + 1) k=\(k) x=\(x): \(separator - 2) ladder lines")
                }
            }
        }
    }

    /// `?` opens a help overlay with every key; any key closes it and does nothing else.
    @Test func helpOverlayListsEveryKey() throws {
        let w = try Self.walkthrough()
        var c = Walkthrough.Cursor()
        c.step = 5
        c = w.apply(Walkthrough.key([UInt8(ascii: "?")]), to: c)
        #expect(c.showHelp)
        for width in [60, 80] {
            let text = w.screen(c, width: width, height: 20).joined(separator: "\n")
            for binding in Walkthrough.keyBindings {
                #expect(text.contains(binding.keys), "\(binding.keys)")
                #expect(text.contains(Explanations.english(binding.meaning) ?? "?"), "\(binding.meaning) at \(width) columns")
            }
        }
        c = w.apply(.next, to: c)
        #expect(!c.showHelp && c.step == 5, "the key closes the overlay only")
        #expect(w.apply(.quit, to: w.apply(.help, to: c)).finished, "q still quits")
        #expect(Walkthrough.keyHelp().contains { $0.hasPrefix("d  u") }, "d/u are in the key list")
    }

    /// Autoplay advances on each tick; any key pauses it; it stops at the last step.
    @Test func autoplayAdvancesAndAnyKeyPauses() throws {
        let w = try Self.walkthrough()
        var c = Walkthrough.Cursor()
        c = w.apply(.autoplay, to: c)
        #expect(c.autoplay)
        c = w.apply(.tick, to: c)
        c = w.apply(.tick, to: c)
        #expect(c.step == 2)
        #expect(w.screen(c, width: 80, height: 24).last?.contains("any key pauses") == true)
        c = w.apply(.knowledge, to: c)
        #expect(!c.autoplay && c.step == 2 && !c.showKnowledge, "the key pauses and does nothing else")
        c = w.apply(.tick, to: c)
        #expect(c.step == 2, "paused: ticks do nothing")
        c.step = w.steps.count - 2
        c = w.apply(.autoplay, to: c)
        c = w.apply(.tick, to: c)
        #expect(c.step == w.steps.count - 1 && !c.autoplay, "it stops at the end")
    }

    /// A summary closes each phase: the TCP open, the handshake (suite, EMS, who knows what), the close.
    @Test func phaseSummaries() throws {
        let w = try Self.walkthrough(.rsa, width: 100)
        let summaries = w.steps.filter { $0.kind == .phaseSummary }
        let tcp = try #require(summaries.first { $0.headline.contains("TCP three-way handshake") })
        #expect(tcp.detail.joined().contains("3 segments, both ISNs confirmed"), "\(tcp.detail)")
        let tls = try #require(summaries.first { $0.headline.contains("TLS handshake") })
        let tlsText = tls.detail.joined(separator: " ")
        #expect(tlsText.contains("TLS_RSA_WITH_AES_128_GCM_SHA256") && tlsText.contains("extended master secret"), "\(tlsText)")
        #expect(tlsText.contains("both hold client_random, server_random, premaster secret, master secret"), "\(tlsText)")
        #expect(tlsText.contains("the eavesdropper holds client_random, server_random;") || tlsText.contains("the eavesdropper holds client_random, server_random."), "\(tlsText)")
        let close = try #require(summaries.first { $0.headline.contains("closing") })
        let closeText = close.detail.joined(separator: " ")
        #expect(closeText.contains("TIME-WAIT") && closeText.contains("until t = 60"), "\(closeText)")
        // The summary follows the phase's last step and precedes the next phase's heading.
        let tcpIndex = try #require(w.steps.firstIndex(of: tcp))
        #expect(w.steps[tcpIndex + 1].headline.contains("TLS handshake"))
    }

    /// A bare ACK says which bytes, which message, and why it travels alone.
    @Test func bareACKSaysWhatItAcknowledges() throws {
        let w = try Self.walkthrough(.dhe, width: 100)
        let ack = try #require(w.steps.first { step in
            step.headline.contains("TCP [A] len=0") && step.detail.joined().contains("ClientHello")
        })
        let text = ack.detail.joined(separator: " ")
        #expect(text.contains("ACK from the server: it acknowledges 101 more bytes of the client's stream, the bytes of ClientHello"), "\(text)")
        #expect(text.contains("before the server's TLS layer has acted on the bytes"), "\(text)")
        // No ACK repeats one sent at the same instant: the ACK of the full-sized segment already carried
        // the window, and the peer did not need a separate update for 1,460 more bytes of it.
        #expect(!w.steps.contains { $0.detail.joined().contains("acknowledges no new byte") })
    }

    /// A window update that acknowledges nothing new says so: with a receive buffer smaller than the
    /// server's flight, the client's window closes, and reading reopens it (RFC 9293 §3.8.6.2.2).
    @Test func windowUpdateSaysWhyItTravelsAlone() throws {
        var setup = try BuiltInRun.dhe.setup(seed: 1)
        setup.tcpConfig.receiveBufferSize = 1200
        let w = Walkthrough(title: "dhe", trace: Simulation(setup).run(), width: 100, about: Explanations.english("run.summary.dhe"))
        let update = try #require(w.steps.first { $0.detail.joined().contains("window update") })
        #expect(update.detail.joined().contains("acknowledges no new byte"))
    }

    /// The knowledge panel at the server's ACK of the ClientHello: TCP holds the bytes, TLS has not read them.
    @Test func knowledgePanelSaysTCPIsAheadOfTLS() throws {
        let w = try Self.walkthrough(.dhe, width: 100)
        let index = try #require(w.steps.firstIndex { $0.headline.contains("TCP [A] len=0") && $0.detail.joined().contains("ClientHello") })
        var c = Walkthrough.Cursor()
        c.step = index
        c.showKnowledge = true
        let text = w.screen(c, width: 100, height: 40).joined(separator: " ")
        #expect(text.contains("client_random"))
        #expect(text.contains("The server's TCP has received the bytes of ClientHello in order (its RCV.NXT has passed them, RFC 9293 §3.3.1), but its TLS layer has not read them yet"), "\(text)")
        // Once the server's TLS layer read it, the note is gone and the table says the server knows it.
        c.step = try #require(w.steps.firstIndex { $0.headline.contains("TLS ServerHello") })
        let later = w.screen(c, width: 100, height: 40)
        #expect(!later.joined().contains("has not read them yet"))
        #expect(later.first { $0.hasPrefix("client_random") }?.contains("knows    knows") == true, "\(later)")
    }

    /// The README shows the walkthrough's first screen as it is (rsa, seed 1, 80×24).
    @Test func readmeShowsTheFirstScreen() throws {
        let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("README.md")
        let text = try String(contentsOf: readme, encoding: .utf8)
        let marker = try #require(text.range(of: "Its first screen, in an 80×24 terminal"))
        let block = text[marker.upperBound...].split(separator: "\n", omittingEmptySubsequences: false).dropFirst(2)
            .prefix(24).map { $0.hasPrefix("    ") ? String($0.dropFirst(4)) : String($0) }
        let screen = try Self.walkthrough(.rsa, width: 80).screen(Walkthrough.Cursor(), width: 80, height: 24)
            .map { $0.trimmingCharacters(in: .whitespaces).isEmpty ? "" : $0 }
        #expect(Array(block) == screen, "README:\n\(block.joined(separator: "\n"))\nscreen:\n\(screen.joined(separator: "\n"))")
    }

    /// A lesson walk opens with the lesson's title and description and the same story and keys.
    @Test func lessonOpening() throws {
        let trace = Simulation(try BuiltInRun.mitm.setup(seed: 1)).run()
        let page = LessonPage(name: "attacks/x", kind: "tls", title: "A lesson title", description: "What it shows.",
                              checks: [], tryNext: [], isDemo: true)
        let w = Walkthrough(title: "attacks/x", trace: trace, width: 80, page: page)
        let text = w.steps[0].detail.joined(separator: "\n")
        #expect(w.steps[0].headline.contains("TLSLab: A lesson title"), "the lesson's title heads the opening")
        #expect(text.contains("attacks/x") && text.contains("What it shows.") && text.contains("attacker"))
        #expect(w.steps.last?.headline.contains("What this showed") == true || w.steps.last?.kind == .closing)
    }
}

extension BuiltInRun: CustomTestStringConvertible {
    public var testDescription: String { rawValue }
}
