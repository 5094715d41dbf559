import Foundation
import HTTP2
@testable import Simulation
import TCPSim
import TLSCrypto
import TLSEngine
import Testing
import Trace
import Trust

/// The attacker mechanisms: each attack acts on real bytes and is detected with the named alert;
/// what the eavesdropper learns is measured by decrypting, and checked against the real values.
@Suite("Attackers and observers")
struct AttackTests {
    static func run(_ name: BuiltInRun, seed: UInt64 = 3) throws -> Trace {
        Simulation(try name.setup(seed: seed)).run()
    }

    static func attackEvents(_ trace: Trace, by actor: Actor? = nil) -> [AttackEvent] {
        trace.events.compactMap { e in
            guard actor == nil || e.actor == actor, case .attack(let a) = e.kind else { return nil }
            return a
        }
    }

    static func learned(_ trace: Trace, _ secret: Secret, by actor: Actor) -> [UInt8]? {
        for a in attackEvents(trace, by: actor) {
            if case .learned(let name, let value, _) = a, name == secret { return value }
        }
        return nil
    }

    static func http(_ trace: Trace, actor: Actor) -> [HTTPEvent] {
        trace.events.compactMap { e in
            guard e.actor == actor, case .http(let h) = e.kind else { return nil }
            return h
        }
    }

    // MARK: Key theft and forward secrecy

    @Test func stolenKeyOpensTheRecordedRSASession() throws {
        let trace = try Self.run(.keyTheftRSA)
        let s = trace.summary
        #expect(s.outcome == "success")
        let master = try #require(s.masterSecret)
        #expect(Self.learned(trace, .preMasterSecret, by: .eavesdropper) == s.preMasterSecret)
        #expect(Self.learned(trace, .masterSecret, by: .eavesdropper) == master)
        #expect(Self.learned(trace, .httpCookie, by: .eavesdropper) == Array("Cookie: session=42".utf8))
        let request = try #require(Self.learned(trace, .httpRequest, by: .eavesdropper))
        #expect(String(decoding: request, as: UTF8.self).hasPrefix("GET /profile HTTP/1.1"))
        let rows = Dictionary(uniqueKeysWithValues: trace.knowledge.rows.map { ($0.secret, $0) })
        #expect(rows[.masterSecret]?.eavesdropper == false, "during the session the master secret never crossed the wire")
        #expect(rows[.masterSecret]?.eavesdropperAfterwards == true)
        #expect(rows[.httpCookie]?.eavesdropper == false && rows[.httpCookie]?.eavesdropperAfterwards == true)
    }

    @Test(arguments: [BuiltInRun.keyTheftECDHE, .keyTheftDHE])
    func stolenKeyDoesNotOpenAnEphemeralSession(run: BuiltInRun) throws {
        let trace = try Self.run(run)
        #expect(trace.summary.outcome == "success")
        #expect(Self.learned(trace, .masterSecret, by: .eavesdropper) == nil)
        #expect(Self.learned(trace, .preMasterSecret, by: .eavesdropper) == nil)
        #expect(Self.attackEvents(trace, by: .eavesdropper).contains {
            if case .failed(.forwardSecrecy(_, let keyExchange)) = $0 { return keyExchange == (run == .keyTheftDHE ? .dheRSA : .ecdheRSA) } else { return false }
        })
        let rows = Dictionary(uniqueKeysWithValues: trace.knowledge.rows.map { ($0.secret, $0) })
        #expect(rows[.masterSecret]?.eavesdropperAfterwards == false)
        #expect(rows[.httpCookie]?.eavesdropperAfterwards == false)
    }

    @Test func aStolenKeyAlsoOpensTheResumedSessionOfAnRSAConnection() throws {
        for (suite, opens) in [(CipherSuite.TLS_RSA_WITH_AES_128_GCM_SHA256, true), (.TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256, false)] {
            var setup = try BuiltInRun.resumption.setup(seed: 6)
            setup.client.cipherSuites = [suite]
            setup.server.cipherSuites = [suite]
            setup.attack = .stealServerKeyAfterwards
            let trace = Simulation(setup).run()
            #expect(trace.statistics.abbreviatedHandshakes == 1)
            let learned = trace.events.compactMap { e -> (Int, [UInt8])? in
                if e.actor == .eavesdropper, case .attack(.learned(.masterSecret, let m, _)) = e.kind { return (e.connection, m) } else { return nil }
            }
            if opens {
                #expect(learned.map(\.0) == [0, 1], "both connections open")
                #expect(learned.allSatisfy { $0.1 == trace.summary.masterSecret })
                let cookies = trace.events.filter { e in
                    if e.actor == .eavesdropper, case .attack(.learned(.httpCookie, _, _)) = e.kind { return true } else { return false }
                }
                #expect(cookies.count == 2)
            } else {
                #expect(learned.isEmpty)
            }
        }
    }

    @Test func theWrongKeyOpensNothing() throws {
        // Same RSA recording, but the "stolen" key is another one: nothing decrypts.
        let trace = try Self.run(.keyTheftRSA)
        let flow = try #require(trace.recordedFlows.first)
        let tls = RecordedTLS(clientToServer: flow.clientToServer, serverToClient: flow.serverToClient)
        let other = try RSAPrivateKey(pem: AttackerPKI.keyPEM)
        let events = PassiveAnalysis.keyTheft(tls, key: other)
        #expect(!events.contains { if case .learned = $0 { return true } else { return false } })
    }

    // MARK: Weak randomness

    @Test func aClockSeededClientIsGuessed() throws {
        let trace = try Self.run(.weakRandom)
        let s = trace.summary
        #expect(s.outcome == "success")
        let search = Self.attackEvents(trace, by: .eavesdropper).compactMap { a -> (Int, UInt64?)? in
            if case .seedSearch(let n, let seed) = a { return (n, seed) } else { return nil }
        }
        let (candidates, seed) = try #require(search.first)
        #expect(seed != nil && candidates > 1)
        #expect(Self.learned(trace, .masterSecret, by: .eavesdropper) == s.masterSecret)
        #expect(Self.learned(trace, .httpCookie, by: .eavesdropper) == Array("Cookie: session=42".utf8))
        // A client with a proper generator is not found in the same seed space.
        let normal = try Self.run(.rsa)
        let flow = try #require(normal.recordedFlows.first)
        let tls = RecordedTLS(clientToServer: flow.clientToServer, serverToClient: flow.serverToClient)
        let result = PassiveAnalysis.seedSearch(tls, weak: WeakRandom(), clientHelloTime: flow.firstClientDataTime ?? 0)
        #expect(result.contains { if case .seedSearch(let n, nil) = $0 { return n == candidates || n > 100 } else { return false } })
        #expect(!result.contains { if case .learned = $0 { return true } else { return false } })
    }

    // MARK: Man in the middle

    @Test func mitmIsRejectedByAValidatingClient() throws {
        let trace = try Self.run(.mitm)
        let s = trace.summary
        let failure = try #require(s.failure)
        #expect(failure.sentBy == .client)
        #expect(failure.alert == .unknownCA, "got \(failure.alert): \(failure.cause)")
        #expect(Self.http(trace, actor: .client).isEmpty, "no request leaves the client")
        #expect(Self.learned(trace, .httpCookie, by: .attacker) == nil)
        // The client's alert went to the attacker, whose address it had connected to.
        #expect(trace.events.contains { e in
            if case .tls(.alertSent) = e.kind { return e.actor == .client && e.peer == .attacker } else { return false }
        })
    }

    @Test func mitmReadsEverythingFromAClientThatTrustsAnyCertificate() throws {
        let trace = try Self.run(.mitmTrusting)
        let s = trace.summary
        #expect(s.clientCompleted && s.serverCompleted)
        #expect(s.clientMaster != nil && s.serverMaster != nil && s.clientMaster != s.serverMaster,
                "two sessions: client↔attacker and attacker↔server")
        #expect(Self.learned(trace, .httpCookie, by: .attacker) == Array("Cookie: session=42".utf8))
        #expect(Self.http(trace, actor: .client).contains { if case .responseReceived(let r) = $0 { return r.hasSuffix("hello\n") } else { return false } })
        #expect(Self.http(trace, actor: .server).contains { if case .requestReceived(let r) = $0 { return r.contains("session=42") } else { return false } })
        // Two TLS sessions for the key log: the client's with the attacker, the attacker's with the server.
        #expect(trace.sessionSecrets.map(\.masterSecret) == [s.clientMaster, s.serverMaster].compactMap { $0 })
        let rows = Dictionary(uniqueKeysWithValues: trace.knowledge.rows.map { ($0.secret, $0) })
        #expect(rows[.masterSecret]?.attacker == true && rows[.masterSecret]?.eavesdropper == false)
        #expect(rows[.masterSecret]?.server == false, "the real server holds another session's secret")
        #expect(rows[.clientRandom]?.server == false, "the server saw the attacker's ClientHello, not the client's")
        #expect(rows[.httpCookie]?.attacker == true)
    }

    @Test func mitmOnPlainHTTPNeedsNoCertificateAtAll() throws {
        var setup = try BuiltInRun.mitm.setup(seed: 3)   // the validating client: irrelevant without TLS
        setup.usesTLS = false
        setup.serverPort = 80
        let trace = Simulation(setup).run()
        #expect(trace.summary.outcome == "success")
        #expect(Self.learned(trace, .httpCookie, by: .attacker) == Array("Cookie: session=42".utf8))
        #expect(Self.http(trace, actor: .client).contains { if case .responseReceived = $0 { return true } else { return false } })
    }

    // MARK: On-path changes

    @Test func aTamperedServerHelloIsCaught() throws {
        let trace = try Self.run(.tamperServerHello)
        let tampered = Self.attackEvents(trace, by: .attacker).contains { if case .tampered(let m, .server, 16, let o, let n) = $0 { return m == "ServerHello" && o != n } else { return false } }
        #expect(tampered)
        let s = trace.summary
        let failure = try #require(s.failure)
        #expect([AlertDescription.badRecordMAC, .decryptError].contains(failure.alert), "got \(failure.alert): \(failure.cause)")
        #expect(!(s.clientCompleted && s.serverCompleted))
        // The client used the changed server_random: the two sides' randoms differ.
        let clientSaw = trace.events.compactMap { e -> [UInt8]? in
            if e.actor == .client, case .tls(.handshakeReceived(.serverHello(let sh), _)) = e.kind { return sh.random.bytes } else { return nil }
        }.first
        #expect(clientSaw != nil && clientSaw != s.serverRandom)
        #expect(Self.http(trace, actor: .server).isEmpty)
    }

    @Test func strippingSuitesIsCaughtByFinished() throws {
        let trace = try Self.run(.strip)
        let stripped = Self.attackEvents(trace, by: .attacker).compactMap { a -> [CipherSuite]? in
            if case .strippedSuites(let removed, _, _) = a { return removed } else { return nil }
        }.first
        #expect(stripped?.count == 2)
        let serverChose = trace.events.compactMap { e -> CipherSuite? in
            if e.actor == .server, case .tls(.negotiated(let n)) = e.kind { return n.cipherSuite } else { return nil }
        }.first
        #expect(serverChose == .TLS_RSA_WITH_AES_128_GCM_SHA256, "the server saw only the RSA suite")
        let failure = try #require(trace.summary.failure)
        #expect(failure.alert == .decryptError && failure.sentBy == .server, "got \(failure.alert) from \(failure.sentBy)")
        // Without the attacker the same setup negotiates ECDHE.
        var clean = try BuiltInRun.strip.setup(seed: 3)
        clean.attack = nil
        #expect(Simulation(clean).run().summary.cipherSuite == .TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256)
        // With extended master secret (RFC 7627) the session hash covers the real ClientHello, so
        // the two sides derive different keys and the server cannot even open the client's Finished.
        var ems = try BuiltInRun.strip.setup(seed: 3)
        ems.client.offerExtendedMasterSecret = true
        let withEMS = Simulation(ems).run().summary.failure
        #expect(withEMS?.alert == .badRecordMAC && withEMS?.sentBy == .server)
    }

    @Test func theStrippedClientHelloKeepsItsLength() throws {
        let suites: [CipherSuite] = [.TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256, .TLS_DHE_RSA_WITH_AES_128_GCM_SHA256, .TLS_RSA_WITH_AES_128_GCM_SHA256]
        for remove in [[suites[0]], [suites[0], suites[1]]] {
            for withExtensions in [true, false] {
                let hello = ClientHello(random: Random([UInt8](repeating: 7, count: 32)), cipherSuites: suites,
                                        extensions: withExtensions ? [.extendedMasterSecret] : nil)
                let bytes = HandshakeMessage.clientHello(hello).encoded
                let result = try #require(OnPathAttacker.stripped(bytes, remove: Set(remove)))
                #expect(result.bytes.count == bytes.count)
                let decoded = try HandshakeMessage(decoding: result.bytes, context: HandshakeDecodingContext())
                guard case .clientHello(let out) = decoded else { Issue.record("not a ClientHello"); continue }
                #expect(Set(out.cipherSuites) == Set(suites).subtracting(remove))
            }
        }
    }

    @Test func aReplayedRecordIsRejected() throws {
        let trace = try Self.run(.replay)
        #expect(Self.attackEvents(trace, by: .attacker).contains { if case .replayed = $0 { return true } else { return false } })
        let received = Self.http(trace, actor: .server).filter { if case .requestReceived = $0 { return true } else { return false } }
        #expect(received.count == 1, "the original request is served once")
        let alerts = trace.events.compactMap { e -> AlertDescription? in
            if e.actor == .server, case .tls(.alertSent(let a, _)) = e.kind, a.isFatal { return a.alertDescription } else { return nil }
        }
        #expect(alerts == [.badRecordMAC])
        #expect(trace.summary.failure?.alert == .badRecordMAC)
        // The attacker keeps the two TCP ends in step after its injection: no ACK storm, and both
        // ends close normally.
        let segments = trace.events.filter { if case .tcp(.sent) = $0.kind { return true } else { return false } }
        #expect(segments.count < 40, "\(segments.count) segments")
        let closed = trace.events.filter { if case .tcp(.connection(_, .stateChanged(_, .closed, _))) = $0.kind { return true } else { return false } }
        #expect(closed.count == 2)
    }

    // MARK: HTTP vs HTTPS

    @Test func plainHTTPShowsTheCookieAndHTTPSDoesNot() throws {
        let plain = try Self.run(.httpPlain)
        #expect(plain.summary.outcome == "success" && !plain.summary.usedTLS)
        let cookie = plain.knowledge.rows.first { $0.secret == .httpCookie }
        #expect(cookie?.eavesdropper == true)
        let tls = try Self.run(.rsa)
        #expect(tls.knowledge.rows.first { $0.secret == .httpCookie }?.eavesdropper == false)
        #expect(tls.knowledge.rows.allSatisfy { !$0.eavesdropper || ($0.secret == .clientRandom || $0.secret == .serverRandom) })
    }
}

/// Tampering other bytes: each change is caught, with the alert that names what broke.
@Suite("Tampering in flight")
struct TamperMatrixTests {
    struct Case: Sendable, CustomStringConvertible {
        var message: String, sender: Actor, offset: Int, alerts: [AlertDescription]
        var description: String { "\(message)[\(offset)]" }
    }

    static let cases: [Case] = [
        // client_random: the server's transcript and (with EMS) its keys differ
        Case(message: "ClientHello", sender: .client, offset: 10, alerts: [.badRecordMAC]),
        // ServerHello session_id length byte: the message no longer parses
        Case(message: "ServerHello", sender: .server, offset: 38, alerts: [.decodeError]),
        // a byte inside the certificate's signature: the chain does not verify
        Case(message: "Certificate", sender: .server, offset: 800, alerts: [.decryptError, .badCertificate]),
        // the encrypted premaster: the server decrypts garbage, goes on with a random premaster
        // (RFC 5246 §7.4.7.1), and the Finished check fails
        Case(message: "ClientKeyExchange", sender: .client, offset: 100, alerts: [.badRecordMAC]),
    ]

    @Test(arguments: cases)
    func tamperIsDetected(c: Case) throws {
        var setup = try BuiltInRun.rsa.setup(seed: 4)
        setup.attack = .tamper(TamperTarget(message: c.message, sender: c.sender, offset: c.offset))
        let trace = Simulation(setup).run()
        #expect(trace.events.contains { if case .attack(.tampered) = $0.kind { return true } else { return false } })
        let failure = try #require(trace.summary.failure)
        #expect(c.alerts.contains(failure.alert), "\(c): \(failure.alert) from \(failure.sentBy): \(failure.cause)")
    }
}

/// Attack parameters that point at nothing leave the connection alone (never a crash).
@Suite("Attacks that miss")
struct AttackParameterTests {
    static let misses: [(String, Attack)] = [
        ("offset past the end", .tamper(TamperTarget(message: "ServerHello", sender: .server, offset: 10_000))),
        ("negative offset", .tamper(TamperTarget(message: "ServerHello", sender: .server, offset: -3))),
        ("unknown message", .tamper(TamperTarget(message: "NoSuchMessage", sender: .client, offset: 4))),
        ("wrong sender", .tamper(TamperTarget(message: "ServerHello", sender: .client, offset: 10))),
        ("strip a suite not offered", .stripSuites([.TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256])),
        ("replay a record that never comes", .replayApplicationData(index: 7)),
        ("replay a negative index", .replayApplicationData(index: -1)),
    ]

    @Test func missesChangeNothing() throws {
        for (name, attack) in Self.misses {
            var setup = try BuiltInRun.rsa.setup(seed: 8)
            setup.attack = attack
            let trace = Simulation(setup).run()
            #expect(trace.summary.outcome == "success", "\(name): \(trace.summary.outcome)")
        }
        var weak = try BuiltInRun.weakRandom.setup(seed: 8)
        weak.attack = .weakClientRandom(WeakRandom(processID: 3, processIDSpace: -5, clockWindowMilliseconds: -2))
        let trace = Simulation(weak).run()
        #expect(trace.summary.outcome == "success")
        #expect(trace.learned(by: .eavesdropper).isEmpty)
    }
}
