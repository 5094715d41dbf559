import Foundation
@testable import Simulation
import TLSCrypto
import TLSEngine
import Testing
import Trace

/// The built-in run `tls13-resumption` (RFC 8446 §2.2): two connections; after the first full
/// handshake the server sends a NewSessionTicket, and the second connection offers it back with
/// pre_shared_key and resumes — no certificate crosses the wire, a fresh X25519 exchange still does.
@Suite("The tls13-resumption run")
struct TLS13ResumptionRunTests {
    static func trace(seed: UInt64 = 1) throws -> Trace { Simulation(try BuiltInRun.tls13Resumption.setup(seed: seed)).run() }

    static func sent(_ trace: Trace, by actor: Actor, connection: Int) -> [HandshakeType] {
        trace.events.compactMap { e -> HandshakeType? in
            guard e.actor == actor, e.connection == connection, case .tls(.handshakeSent(let m, _)) = e.kind else { return nil }
            return m.type
        }
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func theSecondConnectionResumesWithTheFirstConnectionsTicket(seed: UInt64) throws {
        let trace = try Self.trace(seed: seed)
        #expect(trace.summary(connection: 0).resumed == false && trace.summary(connection: 1).resumed == true)
        for connection in [0, 1] {
            let s = trace.summary(connection: connection)
            #expect(s.clientCompleted && s.serverCompleted && s.failure == nil && s.version == .tls13, "connection \(connection)")
            // Each side computed the same schedule on its own, the ticket's PSK included.
            let client = trace.tls13Steps(of: .client, connection: connection), server = trace.tls13Steps(of: .server, connection: connection)
            #expect(client == server, "connection \(connection)")
        }
        // The first connection: a full handshake, then the ticket; the second: no certificate.
        #expect(Self.sent(trace, by: .server, connection: 0) == [.serverHello, .encryptedExtensions, .certificate, .certificateVerify, .finished, .newSessionTicket])
        #expect(Self.sent(trace, by: .server, connection: 1) == [.serverHello, .encryptedExtensions, .finished, .newSessionTicket])
        // The PSK the client derived from the first connection's ticket is the second's early-secret input.
        let psk = try #require(trace.tls13Steps(of: .client, connection: 0).last { $0.secret == .resumptionPSK })
        let early = try #require(trace.tls13Steps(of: .client, connection: 1).first)
        #expect(early.secret == .earlySecret && early.derivation == .extract(salt: nil, ikm: .preSharedKey))
        #expect(early.value == TLS13Hash.sha256.extract(salt: [UInt8](repeating: 0, count: 32), ikm: psk.value))
        #expect(trace.tls13Steps(of: .client, connection: 1).contains { $0.secret == .binderKey })
        // The server's binder check, and the age it read: the virtual time between ticket and ClientHello.
        let checks = trace.events.compactMap { e -> Bool? in
            guard e.actor == .server, case .tls(.tls13(.pskBinderChecked(_, let expected, let received))) = e.kind else { return nil }
            return expected == received
        }
        #expect(checks == [true])
        let offered = trace.events.compactMap { e -> UInt32? in
            guard e.actor == .client, case .tls(.tls13(.pskOffered(_, let age, _, _))) = e.kind else { return nil }
            return age
        }
        let read = trace.events.compactMap { e -> UInt32? in
            guard e.actor == .server, case .tls(.tls13(.pskAccepted(0, let age?))) = e.kind else { return nil }
            return age
        }
        #expect(offered.count == 1 && offered == read && offered[0] > 0)
    }

    @Test func noCertificateOnTheResumedConnection() throws {
        let trace = try Self.trace()
        let certificates = trace.events.filter { e in
            if case .tls(.certificateDecision) = e.kind { true } else { false }
        }
        #expect(certificates.map(\.connection) == [0])
    }
}
