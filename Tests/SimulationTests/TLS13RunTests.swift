import Foundation
import PKI
@testable import Simulation
import TCPSim
import TLSCrypto
import TLSEngine
import Testing
import Trace

/// The built-in run `tls13` (RFC 8446, 1-RTT) over the simulated TCP connection: the same
/// invariants as the TLS 1.2 runs, and the 1.3 facts — each side computes the same key schedule
/// on its own, nothing secret crosses the wire, the certificate travels encrypted.
@Suite("The tls13 run")
struct TLS13RunTests {
    static func trace(seed: UInt64 = 1) throws -> Trace { Simulation(try BuiltInRun.tls13.setup(seed: seed)).run() }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func bothSidesComputeTheSameScheduleOnTheirOwn(seed: UInt64) throws {
        let trace = try Self.trace(seed: seed)
        let client = trace.tls13Steps(of: .client), server = trace.tls13Steps(of: .server)
        // RFC 8446 §7.1: early, derived, handshake, c/s hs traffic, derived, master, c/s ap traffic, exporter, resumption.
        #expect(client.map(\.secret) == [.earlySecret, .derivedFromEarlySecret, .handshakeSecret, .clientHandshakeTrafficSecret,
                                         .serverHandshakeTrafficSecret, .derivedFromHandshakeSecret, .masterSecret,
                                         .clientApplicationTrafficSecret0, .serverApplicationTrafficSecret0, .exporterMasterSecret,
                                         .resumptionMasterSecret])
        #expect(Set(client.map(\.secret)) == Set(server.map(\.secret)))
        for step in client {
            let theirs = try #require(server.first { $0.secret == step.secret })
            #expect(theirs.value == step.value, "\(step.secret)")
            #expect(theirs.derivation == step.derivation, "\(step.secret)")
        }
        // The handshake secret from the client's own shared secret: HKDF-Extract(salt, IKM) = HMAC-Hash(salt, IKM) (RFC 5869 §2.2).
        let shared = try #require(trace.events.compactMap { e -> [UInt8]? in
            guard e.actor == .client, case .tls(.tls13(.sharedSecret(_, let value, _, _, _))) = e.kind else { return nil }
            return value
        }.first)
        let derived = try #require(client.first { $0.secret == .derivedFromEarlySecret }).value
        #expect(client.first { $0.secret == .handshakeSecret }?.value == TLS13Hash.sha256.hmac(key: derived, shared))
        let summary = trace.summary
        #expect(summary.version == .tls13 && summary.clientCompleted && summary.serverCompleted && summary.failure == nil)
        #expect(summary.cipherSuite == CipherSuite(rawValue: TLS13CipherSuite.aes128GCMSHA256.rawValue))
    }

    @Test func theEavesdropperKnowsNoSecretAndNeverSeesTheCertificate() throws {
        let trace = try Self.trace()
        let rows = trace.knowledge.rows
        let secrets: [Secret] = [.sharedSecret, .handshakeSecret, .clientHandshakeTrafficSecret, .serverHandshakeTrafficSecret,
                                 .tls13MasterSecret, .clientApplicationTrafficSecret, .serverApplicationTrafficSecret]
        for name in secrets {
            let row = try #require(rows.first { $0.secret == name }, "\(name)")
            #expect(row.client && row.server && !row.eavesdropper, "\(name)")
        }
        #expect(rows.first { $0.secret == .clientRandom }?.eavesdropper == true)
        #expect(rows.first { $0.secret == .httpCookie }?.eavesdropper == false)
        // The server's certificate (DER) is nowhere in the recorded bytes; TLS 1.2's rsa run sends it in the clear.
        let leaf = try BuiltInRun.certificate(DemoPKI.serverCertificatePEM, "demo server").der
        let wire = trace.wirePayloads.flatMap { $0 }
        func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
            haystack.count >= needle.count && (0...(haystack.count - needle.count)).contains { Array(haystack[$0..<($0 + needle.count)]) == needle }
        }
        #expect(!contains(wire, Array(leaf.prefix(64))))
        let rsa = Simulation(try BuiltInRun.rsa.setup(seed: 1)).run()
        #expect(contains(rsa.wirePayloads.flatMap { $0 }, Array(leaf.prefix(64))))
        let metadata = try #require(trace.wireMetadata)
        #expect(metadata.certificateEncrypted && metadata.chainLength == nil && metadata.serverName == "example.com")
    }

    @Test func everyProtectedRecordSaysApplicationData0303() throws {
        let trace = try Self.trace()
        var inner: Set<UInt8> = []
        var sealed = 0
        for e in trace.events {
            guard case .tls(.tls13(.recordSealed(let d))) = e.kind else { continue }
            sealed += 1
            #expect(Array(d.record.prefix(3)) == [0x17, 0x03, 0x03])
            inner.insert(d.contentType.rawValue)
        }
        // Handshake messages, application data and the closing alerts all hide behind type 23.
        #expect(sealed >= 8 && inner == [22, 23, 21])
        // Each record one side sealed, the other opened, in order and with the same content.
        for (sender, receiver) in [(Actor.client, Actor.server), (.server, .client)] {
            let out = trace.events.compactMap { e -> TLS13RecordDetail? in
                guard e.actor == sender, case .tls(.tls13(.recordSealed(let d))) = e.kind else { return nil }; return d }
            let got = trace.events.compactMap { e -> TLS13RecordDetail? in
                guard e.actor == receiver, case .tls(.tls13(.recordOpened(let d))) = e.kind else { return nil }; return d }
            #expect(out.map(\.content) == got.map(\.content) && out.map(\.contentType) == got.map(\.contentType), "\(sender)")
        }
    }

    @Test func closeNotifyBothWaysThenTCPCloses() throws {
        let trace = try Self.trace()
        let closes = trace.events.compactMap { e -> Actor? in
            guard case .tls(.alertSent(let a, .close)) = e.kind, a.alertDescription == .closeNotify else { return nil }
            return e.actor
        }
        #expect(closes == [.client, .server])
        let received = trace.events.filter { e in
            if case .tls(.alertReceived(let a)) = e.kind { a.alertDescription == .closeNotify } else { false }
        }
        #expect(received.map(\.actor) == [.server, .client])
        #expect(trace.statistics.roundTripsToFirstByte == 3)
    }

    @Test(arguments: [1, 7, 42] as [UInt64])
    func aSeedReproducesTheRunByteForByte(seed: UInt64) throws {
        #expect(try Self.trace(seed: seed).wirePayloads == Self.trace(seed: seed).wirePayloads)
    }

    /// tls13-hrr (RFC 8446 §4.1.4): the client's share is for P-256, the server takes X25519 only —
    /// a HelloRetryRequest, a second ClientHello with the same random, the transcript restarted with
    /// message_hash on both sides, and one more round trip before the response.
    @Test func helloRetryRequestCostsARoundTrip() throws {
        let trace = Simulation(try BuiltInRun.tls13HRR.setup(seed: 1)).run()
        let hellos = trace.events.compactMap { e -> ClientHello? in
            guard e.actor == .client, case .tls(.handshakeSent(.clientHello(let h), _)) = e.kind else { return nil }
            return h
        }
        #expect(hellos.count == 2 && hellos[0].random == hellos[1].random)
        let serverHellos = trace.events.compactMap { e -> ServerHello? in
            guard e.actor == .server, case .tls(.handshakeSent(.serverHello(let h), _)) = e.kind else { return nil }
            return h
        }
        #expect(serverHellos.map(\.isHelloRetryRequest) == [true, false])
        let restarts = trace.events.compactMap { e -> (Actor, [UInt8])? in
            guard case .tls(.tls13(.transcriptRestarted(let hash))) = e.kind else { return nil }
            return (e.actor, hash)
        }
        #expect(restarts.map(\.0) == [.server, .client] && restarts[0].1 == restarts[1].1)
        let summary = trace.summary
        #expect(summary.serverRandom == serverHellos.last?.random.bytes && summary.failure == nil && summary.clientCompleted)
        #expect(trace.statistics.roundTripsToFirstByte == 4)
        #expect(trace.tls13Steps(of: .client).map(\.value) == trace.tls13Steps(of: .server).map(\.value))
    }
}
