@testable import Rendering
import Languages
import Simulation
import Testing
import TLSEngine
import Trace

/// `tlslab compare`: the facts each side of the table states are the runs' own (round trips as
/// `run` counts them, bytes found or not found on the wire), and the printed comparison fits its
/// width in both languages with every word from the catalogue.
@Suite("compare: two runs side by side")
struct ComparisonTests {
    static func run(_ run: BuiltInRun, seed: UInt64 = 1) throws -> (name: String, trace: Trace) {
        (run.rawValue, Simulation(try run.setup(seed: seed)).run())
    }

    @Test("rsa and tls13: 4 round trips and 3, the certificate readable only in 1.2, a stolen key opens only the RSA run")
    func rsaAgainstTLS13() throws {
        let a = try Self.run(.rsa), b = try Self.run(.tls13)
        let c = RunComparison(a, b)
        #expect(c.first.roundTripsToFirstByte == 4 && c.second.roundTripsToFirstByte == 3)
        #expect(c.first.roundTripsToFirstByte == a.trace.statistics.roundTripsToFirstByte)
        #expect(c.first.version == .tls12 && c.second.version == .tls13)
        #expect(c.first.certificateInClear == true && c.second.certificateInClear == false)
        #expect(c.first.serverNameInClear == true && c.second.serverNameInClear == true)
        #expect(c.first.suiteInClear == true && c.second.suiteInClear == true)
        #expect(c.first.keyExchange == .rsaKeyTransport && c.first.stolenKeyOpens == .everything)
        if case .ephemeral = c.second.keyExchange {} else { Issue.record("tls13's exchange is ephemeral: \(c.second.keyExchange)") }
        #expect(c.second.stolenKeyOpens == .nothing)
        // 1.2 encrypts only the two Finished messages; 1.3 sends only its two hellos in the clear.
        #expect(c.first.protectedMessages == [.finished, .finished])
        #expect(c.second.clearMessages == [.clientHello, .serverHello])
        #expect(c.second.protectedMessages.contains(.certificate) && c.second.protectedMessages.contains(.encryptedExtensions))
        #expect(c.first.clearBytes > c.second.clearBytes)
    }

    @Test("ecdhe and tls13-hrr: a HelloRetryRequest costs 1.3 its round trip back; both forward secret")
    func ecdheAgainstRetry() throws {
        let c = RunComparison(try Self.run(.ecdhe), try Self.run(.tls13HRR))
        #expect(c.first.roundTripsToFirstByte == 4 && c.second.roundTripsToFirstByte == 4)
        #expect(c.first.stolenKeyOpens == .nothing && c.second.stolenKeyOpens == .nothing)
        #expect(c.second.clearMessages.filter { $0 == .clientHello }.count == 2)
    }

    @Test("a plain-HTTP run has no TLS to compare: no suite, no key exchange, nothing sent", arguments: [BuiltInRun.httpPlain])
    func plain(_ run: BuiltInRun) throws {
        let c = RunComparison(try Self.run(run), try Self.run(.tls13))
        #expect(c.first.keyExchange == .none && c.first.stolenKeyOpens == .notApplicable)
        #expect(c.first.certificateInClear == nil && c.first.clearMessages.isEmpty)
    }

    @Test("printed in both languages: within the width, no placeholder or catalogue key left", arguments: [Language.en, .zh])
    func printed(_ language: Language) throws {
        let a = try Self.run(.rsa), b = try Self.run(.tls13)
        for width in [124, 160] {
            let lines = ComparisonPrinter(width: width, explanations: .catalogue(for: language)).render(RunComparison(a, b), a.trace, b.trace)
            #expect(lines.count > 60)
            for line in lines {
                #expect(DisplayWidth.columns(line) <= width, "\(DisplayWidth.columns(line)) > \(width): \(line)")
                #expect(!line.contains("compare.") && !line.contains("{"), "\(line)")
            }
            let text = lines.joined(separator: "\n")
            #expect(text.contains("ClientHello") && text.contains("EncryptedExtensions"))
            if language == .zh { #expect(text.contains("往返") && text.contains("前向安全")) }
        }
    }
}
