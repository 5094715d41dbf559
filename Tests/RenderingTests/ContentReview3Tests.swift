import Foundation
@testable import Rendering
import Simulation
import Testing
import TLSEngine
import Trace

/// Sentences an independent reviewer found false in TLS 1.3 runs (content review 3): each takes its
/// facts from the step it explains, in English and Chinese.
@Suite("Content review 3: TLS 1.3 sentences from their step")
struct ContentReview3Tests {
    static func trace(_ run: BuiltInRun) throws -> Trace { Simulation(try run.setup(seed: 1)).run() }

    /// Everything a run prints: text at every verbosity, and the walkthrough's steps (the page's text).
    static func texts(_ trace: Trace, _ run: BuiltInRun, _ explanations: Explanations) -> [String] {
        var out: [String] = []
        for verbosity in [TextRenderer.Verbosity.normal, .bytes] {
            out += TextRenderer(verbosity: verbosity, width: 100_000, color: false, explanations: explanations).render(trace)
        }
        let walk = Walkthrough(title: run.rawValue, trace: trace, width: 100_000, explanations: explanations, surface: .page)
        out += walk.steps.flatMap { $0.detailWithBytes + [$0.label] }
        return out
    }

    static var tls13Runs: [BuiltInRun] {
        BuiltInRun.allCases.filter { (try? trace($0).summary.version) == .tls13 }
    }

    // Finding 3 (RFC 8446 §B.3: server_key_exchange_RESERVED) and 8 (§4.1.2: no gmt_unix_time).
    @Test func noTLS13RunMentionsServerKeyExchangeOrGMTUnixTime() throws {
        let runs = Self.tls13Runs
        #expect(runs.contains(.tls13) && runs.contains(.tls13HRR) && !runs.contains(.tls13Downgrade))
        for run in runs {
            let trace = try Self.trace(run)
            for explanations in [Explanations.english, .chinese] {
                for text in Self.texts(trace, run, explanations) {
                    // CertificateVerify's 64 spaces are explained against a TLS 1.2 ServerKeyExchange (§4.4.3): that one is about TLS 1.2.
                    let about13 = text.replacingOccurrences(of: "TLS 1.2 ServerKeyExchange", with: "")
                    #expect(!about13.contains("ServerKeyExchange"), "\(run.rawValue): \(text)")
                    #expect(!text.contains("gmt_unix_time") || text.contains("gone") || text.contains("已经没有"), "\(run.rawValue): \(text)")
                }
            }
        }
        // A TLS 1.2 run still shows both.
        let rsa = Self.texts(try Self.trace(.ecdhe), .ecdhe, .english)
        #expect(rsa.contains { $0.contains("random.gmt_unix_time") })
        #expect(rsa.contains { $0.contains("for the ServerKeyExchange signature") })
    }

    // Finding 2: the opening story names the version the run negotiated.
    @Test(arguments: [BuiltInRun.tls13, .tls13HRR, .tls13ZeroRTT, .ecdhe, .rsa])
    func storyNamesTheRunsVersion(run: BuiltInRun) throws {
        let trace = try Self.trace(run)
        let version = try #require(trace.summary.version)
        for (explanations, marker) in [(Explanations.english, "TCP connection"), (.chinese, "建立 TCP 连接")] {
            let opening = Walkthrough(title: run.rawValue, trace: trace, width: 100_000, explanations: explanations).steps[0]
            let story = try #require(opening.detail.first { $0.contains(marker) }, "\(run.rawValue)")
            #expect(story.contains("\(version)"), "\(run.rawValue): \(story)")
            let other = version == .tls13 ? "TLS 1.2" : "TLS 1.3"
            #expect(!story.contains(other), "\(run.rawValue): \(story)")
        }
    }

    // Finding 1 (§5.2, §5.4): content, then the type byte, then the zero padding.
    @Test func innerContentTypeComesBeforeThePadding() throws {
        let trace = try Self.trace(.tls13)
        let en = Self.texts(trace, .tls13, .english).filter { $0.contains("TLSInnerPlaintext") && $0.contains("padding zero bytes") }
        #expect(!en.isEmpty)
        for s in en { #expect(s.contains(/right after the content, followed by \d+ padding zero bytes/), "\(s)") }
        let zh = Self.texts(trace, .tls13, .chinese).filter { $0.contains("TLSInnerPlaintext") && $0.contains("填充零字节") }
        #expect(!zh.isEmpty)
        for s in zh {
            #expect(s.contains(/紧跟在内容之后，后面再跟 \d+ 个填充零字节/), "\(s)")
            #expect(!s.contains("末尾"), "\(s)")
        }
    }

    // Finding 4 (§5.3): no part of a TLS 1.3 nonce is sent; TLS 1.2 keeps its sentence.
    @Test func applicationDataSentenceFollowsTheVersion() throws {
        for (run, tls13) in [(BuiltInRun.tls13, true), (.tls13ZeroRTT, true), (.ecdhe, false), (.rsa, false)] {
            let texts = Self.texts(try Self.trace(run), run, .english)
            #expect(texts.contains { $0.contains("explicit nonce or IV") } == !tls13, "\(run.rawValue)")
            #expect(texts.contains { $0.contains("no part of the nonce is sent") } == tls13, "\(run.rawValue)")
        }
    }

    // Findings 5 and 6 (§7.1): early_secret's salt is zeros; a "derived" step hashes no message.
    @Test func keyScheduleSentencesMatchTheirStep() throws {
        let trace = try Self.trace(.tls13)
        let walk = Walkthrough(title: "tls13", trace: trace, width: 100_000, surface: .page)
        var firsts = 0, salts = 0
        for step in walk.steps {
            let text = step.detail.joined(separator: "\n")
            if step.label.contains("early_secret = HKDF-Extract") {
                firsts += 1
                #expect(text.contains("salt of zeros") && !text.contains("previous stage's \"derived\" secret as salt"), "\(step.label): \(text)")
            }
            if step.label.contains("Derive-Secret") && step.label.contains("\"derived\"") {
                salts += 1
                #expect(text.contains("empty message list") && !text.contains("belongs to this handshake alone"), "\(step.label): \(text)")
            }
        }
        #expect(firsts == 2 && salts == 4, "client and server: one first extraction, two derived salts each")
    }

    // Finding 7 (RFC 9293 §3.6): in a simultaneous close neither side closed first.
    @Test func simultaneousCloseNamesNoFirstCloser() throws {
        let trace = try Self.trace(.replay)
        let closings = trace.events.filter {
            if case .tcp(.connection(_, .stateChanged(.closing, .timeWait, _))) = $0.kind { true } else { false }
        }
        #expect(!closings.isEmpty, "the replay run ends in a simultaneous close")
        let closers = Set(closings.map(\.actor))
        for (explanations, sep, first) in [(Explanations.english, " ", "closed first"), (.chinese, "", "先关闭")] {
            let texts = Self.texts(trace, .replay, explanations)
            for actor in closers {
                let name = explanations(CatalogueKey.party(actor)) ?? "\(actor)"
                #expect(!texts.contains { $0.lowercased().contains(name + sep + first) }, "\(actor) did not close first")
            }
        }
        #expect(Self.texts(trace, .replay, .english).contains { $0.contains("a simultaneous close, RFC 9293 §3.6") })
    }

    // Findings 9, 10, 12, 13, 15: the sentence a TLS 1.3 step gets is the TLS 1.3 one.
    @Test func tls13StepsGetTLS13Sentences() throws {
        let replay = Self.texts(try Self.trace(.tls13ZeroRTTReplay), .tls13ZeroRTTReplay, .english)
        #expect(!replay.contains { $0.contains("presents its own certificate") }, "a 0-RTT replayer presents no certificate")
        #expect(replay.contains { $0.contains("It needs no certificate and no key") })
        let tls13 = Self.texts(try Self.trace(.tls13), .tls13, .english)
        #expect(!tls13.contains { $0.contains("always on in TLS 1.3") })
        #expect(!tls13.contains { $0.contains("RFC 5246 §7.4.9") || $0.contains("RFC 5246 §7.2.1") || $0.contains("From now on it may send application data") })
        #expect(tls13.contains { $0.contains("(RFC 8446 §4.4.4)") } && tls13.contains { $0.contains("(RFC 8446 §6.1)") })
        let hrr = Self.texts(try Self.trace(.tls13HRR), .tls13HRR, .english)
        #expect(hrr.contains { $0.contains("message_hash of it, so that a server can answer statelessly") })
        #expect(!hrr.contains { $0.contains("transcript stays short") })
        let downgrade = Self.texts(try Self.trace(.tls13Downgrade), .tls13Downgrade, .english)
        #expect(!downgrade.contains { $0.contains("TLS 1.3 handshake (RFC 8446 §2): one round trip") })
        #expect(downgrade.contains { $0.contains("Here it is not TLS 1.3") })
        let ecdhe = Self.texts(try Self.trace(.ecdhe), .ecdhe, .english)
        #expect(ecdhe.contains { $0.contains("RFC 5246 §7.4.9") }, "TLS 1.2 keeps its citation")
    }
}
