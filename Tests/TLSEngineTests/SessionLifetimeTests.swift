import Crypto
import _CryptoExtras
import Testing
import TLSCrypto
@testable import TLSEngine

/// The server's session lifetime (RFC 5246 Appendix F.1.4, RFC 5077 §5.6) with an injected clock:
/// the engine reads none, the test hands it each reading with the client's bytes. A session younger
/// than the lifetime resumes, by ticket or by session ID; one at or past it, or of unknown age, gets a
/// full handshake with the expiry named.
@Suite("Session lifetime (injected clock)")
struct SessionLifetimeTests {
    static let start = SessionTime(secondsSinceEpoch: 1_800_000_000)
    static func later(_ seconds: UInt32) -> SessionTime { SessionTime(secondsSinceEpoch: start.secondsSinceEpoch + seconds) }

    static func server(seed: UInt64, keys: SessionTicketKeys?, cache: TLSSessionCache? = nil, lifetime: UInt32 = 60) throws -> TLSServerConfiguration {
        var config = try Harness.serverConfiguration(seed: seed)
        config.sessionTicketKeys = keys
        config.sessionCache = cache
        config.ticketLifetimeHint = 7_200
        config.sessionLifetime = SessionLifetime(seconds: lifetime)
        return config
    }

    static func client(seed: UInt64, session: TLSSession? = nil) throws -> TLSClientConfiguration {
        var config = try Harness.clientConfiguration(seed: seed, suites: [.TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256])
        config.offerSessionTicket = true
        config.session = session
        return config
    }

    static func expiries(_ run: EngineRun) -> [SessionExpiry] {
        run.serverEvents.compactMap { if case .sessionExpired(let e) = $0 { return e } else { return nil } }
    }

    static func hints(_ run: EngineRun) -> [UInt32] {
        run.serverEvents.compactMap { if case .handshakeSent(.newSessionTicket(let t), _) = $0 { return t.lifetimeHint } else { return nil } }
    }

    @Test("a ticket carries its full handshake's time; it resumes until the lifetime, not at or after it")
    func ticketExpires() throws {
        let keys = SessionTicketKeys(random: HMACDRBG(seed: 300))
        let first = Harness.run(client: try Self.client(seed: 301), server: try Self.server(seed: 301, keys: keys), serverClock: Self.start)
        let session = try #require(first.client.session)
        #expect(Self.hints(first) == [60], "with a lifetime, the hint is the session's whole life")
        // The sealed state's timestamp is the server's clock reading (RFC 5077 §4), read back by opening the ticket.
        let ticket = try #require(session.ticket)
        let state = try #require(try? keys.open(ticket).get())
        #expect(state.establishedAt == Self.start)

        let young = Harness.run(client: try Self.client(seed: 302, session: session), server: try Self.server(seed: 302, keys: keys),
                                serverClock: Self.later(59))
        #expect(young.outcome == .connected && young.server.isResumed && young.client.isResumed)
        #expect(Self.expiries(young).isEmpty)
        #expect(Self.hints(young) == [1], "the renewed ticket's hint is the life left: 60 − 59")
        let renewedTicket = try #require(young.client.session?.ticket)
        let renewed = try #require(try? keys.open(renewedTicket).get())
        #expect(renewed.establishedAt == Self.start, "a resumption does not extend the session's life")

        for age: UInt32 in [60, 61, 86_400] {
            let old = Harness.run(client: try Self.client(seed: 303, session: session), server: try Self.server(seed: 303, keys: keys),
                                  serverClock: Self.later(age))
            #expect(old.outcome == .connected, "age \(age): \(old.outcome)")
            #expect(!old.server.isResumed && !old.client.isResumed, "age \(age)")
            #expect(Self.expiries(old) == [SessionExpiry(offer: .ticket, ageSeconds: age, lifetimeSeconds: 60)], "age \(age)")
            #expect(old.client.session?.ticket != session.ticket, "age \(age): a new ticket for the new session")
        }
        // The renewed ticket from the resumption expires with the original session.
        let renewedRun = Harness.run(client: try Self.client(seed: 304, session: young.client.session),
                                     server: try Self.server(seed: 304, keys: keys), serverClock: Self.later(61))
        #expect(!renewedRun.server.isResumed && Self.expiries(renewedRun).map(\.ageSeconds) == [61])
    }

    @Test("a cached session ID expires too, and the expired entry leaves the cache")
    func sessionIDExpires() throws {
        let cache = TLSSessionCache()
        let first = Harness.run(client: try Self.client(seed: 310), server: try Self.server(seed: 310, keys: nil, cache: cache, lifetime: 10),
                                serverClock: Self.start)
        let session = try #require(first.client.session)
        #expect(session.sessionID.count == 32 && cache.count == 1)
        #expect(cache.session(id: session.sessionID)?.establishedAt == Self.start)
        let young = Harness.run(client: try Self.client(seed: 311, session: session),
                                server: try Self.server(seed: 311, keys: nil, cache: cache, lifetime: 10), serverClock: Self.later(9))
        #expect(young.server.isResumed && young.client.isResumed)
        let old = Harness.run(client: try Self.client(seed: 312, session: session),
                              server: try Self.server(seed: 312, keys: nil, cache: cache, lifetime: 10), serverClock: Self.later(10))
        #expect(old.outcome == .connected && !old.server.isResumed && !old.client.isResumed)
        #expect(Self.expiries(old) == [SessionExpiry(offer: .sessionID, ageSeconds: 10, lifetimeSeconds: 10)])
        #expect(cache.session(id: session.sessionID) == nil, "the expired entry is forgotten")
        #expect(cache.count == 1, "the new full handshake's session replaced it")
    }

    @Test("without a clock reading, or with the clock set back, a lifetime-bound server resumes nothing")
    func unknownAge() throws {
        let keys = SessionTicketKeys(random: HMACDRBG(seed: 320))
        let first = Harness.run(client: try Self.client(seed: 321), server: try Self.server(seed: 321, keys: keys), serverClock: Self.start)
        let session = try #require(first.client.session)
        let noClock = Harness.run(client: try Self.client(seed: 322, session: session), server: try Self.server(seed: 322, keys: keys))
        #expect(noClock.outcome == .connected && !noClock.server.isResumed)
        #expect(Self.expiries(noClock) == [SessionExpiry(offer: .ticket, ageSeconds: nil, lifetimeSeconds: 60)])
        let backwards = Harness.run(client: try Self.client(seed: 323, session: session), server: try Self.server(seed: 323, keys: keys),
                                    serverClock: SessionTime(secondsSinceEpoch: Self.start.secondsSinceEpoch - 1))
        #expect(!backwards.server.isResumed && Self.expiries(backwards).map(\.ageSeconds) == [nil])
        // A ticket sealed without a clock reading has timestamp 0 (unknown): it never resumes under a lifetime.
        let unstamped = Harness.run(client: try Self.client(seed: 324), server: try Self.server(seed: 324, keys: keys))
        let late = Harness.run(client: try Self.client(seed: 325, session: unstamped.client.session),
                               server: try Self.server(seed: 325, keys: keys), serverClock: Self.later(1))
        #expect(!late.server.isResumed && Self.expiries(late).map(\.ageSeconds) == [nil])
    }

    @Test("no lifetime configured: sessions resume at any age, and the hint is the configured one")
    func noLifetime() throws {
        let keys = SessionTicketKeys(random: HMACDRBG(seed: 330))
        var config = try Self.server(seed: 331, keys: keys)
        config.sessionLifetime = nil
        let first = Harness.run(client: try Self.client(seed: 331), server: config, serverClock: Self.start)
        #expect(Self.hints(first) == [7_200])
        config.random = HMACDRBG(seed: 332)
        let years = Harness.run(client: try Self.client(seed: 332, session: first.client.session), server: config,
                                serverClock: Self.later(100_000_000))
        #expect(years.server.isResumed && Self.expiries(years).isEmpty)
    }

    @Test("SessionLifetime: the boundary, the remaining hint and an unknown age")
    func arithmetic() {
        let lifetime = SessionLifetime(seconds: 5)
        #expect(lifetime.expiry(of: .ticket, establishedAt: Self.start, now: Self.later(4)) == nil)
        #expect(lifetime.expiry(of: .ticket, establishedAt: Self.start, now: Self.later(5))?.ageSeconds == 5)
        #expect(lifetime.expiry(of: .sessionID, establishedAt: nil, now: Self.start) == SessionExpiry(offer: .sessionID, ageSeconds: nil, lifetimeSeconds: 5))
        #expect(lifetime.remaining(establishedAt: Self.start, now: Self.later(3)) == 2)
        #expect(lifetime.remaining(establishedAt: Self.start, now: Self.later(9)) == 0)
    }
}
