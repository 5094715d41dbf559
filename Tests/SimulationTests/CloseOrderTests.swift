import HTTP2
@testable import Simulation
import TCPSim
import TLSEngine
import Testing
import Trace
import Trust

/// Each side closes in reaction to what it has received, never to the other side's local state.
@Suite("Closing: each side reacts only to what it received")
struct CloseOrderTests {
    static func time(of trace: Trace, actor: Actor, _ match: (TraceEvent.Kind) -> Bool) -> Int64? {
        trace.events.first { $0.actor == actor && match($0.kind) }?.time
    }

    @Test(arguments: [BuiltInRun.wrongHost, .untrusted, .mitm])
    func theServerClosesOnlyAfterTheClientsAlertArrives(run: BuiltInRun) throws {
        let trace = Simulation(try run.setup(seed: 1)).run()
        // The side facing the client: the server, or the MITM's server half.
        let responder: Actor = run == .mitm ? .attacker : .server
        let alertArrives = try #require(Self.time(of: trace, actor: responder) {
            if case .tls(.alertReceived(let a)) = $0, a.isFatal { return true } else { return false }
        }, "the \(responder) receives the client's fatal alert")
        let alertSent = try #require(Self.time(of: trace, actor: .client) {
            if case .tls(.alertSent(let a, _)) = $0, a.isFatal { return true } else { return false }
        })
        #expect(alertArrives > alertSent, "the alert takes a network latency to arrive")
        let responderAddress = run == .mitm ? IPv4Address(203, 0, 113, 66) : IPv4Address(198, 51, 100, 20)
        let fin = try #require(trace.events.first {
            if case .tcp(.sent(let p)) = $0.kind, p.source == responderAddress, p.segment.flags.contains(.fin) { return true }
            return false
        }?.time)
        #expect(fin >= alertArrives, "the \(responder) sent FIN at \(fin) µs before the alert arrived at \(alertArrives) µs")
        // It never sends close_notify: the connection failed.
        let closeNotify = trace.events.contains {
            if $0.actor == responder, $0.connection == 0, case .tls(.alertSent(let a, _)) = $0.kind, a == .closeNotify,
               $0.peer == nil || $0.peer == .client { return true }
            return false
        }
        #expect(!closeNotify)
    }

    @Test func aCleanCloseStillExchangesCloseNotifyBothWays() throws {
        let trace = Simulation(try BuiltInRun.rsa.setup(seed: 1)).run()
        let clientNotify = try #require(Self.time(of: trace, actor: .client) {
            if case .tls(.alertSent(.closeNotify, _)) = $0 { return true } else { return false }
        })
        let serverGets = try #require(Self.time(of: trace, actor: .server) {
            if case .tls(.alertReceived(.closeNotify)) = $0 { return true } else { return false }
        })
        let serverNotify = try #require(Self.time(of: trace, actor: .server) {
            if case .tls(.alertSent(.closeNotify, _)) = $0 { return true } else { return false }
        })
        #expect(clientNotify < serverGets && serverGets <= serverNotify)
    }
}
