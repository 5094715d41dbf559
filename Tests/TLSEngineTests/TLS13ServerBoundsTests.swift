import Foundation
import Testing
import TestSupport
import TLSCrypto
@testable import TLSEngine

/// What `tlslab serve` needs of the TLS 1.3 server beyond the simulation, read through
/// ``DualVersionServer`` as serve drives it: every bound of TLS 1.2 (``IncomingLimits``, record
/// sizes), the driver's cancel, a ticket store shared by connections with single use (RFC 8446 §8.1)
/// and lifetime, and the facts the page reports.
@Suite("TLS 1.3 server: bounds, cancel, shared tickets and the facts serve reports")
struct TLS13ServerBoundsTests {
    static func server(seed: UInt64, store: TLS13TicketStore? = nil, singleUse: Bool = true) throws -> DualVersionServer {
        var tls13 = try DualVersionTests.tls13Server()
        tls13.ticketStore = store
        tls13.ticketLifetime = store == nil ? nil : 3_600
        tls13.earlyData = TLS13ServerEarlyData(maxEarlyDataSize: 0, accepts: false, singleUseTickets: singleUse)
        return DualVersionServer(configuration: DualVersionServerConfiguration(tls12: try Harness.serverConfiguration(seed: seed), tls13: tls13))
    }

    /// A TLS 1.3 client connected to `server`, with its tickets (when the server sends them).
    static func connect(_ server: inout DualVersionServer, seed: UInt64, ticket: TLS13ResumptionTicket? = nil,
                        at now: SessionTime? = nil, atMilliseconds reading: UInt64? = nil) throws -> TLS13Client {
        var configuration = try DualVersionTests.tls13Client()
        configuration.resumption = ticket
        var client = TLS13Client(configuration: configuration, random: HMACDRBG(seed: seed))
        // The server's one clock input is in milliseconds; `now` gives whole seconds.
        let milliseconds = reading ?? now.map { UInt64($0.secondsSinceEpoch) * 1_000 }
        let answer = server.receive(client.start().output, atMilliseconds: milliseconds)
        let finished = client.receive(answer.output)
        let after = server.receive(finished.output, atMilliseconds: milliseconds)
        _ = client.receive(after.output)
        #expect(client.state == .connected)
        #expect(server.isConnected)
        return client
    }

    @Test("32 empty application_data records in a row are read; the 33rd is unexpected_message (IncomingLimits, as TLS 1.2)")
    func emptyRecords() throws {
        var server = try Self.server(seed: 1)
        var client = try Self.connect(&server, seed: 2)
        for _ in 0..<IncomingLimits.maximumConsecutiveEmptyRecords {
            let step = server.receive(client.send([]).output, atMilliseconds: nil)
            #expect(step.fatalAlertSent == nil)
        }
        // Data between runs starts the count again.
        #expect(server.receive(client.send([0x41]).output, atMilliseconds: nil).applicationData == [0x41])
        for _ in 0..<IncomingLimits.maximumConsecutiveEmptyRecords { _ = server.receive(client.send([]).output, atMilliseconds: nil) }
        let last = server.receive(client.send([]).output, atMilliseconds: nil)
        let (alert, cause) = try #require(last.fatalAlertSent)
        #expect(alert.alertDescription == .unexpectedMessage)
        #expect(cause == .tls13(.tooManyEmptyRecords(limit: IncomingLimits.maximumConsecutiveEmptyRecords)))
        #expect(!server.isConnected)
    }

    @Test("A warning-level alert other than close_notify or user_canceled is an error alert in TLS 1.3 (§6): the first ends the connection, no run to count")
    func warningAlertEnds() throws {
        var server = try Self.server(seed: 23)
        var client = try Self.connect(&server, seed: 24)
        try client.connection.send(.alert, [1, AlertDescription.unrecognizedName.rawValue])
        let step = server.receive(client.connection.takeStep().output, atMilliseconds: nil)
        #expect(step.errorAlertReceived == Alert(level: .warning, description: .unrecognizedName))
        #expect(step.fatalAlertReceived == nil && !step.closeNotifyReceived)
        #expect(!server.isConnected)
        // Anything after it is not read.
        #expect(server.receive(client.send([1]).output, atMilliseconds: nil).applicationData.isEmpty)
        // close_notify is a closure alert, not an error.
        var other = try Self.server(seed: 25)
        var second = try Self.connect(&other, seed: 26)
        let closed = other.receive(second.close().output, atMilliseconds: nil)
        #expect(closed.closeNotifyReceived && closed.errorAlertReceived == nil)
    }

    @Test("A full 2^14-byte record is read (the reader's protected limit); an encrypted record over 2^14 + 256 is record_overflow (§5.2)")
    func recordSizes() throws {
        var server = try Self.server(seed: 3)
        var client = try Self.connect(&server, seed: 4)
        let full = [UInt8](repeating: 0x61, count: TLS13RecordProtector.maxPlaintextLength)
        #expect(server.receive(client.send(full).output, atMilliseconds: nil).applicationData == full)
        let length = TLS13RecordProtector.maxCiphertextLength + 1
        let oversized = [0x17, 0x03, 0x03, UInt8(length >> 8), UInt8(length & 0xff)] + [UInt8](repeating: 0, count: length)
        let step = server.receive(oversized, atMilliseconds: nil)
        #expect(step.fatalAlertSent?.alert.alertDescription == .recordOverflow)
    }

    @Test("cancel mid-handshake: user_canceled then close_notify (RFC 8446 §6.1), the state a wait for the client's Finished")
    func cancelMidHandshake() throws {
        var server = try Self.server(seed: 5)
        var client = TLS13Client(configuration: try DualVersionTests.tls13Client(), random: HMACDRBG(seed: 6))
        let flight = server.receive(client.start().output, atMilliseconds: nil)
        #expect(server.stateName == .expectFinished)
        _ = client.receive(flight.output)
        let step = server.cancel()
        let alerts = step.events.compactMap { if case .alertSent(let a, let cause) = $0 { (a, cause) } else { nil } }
        #expect(alerts.map(\.0.alertDescription) == [.userCanceled, .closeNotify])
        #expect(alerts.first?.1 == .handshakeCanceled)
        #expect(alerts.allSatisfy { !$0.0.isFatal })
        // Protected with the key the server writes with after its Finished (server_application_traffic_secret_0,
        // RFC 8446 §7.1): the client opens the first and stops reading there.
        let read = client.receive(step.output)
        #expect(read.events.contains { if case .alertReceived(Alert(level: .warning, description: .userCanceled)) = $0 { true } else { false } })
        #expect(step.records.count == 2 && step.records.allSatisfy { $0.contentType == .applicationData }, "both protected")
    }

    @Test("A shared store: the ticket of one connection resumes the next once; single use refuses it the second time (§8.1), --allow-replay does not")
    func singleUseTickets() throws {
        for singleUse in [true, false] {
            let store = TLS13TicketStore()
            var first = try Self.server(seed: 7, store: store, singleUse: singleUse)
            let client = try Self.connect(&first, seed: 8)
            let ticket = try #require(client.tickets.first)
            #expect(store.count == 1)
            #expect(!first.isResumed)
            var second = try Self.server(seed: 9, store: store, singleUse: singleUse)
            _ = try Self.connect(&second, seed: 10, ticket: ticket)
            #expect(second.isResumed)
            #expect(second.negotiatedGroupName == "x25519")
            var third = try Self.server(seed: 11, store: store, singleUse: singleUse)
            _ = try Self.connect(&third, seed: 12, ticket: ticket)
            #expect(third.isResumed == !singleUse, "single use: \(singleUse)")
        }
    }

    @Test("A stored ticket older than its lifetime at the driver's clock is not resumed, whatever age the client claims")
    func expiredTicket() throws {
        let store = TLS13TicketStore()
        let issued = SessionTime(secondsSinceEpoch: 1_000_000)
        var first = try Self.server(seed: 13, store: store)
        let ticket = try #require(try Self.connect(&first, seed: 14, at: issued).tickets.first)
        var late = try Self.server(seed: 15, store: store)
        _ = try Self.connect(&late, seed: 16, ticket: ticket, at: SessionTime(secondsSinceEpoch: issued.secondsSinceEpoch + 3_601))
        #expect(!late.isResumed)
        var inTime = try Self.server(seed: 17, store: store)
        _ = try Self.connect(&inTime, seed: 18, ticket: ticket, at: SessionTime(secondsSinceEpoch: issued.secondsSinceEpoch + 3_600))
        #expect(inTime.isResumed)
    }

    @Test("One clock input, in milliseconds: a ticket's creation_time is the reading itself, its lifetime is measured in the reading's whole seconds")
    func oneClockInput() throws {
        let store = TLS13TicketStore()
        let issued: UInt64 = 1_000_000_999  // 1 000 000 s and 999 ms
        var first = try Self.server(seed: 21, store: store)
        let ticket = try #require(try Self.connect(&first, seed: 22, atMilliseconds: issued).tickets.first)
        // The server's own record of the ticket: creation_time for the freshness check (RFC 8446 §8.3).
        #expect(store.ticket(ticket.message.ticket, now: nil)?.issuedAtMilliseconds == issued)
        // ticket_lifetime 3 600 s from second 1 000 000: second 1 003 601 is past it, 1 003 600 is not.
        var late = try Self.server(seed: 23, store: store)
        _ = try Self.connect(&late, seed: 24, ticket: ticket, atMilliseconds: 1_003_601_000)
        #expect(!late.isResumed)
        var inTime = try Self.server(seed: 25, store: store)
        _ = try Self.connect(&inTime, seed: 26, ticket: ticket, atMilliseconds: 1_003_600_999)
        #expect(inTime.isResumed)
    }

    @Test("The facts serve reports, through TLSServerEndpoint: version 1.3 and why, the group, the suite, no EMS, no early data")
    func facts() throws {
        var server = try Self.server(seed: 19)
        _ = try Self.connect(&server, seed: 20)
        #expect(server.negotiatedVersion == .tls13)
        #expect(server.versionChoice?.reason == .clientOffersTLS13(offered: [.tls13]))
        #expect(server.negotiatedGroupName == "x25519")
        #expect(server.negotiatedCipherSuite == CipherSuite(rawValue: TLS13CipherSuite.aes128GCMSHA256.rawValue))
        #expect(!server.usesExtendedMasterSecret && !server.acceptedEarlyData && !server.isResumed)
        #expect(server.requestedServerName == "localhost")
        #expect(server.stateName == .connected)
    }

    @Test("A KeyUpdate asking for an update is answered with the server's own, and data flows under the new keys both ways (§4.6.3)")
    func keyUpdateAnswered() throws {
        var server = try Self.server(seed: 21)
        var client = try Self.connect(&server, seed: 22)
        let answer = server.receive(client.updateKeys(requestUpdate: true).output, atMilliseconds: nil)
        #expect(answer.events.contains { if case .tls13(.keyUpdateSent(updateRequested: false)) = $0 { true } else { false } })
        let read = client.receive(answer.output)
        #expect(read.events.contains { if case .keyUpdateReceived(updateRequested: false) = $0 { true } else { false } })
        #expect(server.receive(client.send([1, 2, 3]).output, atMilliseconds: nil).applicationData == [1, 2, 3])
        let reply = try server.sendApplicationData([4, 5])
        #expect(client.receive(reply.output).events.contains { if case .applicationDataReceived([4, 5]) = $0 { true } else { false } })
    }
}
