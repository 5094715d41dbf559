import Foundation
import HTTP2
@testable import Simulation
import TCPSim
import TLSCrypto
import TLSEngine
import Testing
import Trace
import Trust

/// The engine's fixture chain (Tests/Fixtures/engine, made by scripts/make-engine-fixtures.sh).
enum SimFixtures {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/engine")
    static func file(_ name: String) -> [UInt8] {
        (try? Data(contentsOf: directory.appendingPathComponent(name))).map { Array($0) } ?? []
    }
    static let serverCertificate = file("server.cert.der")
    static let serverKey: RSAPrivateKey? = try? RSAPrivateKey.generate(bits: 1024, using: HMACDRBG(seed: 99))
}

/// Accepts the one fixture leaf (the PKI layer replaces this in scenarios).
struct AcceptFixture: PeerCertificateEvaluator {
    let leaf: [UInt8]
    let key: RSAPublicKey
    let accept: Bool
    func evaluate(chain: [[UInt8]], role: TLSRole, serverName: String?) -> CertificateDecision {
        guard accept, chain.first == leaf else { return .reject(.refusedByPolicy, reason: .decidedBy([], firstFailure: nil)) }
        return .accept(leafPublicKey: .rsa(key), summary: .acceptedWithoutChecks)
    }
}

func makeSetup(seed: UInt64, suites: [CipherSuite] = CipherSuite.implemented, accept: Bool = true,
               faults: [TCPFaultRule] = []) throws -> SimulationSetup {
    let key = try #require(SimFixtures.serverKey)
    let rng = HMACDRBG(seed: seed)
    let evaluator = AcceptFixture(leaf: SimFixtures.serverCertificate, key: key.publicKey, accept: accept)
    let client = TLSClientConfiguration(certificateEvaluator: evaluator, random: rng, cipherSuites: suites, serverName: "example.com")
    let server = TLSServerConfiguration(identity: TLSIdentity(certificateChain: [SimFixtures.serverCertificate], privateKey: key),
                                       random: rng, cipherSuites: suites)
    var setup = SimulationSetup(client: client, server: server, random: rng)
    setup.faults = faults
    return setup
}

@Suite("TLS over simulated TCP")
struct SimulationTests {
    static func segments(_ trace: Trace) -> [(Actor, TCPSegment)] {
        trace.events.compactMap { e in
            if case .tcp(.sent(let p)) = e.kind { return (e.actor, p.segment) }
            return nil
        }
    }

    @Test(arguments: [CipherSuite.TLS_RSA_WITH_AES_128_GCM_SHA256, .TLS_DHE_RSA_WITH_AES_128_GCM_SHA256,
                      .TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256, .TLS_RSA_WITH_AES_128_CBC_SHA])
    func fullRun(suite: CipherSuite) throws {
        let trace = Simulation(try makeSetup(seed: 1, suites: [suite])).run()
        let s = trace.summary
        #expect(s.outcome == "success")
        #expect(s.cipherSuite == suite)
        #expect(s.clientMaster != nil && s.clientMaster == s.serverMaster)
        #expect(s.clientRandom?.count == 32 && s.serverRandom?.count == 32)
        // HTTP went both ways
        let http = trace.events.compactMap { e -> HTTPEvent? in if case .http(let h) = e.kind { return h } else { return nil } }
        #expect(http.contains { if case .responseReceived(let r) = $0 { return r.hasSuffix("hello\n") } else { return false } })
        // TCP: SYN, SYN-ACK, ACK first; ack = peer seq + 1
        let segs = Self.segments(trace)
        #expect(segs.count > 8)
        let (a0, syn) = segs[0], (a1, synAck) = segs[1]
        #expect(a0 == .client && syn.flags.compact == "S")
        #expect(a1 == .server && synAck.flags.compact == "SA")
        #expect(synAck.ack == syn.seq + 1)
        // both FINs were sent, and the client ends in TIME-WAIT or CLOSED
        #expect(segs.filter { $0.1.flags.contains(.fin) }.count >= 2)
        // time moves forward
        #expect(zip(trace.events, trace.events.dropFirst()).allSatisfy { $0.time <= $1.time })
    }

    @Test func sameSeedSameTraceDifferentSeedDifferentRandoms() throws {
        let a = Simulation(try makeSetup(seed: 7)).run(), b = Simulation(try makeSetup(seed: 7)).run()
        #expect(a.events.count == b.events.count)
        #expect(a.summary == b.summary)
        #expect(String(describing: a.events.map(\.kind)) == String(describing: b.events.map(\.kind)))
        let c = Simulation(try makeSetup(seed: 8)).run()
        #expect(c.summary.clientRandom != a.summary.clientRandom)
    }

    @Test func lostSegmentsAreRetransmittedAndTheHandshakeStillCompletes() throws {
        let setup = try makeSetup(seed: 3, faults: [
            TCPFaultRule(from: IPv4Address(192, 0, 2, 10), to: IPv4Address(198, 51, 100, 20), nth: 3, .drop),
            TCPFaultRule(from: IPv4Address(198, 51, 100, 20), to: IPv4Address(192, 0, 2, 10), nth: 2, .drop),
        ])
        let trace = Simulation(setup).run()
        #expect(trace.summary.outcome == "success")
        let drops = trace.events.filter { if case .tcp(.dropped) = $0.kind { return true } else { return false } }
        #expect(drops.count == 2)
        // Every dropped segment that occupied sequence space came again with the same seq
        // (a dropped pure ACK needs no retransmission: a later ACK covers it).
        let retransmittedSeqs = trace.events.compactMap { e -> SeqNumber? in
            if case .tcp(.connection(_, .retransmitted(let seg, _))) = e.kind { return seg.seq } else { return nil }
        }
        let lost = trace.events.compactMap { e -> TCPSegment? in
            if case .tcp(.dropped(let p, _)) = e.kind, p.segment.segmentLength > 0 { return p.segment } else { return nil }
        }
        #expect(!lost.isEmpty)
        for seg in lost { #expect(retransmittedSeqs.contains(seg.seq), "segment seq \(seg.seq) was never retransmitted") }
    }

    @Test func rejectedCertificateEndsWithTheAlertAndAClose() throws {
        let trace = Simulation(try makeSetup(seed: 4, accept: false)).run()
        let s = trace.summary
        #expect(s.outcome == "bad_certificate")
        #expect(s.failure?.sentBy == .client)
        #expect(s.clientMaster == nil)  // the client never got as far as the key exchange
        #expect(Self.segments(trace).filter { $0.1.flags.contains(.fin) }.count >= 2)
    }
}
