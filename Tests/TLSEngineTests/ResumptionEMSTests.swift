import Testing
import TLSCrypto
@testable import TLSEngine

/// RFC 7627 §5.3 on the server, by session ID and by ticket: a session made without the extended
/// master secret is not resumed by a ClientHello that offers it, nor the other way round; the server
/// does a full handshake instead (issue #22's resumption gap). §5.3 says the server "SHOULD continue
/// with a full handshake" for a non-EMS session offered with EMS, and "MUST abort the abbreviated
/// handshake" for an EMS session offered without it: TLSLab does a full handshake there too, where
/// OpenSSL 3.0 (ssl_get_prev_session, SSL_R_INCONSISTENT_EXTMS) ends the connection with
/// illegal_parameter; both refuse the abbreviated handshake.
@Suite("Resumption keeps the kind of master secret (RFC 7627 §5.3)")
struct ResumptionEMSTests {
    static func client(seed: UInt64, ems: Bool, session: TLSSession?) throws -> TLSClientConfiguration {
        var config = try Harness.clientConfiguration(seed: seed, suites: [.TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256])
        config.offerExtendedMasterSecret = ems
        config.offerSessionTicket = true
        config.session = session
        return config
    }

    static func server(seed: UInt64, cache: TLSSessionCache?, keys: SessionTicketKeys?) throws -> TLSServerConfiguration {
        var config = try Harness.serverConfiguration(seed: seed)
        config.sessionCache = cache
        config.sessionTicketKeys = keys
        return config
    }

    @Test("a session resumes only with the same EMS setting, by ID and by ticket", arguments: [false, true])
    func sameKindOnly(byTicket: Bool) throws {
        for firstEMS in [true, false] {
            let cache = byTicket ? nil : TLSSessionCache()
            let keys = byTicket ? SessionTicketKeys(random: HMACDRBG(seed: 340)) : nil
            let first = Harness.run(client: try Self.client(seed: 341, ems: firstEMS, session: nil),
                                    server: try Self.server(seed: 341, cache: cache, keys: keys))
            let session = try #require(first.client.session)
            #expect(session.extendedMasterSecret == firstEMS)
            let same = Harness.run(client: try Self.client(seed: 342, ems: firstEMS, session: session),
                                   server: try Self.server(seed: 342, cache: cache, keys: keys))
            #expect(same.outcome == .connected && same.server.isResumed, "EMS \(firstEMS), same: \(same.outcome)")
            let other = Harness.run(client: try Self.client(seed: 343, ems: !firstEMS, session: session),
                                    server: try Self.server(seed: 343, cache: cache, keys: keys))
            #expect(other.outcome == .connected, "EMS \(firstEMS) → \(!firstEMS): \(other.outcome)")
            // The client did offer the session: the refusal is the server's.
            let hello = other.clientEvents.compactMap { e -> ClientHello? in
                if case .handshakeSent(.clientHello(let h), _) = e { return h } else { return nil }
            }.first
            if byTicket {
                #expect(hello?.extensions?.contains(.sessionTicket(session.ticket ?? [])) == true, "the ticket was offered")
            } else {
                #expect(hello?.sessionID == session.sessionID, "the session ID was offered")
            }
            #expect(!other.server.isResumed && !other.client.isResumed, "EMS \(firstEMS) → \(!firstEMS): a full handshake")
            #expect(other.server.usesExtendedMasterSecret == !firstEMS)
        }
    }
}
