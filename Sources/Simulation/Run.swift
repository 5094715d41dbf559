import HTTP2
import TCPSim
import TLSEngine
import Trace
import Trust

/// The mutable bookkeeping of one run.
final class Run {
    let setup: SimulationSetup
    let net: TCPNetwork
    var events: [TraceEvent] = []
    /// What the exchange came to, noted where it happened (``Trace/exchange``).
    var exchange = RunExchange()
    var legs: [Leg] = []
    /// The legs still to be driven each round: a leg whose both ends have closed TCP and can
    /// receive nothing more leaves this list (its events stay in `legs`), so a run of N
    /// sequential connections (HTTP/1.0) costs N rounds of work, not N² (issue #38 defect 8).
    var activeLegs: [Leg] = []
    var clientLegs: [Leg] = []
    var plannedConnections: [[String]] = []
    var session: TLSSession?
    /// TLS 1.3 resumption: the last ticket the client received (with the virtual time, for its
    /// age) and every ticket the server issued (the server's ticket store).
    var tls13Ticket: (ticket: TLS13ResumptionTicket, receivedAt: TCPTime)?
    var tls13IssuedTickets: [TLS13ResumptionTicket] = []
    /// The server's ClientHello recording (RFC 8446 §8.2): the binders of the ClientHellos whose
    /// 0-RTT data it accepted, kept across connections.
    var tls13RecordedClientHellos: [TLS13RecordedClientHello] = []
    /// `replayEarlyData`: the attacker's connection with the recorded 0-RTT flight was opened.
    var earlyFlightReplayed = false
    let sessionCache: TLSSessionCache?
    /// The server's session-ticket keys when the run resumes by ticket.
    let ticketKeys: SessionTicketKeys?
    let onPath: OnPathAttacker?
    var connectionOfPort: [TCPEndpoint: Int] = [:]
    /// Which stream bytes carry which TLS message (for the ladder).
    var spans: [StreamSpan] = []
    /// Hosts that did a passive OPEN at the start, traced under the first TCP heading.
    var listening: [IPv4Address] = []

    init(setup: SimulationSetup) {
        self.setup = setup
        net = TCPNetwork(random: TCPRandomAdapter(setup.random))
        sessionCache = setup.resumesByTicket ? nil : setup.server.sessionCache ?? (setup.resumesSessions ? TLSSessionCache() : nil)
        ticketKeys = setup.resumesSessions && setup.resumesByTicket ? SessionTicketKeys(random: setup.random) : nil
        if let attack = setup.attack, attack.actsOnPath {
            onPath = OnPathAttacker(attack: attack, clientAddress: setup.clientAddress)
        } else {
            onPath = nil
        }
        let requests = setup.plannedRequests
        switch setup.connectionMode {
        case .oneRequestPerConnection, .http09: plannedConnections = requests.isEmpty ? [[]] : requests.map { [$0] }
        case .keepAlive, .pipelining, .h2: plannedConnections = [requests]
        }
    }

    var isMITM: Bool { if case .mitm? = setup.attack { return true } else { return false } }

    func actor(of address: IPv4Address) -> Actor {
        address == setup.clientAddress ? .client : address == setup.serverAddress ? .server : .attacker
    }

    func note(_ phase: Phase, connection: Int = 0) {
        events.append(TraceEvent(time: net.now, actor: .network, kind: .phase(phase), connection: connection))
    }

    func connection(of packet: TCPPacket) -> Int {
        connectionOfPort[packet.sourceEndpoint] ?? connectionOfPort[packet.destinationEndpoint] ?? 0
    }

    func collectNetworkEvents() {
        for e in net.takeEvents() {
            let who: Actor
            var connection = 0
            switch e.kind {
            case .sent(let p), .duplicated(let p), .synCookieSent(let p):
                who = actor(of: p.source); connection = self.connection(of: p)
            case .forwarded(let p, _):
                // The segment as the on-path attacker passed it on (changed, re-sequenced): its send
                // on the attacker's leg towards the receiver, at the instant the sender sent it.
                who = .attacker; connection = self.connection(of: p)
            case .delivered(let p):
                who = actor(of: p.destination); connection = self.connection(of: p)
            case .dropped(let p, _):
                who = actor(of: p.source); connection = self.connection(of: p)  // the sender; the network lost it
            case .injected(let p):
                who = .attacker; connection = self.connection(of: p)
            case .synCookieAccepted: who = .server
            case .connection(_, .stateChanged(.closed, .listen, _)):
                // A connection forked from a listener starts in the listener's LISTEN: the passive
                // OPEN itself was traced when the run began (`passiveOpen`).
                continue
            case .connection(let id, _):
                who = actor(of: id.local.address); connection = connectionOfPort[id.local] ?? connectionOfPort[id.remote] ?? 0
            }
            events.append(TraceEvent(time: e.time, actor: who, kind: .tcp(e.kind), connection: connection, packetLinks: e.links))
        }
        if let onPath, !onPath.events.isEmpty {
            for a in onPath.events { events.append(TraceEvent(time: net.now, actor: .attacker, kind: .attack(a))) }
            onPath.events = []
        }
    }

    /// RFC 9293 §3.3.2: a passive OPEN puts the listening socket in LISTEN at once, before any SYN;
    /// its foreign socket is unspecified (0.0.0.0:0).
    func passiveOpen(_ address: IPv4Address, port: UInt16) {
        let listener = TCPFourTuple(local: TCPEndpoint(address, port), remote: TCPEndpoint(IPv4Address(0), 0))
        events.append(TraceEvent(time: net.now, actor: actor(of: address),
                                 kind: .tcp(.connection(listener, .stateChanged(from: .closed, to: .listen, cause: .passiveOpen)))))
    }

    // MARK: - The run

    func execute() {
        net.addHost(setup.clientAddress, config: setup.tcpConfig, isn: setup.clientISN)
        net.addHost(setup.serverAddress, config: setup.tcpConfig, isn: setup.serverISN)
        net.setLinks(between: setup.clientAddress, and: setup.serverAddress, setup.link)
        for rule in setup.faults { net.addFault(rule) }
        if let onPath { net.onPath = { onPath.inspect($0) } }
        do throws(TCPUserError) {
            try net.listen(on: setup.serverAddress, port: setup.serverPort)
            listening.append(setup.serverAddress)
            if case .mitm? = setup.attack {
                net.addHost(setup.attackerAddress, config: setup.tcpConfig)
                net.setLinks(between: setup.clientAddress, and: setup.attackerAddress, setup.link)
                net.setLinks(between: setup.attackerAddress, and: setup.serverAddress, setup.link)
                try net.listen(on: setup.attackerAddress, port: setup.serverPort)
                listening.append(setup.attackerAddress)
                let position = AttackPosition.manInTheMiddle(host: setup.client.serverName, address: setup.attackerAddress)
                events.append(TraceEvent(time: 0, actor: .attacker, kind: .attack(.position(position))))
            }
        } catch {
            note(.failed(.serverCouldNotListen, error: error))
            return
        }
        if setup.attack?.actsOnPath == true {
            events.append(TraceEvent(time: 0, actor: .attacker, kind: .attack(.position(.onPath))))
        }
        openClientConnection()
        collectNetworkEvents()
        while net.now <= setup.timeLimit {
            let nextWrite = activeLegs.flatMap { [$0.initiator, $0.responder] }.compactMap { $0.pendingWrites.first?.due }.min()
            if let nextWrite, nextWrite < (net.nextEventTime ?? .max) {
                net.run(until: nextWrite)
            } else if !net.step() {
                break
            }
            collectNetworkEvents()
            pump()
            collectNetworkEvents()
        }
        afterTheRun()
    }

    /// Opens the real client's next connection (to the server, or to the MITM).
    func openClientConnection() {
        let index = clientLegs.count
        guard index < plannedConnections.count else { return }
        let target = isMITM ? setup.attackerAddress : setup.serverAddress
        var clientConfig = setup.client
        if setup.resumesSessions, let session { clientConfig.session = session }
        if ticketKeys != nil { clientConfig.offerSessionTicket = true }
        let client = Endpoint(actor: .client, peer: isMITM ? .attacker : .server, connection: index, isInitiator: true,
                              engine: clientEngine(clientConfig))
        let responder: Endpoint
        if case .mitm(let identity)? = setup.attack, setup.usesTLS, let options = setup.tls13 {
            // The TLS 1.3 man in the middle answers with its own certificate, as in TLS 1.2.
            let config = TLS13ServerConfiguration(identity: identity, suites: options.serverSuites ?? options.suites, groups: options.serverGroups)
            responder = Endpoint(actor: .attacker, peer: .client, connection: index, isInitiator: false,
                                 engine: .server13(TLS13Server(configuration: config, random: setup.server.random)))
        } else if case .mitm(let identity)? = setup.attack {
            var config = setup.server
            config.identity = identity
            config.sessionCache = nil
            config.applicationProtocolStrategy = HTTP2OverTLS.applicationProtocolStrategy
            responder = Endpoint(actor: .attacker, peer: .client, connection: index, isInitiator: false,
                                 engine: setup.usesTLS ? .server(TLSServer(configuration: config)) : .plain)
        } else {
            responder = serverEndpoint(connection: index, peer: .client)
        }
        client.configuration = clientConfig
        let leg = Leg(index: index, initiator: client, responder: responder, responderAddress: target)
        leg.requests = plannedConnections[index]
        legs.append(leg)
        activeLegs.append(leg)
        clientLegs.append(leg)
        note(.tcpOpen, connection: index)
        if index == 0 { for address in listening { passiveOpen(address, port: setup.serverPort) } }
        do throws(TCPUserError) {
            let id = try net.connect(from: setup.clientAddress, to: TCPEndpoint(target, setup.serverPort))
            client.tcp = id
            connectionOfPort[id.local] = index
        } catch {
            note(.failed(.connectionNotOpened, error: error), connection: index)
        }
    }

    /// The client's engine: TLS 1.2 or 1.3 as the setup says, or none for plain HTTP.
    func clientEngine(_ config: TLSClientConfiguration) -> Endpoint.Engine {
        guard setup.usesTLS else { return .plain }
        guard let options = setup.tls13 else { return .client(TLSClient(configuration: config)) }
        var tls13 = TLS13ClientConfiguration(serverName: config.serverName, evaluator: config.certificateEvaluator, suites: options.suites,
                                             groups: options.groups, keyShareGroups: options.keyShareGroups)
        tls13.identity = config.identity
        if options.resumes, let (ticket, receivedAt) = tls13Ticket {
            tls13.resumption = ticket
            tls13.ticketAgeMilliseconds = UInt32(clamping: max(0, net.now - receivedAt) / 1_000)
            tls13.offersEarlyData = options.earlyData?.clientSends ?? false
        }
        if options.clientOffersTLS12 { return .dualClient(DualVersionClient(tls12: config, tls13: tls13)) }
        return .client13(TLS13Client(configuration: tls13, random: config.random))
    }

    /// The real client's TLS 1.3 engine made again as its ClientHello leaves, when it resumes a
    /// ticket: the ticket's age is the time since the NewSessionTicket arrived until now (RFC 8446
    /// §4.2.11.1), not until the connection was opened a TCP handshake earlier. Nil when nothing is
    /// resumed (the engine made at the open is the same). No randomness is drawn before start().
    func engineAtClientHello(_ e: Endpoint) -> Endpoint.Engine? {
        guard e.actor == .client, setup.tls13?.resumes == true, tls13Ticket != nil, let config = e.configuration else { return nil }
        return clientEngine(config)
    }

    func serverEndpoint(connection: Int, peer: Actor) -> Endpoint {
        if setup.usesTLS, let options = setup.tls13, options.serverVersions != .tls13Only {
            var tls12 = setup.server
            tls12.applicationProtocolStrategy = HTTP2OverTLS.applicationProtocolStrategy
            var tls13: TLS13ServerConfiguration?
            if options.serverVersions == .tls13AndTLS12 {
                tls13 = TLS13ServerConfiguration(identity: setup.server.identity, suites: options.suites, groups: options.serverGroups)
            }
            return Endpoint(actor: .server, peer: peer, connection: connection, isInitiator: false,
                            engine: .dualServer(DualVersionServer(configuration: DualVersionServerConfiguration(tls12: tls12, tls13: tls13))))
        }
        if setup.usesTLS, let options = setup.tls13 {
            var config = TLS13ServerConfiguration(identity: setup.server.identity, suites: options.serverSuites ?? options.suites, groups: options.serverGroups)
            config.clientAuthentication = options.clientAuthentication
            config.clientCertificateEvaluator = setup.server.clientCertificateEvaluator
            if options.resumes {
                config.ticketLifetime = 7_200
                config.tickets = tls13IssuedTickets
                if let early = options.earlyData {
                    config.earlyData = early.server
                    if let window = early.recordingWindowMilliseconds {
                        config.earlyData.recording = TLS13ClientHelloRecording(windowMilliseconds: window, recorded: tls13RecordedClientHellos)
                    }
                }
            }
            return Endpoint(actor: .server, peer: peer, connection: connection, isInitiator: false,
                            engine: .server13(TLS13Server(configuration: config, random: setup.server.random)))
        }
        var config = setup.server
        config.sessionCache = sessionCache
        if let ticketKeys {
            config.sessionTicketKeys = ticketKeys
            config.ticketLifetimeHint = 7_200
        }
        // The simulation speaks HTTP/2: RFC 9113 §9.2.2's rule decides whether ALPN may choose h2.
        config.applicationProtocolStrategy = HTTP2OverTLS.applicationProtocolStrategy
        return Endpoint(actor: .server, peer: peer, connection: connection, isInitiator: false,
                        engine: setup.usesTLS ? .server(TLSServer(configuration: config)) : .plain)
    }

    /// The MITM's own connection to the real server, opened once the client's connection reached it.
    func openUpstream(for downstream: Leg) {
        var config = setup.client
        config.certificateEvaluator = TrustEverything()
        config.session = nil
        var engine: Endpoint.Engine = setup.usesTLS ? .client(TLSClient(configuration: config)) : .plain
        if setup.usesTLS, let options = setup.tls13 {
            let upstream = TLS13ClientConfiguration(serverName: config.serverName, evaluator: TrustEverything(), suites: options.suites,
                                                    groups: options.groups, keyShareGroups: options.keyShareGroups)
            engine = .client13(TLS13Client(configuration: upstream, random: config.random))
        }
        let attackerClient = Endpoint(actor: .attacker, peer: .server, connection: downstream.index, isInitiator: true, engine: engine)
        let leg = Leg(index: downstream.index, initiator: attackerClient,
                      responder: serverEndpoint(connection: downstream.index, peer: .attacker),
                      responderAddress: setup.serverAddress)
        leg.downstream = downstream
        downstream.upstream = leg
        legs.append(leg)
        activeLegs.append(leg)
        do throws(TCPUserError) {
            let id = try net.connect(from: setup.attackerAddress, to: TCPEndpoint(setup.serverAddress, setup.serverPort))
            attackerClient.tcp = id
            connectionOfPort[id.local] = downstream.index
        } catch {
            note(.failed(.attackerCouldNotReachServer, error: error), connection: downstream.index)
        }
    }

    /// After every network step: accept, start TLS once TCP is up, feed what arrived to each
    /// engine, move the HTTP exchanges along, close when done, open the next connection.
    func pump() {
        replayEarlyFlightIfDue()
        for leg in activeLegs where leg.responder.tcp == nil {
            if let id = net.accept(on: leg.responderAddress, port: setup.serverPort) {
                leg.responder.tcp = id
                if isMITM, leg.downstream == nil, leg.upstream == nil { openUpstream(for: leg) }
            }
        }
        for leg in activeLegs {
            drive(leg.initiator, leg: leg)
            drive(leg.responder, leg: leg)
        }
        writeReplayedFlights()
        for leg in activeLegs { application(leg) }
        for leg in activeLegs { releaseHeldWrites(leg.responder) }
        for leg in activeLegs { closeWhenDone(leg) }
        flushDueWrites()
        activeLegs.removeAll(where: isOver)
        if let onPath, !onPath.injections.isEmpty {
            for (p, content) in onPath.injections {
                spans.append(StreamSpan(source: p.sourceEndpoint, destination: p.destinationEndpoint, firstSequence: p.segment.seq.rawValue,
                                        offset: 0, length: p.segment.payload.count, content: content, encrypted: true,
                                        connection: connection(of: p), injected: true))
                net.inject(p, after: setup.link.latency + 1)
            }
            onPath.injections = []
        }
        if let last = clientLegs.last, last.initiator.closing == .tcpClosed, let id = last.initiator.tcp,
           let state = net.state(of: id), state == .timeWait || state == .closed {
            openClientConnection()
        }
    }

    /// True once a leg can do nothing more, after two rounds in that state (the first still reads
    /// what arrived before the peer's FIN): both ends closed TCP with nothing left to write, read
    /// or relay, and each connection in TIME-WAIT or CLOSED — the peer's FIN came, so no data can.
    func isOver(_ leg: Leg) -> Bool {
        let ends = [leg.initiator, leg.responder]
        let quiet = leg.relayQueue.isEmpty && ends.allSatisfy { e in
            e.closing == .tcpClosed && e.pendingWrites.isEmpty && e.inbox.isEmpty
                && (e.tcp.flatMap { net.state(of: $0) }.map { $0 == .timeWait || $0 == .closed } ?? true)
        }
        leg.quietRounds = quiet ? leg.quietRounds + 1 : 0
        return leg.quietRounds >= 2
    }

    func drive(_ e: Endpoint, leg: Leg) {
        guard let id = e.tcp else { return }
        if e.isInitiator, e.handshake == .notStarted, net.state(of: id) == .established {
            e.handshake = .started
            switch e.engine {
            case .client(var client):
                if e.actor == .client, case .weakClientRandom(let weak)? = setup.attack, var config = e.configuration {
                    // Seeded now, from the clock in milliseconds and the process id.
                    let seed = WeakRandom.seed(clockMilliseconds: net.now / 1_000, processID: weak.processID)
                    config.random = WeakRandom.generator(seed: seed)
                    client = TLSClient(configuration: config)
                }
                if e.actor == .client { note(.tlsHandshake, connection: leg.index) }
                let step = client.start()
                e.engine = .client(client)
                record(step, by: e)
            case .client13(var client):
                if e.actor == .client { note(.tlsHandshake, connection: leg.index) }
                if case .client13(let atClientHello)? = engineAtClientHello(e) { client = atClientHello }
                let step = client.start()
                e.engine = .client13(client)
                // The ClientHello and any 0-RTT data leave in one write, as one flight (RFC 8446 §2.3).
                e.heldWrites = []
                record(step.tlsStep(role: .client), by: e)
                sendEarlyRequest(e, leg: leg)
                releaseHeldWrites(e)
            case .dualClient(var client):
                if e.actor == .client { note(.tlsHandshake, connection: leg.index) }
                if case .dualClient(let atClientHello)? = engineAtClientHello(e) { client = atClientHello }
                let step = client.start()
                e.engine = .dualClient(client)
                record(step, by: e)
            default:
                e.handshake = .completed
            }
        }
        if case .plain = e.engine, !e.isInitiator, e.handshake == .notStarted, net.state(of: id) == .established {
            e.handshake = .completed
        }
        let bytes = net.read(id)
        guard !bytes.isEmpty else { return }
        e.bytesRead += bytes.count
        defer {
            if e.failed { dropUnprocessed(by: e, arrivedOnly: true) }
            e.recordFailed = false
        }
        switch e.engine {
        case .plain:
            e.inbox += bytes
        case .client, .server:
            guard !e.failed, let step = e.engine.withTLS12({ $0.receive(bytes) }) else { return }
            record(step, by: e)
        case .client13(var client):
            guard !e.failed else { return }
            let step = client.receive(bytes)
            e.engine = .client13(client)
            keepTickets(step, by: e)
            noteEarlyData(step, by: e, leg: leg)
            record(step.tlsStep(role: .client), by: e)
        case .server13(var server):
            guard !e.failed else { return }
            // The server's clock goes with what it reads (RFC 8446 §8.3's freshness check; the engine reads none).
            let step = server.receive(bytes, atMilliseconds: UInt64(max(0, net.now)) / 1_000)
            e.engine = .server13(server)
            keepTickets(step, by: e)
            noteEarlyData(step, by: e, leg: leg)
            record(step.tlsStep(role: .server), by: e)
        case .dualClient(var client):
            guard !e.failed else { return }
            let step = client.receive(bytes)
            e.engine = .dualClient(client)
            record(step, by: e)
        case .dualServer(var server):
            guard !e.failed else { return }
            let step = server.receive(bytes)
            e.engine = .dualServer(server)
            record(step, by: e)
        }
    }

    /// Application data from one endpoint (through TLS, or straight onto TCP).
    func send(_ text: String, from e: Endpoint) { send(bytes: Array(text.utf8), from: e) }

    func send(bytes data: [UInt8], from e: Endpoint) {
        switch e.engine {
        case .plain:
            addSpan(.plainHTTP, offset: e.streamOffset, length: data.count, encrypted: false, by: e)
            write(data, from: e)
        case .client, .server:
            if let step = e.engine.withTLS12({ try? $0.sendApplicationData(data) }) ?? nil { record(step, by: e) }
        case .client13(var client):
            let step = client.send(data)
            e.engine = .client13(client)
            record(step.tlsStep(role: .client), by: e)
        case .server13(var server):
            let step = server.send(data)
            e.engine = .server13(server)
            record(step.tlsStep(role: .server), by: e)
        case .dualClient(var client):
            let step = client.sendApplicationData(data)
            e.engine = .dualClient(client)
            record(step, by: e)
        case .dualServer(var server):
            let step = (try? server.sendApplicationData(data)) ?? TLSStep()
            e.engine = .dualServer(server)
            record(step, by: e)
        }
    }

    /// The tickets of a TLS 1.3 step: the one the real client received, those the real server issued.
    func keepTickets(_ step: TLS13Step, by e: Endpoint) {
        for event in step.events {
            switch event {
            case .newSessionTicketReceived(let ticket) where e.actor == .client: tls13Ticket = (ticket, net.now)
            case .newSessionTicketSent(let ticket) where e.actor == .server: tls13IssuedTickets.append(ticket)
            default: break
            }
        }
    }
}
