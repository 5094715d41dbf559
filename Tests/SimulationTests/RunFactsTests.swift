import HTTP2
import Simulation
import TLSCrypto
import TLSEngine
import Testing
import Trace

/// Issue #32 §2.8 and §2.11: facts a run's trace carries once, for every reader — the key-log
/// pairing (the export's and a real peer's), the requests a server read, the signatures checked.
@Suite("Facts the trace carries")
struct RunFactsTests {
    /// The events one party recorded on one connection, as a real peer's recorder sees them.
    static func tlsEvents(of actor: Actor, in trace: Trace, connection: Int = 0) -> [TLSEvent] {
        trace.events.compactMap { e in
            guard e.actor == actor, e.connection == connection, case .tls(let tls) = e.kind else { return nil }
            return tls
        }
    }

    static func pairing(_ events: [TLSEvent]) -> KeyLogPairing {
        var pairing = KeyLogPairing()
        for event in events { pairing.add(event) }
        return pairing
    }

    /// The server's side (what `tlslab serve` records: a ClientHello received) pairs the same
    /// entry as the export pairs from the client's side, for TLS 1.2, a resumed session and TLS 1.3.
    @Test(arguments: [BuiltInRun.rsa, .ecdhe, .resumption, .tls13, .tls13Resumption])
    func theServersPairingIsTheExportsEntry(_ run: BuiltInRun) throws {
        let trace = Simulation(try run.setup(seed: 1)).run()
        let entries = trace.keyLogEntries
        #expect(!entries.isEmpty)
        for (connection, entry) in entries.enumerated() {
            #expect(Self.pairing(Self.tlsEvents(of: .server, in: trace, connection: connection)).entry == entry, "connection \(connection)")
            #expect(Self.pairing(Self.tlsEvents(of: .client, in: trace, connection: connection)).entry == entry, "connection \(connection)")
        }
        if run == .resumption {
            #expect(entries.count == 2 && entries[0].masterSecret == entries[1].masterSecret && entries[0].clientRandom != entries[1].clientRandom)
        }
    }

    /// A TLS 1.3 ClientHello seen only as bytes gives its random (RFC 8446 §4.1.2: after type,
    /// length and legacy_version); secrets without a key-log label make no entry.
    @Test func rawClientHelloBytesAndUnlabelledSecrets() throws {
        let trace = Simulation(try BuiltInRun.tls13.setup(seed: 1)).run()
        let steps = trace.tls13Steps(of: .client)
        let unlabelled = try #require(steps.first { $0.secret.keyLogLabel == nil })
        let labelled = steps.filter { $0.secret.keyLogLabel != nil }
        #expect(labelled.count >= 4)
        let random = (0..<32).map { UInt8($0) }
        let hello: [UInt8] = [1, 0, 0, 70, 3, 3] + random + Array(repeating: 0, count: 36)
        var pairing = KeyLogPairing()
        pairing.add(.tls13(.handshakeSent(.clientHello, bytes: hello)))
        pairing.add(.tls13(.keySchedule(unlabelled)))
        #expect(pairing.entry == nil, "no secret a key log lists yet")
        for step in steps { pairing.add(.tls13(.keySchedule(step))) }
        #expect(pairing.entry == KeyLogEntry(clientRandom: random, secrets: .tls13(labelled)))
        // Too short to hold a random: none is taken.
        var short = KeyLogPairing()
        short.add(.tls13(.handshakeSent(.clientHello, bytes: Array(hello.prefix(37)))))
        short.add(.tls13(.keySchedule(labelled[0])))
        #expect(short.entry == nil)
    }

    /// Behind a MITM each leg is its own session: two entries, the client's then the attacker's,
    /// and the attacker's side of the client's leg (a ClientHello received) pairs the first.
    @Test func aManInTheMiddleRunHasTwoSessions() throws {
        let trace = Simulation(try BuiltInRun.mitmTrusting.setup(seed: 1)).run()
        let entries = trace.keyLogEntries
        #expect(entries.count == 2)
        #expect(entries.first?.clientRandom == trace.summary.clientRandom)
        #expect(entries.map(\.masterSecret) == [trace.summary.clientMaster, trace.summary.serverMaster])
        #expect(Set(entries.map(\.clientRandom)).count == 2)
        let attackerFacingClient = trace.events.compactMap { e -> TLSEvent? in
            guard e.actor == .attacker, e.peer == .client, case .tls(let tls) = e.kind else { return nil }
            return tls
        }
        #expect(Self.pairing(attackerFacingClient).entry == entries.first)
    }

    /// The first event of a kind, for the cross-checks below.
    static func firstText(_ trace: Trace, by actor: Actor?, _ pick: (HTTPEvent) -> String?) -> String? {
        trace.events.compactMap { e -> String? in
            guard actor == nil || e.actor == actor, e.connection == 0, case .http(let h) = e.kind else { return nil }
            return pick(h)
        }.first
    }

    /// §2.11: the simulation's result says how HTTP/2 was chosen, the first connection error sent,
    /// the first response as sent and as read, and whether a CertificateRequest reached the client,
    /// as it happened; these agree with the events they stand for.
    @Test(arguments: [BuiltInRun.ecdhe, .h2, .h2c, .keepAlive, .httpPlain, .tls13])
    func theExchangeIsOnTheResult(_ run: BuiltInRun) throws {
        let trace = Simulation(try run.setup(seed: 1)).run()
        let exchange = trace.exchange
        let chosen: HTTP2Negotiation? = switch run { case .h2: .h2; case .h2c: .h2c; default: nil }
        #expect(exchange.http2Negotiation == chosen)
        #expect(exchange.http2ConnectionErrorSent == nil)
        #expect(!exchange.certificateRequestReachedClient)
        #expect(exchange.responseRead)
        let sent = Self.firstText(trace, by: .server) { if case .responseSent(let t) = $0 { t } else { nil } }
        let read = Self.firstText(trace, by: .client) { if case .responseReceived(let t) = $0 { t } else { nil } }
        #expect(exchange.firstResponseSent != nil && exchange.firstResponseSent == sent)
        #expect(exchange.firstResponseRead != nil && exchange.firstResponseRead == read)
        #expect(exchange.firstResponseRead == exchange.firstResponseSent, "nobody changed it on the way")
    }

    /// HTTP/2 over a suite RFC 9113 §9.2.2 prohibits: the client sends INADEQUATE_SECURITY and no
    /// request, so no response is read.
    @Test func theFirstConnectionErrorSentIsOnTheResult() throws {
        var setup = try BuiltInRun.h2.setup(seed: 1)
        setup.client.cipherSuites = [.TLS_RSA_WITH_AES_128_GCM_SHA256]
        setup.server.cipherSuites = [.TLS_RSA_WITH_AES_128_GCM_SHA256]
        let exchange = Simulation(setup).run().exchange
        #expect(exchange.http2Negotiation == .h2)
        #expect(exchange.http2ConnectionErrorSent == .inadequateSecurity)
        #expect(!exchange.responseRead && exchange.firstResponseRead == nil && exchange.firstResponseSent == nil)
    }

    @Test func requestsServedCountsEveryRequestAServerRead() {
        let events = [
            TraceEvent(time: 1, actor: .client, kind: .http(.requestSent("GET / HTTP/1.1"))),
            TraceEvent(time: 2, actor: .server, kind: .http(.requestReceived("GET / HTTP/1.1"))),
            TraceEvent(time: 3, actor: .client, kind: .http(.requestSent("GET /a HTTP/1.1")), connection: 1),
            TraceEvent(time: 4, actor: .server, kind: .http(.requestReceived("GET /a HTTP/1.1")), connection: 1),
            TraceEvent(time: 5, actor: .client, kind: .http(.requestSent("GET /b HTTP/1.1")), connection: 1),
            TraceEvent(time: 6, actor: .attacker, kind: .http(.requestReceived("GET /b HTTP/1.1")), connection: 1),
        ]
        let statistics = Trace(events: events).statistics
        #expect(statistics.requestsServed == 2)
        #expect(statistics.requests == 3)
    }

    /// The signatures as the verifying side checked them: the client checks the server's
    /// ServerKeyExchange signature (RFC 5246 §7.4.3); RSA key transport has none.
    @Test func theSummaryCarriesTheCheckedSignatures() throws {
        let ecdhe = Simulation(try BuiltInRun.ecdhe.setup(seed: 1)).run().summary
        let ske = try #require(ecdhe.serverKeyExchangeSignature)
        #expect(ske.purpose == .serverKeyExchange && ske.signer == .server && !ske.created && ske.valid)
        #expect(ecdhe.certificateVerifySignature == nil, "no client certificate")
        let rsa = Simulation(try BuiltInRun.rsa.setup(seed: 1)).run().summary
        #expect(rsa.serverKeyExchangeSignature == nil)
    }
}
