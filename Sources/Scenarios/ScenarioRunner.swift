import HTTP2
import PKI
import Simulation
import TCPSim
import TLSCrypto
import TLSEngine
import Trace
import Trust

/// The result of running one scenario: every fact `expect` can name, and the trace for TLS worlds.
public struct ScenarioRun {
    public var facts: [String: FactValue]
    public var trace: Trace?
    public var verdict: TrustVerdict?
    /// The policy's steps, typed (the `reason_includes` fact is their identifiers).
    public var reasons: [TrustReason] = []
}

extension Scenario {
    /// Runs the world (deterministic for the scenario's seed) and reads its facts.
    public func run() -> ScenarioRun {
        // A file comparing handlers, run as a whole, runs its first handler (``variants()``).
        if handlerChoice == nil, !handlers.isEmpty, let first = variants().first { return first.run() }
        switch world {
        case .tls(let w): return ScenarioRunner.runTLS(w, seed: seed)
        case .tcp(let w): return ScenarioRunner.runTCP(w, seed: seed)
        case .ats(let w): return ScenarioRunner.runATS(w)
        case .dh(let w): return DHScenarioRunner.run(w)
        }
    }

    /// The setup of a TLS world, for `tlslab run FILE.yaml` (nil for TCP-only and ATS scenarios).
    public func simulationSetup() -> SimulationSetup? {
        if handlerChoice == nil, !handlers.isEmpty, let first = variants().first { return first.simulationSetup() }
        guard case .tls(let w) = world else { return nil }
        return ScenarioRunner.setup(w, seed: seed)
    }
}

enum ScenarioRunner {
    static func link(_ n: NetworkSpec) -> TCPLink {
        TCPLink(latency: TCPDuration.milliseconds(Int64(n.latencyMs)), lossRate: n.loss, duplicateRate: n.duplicate,
                jitter: TCPDuration.milliseconds(Int64(n.jitterMs)))
    }

    static func config(_ t: TCPSpec) -> TCPConfig {
        var c = TCPConfig()
        c.mss = t.mss
        c.receiveBufferSize = t.window
        c.minimumRTO = TCPDuration.milliseconds(Int64(t.minimumRTOMs))
        c.initialRTO = TCPDuration.milliseconds(Int64(t.initialRTOMs))
        c.msl = TCPDuration.milliseconds(Int64(t.mslMs))
        c.handshake = t.handshake
        return c
    }

    // MARK: - TLS

    static func setup(_ w: TLSWorld, seed: UInt64) -> SimulationSetup? {
        let random = HMACDRBG(seed: seed)
        // The engine asks the evaluator once per handshake; its decision is in the trace.
        let evaluator = w.certificateEvaluator
        var identity: TLSIdentity?
        if let names = w.identity, let first = names.first, let key = w.certificates[first]?.key {
            identity = TLSIdentity(certificateChain: names.compactMap { w.certificates[$0]?.certificate.der }, key: key)
        }
        // The app's answer to the client-certificate challenge, should the server ask.
        let answer = clientCertificateChallenge(w)
        if answer.disposition != .useCredential { identity = nil }
        let client = TLSClientConfiguration(certificateEvaluator: evaluator, random: random, cipherSuites: w.clientSuites,
                                            minimumVersion: w.clientMinVersion, maximumVersion: w.clientMaxVersion,
                                            serverName: w.host, offerExtendedMasterSecret: w.clientEMS, identity: identity,
                                            minimumDHPrimeBits: w.minimumDHPrimeBits)
        let chainDER = w.serverChain.compactMap { w.certificates[$0]?.certificate.der }
        // The parser guarantees the first certificate has a key.
        guard let serverKey = w.serverChain.first.flatMap({ w.certificates[$0]?.key }) else { return nil }
        var clientEvaluator: (any PeerCertificateEvaluator)?
        if w.clientAuth != .none {
            let policy = MutualTLSPolicy(mode: MutualTLSPolicy.ClientAuthentication(rawValue: w.clientAuth.rawValue) ?? .require,
                                         clientCAs: w.clientCAs.compactMap { w.certificates[$0]?.certificate },
                                         subjectWhitelist: w.subjectWhitelist)
            clientEvaluator = MutualTLSEvaluator(policy: policy, time: w.now)
        }
        let server = TLSServerConfiguration(identity: TLSIdentity(certificateChain: chainDER, key: serverKey),
                                            random: random, cipherSuites: w.serverSuites,
                                            minimumVersion: w.serverMinVersion, maximumVersion: w.serverMaxVersion,
                                            dhGroup: w.dhGroup, extendedMasterSecret: w.serverEMS,
                                            clientAuthentication: w.clientAuth, clientCertificateEvaluator: clientEvaluator)
        var setup = SimulationSetup(client: client, server: server, random: random)
        if w.offersECDSA {
            setup.client.signatureAlgorithms = SignatureSchemes.offerWithECDSA
            setup.client.supportedGroups = [.x25519, .secp256r1, .secp384r1]
            if w.offersNewerSchemes {
                setup.client.signatureAlgorithms = SignatureSchemes.ecdsa + [SignatureSchemes.ecdsaP521, .ed25519] + SignatureSchemes.defaultOffer
                setup.client.supportedGroups.append(.secp521r1)
            }
        }
        setup.client.cancelsCertificateRequest = !answer.handshakeContinues
        setup.client.applicationProtocols = w.clientALPN.map { ProtocolName($0) }
        setup.server.applicationProtocols = w.serverALPN.map { ProtocolName($0) }
        setup.link = link(w.network)
        setup.tcpConfig = config(w.tcp)
        setup.clientISN = w.tcp.clientISN
        setup.serverISN = w.tcp.serverISN
        setup.faults = w.network.faults.map { f in
            let (from, to) = f.from == "client" ? (setup.clientAddress, setup.serverAddress) : (setup.serverAddress, setup.clientAddress)
            return TCPFaultRule(from: from, to: to, nth: f.nth, f.action)
        }
        setup.httpRequest = w.httpRequest
        setup.httpResponse = w.httpResponse
        setup.requests = w.requests
        setup.connectionMode = w.connectionMode
        setup.http2Push = w.http2Push
        setup.http2MaxConcurrentStreams = w.http2MaxConcurrentStreams
        setup.usesTLS = w.usesTLS
        if !w.usesTLS { setup.serverPort = 80 }
        setup.resumesSessions = w.resumesSessions
        setup.resumesByTicket = w.resumesByTicket
        setup.cpu = w.cpu
        setup.attack = w.attack
        setup.tls13 = w.tls13
        if case .afnetworking(let policy, _) = w.policy { setup.clientAFNetworkingRelease = policy.behaviour }
        return setup
    }

    /// How the client's policy answers NSURLAuthenticationMethodClientCertificate. The hybrid web
    /// container and image downloader have their own rules (default handling; their own credential
    /// or cancel); for the other policies the app answers with `client.identity` when it has one,
    /// else lets the system handle it (no certificate is sent).
    static func clientCertificateChallenge(_ w: TLSWorld) -> ChallengeOutcome {
        let trust = ServerTrust(presented: [], anchors: AnchorSelection(system: TrustStore.system([])), time: w.now, host: w.host)
        let hasIdentity = w.identity != nil
        switch w.policy {
        case .webContainer:
            return ChallengeHandlingPolicies.webContainer(method: .clientCertificate, trust: trust, host: w.host)
        case .imageDownloader(let allow):
            return ChallengeHandlingPolicies.imageDownloader(method: .clientCertificate, allowInvalidSSLCertificates: allow,
                                                   ownCredential: hasIdentity, trust: trust, host: w.host)
        case .system, .afnetworking, .challengeMode, .bundledAnchor, .fixedAnswer:
            return ChallengeResolver.resolve(method: .clientCertificate, disposition: hasIdentity ? .useCredential : .performDefaultHandling,
                                             trust: nil, host: w.host, hasCredential: hasIdentity,
                                             reasons: [.appIdentity(present: hasIdentity)])
        }
    }

    static let secretNames: [Secret: String] = [
        .clientRandom: "client_random", .serverRandom: "server_random", .preMasterSecret: "premaster_secret",
        .masterSecret: "master_secret", .clientWriteKey: "client_write_key", .serverWriteKey: "server_write_key",
        .httpCookie: "http_cookie", .httpRequest: "http_request", .httpResponse: "http_response"]

    /// How `server_key` names a key (`VerificationKey.description`): the RSA sizes a scenario can
    /// make and the two curves.
    static let keyDescriptions = ["RSA-1024", "RSA-2048", "RSA-3072", "RSA-4096", "EC P-256", "EC P-384", "EC P-521", "Ed25519"]

    static func versionName(_ v: ProtocolVersion?) -> String {
        guard let v else { return "none" }
        if v == .tls13 { return "TLS1.3" }
        return ScenarioReader.versions.first { $0.value == v }?.key ?? "none"
    }

    static func runTLS(_ w: TLSWorld, seed: UInt64) -> ScenarioRun {
        guard let setup = setup(w, seed: seed) else {
            return ScenarioRun(facts: ["handshake": .string("failure")], trace: nil, verdict: nil)
        }
        let trace = Simulation(setup).run()
        let s = trace.summary
        let verdict = TrustVerdict(clientDecisionIn: trace)
        var f: [String: FactValue] = [:]
        // The handshake itself: both Finished verified (a later fatal alert, e.g. for a replayed
        // record, is reported by `alert` but does not undo the handshake).
        // Plain HTTP has no handshake to succeed or fail.
        f["handshake"] = .string(!w.usesTLS ? "none" : s.runOutcome.handshakeCompleted ? "success" : "failure")
        f["alert"] = .string(s.failure.map { $0.alert.nameOrHex } ?? "none")
        f["alert_sent_by"] = .string(s.failure?.sentBy.rawValue ?? "none")
        f["suite"] = .string(s.cipherSuite.flatMap { $0.name ?? TLS13CipherSuite(rawValue: $0.rawValue)?.name } ?? "none")
        f["version"] = .string(versionName(s.version))
        f["ems"] = .bool(s.extendedMasterSecret)
        f["resumed"] = .bool(s.resumed)
        f["alpn"] = .string(s.applicationProtocol?.description ?? "none")
        if let v = verdict {
            f["trust"] = .string(v.accepted ? "accepted" : "rejected")
            f["disposition"] = .string(v.disposition?.rawValue ?? "none")
            f["first_failing_check"] = .string(v.firstFailingCheck?.rawValue ?? "none")
        } else {
            f["trust"] = .string("not_evaluated")
            f["disposition"] = .string("none")
            f["first_failing_check"] = .string("none")
        }
        // How the client derived the master secret, and an independent recomputation of the
        // classic derivation PRF(premaster, "master secret", client_random + server_random).
        var label = "none"
        var fromRandoms = false
        for e in trace.events where e.actor == .client && e.connection == 0 {
            guard case .tls(.derived(.masterSecret(let pre, let l, _, let prf, let master))) = e.kind else { continue }
            label = l
            if let cr = s.clientRandom, let sr = s.serverRandom {
                fromRandoms = prf.derive(secret: pre, label: "master secret", seed: cr + sr, count: 48) == master
            }
            break
        }
        f["master_secret_label"] = .string(label)
        f["master_from_randoms"] = .bool(fromRandoms)
        handshakeFacts(trace, into: &f)
        f["reason_includes"] = .list(verdict?.reasons.map(\.identifier) ?? [])
        f["client_authenticated"] = .bool(TrustVerdict.clientAuthenticated(in: trace))
        // The server's leaf as configured (its key and DER size), and the signatures as the verifying
        // peer saw them on the wire: ServerKeyExchange (RFC 5246 §7.4.3) and CertificateVerify (§7.4.8).
        let leaf = w.serverChain.first.flatMap { w.certificates[$0] }
        f["server_key"] = .string(leaf.flatMap { VerificationKey(subjectPublicKeyInfoDER: $0.certificate.publicKey.der)?.description } ?? "none")
        f["server_certificate_bytes"] = .int(leaf?.certificate.der.count ?? 0)
        let ske = s.serverKeyExchangeSignature, verify = s.certificateVerifySignature
        f["server_signature"] = .string(ske?.scheme?.name ?? "none")
        f["server_signature_bytes"] = .int(ske?.signature.count ?? 0)
        f["client_signature"] = .string(verify?.scheme?.name ?? "none")
        f["client_signature_bytes"] = .int(verify?.signature.count ?? 0)
        // The client-certificate challenge happens only when a CertificateRequest reached the client.
        let exchange = trace.exchange
        let clientCertificateAnswer = exchange.certificateRequestReachedClient ? clientCertificateChallenge(w).disposition : nil
        f["client_certificate_disposition"] = .string(clientCertificateAnswer?.rawValue ?? "none")
        let rows = trace.knowledge.rows
        func learned(_ who: (KnowledgeTable.Row) -> Bool) -> FactValue {
            .list(rows.filter { !$0.changedInFlight && who($0) }.compactMap { secretNames[$0.secret] }.sorted())
        }
        f["eavesdropper_learns"] = learned(\.eavesdropper)
        f["client_learns"] = learned(\.client)
        f["server_learns"] = learned(\.server)
        func union(_ a: FactValue, _ names: [Secret]) -> FactValue {
            guard case .list(let l) = a else { return a }
            return .list(Array(Set(l + names.compactMap { secretNames[$0] })).sorted())
        }
        f["eavesdropper_learns_afterwards"] = union(learned { $0.eavesdropperAfterwards == true },
                                                    trace.learned(by: .eavesdropper).map(\.secret))
        f["attacker_learns"] = union(learned { $0.attacker == true }, trace.learned(by: .attacker).map(\.secret))
        let stats = trace.statistics
        f["connections"] = .int(stats.connections)
        f["full_handshakes"] = .int(stats.fullHandshakes)
        f["abbreviated_handshakes"] = .int(stats.abbreviatedHandshakes)
        f["requests"] = .int(stats.requests)
        f["responses"] = .int(stats.responses)
        f["requests_served"] = .int(stats.requestsServed)
        f["round_trips"] = .int(stats.roundTrips)
        f["round_trips_to_first_byte"] = .int(stats.roundTripsToFirstByte ?? -1)
        f["streams"] = .int(stats.http2Streams)
        f["pushed_responses"] = .int(stats.pushedResponses)
        f["request_header_blocks"] = .list(stats.requestHeaderBlocks.map(String.init))
        f["hpack_raw_bytes"] = .int(stats.hpackRawBytes)
        f["hpack_encoded_bytes"] = .int(stats.hpackEncodedBytes)
        f["http2"] = .string(exchange.http2Negotiation?.rawValue ?? "none")
        f["http2_error"] = .string(exchange.http2ConnectionErrorSent?.name ?? "none")
        f["cpu_us"] = .int(Int(stats.cpuTime))
        f["last_response_us"] = .int(Int(stats.lastResponseTime ?? -1))
        // The first response as the server sent it and as the client read it.
        let sentText = exchange.firstResponseSent, readText = exchange.firstResponseRead
        f["client_response_includes"] = .string(readText ?? "")
        f["response_altered"] = .bool(readText != nil && sentText != nil && readText != sentText)
        let responded = exchange.responseRead
        f["http_response"] = .bool(responded)
        // How the URL loading task ends: a challenge answered with CancelAuthenticationChallenge
        // cancels the entire request, and URLSession completes a cancelled task with
        // NSURLErrorCancelled (−999) (Apple: URLSession.AuthChallengeDisposition, NSURLErrorCancelled).
        // Any other failure is `other`: TLSLab models the TLS failure, not the NSURLError code the
        // system would choose for it.
        let cancelled = verdict?.disposition == .cancelAuthenticationChallenge || clientCertificateAnswer == .cancelAuthenticationChallenge
        f["url_error"] = .string(cancelled ? "NSURLErrorCancelled" : responded ? "none" : "other")
        let tcpEvents = trace.events.compactMap { e -> TCPNetworkEvent.Kind? in if case .tcp(let k) = e.kind { k } else { nil } }
        let states = TCPFacts(events: tcpEvents, client: setup.clientAddress, server: setup.serverAddress)
        f["client_tcp_state"] = .string(states.clientStates.last ?? "CLOSED")
        f["server_tcp_state"] = .string(states.serverStates.last ?? "none")
        f["client_tcp_states"] = .list(states.clientStates)
        f["server_tcp_states"] = .list(states.serverStates)
        f["retransmissions"] = .int(states.retransmissions(of: setup.clientAddress) + states.retransmissions(of: setup.serverAddress))
        f["not_applied"] = .list(unappliedFaults(w.network.faults, events: tcpEvents, client: setup.clientAddress, server: setup.serverAddress)
                                 + unappliedAttack(w.attack, trace: trace))
        states.reorderingFacts(into: &f)
        // The JSON summary's values (the `summary` object of `tlslab run --format json`).
        func hex(_ b: [UInt8]?) -> FactValue { b.map { .string($0.map { String(format: "%02x", $0) }.joined()) } ?? .null }
        f["summary.client_random"] = hex(s.clientRandom)
        f["summary.server_random"] = hex(s.serverRandom)
        f["summary.premaster_secret"] = hex(s.preMasterSecret)
        f["summary.master_secret"] = hex(s.masterSecret)
        f["summary.client_verify_data"] = hex(s.clientVerifyData)
        f["summary.server_verify_data"] = hex(s.serverVerifyData)
        f["summary.cipher_suite"] = s.cipherSuite.map { .string($0.nameOrHex) } ?? .null
        f["summary.version"] = s.version.map { .string("\($0)") } ?? .null
        f["summary.extended_master_secret"] = .bool(s.extendedMasterSecret)
        if let alpn = s.applicationProtocol { f["summary.alpn"] = .string(alpn.description) }
        f["summary.resumed"] = .bool(s.resumed)
        f["summary.outcome"] = .string(s.runOutcome.word)
        f["summary.t"] = .string(ExpectationReader.seconds(micros: trace.events.last?.time ?? 0))
        f["summary.actor"] = .string("network")
        f["summary.event"] = .string("summary")
        f["summary.connections"] = .int(stats.connections)
        f["summary.full_handshakes"] = .int(stats.fullHandshakes)
        f["summary.abbreviated_handshakes"] = .int(stats.abbreviatedHandshakes)
        f["summary.requests"] = .int(stats.requests)
        f["summary.responses"] = .int(stats.responses)
        f["summary.round_trips"] = .int(stats.roundTrips)
        f["summary.round_trips_to_first_byte"] = stats.roundTripsToFirstByte.map { .int($0) } ?? .null
        f["summary.last_response_t"] = stats.lastResponseTime.map { .string(ExpectationReader.seconds(micros: $0)) } ?? .null
        f["summary.cpu_time"] = .string(ExpectationReader.seconds(micros: stats.cpuTime))
        if stats.usedHTTP2 {
            f["summary.streams"] = .int(stats.http2Streams)
            f["summary.hpack_raw_bytes"] = .int(stats.hpackRawBytes)
            f["summary.hpack_encoded_bytes"] = .int(stats.hpackEncodedBytes)
            f["summary.pushed_responses"] = .int(stats.pushedResponses)
            f["summary.http2_error"] = stats.http2Error.map { .string($0) } ?? .null
        }
        return ScenarioRun(facts: f, trace: trace, verdict: verdict, reasons: verdict?.reasons ?? [])
    }

    // MARK: - Steps that never applied

    /// A scripted fault whose segment never came (`nth` beyond what that side sent to the other).
    static func unappliedFaults(_ faults: [FaultSpec], events: [TCPNetworkEvent.Kind], client: IPv4Address, server: IPv4Address) -> [String] {
        var out: [String] = []
        for (i, fault) in faults.enumerated() {
            let (from, to) = fault.from == "client" ? (client, server) : (server, client)
            let sent = events.filter { if case .sent(let p) = $0 { p.source == from && p.destination == to } else { false } }.count
            if sent < fault.nth {
                let other = fault.from == "client" ? "server" : "client"
                out.append("network.faults[\(i)]: the \(fault.from) sent only \(sent) segment(s) to the \(other), so segment \(fault.nth) never came and the fault never applied")
            }
        }
        return out
    }

    static let messageNames: [HandshakeType: String] = [
        .clientHello: "ClientHello", .serverHello: "ServerHello", .certificate: "Certificate",
        .serverKeyExchange: "ServerKeyExchange", .certificateRequest: "CertificateRequest", .serverHelloDone: "ServerHelloDone",
        .clientKeyExchange: "ClientKeyExchange", .certificateVerify: "CertificateVerify", .finished: "Finished",
    ]

    /// An on-path attack that found nothing to act on during the run.
    static func unappliedAttack(_ attack: Attack?, trace: Trace) -> [String] {
        let attackEvents = trace.events.compactMap { e -> AttackEvent? in if case .attack(let a) = e.kind { a } else { nil } }
        switch attack {
        case .tamper(let t)? where t.message.hasPrefix("HTTP"):
            guard !attackEvents.contains(where: { if case .tampered = $0 { true } else { false } }) else { return [] }
            let who = t.sender == .client ? "client" : "server"
            return ["attacker: tamper never applied: the \(who) sent no \(t.message) with a byte at offset \(t.offset)"]
        case .tamper(let t)?:
            guard !attackEvents.contains(where: { if case .tampered = $0 { true } else { false } }) else { return [] }
            let sent = trace.events.compactMap { e -> [UInt8]? in
                guard e.actor == t.sender, e.connection == 0, case .tls(.handshakeSent(let m, let bytes)) = e.kind,
                      messageNames[m.type] == t.message else { return nil }
                return bytes
            }
            let who = t.sender == .client ? "client" : "server"
            if let first = sent.first {
                if t.message == "Finished" {
                    return ["attacker: tamper never applied: the \(who)'s Finished travels encrypted (after ChangeCipherSpec), so the attacker cannot find its byte \(t.offset) in flight"]
                }
                return ["attacker: tamper never applied: the \(who)'s \(t.message) is \(first.count) bytes (4-byte header included), so it has no byte at offset \(t.offset)"]
            }
            return ["attacker: tamper never applied: the \(who) never sent a \(t.message) in this run"]
        case .stripSuites?:
            let removed = attackEvents.contains { if case .strippedSuites(let r, _, _) = $0 { !r.isEmpty } else { false } }
            return removed ? [] : ["attacker: strip_suites never applied: the ClientHello offered none of the suites to strip (or no other suite to keep)"]
        case .replayApplicationData(let index)?:
            guard !attackEvents.contains(where: { if case .replayed = $0 { true } else { false } }) else { return [] }
            return ["attacker: replay never applied: the client never sent application-data record \(index) (counting from 0)"]
        case .injectEarlyChangeCipherSpec?:
            guard !attackEvents.contains(where: { if case .injectedChangeCipherSpec = $0 { true } else { false } }) else { return [] }
            return ["attacker: early_ccs never applied: the client never sent a ClientHello"]
        default:
            return []
        }
    }
}

/// TCP facts read off network events: each side's states in order, retransmissions, resets.
struct TCPFacts {
    var clientID: TCPConnectionID?
    var serverID: TCPConnectionID?
    var clientStates: [String] = []
    var serverStates: [String] = []
    let events: [TCPNetworkEvent.Kind]

    init(events: [TCPNetworkEvent.Kind], client: IPv4Address, server: IPv4Address, alsoFrom: IPv4Address? = nil, clientID: TCPConnectionID? = nil) {
        self.events = events
        self.clientID = clientID
        for e in events {
            guard case .connection(let id, .stateChanged(let from, let to, _)) = e else { continue }
            // The server's listening socket (foreign socket unspecified, as a simulation traces its
            // passive OPEN): the server's states start there; its connection goes on from LISTEN.
            if id.local.address == server, id.remote == TCPEndpoint(IPv4Address(0), 0), serverStates.isEmpty {
                serverStates = [from.rawValue, to.rawValue]
                continue
            }
            if self.clientID == nil, id.local.address == client, id.remote.address == server { self.clientID = id }
            if serverID == nil, id.local.address == server, id.remote.address == client || id.remote.address == alsoFrom {
                serverID = id
            }
            if id == self.clientID {
                if clientStates.isEmpty { clientStates.append(from.rawValue) }
                clientStates.append(to.rawValue)
            }
            if id == serverID {
                // A connection forked from the listener starts in the listener's LISTEN (a new TCB after
                // an RST returned the first one to LISTEN, RFC 9293 §3.10.7.3): the server stays where it
                // was, so LISTEN is not listed twice.
                if from == .closed && to == .listen && serverStates.last == TCPState.listen.rawValue { continue }
                if serverStates.isEmpty { serverStates.append(from.rawValue) }
                serverStates.append(to.rawValue)
            }
        }
    }

    /// Reordering and duplication as the network and the receivers saw them.
    func reorderingFacts(into f: inout [String: FactValue]) {
        f["segments_duplicated"] = .int(events.filter { if case .duplicated = $0 { true } else { false } }.count)
        f["out_of_order_buffered"] = .int(events.filter { if case .connection(_, .outOfOrderBuffered) = $0 { true } else { false } }.count)
        f["unacceptable_segments"] = .int(events.filter { if case .connection(_, .unacceptableSegment) = $0 { true } else { false } }.count)
    }

    func retransmissions(of host: IPv4Address) -> Int {
        events.filter { if case .connection(let id, .retransmitted) = $0 { id.local.address == host } else { false } }.count
    }

    func error(of id: TCPConnectionID?) -> String {
        guard let id else { return "none" }
        for e in events {
            if case .connection(id, .error(let err)) = e {
                switch err {
                case .refused: return "refused"
                case .reset: return "reset"
                case .timedOut: return "timedOut"
                case .aborted: return "aborted"
                }
            }
        }
        return "none"
    }
}
