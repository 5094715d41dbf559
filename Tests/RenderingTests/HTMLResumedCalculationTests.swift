import Foundation
@testable import Rendering
import Simulation
import Testing
import TestSupport

/// An abbreviated handshake (RFC 5246 §7.3) has no key exchange: its key block and Finished come from
/// the master secret of the session it resumes. The page shows where that secret comes from (the
/// first connection's master secret calculation) and every calculation it feeds, redone from the page
/// alone with Python `cryptography` (the same P_hash as `HTMLCalculationTests`).
@Suite("HTML page: a resumed TLS 1.2 handshake's calculations redone from the page alone",
       CrossCheckRequirement.trait(SignatureInputPython.path != nil, missing: "python3 with the cryptography package is not on the PATH"))
struct HTMLResumedCalculationTests {
    typealias Figure = HTMLCalculationTests.Figure

    /// Where the resumed connection's calculations and the page disagree; `checked` counts the comparisons.
    static func disagreements(_ html: String) throws -> (problems: [String], checked: Int) {
        let figures = HTMLCalculationTests.figures(html)
        var problems: [String] = [], checked = 0
        func compare(_ what: String, _ page: String?, _ expected: String?) {
            checked += 1
            if page == nil || page != expected { problems.append("\(what): page \(page ?? "-"), expected \(expected ?? "-")") }
        }
        // The second connection's handshake messages on the page, from its ClientHello on: ClientHello,
        // ServerHello (a NewSessionTicket with tickets), then the two Finished, the server's first (RFC 5246
        // §7.3, Figure 2); each Finished is also shown decrypted from its record.
        let (messages, decrypted) = HTMLCalculationTests.messages(html)
        let hellos = messages.indices.filter { messages[$0].hasPrefix("01") }
        try #require(hellos.count == 2, "two ClientHellos on the page")
        let second = messages[hellos[1]...]
        let clear = second.filter { !$0.hasPrefix("14") }
        let finished = second.filter { $0.hasPrefix("14") }
        try #require(finished.count == 2, "the resumed connection's two Finished on the page")
        let (serverFinished, clientFinished) = (finished[0], finished[1])
        compare("both Finished shown decrypted from their records", decrypted.suffix(2).joined(), finished.joined())
        func random(_ type: String) -> String { clear.first { $0.hasPrefix(type) }.map { String($0.dropFirst(12).prefix(64)) } ?? "-" }
        let (clientRandom, serverRandom) = (random("01"), random("02"))

        for actor in ["client", "server"] {
            let mine = figures.filter { $0.actor == actor }
            let resumed = try #require(mine.firstIndex { $0.kind == "resumed_master_secret" }, "\(actor): where its resumed master secret comes from")
            let first = mine[..<resumed].first { $0.kind.hasSuffix("master_secret") }
            compare("\(actor) resumed master_secret = its first connection's", mine[resumed]["master_secret"], first?["master_secret"])
            let later = mine[(resumed + 1)...]
            // No key exchange and no new master secret on the abbreviated handshake.
            compare("\(actor) has no key exchange when resuming",
                    later.filter { ["rsa_premaster", "dh_shared", "ecdh_shared", "master_secret", "extended_master_secret"].contains($0.kind) }.isEmpty ? "none" : "some", "none")
            let keyBlock = later.first { $0.kind == "key_block" }
            compare("\(actor) key block from the resumed master secret", keyBlock?["master_secret"], mine[resumed]["master_secret"])
            compare("\(actor) key block seed = the new randoms", keyBlock?["seed"], serverRandom + clientRandom)
            let firstBlock = mine[..<resumed].first { $0.kind == "key_block" }
            compare("\(actor) key block differs from the first connection's", keyBlock?["key_block"] == firstBlock?["key_block"] ? "same" : "differs", "differs")
            for f in later where f.kind == "verify_data" {
                compare("\(actor) verify_data from the resumed master secret", f["master_secret"], mine[resumed]["master_secret"])
                let isClient = f.text("finished_label") == "client finished"
                compare("\(actor) verify_data in the Finished on the page", f["verify_data"].map { "1400000c" + $0 },
                        isClient ? clientFinished : serverFinished)
            }
        }

        // Python redoes each key block and verify_data of the resumed connection from the page's values,
        // and the handshake hashes from the page's messages.
        let resumedFigures = figures.enumerated().filter { i, f in
            ["key_block", "verify_data"].contains(f.kind)
                && figures[..<i].contains { $0.actor == f.actor && $0.kind == "resumed_master_secret" }
        }.map(\.element)
        let prf = try #require(resumedFigures.first { $0.text("prf") != nil }?.text("prf"))
        let request: [String: Any] = [
            "certificate": "",
            "digests": ["server": [prf, clear.joined()], "client": [prf, clear.joined() + serverFinished]],
            "calcs": resumedFigures.map { f -> [String: Any] in
                var hex: [String: String] = [:], text: [String: String] = [:]
                for item in f.items where item.role == "input" { hex[item.name] = item.hex; text[item.name] = item.text }
                return ["kind": f.kind, "hex": hex, "text": text, "length": (f["key_block"]?.count ?? 0) / 2]
            }]
        let answer = try HTMLCalculationTests.redo(request, with: HTMLCalculationTests.python, as: HTMLCalculationTests.Answer.self)
        compare("Python redid every resumed calculation", "\(answer.calcs.count)", "\(resumedFigures.count)")
        for (f, redone) in zip(resumedFigures, answer.calcs) {
            compare("\(f.kind) (\(f.actor)) was redone", redone.isEmpty ? nil : "yes", "yes")
            for (name, value) in redone.sorted(by: { $0.key < $1.key }) { compare("\(f.kind) (\(f.actor)) \(name)", f[name], value) }
            if f.kind == "verify_data" {
                let sender = f.text("finished_label") == "client finished" ? "client" : "server"
                compare("\(f.kind) (\(f.actor)) handshake_hash of the page's messages", f["handshake_hash"], answer.digests[sender])
            }
        }
        return (problems, checked)
    }

    static func page() throws -> String {
        HTMLRenderer().page(name: BuiltInRun.resumption.rawValue, trace: Simulation(try BuiltInRun.resumption.setup(seed: 1)).run())
    }

    @Test func theResumedKeysAreRedoneFromThePage() throws {
        let html = try Self.page()
        let (problems, checked) = try Self.disagreements(html)
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
        #expect(checked >= 24, "\(checked) comparisons")
    }

    /// The check can fail: one byte changed in the resumed master secret the page shows, and the key
    /// block and verify_data it feeds no longer agree with it.
    @Test func aByteChangedInTheResumedMasterSecretBreaksIt() throws {
        let html = try Self.page()
        let figure = try #require(html.firstMatch(of: /data-calc="resumed_master_secret"(?:(?!<\/figure>).|\n)*?data-name="master_secret" data-role="output" data-hex="[0-9a-f]{4}([0-9a-f]{2})/))
        let byte = figure.output.1
        let range = byte.startIndex..<byte.endIndex
        var changed = html
        changed.replaceSubrange(range, with: String(html[range]) == "11" ? "22" : "11")
        let problems = try Self.disagreements(changed).problems
        #expect(problems.contains { $0.contains("resumed master_secret = its first connection's") }, "\(problems)")
        #expect(problems.contains { $0.contains("key block from the resumed master secret") }, "\(problems)")
    }

    /// The resumed box's words are the catalogue's in each language, with the RFC sections.
    @Test func theResumedBoxSaysWhereTheSecretComesFrom() throws {
        for explanations in [Explanations.english, Explanations.chinese] {
            let heading = try #require(explanations.text["html.calc.resumedMasterSecret.formula"])
            #expect(heading.contains("RFC 5246 §7.3") && heading.contains("§F.1.4"))
        }
        #expect(try Self.page().contains("data-calc=\"resumed_master_secret\""))
    }
}
