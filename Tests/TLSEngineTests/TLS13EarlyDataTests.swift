import Testing
import TestSupport
import TLSCrypto
@testable import TLSEngine

/// 0-RTT early data between TLSLab's client and server (RFC 8446 §2.3, §4.2.10, §4.5, §8.1):
/// accepted, rejected and skipped, refused on replay with single-use tickets, over the limit.
@Suite("TLS 1.3 0-RTT early data (RFC 8446 §2.3, §4.2.10)")
struct TLS13EarlyDataTests {
    static let request = Array("GET /next HTTP/1.1\r\nHost: example.com\r\n\r\n".utf8)

    /// A first connection whose server writes max_early_data_size `limit` into its ticket.
    static func ticket(seed: UInt64, limit: UInt32 = 16_384) throws -> (client: TLS13ResumptionTicket, server: TLS13ResumptionTicket) {
        var p = try TLS13HandshakeTests.parties(seed: seed)
        var config = p.server.configuration
        config.ticketLifetime = 7_200
        config.earlyData.maxEarlyDataSize = limit
        p.server = TLS13Server(configuration: config, random: HMACDRBG(seed: 900 + seed))
        let events = TLS13HandshakeTests.run(&p)
        let sent = try #require(events.server.compactMap { e -> TLS13ResumptionTicket? in
            if case .newSessionTicketSent(let t) = e { t } else { nil } }.first)
        let kept = try #require(p.client.tickets.first)
        return (kept, sent)
    }

    /// A second pair offering early data with `ticket`; the server knows `issued` and `early`.
    static func resuming(seed: UInt64, ticket: TLS13ResumptionTicket, issued: [TLS13ResumptionTicket],
                         early: TLS13ServerEarlyData = TLS13ServerEarlyData(maxEarlyDataSize: 16_384)) throws -> TLS13HandshakeTests.Parties {
        var p = try TLS13ResumptionTests.secondConnection(seed: seed, ticket: ticket, issued: issued)
        var client = p.client.configuration
        client.offersEarlyData = true
        var server = p.server.configuration
        server.earlyData = early
        p.client = TLS13Client(configuration: client, random: HMACDRBG(seed: 700 + seed))
        p.server = TLS13Server(configuration: server, random: HMACDRBG(seed: 800 + seed))
        return p
    }

    /// ClientHello and 0-RTT records, then the rest of the handshake; the events of each side.
    static func run(_ p: inout TLS13HandshakeTests.Parties, early: [UInt8] = request) -> (client: [TLS13Event], server: [TLS13Event], flight: [UInt8]) {
        let hello = p.client.start()
        let data = p.client.sendEarlyData(early)
        var clientEvents = hello.events + data.events, serverEvents: [TLS13Event] = []
        let flight = hello.output + data.output
        var toServer = flight
        for _ in 0..<6 where !toServer.isEmpty {
            let s = p.server.receive(toServer)
            serverEvents += s.events
            let c = p.client.receive(s.output)
            clientEvents += c.events
            toServer = c.output
        }
        return (clientEvents, serverEvents, flight)
    }

    static func has(_ events: [TLS13Event], _ test: (TLS13Event) -> Bool) -> Bool { events.contains(where: test) }

    @Test("The ticket carries early_data with max_early_data_size; it round-trips (§4.6.1)")
    func ticketExtension() throws {
        let (kept, _) = try Self.ticket(seed: 1, limit: 1_024)
        #expect(kept.message.maxEarlyDataSize == 1_024)
        #expect(kept.message.extensions == [.unknown(.earlyData, [0, 0, 4, 0])])
        #expect(try EarlyDataIndication(extensionData: [0, 0, 4, 0], inTicket: true) == .maxEarlyDataSize(1_024))
        #expect(throws: DecodeError.self) { try EarlyDataIndication(extensionData: [0], inTicket: false) }
    }

    @Test("Accepted: early_data in ClientHello and EncryptedExtensions, the request read before the client's Finished, EndOfEarlyData under the early key", arguments: [1, 2, 3] as [UInt64])
    func accepted(seed: UInt64) throws {
        let (kept, issued) = try Self.ticket(seed: seed)
        var p = try Self.resuming(seed: seed, ticket: kept, issued: [issued])
        let events = Self.run(&p)
        #expect(p.client.state == .connected && p.server.state == .connected)
        #expect(Self.has(events.client) { if case .earlyDataAccepted = $0 { true } else { false } })
        #expect(Self.has(events.server) { if case .earlyDataAccepted = $0 { true } else { false } })
        #expect(events.server.contains { if case .applicationDataReceived(let d) = $0 { d == Self.request } else { false } })
        // Both sides derived the same schedule, with c e traffic and e exp master over the ClientHello.
        #expect(p.client.keyScheduleSteps == p.server.keyScheduleSteps)
        let secrets = p.client.keyScheduleSteps.map(\.secret)
        #expect(Array(secrets.prefix(4)) == [.earlySecret, .binderKey, .clientEarlyTrafficSecret, .earlyExporterMasterSecret])
        let cets = try #require(p.client.keyScheduleSteps.first { $0.secret == .clientEarlyTrafficSecret })
        guard case .deriveSecret(.earlySecret, "c e traffic", .clientHello, _) = cets.derivation else { Issue.record("c e traffic"); return }
        // The client's EndOfEarlyData is sealed with the early key, before its Finished (§4.5).
        let installed = events.client.compactMap { e -> TLS13Secret? in if case .trafficKeysInstalled(.write, let s, _, _, _, _) = e { s } else { nil } }
        #expect(installed == [.clientEarlyTrafficSecret, .clientHandshakeTrafficSecret, .clientApplicationTrafficSecret0])
        let sent = events.client.compactMap { e -> HandshakeType? in if case .handshakeSent(let t, _) = e { t } else { nil } }
        #expect(sent == [.clientHello, .endOfEarlyData, .finished])
        let serverStates = events.server.compactMap { e -> TLS13State? in if case .stateChanged(_, let to) = e { to } else { nil } }
        #expect(serverStates == [.negotiated, .waitEndOfEarlyData, .waitClientFinished, .connected])
        // The server may answer before the client's Finished (0.5-RTT, §4.4.4): here after it.
        let answer = p.server.send(Array("HTTP/1.1 200 OK\r\n\r\n".utf8))
        #expect(p.client.receive(answer.output).applicationData == Array("HTTP/1.1 200 OK\r\n\r\n".utf8))
    }

    @Test("The server answers 0.5-RTT: its response leaves with its Finished, before the client's Finished arrives (§4.4.4)")
    func halfRoundTrip() throws {
        let (kept, issued) = try Self.ticket(seed: 4)
        var p = try Self.resuming(seed: 4, ticket: kept, issued: [issued])
        let flight = p.client.start().output + p.client.sendEarlyData(Self.request).output
        let first = p.server.receive(flight)
        #expect(first.applicationData == Self.request && p.server.state == .waitEndOfEarlyData)
        let response = p.server.send(Array("HTTP/1.1 200 OK\r\n\r\n".utf8))
        #expect(!response.output.isEmpty)
        let atClient = p.client.receive(first.output + response.output)
        #expect(atClient.applicationData == Array("HTTP/1.1 200 OK\r\n\r\n".utf8))
        _ = p.server.receive(atClient.output)
        #expect(p.server.state == .connected)
    }

    @Test("Rejected by configuration: a resumed handshake without early_data in EncryptedExtensions; the server skips the 0-RTT record (§4.2.10)")
    func rejectedByServer() throws {
        let (kept, issued) = try Self.ticket(seed: 5)
        var p = try Self.resuming(seed: 5, ticket: kept, issued: [issued], early: TLS13ServerEarlyData(maxEarlyDataSize: 16_384, accepts: false))
        let events = Self.run(&p)
        #expect(p.client.state == .connected && p.server.state == .connected && p.server.resumed)
        #expect(Self.has(events.server) { if case .earlyDataRejected(.serverDeclines) = $0 { true } else { false } })
        #expect(Self.has(events.client) { if case .earlyDataRejected(.serverDeclines) = $0 { true } else { false } })
        #expect(Self.has(events.server) { if case .earlyRecordSkipped = $0 { true } else { false } })
        #expect(!Self.has(events.server) { if case .applicationDataReceived = $0 { true } else { false } })
        #expect(!Self.has(events.client) { if case .handshakeSent(.endOfEarlyData, _) = $0 { true } else { false } })
        // The client sends the request again once connected; it arrives under the application key.
        let again = p.client.send(Self.request)
        #expect(p.server.receive(again.output).applicationData == Self.request)
    }

    @Test("Single-use tickets (§8.1): the handshake redeems the ticket; the same flight replayed gets a full handshake and its early data is skipped, never read")
    func replayRefused() throws {
        let (kept, issued) = try Self.ticket(seed: 6)
        let early = TLS13ServerEarlyData(maxEarlyDataSize: 16_384, singleUseTickets: true)
        var p = try Self.resuming(seed: 6, ticket: kept, issued: [issued], early: early)
        let events = Self.run(&p)
        #expect(Self.has(events.server) { if case .ticketRedeemed(let id) = $0 { id == kept.message.ticket } else { false } })
        #expect(Self.has(events.server) { if case .earlyDataAccepted = $0 { true } else { false } })
        // The replay: the recorded ClientHello and 0-RTT record, to a server whose store lost the ticket.
        var config = p.server.configuration
        config.tickets = []
        var replayServer = TLS13Server(configuration: config, random: HMACDRBG(seed: 66))
        let step = replayServer.receive(events.flight)
        #expect(step.alertSent == nil)
        #expect(step.events.contains { if case .earlyDataRejected(.pskNotSelected) = $0 { true } else { false } })
        #expect(step.events.contains { if case .earlyRecordSkipped = $0 { true } else { false } })
        #expect(step.applicationData.isEmpty)
        #expect(step.events.contains { if case .handshakeSent(.certificate, _) = $0 { true } else { false } })
        // Without anti-replay the same flight is read a second time.
        var open = p.server.configuration
        open.earlyData.singleUseTickets = false
        var second = TLS13Server(configuration: open, random: HMACDRBG(seed: 67))
        #expect(second.receive(events.flight).applicationData == Self.request)
    }

    @Test("More 0-RTT data than max_early_data_size is unexpected_message (§4.6.1)")
    func overLimit() throws {
        let (kept, issued) = try Self.ticket(seed: 7, limit: 1_024)
        // The server's own record of the ticket allows 16 bytes; the client's copy says 1024.
        var small = issued
        small.message.extensions = [EarlyDataIndication.maxEarlyDataSize(16).tlsExtension]
        var p = try Self.resuming(seed: 7, ticket: kept, issued: [small])
        let flight = p.client.start().output + p.client.sendEarlyData(Self.request).output
        let step = p.server.receive(flight)
        #expect(step.alertSent?.alertDescription == .unexpectedMessage)
        #expect(step.events.contains { if case .failed(.tooMuchEarlyData(Self.request.count, 16)) = $0 { true } else { false } })
        // The client itself never sends more than its ticket allows.
        var q = try Self.resuming(seed: 7, ticket: kept, issued: [issued])
        _ = q.client.start()
        #expect(q.client.sendEarlyData([UInt8](repeating: 0x41, count: 1_025)).output.isEmpty)
    }

    @Test("A rejected 0-RTT flight larger than the server's bound fails as a bad record (bad_record_mac, §4.2.10, §5.2)")
    func skipBound() throws {
        let (kept, issued) = try Self.ticket(seed: 8)
        var p = try Self.resuming(seed: 8, ticket: kept, issued: [issued], early: TLS13ServerEarlyData(maxEarlyDataSize: 8, accepts: false, rejectedEarlyDataSkipLimit: 8))
        let flight = p.client.start().output + p.client.sendEarlyData(Self.request).output
        let step = p.server.receive(flight)
        #expect(step.alertSent?.alertDescription == .badRecordMAC)
    }

    @Test("A server that issues no 0-RTT tickets and rejects early data (serve's default) skips the 0-RTT records of a client resuming with another server's ticket and completes a 1-RTT handshake (§4.2.10)")
    func rejectingServerWithoutEarlyDataSkips() throws {
        let (kept, _) = try Self.ticket(seed: 10, limit: 65_536)
        // The ticket is unknown here (another server's), and this server advertises max_early_data_size 0.
        var p = try Self.resuming(seed: 10, ticket: kept, issued: [], early: TLS13ServerEarlyData(maxEarlyDataSize: 0, accepts: false))
        let events = Self.run(&p)
        #expect(events.server.allSatisfy { if case .alertSent = $0 { false } else { true } })
        #expect(p.client.state == .connected && p.server.state == .connected && !p.server.resumed)
        #expect(Self.has(events.server) { if case .earlyDataRejected(.pskNotSelected) = $0 { true } else { false } })
        #expect(Self.has(events.server) { if case .earlyRecordSkipped = $0 { true } else { false } })
        #expect(p.server.receive(p.client.send(Self.request).output).applicationData == Self.request)
        // Beyond 16384 bytes of skipped 0-RTT data a record that does not open is fatal again.
        var q = try Self.resuming(seed: 10, ticket: kept, issued: [], early: TLS13ServerEarlyData(maxEarlyDataSize: 0, accepts: false))
        var flight = q.client.start().output
        for _ in 0..<5 { flight += q.client.sendEarlyData([UInt8](repeating: 0x41, count: 3_500)).output }
        #expect(q.server.receive(flight).alertSent?.alertDescription == .badRecordMAC)
    }

    @Test("A ticket without early_data: the client offers none")
    func ticketWithoutEarlyData() throws {
        let (_, kept, sent) = try TLS13ResumptionTests.firstConnection(seed: 9)
        var p = try Self.resuming(seed: 9, ticket: kept, issued: [sent])
        _ = p.client.start()
        #expect(!p.client.canSendEarlyData)
        #expect(p.client.sendEarlyData(Self.request).output.isEmpty)
    }
}
