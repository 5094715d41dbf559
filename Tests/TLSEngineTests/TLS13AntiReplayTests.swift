import Testing
import TestSupport
import TLSCrypto
@testable import TLSEngine

/// 0-RTT anti-replay by ClientHello recording (RFC 8446 §8.2) with the freshness check (§8.3): the
/// server's clock is an input; expected_arrival_time = creation_time + estimated_RTT + the client's
/// ticket age; a ClientHello outside the window or already recorded gets the 1-RTT handshake.
@Suite("TLS 1.3 0-RTT anti-replay: ClientHello recording and freshness (RFC 8446 §8.2, §8.3)")
struct TLS13AntiReplayTests {
    static let created: UInt64 = 10_000, rtt: UInt64 = 40, age: UInt32 = 2_000, window: UInt64 = 1_000
    static var expected: UInt64 { created + rtt + UInt64(age) }

    /// The resumed pair with recording on, the client's ticket `age` ms old, and its first flight.
    static func flight(seed: UInt64) throws -> (parties: TLS13HandshakeTests.Parties, flight: [UInt8], binder: [UInt8]) {
        var (kept, issued) = try TLS13EarlyDataTests.ticket(seed: seed)
        issued.issuedAtMilliseconds = created
        issued.estimatedRTTMilliseconds = rtt
        let early = TLS13ServerEarlyData(maxEarlyDataSize: 16_384, recording: TLS13ClientHelloRecording(windowMilliseconds: window))
        var p = try TLS13EarlyDataTests.resuming(seed: seed, ticket: kept, issued: [issued], early: early)
        var client = p.client.configuration
        client.ticketAgeMilliseconds = age
        p.client = TLS13Client(configuration: client, random: HMACDRBG(seed: 710 + seed))
        let hello = p.client.start()
        let data = p.client.sendEarlyData(TLS13EarlyDataTests.request)
        let binder = try #require(hello.events.compactMap { e -> [UInt8]? in if case .pskOffered(_, _, _, let b) = e { b } else { nil } }.first)
        return (p, hello.output + data.output, binder)
    }

    static func server(_ p: TLS13HandshakeTests.Parties, recorded: [TLS13RecordedClientHello] = [], seed: UInt64) -> TLS13Server {
        var config = p.server.configuration
        config.earlyData.recording?.recorded = recorded
        return TLS13Server(configuration: config, random: HMACDRBG(seed: seed))
    }

    static func refusal(_ step: TLS13Step) -> TLS13EarlyDataRefusal? {
        step.events.lazy.compactMap { if case .earlyDataRejected(let why) = $0 { why } else { nil } }.first
    }

    static func recorded(_ step: TLS13Step) -> [TLS13RecordedClientHello] {
        step.events.compactMap { if case .clientHelloRecorded(let r) = $0 { r } else { nil } }
    }

    @Test("A fresh ClientHello not yet recorded: 0-RTT accepted and its binder recorded with its expected arrival time")
    func freshAndNew() throws {
        for seed in UInt64(31)...33 {
            let (p, flight, binder) = try Self.flight(seed: seed)
            var server = Self.server(p, seed: seed)
            let step = server.receive(flight, atMilliseconds: Self.expected + 60)
            #expect(step.applicationData == TLS13EarlyDataTests.request, "seed \(seed)")
            #expect(Self.recorded(step) == [TLS13RecordedClientHello(binder: binder, expectedArrivalMilliseconds: Self.expected)])
            let check = try #require(step.events.compactMap { if case .freshnessChecked(let c) = $0 { c } else { nil } }.first)
            #expect(check.ticketCreatedMilliseconds == Self.created && check.estimatedRTTMilliseconds == Self.rtt
                    && check.clientTicketAgeMilliseconds == Self.age && check.expectedArrivalMilliseconds == 12_040 && check.fresh)
        }
    }

    @Test("The same ClientHello again inside the window: the PSK is accepted, the 0-RTT data refused and skipped, the 1-RTT handshake goes on (§8.2)")
    func replayedInsideTheWindow() throws {
        let (p, flight, binder) = try Self.flight(seed: 34)
        var first = Self.server(p, seed: 1)
        let recorded = Self.recorded(first.receive(flight, atMilliseconds: Self.expected))
        var replay = Self.server(p, recorded: recorded, seed: 2)
        let step = replay.receive(flight, atMilliseconds: Self.expected + 300)
        #expect(Self.refusal(step) == .replayedClientHello)
        #expect(step.alertSent == nil && step.applicationData.isEmpty)
        #expect(step.events.contains { if case .pskAccepted = $0 { true } else { false } }, "the PSK is still accepted")
        #expect(step.events.contains { if case .earlyRecordSkipped = $0 { true } else { false } })
        #expect(Self.recorded(step).isEmpty, "nothing new recorded")
        // A different binder recorded does not match this ClientHello.
        var other = Self.server(p, recorded: [TLS13RecordedClientHello(binder: binder.map { $0 ^ 1 }, expectedArrivalMilliseconds: Self.expected)], seed: 3)
        #expect(other.receive(flight, atMilliseconds: Self.expected).applicationData == TLS13EarlyDataTests.request)
    }

    @Test("Outside the window, early or late: refused as not fresh and never recorded; the window's edge still counts as inside (§8.3)")
    func freshnessWindow() throws {
        let (p, flight, _) = try Self.flight(seed: 35)
        for (now, fresh) in [(Self.expected + Self.window, true), (Self.expected - Self.window, true),
                             (Self.expected + Self.window + 1, false), (Self.expected - Self.window - 1, false)] {
            var server = Self.server(p, seed: now)
            let step = server.receive(flight, atMilliseconds: now)
            #expect(Self.refusal(step) == (fresh ? nil : .outsideFreshnessWindow), "now \(now)")
            #expect(Self.recorded(step).count == (fresh ? 1 : 0), "now \(now)")
            #expect(step.alertSent == nil, "a stale ClientHello still gets the 1-RTT handshake")
        }
        // A record whose expected arrival left the window is forgotten: a copy then fails freshness, not the lookup.
        let old = TLS13ClientHelloRecording(windowMilliseconds: 10, recorded: [TLS13RecordedClientHello(binder: [1], expectedArrivalMilliseconds: 100)])
        #expect(old.current(at: 110).count == 1 && old.current(at: 111).isEmpty)
    }

    @Test("Recording without the server's clock, or a ticket without a creation time: 0-RTT is refused, never accepted unchecked")
    func noClock() throws {
        let (p, flight, _) = try Self.flight(seed: 36)
        var server = Self.server(p, seed: 4)
        #expect(Self.refusal(server.receive(flight)) == .outsideFreshnessWindow)
        var config = p.server.configuration
        config.tickets = config.tickets.map { var t = $0; t.issuedAtMilliseconds = nil; return t }
        var unstamped = TLS13Server(configuration: config, random: HMACDRBG(seed: 5))
        #expect(Self.refusal(unstamped.receive(flight, atMilliseconds: Self.expected)) == .outsideFreshnessWindow)
    }

    @Test("A server given its clock stamps the ticket it issues: creation_time at the client's Finished, estimated_RTT from its flight to that Finished")
    func ticketStamped() throws {
        var p = try TLS13HandshakeTests.parties(seed: 37)
        var config = p.server.configuration
        config.ticketLifetime = 7_200
        p.server = TLS13Server(configuration: config, random: HMACDRBG(seed: 937))
        let hello = p.client.start()
        let flight = p.server.receive(hello.output, atMilliseconds: 500)
        let finished = p.client.receive(flight.output)
        let end = p.server.receive(finished.output, atMilliseconds: 545)
        let ticket = try #require(end.events.compactMap { if case .newSessionTicketSent(let t) = $0 { t } else { nil } }.first)
        #expect(ticket.issuedAtMilliseconds == 545 && ticket.estimatedRTTMilliseconds == 45)
    }
}
