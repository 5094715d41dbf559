import Foundation
import HTTP2
@testable import Scenarios
import TestSupport
import Testing
import Trace
import Trust

/// Corrupts a scenario file: deleted or duplicated lines, swapped values, wrong types, garbage bytes.
enum Mutator {
    static let wrongValues = ["42", "-1", "true", "~", "[]", "{}", "\"\"", "[1, [2]]", "{a: b}", "1e999", "0x10",
                              "TLS_FAKE", "demo-lef", "\"yes\"", "&a x", "*a", "!!binary AAAA", "- x", "|", ">"]

    static func mutate(_ data: [UInt8], _ rng: inout SplitMix64) -> [UInt8] {
        var lines = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let edits = 1 + rng.below(3)
        for _ in 0 ..< edits where !lines.isEmpty {
            let i = rng.below(lines.count)
            switch rng.below(7) {
            case 0: lines.remove(at: i)                                                   // deleted line
            case 1: lines.insert(lines[i], at: rng.below(lines.count))                   // duplicated line
            case 2:                                                                       // swapped values
                let j = rng.below(lines.count)
                if let a = lines[i].firstIndex(of: ":"), let b = lines[j].firstIndex(of: ":") {
                    let va = lines[i][lines[i].index(after: a)...], vb = lines[j][lines[j].index(after: b)...]
                    let (ni, nj) = (lines[i][...a] + vb, lines[j][...b] + va)
                    lines[i] = String(ni)
                    lines[j] = String(nj)
                }
            case 3:                                                                       // wrong type / value
                if let a = lines[i].firstIndex(of: ":") {
                    lines[i] = String(lines[i][...a]) + " " + wrongValues[rng.below(wrongValues.count)]
                }
            case 4:                                                                       // indentation damage
                lines[i] = rng.below(2) == 0 ? "  " + lines[i] : String(lines[i].drop { $0 == " " })
            case 5:                                                                       // a typo in a key
                var chars = Array(lines[i])
                if !chars.isEmpty {
                    let k = rng.below(chars.count)
                    chars[k] = Character(UnicodeScalar(UInt8(97 + rng.below(26))))
                    lines[i] = String(chars)
                }
            default: break
            }
        }
        var bytes = Array(lines.joined(separator: "\n").utf8)
        if rng.below(4) == 0, !bytes.isEmpty {                                           // binary garbage
            for _ in 0 ..< 1 + rng.below(8) {
                bytes[rng.below(bytes.count)] = UInt8(truncatingIfNeeded: rng.next())
            }
        }
        if rng.below(20) == 0 { bytes = Array(bytes.prefix(rng.below(bytes.count + 1))) }  // truncation
        return bytes
    }
}

@Suite("Mutation: corrupted scenario files are valid or rejected with a located error")
struct MutationTests {
    static var heavy: Bool { ProcessInfo.processInfo.environment["TLSLAB_HEAVY"] == "1" }
    static var count: Int { heavy ? 3000 : 1000 }

    @Test(.timeLimit(.minutes(2))) func corruptedLibraryFilesNeverCrash() throws {
        let originals = try Library.files.map { file -> (String, [UInt8]) in
            (file, try [UInt8](Data(contentsOf: URL(fileURLWithPath: file))))
        }
        try #require(!originals.isEmpty)
        var rng = SplitMix64(state: 0x7115_1AB5)
        var rejected = 0, valid = 0, ran = 0
        for n in 0 ..< Self.count {
            let (file, data) = originals[n % originals.count]
            let mutated = Mutator.mutate(data, &rng)
            let lineCount = mutated.filter { $0 == UInt8(ascii: "\n") }.count + 1
            do {
                let s = try ScenarioParser.parse(data: mutated, file: file)
                valid += 1
                // Run the valid ones too (a mutation must not crash the simulation either): all of
                // them in the heavy run, a sample in the debug suite.
                if Self.heavy || n % 5 == 0 {
                    _ = s.run()
                    ran += 1
                }
            } catch {
                rejected += 1
                #expect(error.file == file)
                #expect(error.line >= 1 && error.line <= lineCount + 1, "line \(error.line) of \(lineCount): \(error)")
                #expect(error.column >= 1)
                #expect(!error.message.isEmpty)
            }
        }
        #expect(rejected + valid == Self.count)
        print("mutation: \(Self.count) copies, \(rejected) rejected, \(valid) valid, \(ran) run")
        #expect(rejected > Self.count / 4, "mutations should mostly be caught; \(rejected) rejected, \(valid) valid, \(ran) run")
    }
}
