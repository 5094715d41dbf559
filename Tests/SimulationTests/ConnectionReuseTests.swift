import Foundation
import HTTP2
@testable import Simulation
import TCPSim
import TLSCrypto
import TLSEngine
import Testing
import Trace
import Trust

/// Several connections and requests: HTTP/1.0, keep-alive, pipelining, TLS resumption, the
/// virtual CPU — and the TCP sequence arithmetic under all of them.
@Suite("Connections, requests, resumption")
struct ConnectionReuseTests {
    static func run(_ name: BuiltInRun, seed: UInt64 = 5) throws -> Trace {
        Simulation(try name.setup(seed: seed)).run()
    }

    @Test func http10OpensOneConnectionAndOneHandshakePerRequest() throws {
        let trace = try Self.run(.http10)
        let st = trace.statistics
        #expect(st.connections == 3 && st.fullHandshakes == 3 && st.abbreviatedHandshakes == 0)
        #expect(st.requests == 3 && st.responses == 3)
        #expect(trace.summaries.count == 3)
        #expect(trace.summaries.allSatisfy { $0.outcome == "success" && $0.masterSecret != nil })
        #expect(Set(trace.summaries.compactMap(\.clientRandom)).count == 3, "a fresh client_random per connection")
        // each connection: SYN, 2 TLS round trips, 1 request, close = 5 round trips
        #expect(st.roundTrips == 15, "round trips: \(st.roundTrips)")
    }

    @Test func keepAliveAndPipeliningShareOneConnection() throws {
        let keepAlive = try Self.run(.keepAlive).statistics
        let pipelined = try Self.run(.pipelining).statistics
        for st in [keepAlive, pipelined] {
            #expect(st.connections == 1 && st.fullHandshakes == 1 && st.responses == 3)
        }
        #expect(keepAlive.roundTrips == 7, "TCP 1 + TLS 2 + 3 requests + close 1, got \(keepAlive.roundTrips)")
        #expect(pipelined.roundTrips == 5, "TCP 1 + TLS 2 + 1 for all requests + close 1, got \(pipelined.roundTrips)")
        let http10 = try Self.run(.http10).statistics
        #expect(try #require(pipelined.lastResponseTime) < (try #require(keepAlive.lastResponseTime)))
        #expect(try #require(keepAlive.lastResponseTime) < (try #require(http10.lastResponseTime)))
        #expect(http10.cpuTime > keepAlive.cpuTime)
    }

    @Test func httpsCostsTwoMoreRoundTripsThanPlainHTTP() throws {
        let plain = try Self.run(.httpPlain).statistics, tls = try Self.run(.rsa).statistics
        #expect(plain.roundTrips == 3, "TCP, the request, the close")
        #expect(tls.roundTrips == plain.roundTrips + 2, "the full TLS handshake's two flights")
        #expect(try #require(tls.lastResponseTime) - (try #require(plain.lastResponseTime)) == 80_000, "two round trips of 2 × 20 ms")
    }

    @Test func aCounterISNIsPredictable() throws {
        var setup = try BuiltInRun.http10.setup(seed: 5)
        setup.clientISN = .counter(start: 1_000, increment: 64_000)
        let trace = Simulation(setup).run()
        let syns = trace.events.compactMap { e -> UInt32? in
            if e.actor == .client, case .tcp(.sent(let p)) = e.kind, p.segment.flags.contains(.syn) { return p.segment.seq.rawValue } else { return nil }
        }
        #expect(syns == [1_000, 65_000, 129_000])
    }

    @Test func pipelinedRequestsLeaveBackToBack() throws {
        let trace = try Self.run(.pipelining)
        let sent = trace.events.filter { e in
            if e.actor == .client, case .http(.requestSent) = e.kind { return true } else { return false }
        }
        #expect(sent.count == 3 && Set(sent.map(\.time)).count == 1)
    }

    @Test func theSecondConnectionResumesTheSession() throws {
        let trace = try Self.run(.resumption)
        let st = trace.statistics
        #expect(st.connections == 2 && st.fullHandshakes == 1 && st.abbreviatedHandshakes == 1)
        let first = trace.summary(connection: 0), second = trace.summary(connection: 1)
        #expect(!first.resumed && second.resumed)
        #expect(second.outcome == "success")
        #expect(second.clientMaster != nil && second.clientMaster == second.serverMaster)
        #expect(second.clientMaster == first.masterSecret, "resumption reuses the master secret")
        #expect(second.clientRandom != first.clientRandom, "fresh randoms, so fresh keys")
        // No Certificate and no ClientKeyExchange on the second connection.
        let names = trace.events.compactMap { e -> String? in
            guard e.connection == 1, case .tls(.handshakeSent(let m, _)) = e.kind else { return nil }
            return OnPathAttacker.name(m.type)
        }
        #expect(names == ["ClientHello", "ServerHello", "Finished", "Finished"], "got \(names)")
        // The key log lists both sessions, the resumed one with the same master secret.
        let secrets = trace.sessionSecrets
        #expect(secrets.map(\.clientRandom) == [first.clientRandom, second.clientRandom].compactMap { $0 })
        #expect(secrets.allSatisfy { $0.masterSecret == first.masterSecret })
        // The abbreviated handshake saves a round trip.
        func roundTrips(_ c: Int) -> Int { Trace(events: trace.events.filter { $0.connection == c }).statistics.roundTrips }
        #expect(roundTrips(1) == roundTrips(0) - 1, "\(roundTrips(0)) then \(roundTrips(1))")
    }

    @Test func cpuCostShowsOnTheVirtualClockAndIsOffByDefault() throws {
        var setup = try BuiltInRun.keepAlive.setup(seed: 5)
        let charged = Simulation(setup).run().statistics
        setup.cpu = .free
        let free = Simulation(setup).run()
        #expect(free.statistics.cpuTime == 0)
        #expect(!free.events.contains { if case .compute = $0.kind { return true } else { return false } })
        #expect(charged.cpuTime > 0)
        #expect(try #require(charged.lastResponseTime) > (try #require(free.statistics.lastResponseTime)))
    }

    /// RFC 9293 sequence arithmetic on every connection of every built-in run: an ACK that reaches
    /// a host never covers bytes that host has not sent, and a clean close acknowledges everything
    /// (data + FIN). (An on-path attacker that injects bytes must keep both ends in step for this.)
    @Test(arguments: BuiltInRun.allCases)
    func seqAndAckStayConsistent(run: BuiltInRun) throws {
        let trace = try Self.run(run)
        struct Dir: Hashable { var from: TCPEndpoint, to: TCPEndpoint }
        var highestEnd: [Dir: SeqNumber] = [:]      // what each host itself sent, per direction
        var lastAck: [Dir: SeqNumber] = [:]
        for e in trace.events {
            switch e.kind {
            case .tcp(.sent(let p)):
                let dir = Dir(from: p.sourceEndpoint, to: p.destinationEndpoint)
                let end = p.segment.endSeq
                if let h = highestEnd[dir] { highestEnd[dir] = SeqNumber.latest(h, end) } else { highestEnd[dir] = end }
                if let ack = p.segment.ack { lastAck[Dir(from: dir.to, to: dir.from)] = ack }
            case .tcp(.delivered(let p)):
                guard let ack = p.segment.ack, p.segment.flags.contains(.rst) == false else { continue }
                let own = Dir(from: p.destinationEndpoint, to: p.sourceEndpoint)
                let sent = try #require(highestEnd[own], "\(run): an ACK reached \(own.from) before it sent anything")
                #expect(ack.isAtOrBefore(sent), "\(run): ack \(ack) reached \(own.from), which sent only up to \(sent)")
            default:
                continue
            }
        }
        if trace.summary.failure == nil, run != .lossy {
            for (dir, end) in highestEnd {
                #expect(lastAck[dir] == end, "\(run): \(dir.from)→\(dir.to) sent up to \(end), last ACK \(String(describing: lastAck[dir]))")
            }
        }
    }
}
