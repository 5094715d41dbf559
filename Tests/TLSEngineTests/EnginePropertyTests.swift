import Foundation
import Testing
import TLSCrypto
@testable import TLSEngine

/// For many seeds per suite: the handshake completes, both sides derive the same master secret
/// and keys, and application data arrives intact. 500 seeds per suite in every run (the issue's
/// minimum; ~8 s for all suites in debug); TLSLAB_HEAVY=1 adds 500 other seeds per suite.
@Suite("Engine properties")
struct EnginePropertyTests {
    static let heavy = ProcessInfo.processInfo.environment["TLSLAB_HEAVY"] == "1"

    static func check(suite: CipherSuite, seeds: Range<UInt64>) throws {
        for seed in seeds {
            var rng = SeededGenerator(seed: seed)
            var client = try Harness.clientConfiguration(seed: seed, suites: [suite])
            var server = try Harness.serverConfiguration(seed: seed)
            client.offerExtendedMasterSecret = rng.bool()
            server.extendedMasterSecret = rng.bool()
            if rng.int(0...3) == 0 {
                client.identity = try Harness.clientIdentity()
                server.clientAuthentication = .require
            }
            client.supportedGroups = rng.bool() ? [.x25519, .secp256r1] : [.secp256r1]
            let run = Harness.run(client: client, server: server)
            #expect(run.outcome == .connected, "seed \(seed): \(run.outcome)")
            #expect(run.client.masterSecret == run.server.masterSecret, "seed \(seed)")
            #expect(run.client.keyBlock == run.server.keyBlock, "seed \(seed)")
            #expect(run.client.usesExtendedMasterSecret == (client.offerExtendedMasterSecret && server.extendedMasterSecret))
            #expect(String(decoding: run.serverReceived, as: UTF8.self) == "GET / HTTP/1.1\r\nHost: localhost\r\n\r\n", "seed \(seed)")
            #expect(String(decoding: run.clientReceived, as: UTF8.self).hasSuffix("\r\n\r\nhi"), "seed \(seed)")
        }
    }

    @Test("500 seeds per suite", arguments: CipherSuite.implemented)
    func sample(_ suite: CipherSuite) throws {
        try Self.check(suite: suite, seeds: 100..<600)
    }

    @Test("500 more seeds per suite", .enabled(if: heavy), arguments: CipherSuite.implemented)
    func sweep(_ suite: CipherSuite) throws {
        try Self.check(suite: suite, seeds: 1000..<1500)
    }

    @Test("large application data is split at 2^14 and reassembled")
    func largeData() throws {
        var client = TLSClient(configuration: try Harness.clientConfiguration(seed: 1))
        var server = TLSServer(configuration: try Harness.serverConfiguration(seed: 1))
        var toServer = client.start().output
        while !(client.isConnected && server.isConnected) {
            let toClient = server.receive(toServer).output
            toServer = client.receive(toClient).output
        }
        let big = (0..<40_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let step = try client.sendApplicationData(big)
        #expect(step.records.count == 3)
        var received: [UInt8] = []
        for case .applicationDataReceived(let d) in server.receive(step.output).events { received += d }
        #expect(received == big)
    }
}
