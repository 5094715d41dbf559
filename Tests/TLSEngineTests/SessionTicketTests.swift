import Crypto
import _CryptoExtras
import Testing
import TLSCrypto
@testable import TLSEngine

/// Session tickets (RFC 5077) between our two engines: the server's NewSessionTicket after a full
/// handshake, resumption from it with the abbreviated handshake, and a full handshake for any ticket
/// that does not open. The ticket's layout (RFC 5077 §4) is checked by opening it with swift-crypto.
@Suite("Session tickets (RFC 5077)")
struct SessionTicketTests {
    static let suite = CipherSuite.TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256

    static func client(seed: UInt64, session: TLSSession? = nil, suites: [CipherSuite] = [suite]) throws -> TLSClientConfiguration {
        var config = try Harness.clientConfiguration(seed: seed, suites: suites)
        config.offerSessionTicket = true
        config.session = session
        return config
    }

    static func server(seed: UInt64, keys: SessionTicketKeys?) throws -> TLSServerConfiguration {
        var config = try Harness.serverConfiguration(seed: seed)
        config.sessionTicketKeys = keys
        config.ticketLifetimeHint = 7_200
        return config
    }

    static func serverMessages(_ run: EngineRun) -> [HandshakeType] {
        run.serverEvents.compactMap { if case .handshakeSent(let m, _) = $0 { return m.type } else { return nil } }
    }

    static func refusals(_ run: EngineRun) -> [SessionTicketRefusal] {
        run.serverEvents.compactMap { if case .sessionTicketRefused(let r) = $0 { return r } else { return nil } }
    }

    @Test("a full handshake ends with NewSessionTicket before the server's ChangeCipherSpec; the ticket opens with swift-crypto")
    func issued() throws {
        let keys = SessionTicketKeys(random: HMACDRBG(seed: 90))
        let run = Harness.run(client: try Self.client(seed: 91), server: try Self.server(seed: 91, keys: keys),
                              serverClock: SessionTime(secondsSinceEpoch: 0x6b49_d200))
        #expect(run.outcome == .connected, "\(run.outcome)")
        #expect(Self.serverMessages(run) == [.serverHello, .certificate, .serverKeyExchange, .serverHelloDone, .newSessionTicket, .finished])
        let states = run.clientEvents.compactMap { if case .stateChanged(_, _, let to) = $0 { return to } else { return nil } }
        #expect(states.contains(.expectNewSessionTicket))
        let session = try #require(run.client.session)
        let ticket = try #require(session.ticket)
        #expect(session.ticketLifetimeHint == 7_200)
        #expect(session.sessionID.isEmpty, "no session cache: the ticket alone carries the session")
        // key_name[16] ‖ iv[16] ‖ encrypted_state<2> ‖ mac[32], the MAC over everything before it.
        #expect(Array(ticket.prefix(16)) == keys.keyName)
        let length = Int(ticket[32]) << 8 | Int(ticket[33])
        #expect(ticket.count == 34 + length + 32)
        let mac = HMAC<SHA256>.authenticationCode(for: Array(ticket.dropLast(32)), using: SymmetricKey(data: keys.macKey))
        #expect(Array(mac) == Array(ticket.suffix(32)))
        let state = Array(try AES._CBC.decrypt(Array(ticket[34 ..< 34 + length]), using: SymmetricKey(data: keys.encryptionKey),
                                               iv: AES._CBC.IV(ivBytes: Array(ticket[16 ..< 32]))))
        // StatePlaintext: version, suite, master secret, timestamp (the server's clock reading), EMS, ETM.
        #expect(state == [3, 3, 0xc0, 0x2f] + (run.client.masterSecret ?? []) + [0x6b, 0x49, 0xd2, 0x00] + [1, 0])
    }

    @Test("the ticket resumes: abbreviated handshake with a renewed ticket, the client's fresh session ID echoed, the same master secret")
    func resumed() throws {
        let keys = SessionTicketKeys(random: HMACDRBG(seed: 92))
        let first = Harness.run(client: try Self.client(seed: 93), server: try Self.server(seed: 93, keys: keys))
        let session = try #require(first.client.session)
        let second = Harness.run(client: try Self.client(seed: 94, session: session), server: try Self.server(seed: 94, keys: keys))
        #expect(second.outcome == .connected, "\(second.outcome)")
        #expect(second.client.isResumed && second.server.isResumed)
        #expect(Self.serverMessages(second) == [.serverHello, .newSessionTicket, .finished], "no Certificate, no key exchange")
        #expect(second.client.masterSecret == first.client.masterSecret)
        let sent = second.clientEvents.compactMap { e -> ClientHello? in
            if case .handshakeSent(.clientHello(let h), _) = e { return h } else { return nil }
        }.first
        let echoed = second.serverEvents.compactMap { e -> ServerHello? in
            if case .handshakeSent(.serverHello(let h), _) = e { return h } else { return nil }
        }.first
        #expect(sent?.sessionID.count == 32 && echoed?.sessionID == sent?.sessionID)
        #expect(sent?.extensions?.contains(.sessionTicket(session.ticket ?? [])) == true)
        #expect(String(decoding: second.serverReceived, as: UTF8.self).hasPrefix("GET / HTTP/1.1"))
        // The renewed ticket (a fresh IV) replaces the old one and resumes the same session again.
        let renewed = try #require(second.client.session?.ticket)
        #expect(renewed != session.ticket)
        let third = Harness.run(client: try Self.client(seed: 107, session: second.client.session),
                                server: try Self.server(seed: 107, keys: keys))
        #expect(third.client.isResumed && third.client.masterSecret == first.client.masterSecret)
    }

    @Test("every flipped byte of the ticket: a full handshake, a new ticket, and the refusal named")
    func tampered() throws {
        let keys = SessionTicketKeys(random: HMACDRBG(seed: 95))
        let first = Harness.run(client: try Self.client(seed: 96), server: try Self.server(seed: 96, keys: keys))
        let session = try #require(first.client.session)
        let ticket = try #require(session.ticket)
        var seen = Set<SessionTicketRefusal>()
        for index in ticket.indices {
            var altered = session
            altered.ticket?[index] ^= 0x01
            let run = Harness.run(client: try Self.client(seed: 97, session: altered), server: try Self.server(seed: 97, keys: keys))
            #expect(run.outcome == .connected, "byte \(index): \(run.outcome)")
            #expect(!run.client.isResumed && !run.server.isResumed, "byte \(index)")
            #expect(Self.serverMessages(run).contains(.certificate), "byte \(index): a full handshake")
            #expect(run.client.session?.ticket != nil && run.client.session?.ticket != ticket, "byte \(index): a new ticket")
            let refusals = Self.refusals(run)
            #expect(refusals.count == 1, "byte \(index)")
            seen.formUnion(refusals)
            // The key name is checked first, then the MAC (over the rest) before any decryption.
            #expect(refusals.first == (index < 16 ? .unknownKeyName : .macMismatch), "byte \(index)")
        }
        #expect(seen == [.unknownKeyName, .macMismatch])
        // Truncated, and another server's ticket.
        var short = session
        short.ticket = Array(ticket.prefix(40))
        let truncated = Harness.run(client: try Self.client(seed: 98, session: short), server: try Self.server(seed: 98, keys: keys))
        #expect(Self.refusals(truncated) == [.malformed] && truncated.outcome == .connected && !truncated.client.isResumed)
        let other = Harness.run(client: try Self.client(seed: 99, session: session),
                                server: try Self.server(seed: 99, keys: SessionTicketKeys(random: HMACDRBG(seed: 100))))
        #expect(Self.refusals(other) == [.unknownKeyName] && other.outcome == .connected && !other.client.isResumed)
    }

    @Test("an intact ticket for a session the ClientHello cannot resume (its suite not offered): a full handshake")
    func sessionMismatch() throws {
        let keys = SessionTicketKeys(random: HMACDRBG(seed: 101))
        let first = Harness.run(client: try Self.client(seed: 102), server: try Self.server(seed: 102, keys: keys))
        let session = try #require(first.client.session)
        let run = Harness.run(client: try Self.client(seed: 103, session: session, suites: [.TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384]),
                              server: try Self.server(seed: 103, keys: keys))
        #expect(Self.refusals(run) == [.sessionMismatch])
        #expect(run.outcome == .connected && !run.client.isResumed)
    }

    @Test("a server without ticket keys ignores the extension; a client that does not ask gets no ticket")
    func notUsed() throws {
        let withoutKeys = Harness.run(client: try Self.client(seed: 104), server: try Self.server(seed: 104, keys: nil))
        #expect(withoutKeys.outcome == .connected)
        #expect(!Self.serverMessages(withoutKeys).contains(.newSessionTicket))
        #expect(withoutKeys.client.session == nil, "no session ID and no ticket: nothing to resume")
        var plain = try Self.client(seed: 105)
        plain.offerSessionTicket = false
        let notAsked = Harness.run(client: plain, server: try Self.server(seed: 105, keys: SessionTicketKeys(random: HMACDRBG(seed: 106))))
        #expect(notAsked.outcome == .connected)
        #expect(!Self.serverMessages(notAsked).contains(.newSessionTicket))
        let hello = notAsked.serverEvents.compactMap { e -> ServerHello? in
            if case .handshakeSent(.serverHello(let h), _) = e { return h } else { return nil }
        }.first
        #expect(hello?.extensions?.contains(type: .sessionTicket) != true)
    }

    @Test("NewSessionTicket round-trips; a wrong length is a decode error")
    func codec() throws {
        let message = HandshakeMessage.newSessionTicket(NewSessionTicket(lifetimeHint: 0x0102_0304, ticket: [9, 8, 7]))
        #expect(message.encoded == [4, 0, 0, 9, 1, 2, 3, 4, 0, 3, 9, 8, 7])
        #expect(try HandshakeMessage(decoding: message.encoded, context: .init()) == message)
        #expect(throws: DecodeError.self) { try HandshakeMessage(decoding: [4, 0, 0, 8, 1, 2, 3, 4, 0, 3, 9, 8], context: .init()) }
        #expect(throws: DecodeError.self) { try HandshakeMessage(decoding: [4, 0, 0, 3, 1, 2, 3], context: .init()) }
    }
}
