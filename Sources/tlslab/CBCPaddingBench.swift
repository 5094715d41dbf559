import ArgumentParser
import Benchmarks
import Foundation
import Rendering
import TLSCrypto
import TLSEngine
#if canImport(Glibc)
import Glibc
#endif

/// `tlslab bench cbc-padding`: Lucky 13 measured. The time ``RecordProtector`` takes to refuse a
/// MAC-then-encrypt CBC record (a wrong MAC) should not depend on the padding the record claims:
/// padding length 0, a valid padding of 255 (the HMAC alone would then cover four or two hash blocks
/// fewer) and a malformed padding are timed side by side, with a record 64 bytes shorter as the
/// scale (what 64 bytes less MAC and decryption work look like). Medians of interleaved rounds.
/// The records are built with the public API: each CBC block comes from `seal` with the previous
/// ciphertext block as its explicit IV (a block-by-block CBC encryption of any bytes).
struct CBCPaddingBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cbc-padding",
        abstract: CLIWords.text("cli.cBCPaddingBenchCommand.abstract"))

    @Option(help: CLIWords.help("cli.cBCPaddingBenchCommand.iterations"))
    var iterations: Int = 20_000

    @Option(help: CLIWords.help("cli.cBCPaddingBenchCommand.rounds"))
    var rounds: Int = 9

    func validate() throws {
        guard (100...10_000_000).contains(iterations) else { throw OptionProblem.mustBe(option: "--iterations", range: "100…10000000").validationError }
        guard (1...101).contains(rounds) else { throw OptionProblem.mustBe(option: "--rounds", range: "1…101").validationError }
    }

    func run() throws {
        print(CLIWords.text("cli.bench.cbc.heading", ["bytes": "\(CBCPaddingMeasure.length)", "rounds": "\(rounds)", "iterations": "\(iterations)"]))
        for mac in [RecordMAC.sha1, .sha256, .sha384] {
            let cases = try CBCPaddingMeasure.bodies(mac).map { name, body in (name, CBCPaddingMeasure.iv + (try CBCPaddingMeasure.encrypt(body, mac: mac))) }
            var protector = try RecordProtector(cipher: .aesCBC(keyLength: 16, mac: mac),
                                                keys: RecordKeys(macKey: [UInt8](repeating: 9, count: mac.length), writeKey: CBCPaddingMeasure.writeKey, fixedIV: []))
            var samples = [[Double]](repeating: [], count: cases.count)
            var refused = 0
            for _ in 0 ..< rounds {
                for (index, (_, fragment)) in cases.enumerated() {
                    let start = CBCPaddingMeasure.nanoseconds()
                    for _ in 0 ..< iterations where (try? protector.open(contentType: 23, version: 0x0303, fragment: fragment)) == nil {
                        refused += 1
                    }
                    samples[index].append(Double(CBCPaddingMeasure.nanoseconds() - start) / Double(iterations))
                }
            }
            guard refused == rounds * iterations * cases.count else { throw CLIError.failed(CLIWords.text("cli.bench.cbc.accepted")) }
            let medians = samples.map { $0.sorted()[$0.count / 2] }
            print("\n\(mac.name)")
            let names = cases.map { Self.name($0.0) }
            let width = names.map(DisplayWidth.columns).max() ?? 0
            for (index, name) in names.enumerated() {
                let delta = medians[index] - medians[0]
                let pad = String(repeating: " ", count: width - DisplayWidth.columns(name))
                print("  \(name)\(pad) \(String(format: "%8.0f", medians[index]))  "
                      + CLIWords.text("cli.bench.cbc.delta", ["delta": String(format: "%+6.0f", delta)]))
            }
        }
    }

    /// A timed case's words.
    static func name(_ c: CBCPaddingMeasure.Case) -> String {
        switch c {
        case .paddingZero: return CLIWords.text("cli.bench.cbc.case.paddingZero")
        case .paddingMaximum: return CLIWords.text("cli.bench.cbc.case.paddingMaximum")
        case .paddingMalformed: return CLIWords.text("cli.bench.cbc.case.paddingMalformed")
        case .shorterRecord: return CLIWords.text("cli.bench.cbc.case.shorterRecord")
        }
    }
}
