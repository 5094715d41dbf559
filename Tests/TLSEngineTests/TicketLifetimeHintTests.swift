import Testing
import TLSCrypto
@testable import TLSEngine

/// The client's side of RFC 5077 §3.3 with an injected clock: a ticket is stamped with the driver's
/// reading when it arrives, and once its ticket_lifetime_hint has passed the client deletes it and
/// its session — the ClientHello offers neither ticket nor session ID, and the handshake is full. The
/// server here has no session lifetime of its own, so every refusal below is the client's.
@Suite("Ticket lifetime hint on the client (injected clock)")
struct TicketLifetimeHintTests {
    static let start = SessionTime(secondsSinceEpoch: 1_800_000_000)
    static func later(_ seconds: UInt32) -> SessionTime { SessionTime(secondsSinceEpoch: start.secondsSinceEpoch + seconds) }
    static let hint: UInt32 = 300

    static func server(seed: UInt64, keys: SessionTicketKeys, hint: UInt32 = hint) throws -> TLSServerConfiguration {
        var config = try Harness.serverConfiguration(seed: seed)
        config.sessionTicketKeys = keys
        config.ticketLifetimeHint = hint
        return config
    }

    static func client(seed: UInt64, session: TLSSession? = nil) throws -> TLSClientConfiguration {
        var config = try Harness.clientConfiguration(seed: seed, suites: [.TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256])
        config.offerSessionTicket = true
        config.session = session
        return config
    }

    static func hello(_ run: EngineRun) -> ClientHello? {
        run.clientEvents.compactMap { if case .handshakeSent(.clientHello(let h), _) = $0 { return h } else { return nil } }.first
    }

    static func expiries(_ run: EngineRun) -> [TicketExpiry] {
        run.clientEvents.compactMap { if case .sessionTicketExpired(let e) = $0 { return e } else { return nil } }
    }

    /// A session with a ticket received at `start`.
    static func firstSession(keys: SessionTicketKeys, hint: UInt32 = hint) throws -> TLSSession {
        let first = Harness.run(client: try client(seed: 401), server: try server(seed: 401, keys: keys, hint: hint), clientClock: start)
        let session = try #require(first.client.session)
        #expect(session.ticket != nil && session.ticketLifetimeHint == hint)
        #expect(session.ticketReceivedAt == start, "the ticket carries the reading of its arrival")
        return session
    }

    @Test("offered and resumed before the hint passes; at and after it, neither ticket nor ID is offered")
    func hintBoundary() throws {
        let keys = SessionTicketKeys(random: HMACDRBG(seed: 400))
        let session = try Self.firstSession(keys: keys)
        let young = Harness.run(client: try Self.client(seed: 402, session: session), server: try Self.server(seed: 402, keys: keys),
                                clientClock: Self.later(Self.hint - 1))
        #expect(young.outcome == .connected && young.client.isResumed && young.server.isResumed)
        #expect(Self.expiries(young).isEmpty)
        #expect(Self.hello(young)?.extensions?.contains(.sessionTicket(session.ticket ?? [])) == true)

        for age in [Self.hint, Self.hint + 1, 86_400] {
            let old = Harness.run(client: try Self.client(seed: 403, session: session), server: try Self.server(seed: 403, keys: keys),
                                  clientClock: Self.later(age))
            #expect(old.outcome == .connected, "age \(age): \(old.outcome)")
            #expect(!old.client.isResumed && !old.server.isResumed, "age \(age): a full handshake")
            #expect(Self.expiries(old) == [TicketExpiry(ageSeconds: age, lifetimeHintSeconds: Self.hint)])
            let hello = try #require(Self.hello(old))
            #expect(hello.sessionID.isEmpty, "age \(age): the session ID is deleted with the ticket")
            #expect(hello.extensions?.contains(.sessionTicket([])) == true, "age \(age): a new ticket is asked for, the old one not sent")
            // The full handshake's new session and ticket start their own hint.
            #expect(old.client.session?.ticketReceivedAt == Self.later(age))
            #expect(old.client.session?.ticket != session.ticket)
        }
    }

    @Test("a renewed ticket restarts the hint from its own arrival")
    func renewedTicketIsRestamped() throws {
        let keys = SessionTicketKeys(random: HMACDRBG(seed: 410))
        let session = try Self.firstSession(keys: keys)
        let resumed = Harness.run(client: try Self.client(seed: 411, session: session), server: try Self.server(seed: 411, keys: keys),
                                  clientClock: Self.later(200))
        #expect(resumed.client.isResumed)
        let renewed = try #require(resumed.client.session)
        #expect(renewed.ticketReceivedAt == Self.later(200) && renewed.ticket != session.ticket)
        // 200 + 250 is past the first ticket's hint but not the renewed one's.
        let again = Harness.run(client: try Self.client(seed: 412, session: renewed), server: try Self.server(seed: 412, keys: keys),
                                clientClock: Self.later(450))
        #expect(again.client.isResumed && Self.expiries(again).isEmpty)
    }

    @Test("no clock, a clock set back, or a hint of 0 (unspecified): the ticket is still offered")
    func unknownAgeStillOffers() throws {
        let keys = SessionTicketKeys(random: HMACDRBG(seed: 420))
        let session = try Self.firstSession(keys: keys)
        let noClock = Harness.run(client: try Self.client(seed: 421, session: session), server: try Self.server(seed: 421, keys: keys))
        #expect(noClock.client.isResumed && Self.expiries(noClock).isEmpty)
        let setBack = Harness.run(client: try Self.client(seed: 422, session: session), server: try Self.server(seed: 422, keys: keys),
                                  clientClock: SessionTime(secondsSinceEpoch: Self.start.secondsSinceEpoch - 10_000))
        #expect(setBack.client.isResumed && Self.expiries(setBack).isEmpty)
        let unspecified = try Self.firstSession(keys: keys, hint: 0)
        let years = Harness.run(client: try Self.client(seed: 423, session: unspecified), server: try Self.server(seed: 423, keys: keys, hint: 0),
                                clientClock: Self.later(100_000_000))
        #expect(years.client.isResumed && Self.expiries(years).isEmpty)
    }
}
