import Testing
import TLSCrypto
@testable import TLSEngine

/// RFC 7627 §5.3 on the server, by session ID and by ticket. A session made without the extended
/// master secret, offered in a ClientHello with it: "the server MUST NOT perform the abbreviated
/// handshake. Instead, it SHOULD continue with a full handshake" — a full handshake, and the trace
/// says which rule applied (``TLSEvent/resumptionDeclined(_:)``). A session made with it, offered in a
/// ClientHello without it: "the server MUST abort the abbreviated handshake" — unlike the rule before,
/// not a full handshake: the handshake ends with handshake_failure, as OpenSSL 3.0 does
/// (ssl_get_prev_session, "inconsistent extms", alert 40; measured with s_client -sess_in and
/// Options = -ExtendedMasterSecret). Issue #38, defect 5.
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

    @Test("a session resumes with the same EMS setting; without EMS→with: full handshake; with→without: abort", arguments: [false, true])
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
            // The client did offer the session: the refusal is the server's.
            let hello = other.clientEvents.compactMap { e -> ClientHello? in
                if case .handshakeSent(.clientHello(let h), _) = e { return h } else { return nil }
            }.first
            if byTicket {
                #expect(hello?.extensions?.contains(.sessionTicket(session.ticket ?? [])) == true, "the ticket was offered")
            } else {
                #expect(hello?.sessionID == session.sessionID, "the session ID was offered")
            }
            #expect(!other.server.isResumed && !other.client.isResumed, "EMS \(firstEMS) → \(!firstEMS): not resumed")
            let declined = other.serverEvents.compactMap { e -> ResumptionDeclined? in
                if case .resumptionDeclined(let d) = e { return d } else { return nil }
            }
            let causes = other.serverEvents.compactMap { e -> AlertCause? in
                if case .alertSent(let alert, let cause) = e, alert.isFatal { return cause } else { return nil }
            }
            if firstEMS {
                // "MUST abort the abbreviated handshake": handshake_failure, nothing sent after the alert.
                #expect(other.outcome == .failed(sender: .server, alert: .handshakeFailure), "EMS → no EMS: \(other.outcome)")
                #expect(causes == [.failure(.peerMisbehaved(.extendedMasterSecretDroppedOnResumption))], "\(causes)")
                #expect(declined.isEmpty)
                let sent = other.serverEvents.compactMap { e -> HandshakeType? in
                    if case .handshakeSent(let m, _) = e { return m.type } else { return nil }
                }
                #expect(sent.isEmpty, "no ServerHello: \(sent)")
            } else {
                // "SHOULD continue with a full handshake", and the trace names the rule.
                #expect(other.outcome == .connected, "no EMS → EMS: \(other.outcome)")
                #expect(other.server.usesExtendedMasterSecret)
                #expect(declined == [ResumptionDeclined(offer: byTicket ? .ticket : .sessionID, rule: .extendedMasterSecretOnlyInHello)],
                        "\(declined)")
            }
        }
    }
}
