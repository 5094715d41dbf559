import Foundation
@testable import Rendering
import Simulation
import Testing
import TLSEngine
import Trace

/// Content review 3, finding 14: a resumed TLS 1.3 ticket's age is the client's view of it, "the
/// time since the receipt of the NewSessionTicket message" (RFC 8446 §4.2.11.1), taken when the
/// ClientHello that offers it is sent — as the run's own times say, not when the connection opened
/// a TCP handshake earlier. With it, a server that records ClientHellos computes an expected arrival
/// time (§8.3: creation time + estimated round trip + the client's ticket age) equal to its own
/// clock, as a run without clock skew must.
@Suite("TLS 1.3 ticket age: from the NewSessionTicket's receipt to the ClientHello")
struct TLS13TicketAgeTests {
    static func trace(_ run: BuiltInRun, seed: UInt64 = 1) throws -> Trace { Simulation(try run.setup(seed: seed)).run() }

    /// The age the client offers, and the one the trace's times give: the client's ClientHello that
    /// carries the ticket, minus the client's receipt of that ticket's NewSessionTicket (microseconds
    /// in the trace, milliseconds on the wire).
    static func ages(_ trace: Trace) throws -> (offered: UInt32, fromTimes: Int64) {
        let (offer, identity, age) = try #require(trace.events.lazy.compactMap { e -> (TraceEvent, PSKIdentity, UInt32)? in
            guard e.actor == .client, case .tls(.tls13(.pskOffered(let identity, let age, _, _))) = e.kind else { return nil }
            return (e, identity, age)
        }.first, "the client offers a ticket")
        let received = try #require(trace.events.last { e in
            guard e.actor == .client, e.time <= offer.time, case .tls(.tls13(.newSessionTicketReceived(let ticket))) = e.kind else { return false }
            return ticket.message.ticket == identity.identity
        }, "the offered ticket was received")
        let hello = try #require(trace.events.first { e in
            guard e.actor == .client, e.connection == offer.connection, case .tls(.handshakeSent(let m, _)) = e.kind else { return false }
            return m.type == .clientHello
        }, "the ClientHello that offers it")
        #expect(hello.time >= received.time)
        return (age, (hello.time - received.time) / 1_000)
    }

    @Test(arguments: [BuiltInRun.tls13Resumption, .tls13ZeroRTT, .tls13ZeroRTTReplay, .tls13ZeroRTTSingleUse, .tls13ZeroRTTRecorded],
          [1, 2] as [UInt64])
    func theOfferedAgeIsFromTheTicketsReceiptToTheClientHello(run: BuiltInRun, seed: UInt64) throws {
        let trace = try Self.trace(run, seed: seed)
        let (offered, fromTimes) = try Self.ages(trace)
        #expect(Int64(offered) == fromTimes, "\(run.rawValue): offered \(offered) ms, the trace says \(fromTimes) ms")
    }

    /// The printed line says the same age, in English and Chinese.
    @Test(arguments: [BuiltInRun.tls13Resumption, .tls13ZeroRTT])
    func thePrintedAgeIsTheTracesAge(run: BuiltInRun) throws {
        let trace = try Self.trace(run)
        let (_, age) = try Self.ages(trace)
        #expect(age > 0)
        for explanations in [Explanations.english, .chinese] {
            let lines = TextRenderer(verbosity: .normal, width: 100_000, color: false, explanations: explanations).render(trace)
            let offered = lines.filter { $0.contains("obfuscated_ticket_age") && $0.contains(" ms") }
            #expect(!offered.isEmpty, "\(run.rawValue): no offer printed")
            for line in offered {
                let printed = line.firstMatch(of: /(\d+) ms/).map { Int64($0.output.1) }
                #expect(printed == age, "\(run.rawValue): \(line) (the trace: \(age) ms)")
            }
        }
    }

    /// §8.3 in the recorded run: the client's own ClientHello is expected exactly when it arrives
    /// (no clock skew is configured), and the numbers add up; the attacker's later copy is expected
    /// at the same time, so its distance from the server's clock is only the replay's delay.
    @Test(arguments: [1, 2, 3] as [UInt64])
    func theFreshnessNumbersAddUp(seed: UInt64) throws {
        let trace = try Self.trace(.tls13ZeroRTTRecorded, seed: seed)
        let checks = trace.events.compactMap { e -> TLS13FreshnessCheck? in
            guard e.actor == .server, case .tls(.tls13(.freshnessChecked(let check))) = e.kind else { return nil }
            return check
        }
        let first = try #require(checks.first)
        let (offered, _) = try Self.ages(trace)
        #expect(first.clientTicketAgeMilliseconds == offered)
        #expect(first.expectedArrivalMilliseconds == first.ticketCreatedMilliseconds + first.estimatedRTTMilliseconds + UInt64(first.clientTicketAgeMilliseconds))
        #expect(first.expectedArrivalMilliseconds == first.nowMilliseconds, "\(first)")
        for check in checks.dropFirst() {
            #expect(check.expectedArrivalMilliseconds == first.expectedArrivalMilliseconds && check.nowMilliseconds >= first.nowMilliseconds, "\(check)")
        }
    }
}
