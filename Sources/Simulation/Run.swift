import PKI
import TCPSim
import TLSCrypto
import TLSEngine

/// One end of one TCP connection: a TLS engine (or none, for plain HTTP) and its bookkeeping.
final class Endpoint {
    enum Engine {
        case client(TLSClient)
        case server(TLSServer)
        case plain
    }

    let actor: Actor
    let peer: Actor
    let connection: Int
    let isInitiator: Bool
    var engine: Engine
    var tcp: TCPConnectionID?
    var started = false
    var done = false            // handshake completed (plain: TCP established)
    var failed = false          // a fatal alert sent or received
    var closedTLS = false, closedTCP = false
    var inbox: [UInt8] = []     // application bytes received, not yet consumed
    /// Virtual time before which this side is still computing (CPU cost).
    var busyUntil: Int64 = 0
    /// The real client's configuration (a weak generator is seeded from the clock when TLS starts).
    var configuration: TLSClientConfiguration?
    var pendingWrites: [(due: Int64, bytes: [UInt8])] = []
    /// The other end of this TCP connection (set by `Leg`).
    weak var other: Endpoint?
    /// Bytes handed to TCP so far (the stream offset of the next byte) and bytes read from it.
    var streamOffset = 0
    var bytesRead = 0
    /// Handshake messages written but not yet placed in a record (records coalesce a flight).
    var unplaced: [(message: HandshakeMessage, bytes: [UInt8], remaining: Int)] = []
    /// Messages, change_cipher_spec and alerts this side sent, in stream order, with the stream
    /// offset where their record ends; `settled` of them the peer has received or dropped.
    var outgoing: [(content: UndeliveredMessage.Content, end: Int)] = []
    var settled = 0
    /// Why this side stopped processing: the fatal alert it sent or received (a `dropped.…` key
    /// and the alert's name).
    var failure: (key: String, alert: String)?
    /// HTTP/2 framing and HPACK state (mode `h2`).
    var h2 = HTTP2EndpointState()

    init(actor: Actor, peer: Actor, connection: Int, isInitiator: Bool, engine: Engine) {
        self.actor = actor
        self.peer = peer
        self.connection = connection
        self.isInitiator = isInitiator
        self.engine = engine
    }
}

/// A TCP connection between two endpoints, and the HTTP work it carries.
final class Leg {
    let index: Int
    let initiator: Endpoint
    let responder: Endpoint
    let responderAddress: IPv4Address
    /// The real client's requests on this connection, and how many were sent / answered.
    var requests: [String] = []
    var sent = 0, answered = 0
    /// A MITM's own connection to the server, and the requests waiting to be relayed on it.
    weak var upstream: Leg?
    weak var downstream: Leg?
    var relayQueue: [String] = []

    init(index: Int, initiator: Endpoint, responder: Endpoint, responderAddress: IPv4Address) {
        self.index = index
        self.initiator = initiator
        self.responder = responder
        self.responderAddress = responderAddress
        initiator.other = responder
        responder.other = initiator
    }
}

/// The mutable bookkeeping of one run.
final class Run {
    let setup: SimulationSetup
    let net: TCPNetwork
    var events: [TraceEvent] = []
    var legs: [Leg] = []
    var clientLegs: [Leg] = []
    var plannedConnections: [[String]] = []
    var session: TLSSession?
    let sessionCache: TLSSessionCache?
    let onPath: OnPathAttacker?
    var connectionOfPort: [TCPEndpoint: Int] = [:]
    /// Which stream bytes carry which TLS message (for the ladder).
    var spans: [StreamSpan] = []

    init(setup: SimulationSetup) {
        self.setup = setup
        net = TCPNetwork(random: TCPRandomAdapter(setup.random))
        sessionCache = setup.server.sessionCache ?? (setup.resumesSessions ? TLSSessionCache() : nil)
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

    func note(_ phase: String, connection: Int = 0) {
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
            case .delivered(let p):
                who = actor(of: p.destination); connection = self.connection(of: p)
            case .dropped(let p, _):
                who = actor(of: p.source); connection = self.connection(of: p)  // the sender; the network lost it
            case .injected(let p):
                who = .attacker; connection = self.connection(of: p)
            case .synCookieAccepted: who = .server
            case .connection(let id, _):
                who = actor(of: id.local.address); connection = connectionOfPort[id.local] ?? connectionOfPort[id.remote] ?? 0
            }
            events.append(TraceEvent(time: e.time, actor: who, kind: .tcp(e.kind), connection: connection))
        }
        if let onPath, !onPath.events.isEmpty {
            for a in onPath.events { events.append(TraceEvent(time: net.now, actor: .attacker, kind: .attack(a))) }
            onPath.events = []
        }
    }

    // MARK: - The run

    func execute() {
        net.addHost(setup.clientAddress, config: setup.tcpConfig, isn: setup.clientISN)
        net.addHost(setup.serverAddress, config: setup.tcpConfig, isn: setup.serverISN)
        net.setLinks(between: setup.clientAddress, and: setup.serverAddress, setup.link)
        for rule in setup.faults { net.addFault(rule) }
        if let onPath { net.onPath = { onPath.inspect($0) } }
        do {
            try net.listen(on: setup.serverAddress, port: setup.serverPort)
            if case .mitm? = setup.attack {
                net.addHost(setup.attackerAddress, config: setup.tcpConfig)
                net.setLinks(between: setup.clientAddress, and: setup.attackerAddress, setup.link)
                net.setLinks(between: setup.attackerAddress, and: setup.serverAddress, setup.link)
                try net.listen(on: setup.attackerAddress, port: setup.serverPort)
                events.append(TraceEvent(time: 0, actor: .attacker, kind: .attack(.position(Sentence(
                    "position.mitm", ["host": setup.client.serverName ?? "the server", "address": "\(setup.attackerAddress)"])))))
            }
        } catch {
            note("the server could not listen: \(error)")
            return
        }
        if setup.attack?.actsOnPath == true {
            events.append(TraceEvent(time: 0, actor: .attacker, kind: .attack(.position(Sentence("position.onPath")))))
        }
        openClientConnection()
        collectNetworkEvents()
        while net.now <= setup.timeLimit {
            let nextWrite = legs.flatMap { [$0.initiator, $0.responder] }.compactMap { $0.pendingWrites.first?.due }.min()
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
        let client = Endpoint(actor: .client, peer: isMITM ? .attacker : .server, connection: index, isInitiator: true,
                              engine: setup.usesTLS ? .client(TLSClient(configuration: clientConfig)) : .plain)
        let responder: Endpoint
        if case .mitm(let identity)? = setup.attack {
            var config = setup.server
            config.identity = identity
            config.sessionCache = nil
            responder = Endpoint(actor: .attacker, peer: .client, connection: index, isInitiator: false,
                                 engine: setup.usesTLS ? .server(TLSServer(configuration: config)) : .plain)
        } else {
            responder = serverEndpoint(connection: index, peer: .client)
        }
        client.configuration = clientConfig
        let leg = Leg(index: index, initiator: client, responder: responder, responderAddress: target)
        leg.requests = plannedConnections[index]
        legs.append(leg)
        clientLegs.append(leg)
        note(index == 0 ? "TCP three-way handshake" : "TCP three-way handshake (connection \(index + 1))", connection: index)
        do {
            let id = try net.connect(from: setup.clientAddress, to: TCPEndpoint(target, setup.serverPort))
            client.tcp = id
            connectionOfPort[id.local] = index
        } catch {
            note("the TCP connection could not be opened: \(error)", connection: index)
        }
    }

    func serverEndpoint(connection: Int, peer: Actor) -> Endpoint {
        var config = setup.server
        config.sessionCache = sessionCache
        return Endpoint(actor: .server, peer: peer, connection: connection, isInitiator: false,
                        engine: setup.usesTLS ? .server(TLSServer(configuration: config)) : .plain)
    }

    /// The MITM's own connection to the real server, opened once the client's connection reached it.
    func openUpstream(for downstream: Leg) {
        var config = setup.client
        config.certificateEvaluator = TrustEverything()
        config.session = nil
        let attackerClient = Endpoint(actor: .attacker, peer: .server, connection: downstream.index, isInitiator: true,
                                      engine: setup.usesTLS ? .client(TLSClient(configuration: config)) : .plain)
        let leg = Leg(index: downstream.index, initiator: attackerClient,
                      responder: serverEndpoint(connection: downstream.index, peer: .attacker),
                      responderAddress: setup.serverAddress)
        leg.downstream = downstream
        downstream.upstream = leg
        legs.append(leg)
        do {
            let id = try net.connect(from: setup.attackerAddress, to: TCPEndpoint(setup.serverAddress, setup.serverPort))
            attackerClient.tcp = id
            connectionOfPort[id.local] = downstream.index
        } catch {
            note("the attacker could not reach the server: \(error)", connection: downstream.index)
        }
    }

    /// After every network step: accept, start TLS once TCP is up, feed what arrived to each
    /// engine, move the HTTP exchanges along, close when done, open the next connection.
    func pump() {
        for leg in legs where leg.responder.tcp == nil {
            if let id = net.accept(on: leg.responderAddress, port: setup.serverPort) {
                leg.responder.tcp = id
                if isMITM, leg.downstream == nil, leg.upstream == nil { openUpstream(for: leg) }
            }
        }
        for leg in legs {
            drive(leg.initiator, leg: leg)
            drive(leg.responder, leg: leg)
        }
        for leg in legs { application(leg) }
        for leg in legs { closeWhenDone(leg) }
        flushDueWrites()
        if let onPath, !onPath.injections.isEmpty {
            for p in onPath.injections { net.inject(p, after: setup.link.latency + 1) }
            onPath.injections = []
        }
        if let last = clientLegs.last, last.initiator.closedTCP, let id = last.initiator.tcp,
           let state = net.state(of: id), state == .timeWait || state == .closed {
            openClientConnection()
        }
    }

    func drive(_ e: Endpoint, leg: Leg) {
        guard let id = e.tcp else { return }
        if e.isInitiator, !e.started, net.state(of: id) == .established {
            e.started = true
            switch e.engine {
            case .client(var client):
                if e.actor == .client, case .weakClientRandom(let weak)? = setup.attack, var config = e.configuration {
                    // Seeded now, from the clock in milliseconds and the process id.
                    let seed = WeakRandom.seed(clockMilliseconds: net.now / 1_000, processID: weak.processID)
                    config.random = WeakRandom.generator(seed: seed)
                    client = TLSClient(configuration: config)
                }
                if e.actor == .client { note(leg.index == 0 ? "TLS handshake" : "TLS handshake (connection \(leg.index + 1))", connection: leg.index) }
                let step = client.start()
                e.engine = .client(client)
                record(step, by: e)
            default:
                e.done = true
            }
        }
        if case .plain = e.engine, !e.isInitiator, !e.started, net.state(of: id) == .established {
            e.started = true
            e.done = true
        }
        let bytes = net.read(id)
        guard !bytes.isEmpty else { return }
        e.bytesRead += bytes.count
        defer { if e.failed { dropUnprocessed(by: e, arrivedOnly: true) } }
        switch e.engine {
        case .plain:
            e.inbox += bytes
        case .client(var client):
            guard !e.failed else { return }
            let step = client.receive(bytes)
            e.engine = .client(client)
            record(step, by: e)
        case .server(var server):
            guard !e.failed else { return }
            let step = server.receive(bytes)
            e.engine = .server(server)
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
        case .client(var client):
            if let step = try? client.sendApplicationData(data) { e.engine = .client(client); record(step, by: e) }
        case .server(var server):
            if let step = try? server.sendApplicationData(data) { e.engine = .server(server); record(step, by: e) }
        }
    }

    func http(_ h: HTTPEvent, by e: Endpoint) {
        events.append(TraceEvent(time: net.now, actor: e.actor, kind: .http(h), connection: e.connection, peer: e.peer))
    }

    func application(_ leg: Leg) {
        if setup.connectionMode == .h2 {
            http2Application(leg)
            return
        }
        let client = leg.initiator, server = leg.responder
        // The responder: the real server answers; a MITM reads the request and relays it.
        let http09 = setup.connectionMode == .http09
        if server.done, !server.failed {
            while case let (request, rest)? = http09 ? HTTPFraming.requestLine(in: server.inbox) : HTTPFraming.request(in: server.inbox) {
                server.inbox = rest
                http(.requestReceived(request), by: server)
                if server.actor == .attacker {
                    events.append(TraceEvent(time: net.now, actor: .attacker, kind: .attack(.learned(
                        secret: "HTTP request", value: Array(request.utf8),
                        how: Sentence(setup.usesTLS ? "how.mitm.decrypted" : "how.mitm.plain"))),
                        connection: leg.index))
                    if let cookie = PassiveAnalysis.cookieLine(Array(request.utf8)) {
                        events.append(TraceEvent(time: net.now, actor: .attacker, kind: .attack(.learned(
                            secret: "HTTP cookie", value: cookie, how: Sentence("how.mitm.cookie"))), connection: leg.index))
                    }
                    leg.upstream?.relayQueue.append(request)
                } else {
                    http(.responseSent(setup.httpResponse), by: server)
                    send(setup.httpResponse, from: server)
                    if http09 { closeAfterResponse(server) }
                }
            }
        }
        // The initiator: the real client sends its requests; a MITM's client relays.
        guard client.done, !client.failed else { return }
        if client.actor == .client {
            if !leg.requests.isEmpty && leg.sent == 0 {
                note(setup.usesTLS ? "HTTP request over TLS" : "HTTP request in the clear (no TLS)", connection: leg.index)
            }
            while leg.sent < leg.requests.count, setup.connectionMode == .pipelining || leg.sent == leg.answered {
                let request = leg.requests[leg.sent]
                leg.sent += 1
                http(.requestSent(request), by: client)
                send(request, from: client)
            }
        } else {
            while !leg.relayQueue.isEmpty {
                let request = leg.relayQueue.removeFirst()
                leg.requests.append(request)
                leg.sent += 1
                http(.requestSent(request), by: client)
                send(request, from: client)
            }
        }
        while case let (response, rest)? = http09 ? http09Response(client, leg: leg) : HTTPFraming.response(in: client.inbox) {
            client.inbox = rest
            leg.answered += 1
            http(.responseReceived(response), by: client)
            if let down = leg.downstream, down.responder.done, !down.responder.failed {
                http(.responseSent(response), by: down.responder)
                send(response, from: down.responder)
                if http09 { closeAfterResponse(down.responder) }
            }
        }
    }

    /// HTTP/0.9: the response is everything the server sent once it has closed its side (the
    /// client's connection is in CLOSE-WAIT), one per connection.
    func http09Response(_ client: Endpoint, leg: Leg) -> (String, [UInt8])? {
        guard leg.sent > leg.answered, let id = client.tcp, net.state(of: id) == .closeWait else { return nil }
        return (String(decoding: client.inbox, as: UTF8.self), [])
    }

    /// HTTP/0.9: the server ends the response by closing the connection.
    func closeAfterResponse(_ server: Endpoint) {
        guard let id = server.tcp, !server.closedTCP, server.pendingWrites.isEmpty else { return }
        server.closedTLS = true
        server.closedTCP = true
        try? net.close(id)
    }

    func closeWhenDone(_ leg: Leg) {
        let client = leg.initiator, server = leg.responder
        guard let c = client.tcp else { return }
        let exchangeOver: Bool
        if client.actor == .client, setup.connectionMode == .h2 {
            exchangeOver = http2ExchangeOver(leg)
        } else if client.actor == .client {
            exchangeOver = client.done && leg.answered >= leg.requests.count
        } else {
            let down = leg.downstream
            exchangeOver = down.map { $0.initiator.closedTCP || $0.responder.failed || $0.responder.closedTCP } ?? true
        }
        // The initiator closes first: close_notify, then FIN. It reacts only to its own state and to
        // what it received (a fatal alert it sent or read), never to the other side's local failure.
        if exchangeOver, setup.connectionMode == .h2, client.actor == .client, !client.closedTLS, !client.failed {
            http2GoAway(leg)
        }
        if exchangeOver || client.failed, !client.closedTLS {
            client.closedTLS = true
            if client.done, !client.failed, case .client(var engine) = client.engine {
                if client.actor == .client { note("closing: close_notify and the TCP four-way close", connection: leg.index) }
                let step = engine.close()
                client.engine = .client(engine)
                record(step, by: client)
            } else if client.done, case .plain = client.engine, client.actor == .client {
                note("closing: the TCP four-way close", connection: leg.index)
            }
        }
        if client.closedTLS, !client.closedTCP, client.pendingWrites.isEmpty {
            client.closedTCP = true
            try? net.close(c)
        }
        // The responder answers the close_notify with its own, then closes TCP — once the client's
        // FIN arrived (CLOSE-WAIT), or once it sent or received a fatal alert itself.
        if let s = server.tcp, !server.closedTCP, net.state(of: s) == .closeWait || server.failed {
            if !server.closedTLS, !server.failed, case .server(var engine) = server.engine {
                server.closedTLS = true
                let step = engine.close()
                server.engine = .server(engine)
                record(step, by: server)
            }
            if server.pendingWrites.isEmpty {
                server.closedTCP = true
                try? net.close(s)
            }
        }
    }

    /// Logs a step's events, notices milestones, and writes its records to TCP (after the CPU time
    /// its public-key operations cost, when the run charges any).
    func record(_ step: TLSStep, by e: Endpoint) {
        var operations: [String] = []
        var cost: Int64 = 0
        var offset = e.streamOffset
        for event in step.events {
            events.append(TraceEvent(time: net.now, actor: e.actor, kind: .tls(event), connection: e.connection, peer: e.peer))
            switch event {
            case .handshakeSent(let message, let bytes):
                e.unplaced.append((message, bytes, bytes.count))
            case .recordSent(let record):
                place(record, at: offset, by: e)
                offset += record.wire.count
            case .handshakeReceived, .changeCipherSpecReceived, .alertReceived:
                if let other = e.other, other.settled < other.outgoing.count { other.settled += 1 }
            case .certificateDecision(let peer, _, _, _):
                if let validation = chainValidation(in: step, peer: peer, by: e) {
                    events.append(TraceEvent(time: net.now, actor: e.actor, kind: .chainValidation(validation),
                                             connection: e.connection, peer: e.peer))
                }
            default:
                break
            }
            switch event {
            case .handshakeCompleted:
                e.done = true
            case .alertSent(let alert, _) where alert.isFatal:
                e.failed = true
                e.failure = e.failure ?? ("dropped.afterAlertSent", "\(alert.alertDescription)")
            case .alertReceived(let alert) where alert.isFatal:
                e.failed = true
                e.failure = e.failure ?? ("dropped.afterAlertReceived", "\(alert.alertDescription)")
            case .applicationDataReceived(let data):
                e.inbox += data
            case .sessionEstablished(let s) where e.actor == .client:
                session = s
            case .derived(.rsaPreMasterEncryption):
                operations.append("RSA public-key encryption"); cost += setup.cpu.rsaPublic
            case .derived(.rsaPreMasterDecryption):
                operations.append("RSA private-key decryption"); cost += setup.cpu.rsaPrivate
            case .derived(.dhAgreement):
                operations.append("DH key agreement"); cost += setup.cpu.dh
            case .derived(.ecdhAgreement):
                operations.append("ECDH key agreement"); cost += setup.cpu.ecdh
            case .signature(let sig):
                if sig.signer == (e.isInitiator ? TLSRole.client : TLSRole.server) {
                    operations.append("RSA signature"); cost += setup.cpu.rsaPrivate
                } else {
                    operations.append("RSA signature check"); cost += setup.cpu.rsaPublic
                }
            case .certificateDecision(_, let length, _, _):
                operations.append("\(length) certificate signature check(s)"); cost += Int64(length) * setup.cpu.rsaPublic
            default:
                break
            }
        }
        if cost > 0 {
            e.busyUntil = max(e.busyUntil, net.now) + cost
            events.append(TraceEvent(time: net.now, actor: e.actor, kind: .compute(operations: operations, duration: cost),
                                     connection: e.connection))
        }
        write(step.output, from: e)
    }

    func write(_ bytes: [UInt8], from e: Endpoint) {
        guard !bytes.isEmpty, let id = e.tcp else { return }
        e.streamOffset += bytes.count
        if e.busyUntil > net.now || !e.pendingWrites.isEmpty {
            e.pendingWrites.append((max(e.busyUntil, net.now), bytes))
            return
        }
        try? net.write(id, bytes)
    }

    /// The full validation behind a certificate decision, when the deciding evaluator can show it:
    /// the chain is the Certificate message received in the same step.
    func chainValidation(in step: TLSStep, peer: TLSRole, by e: Endpoint) -> ChainValidationTrace? {
        var chain: [[UInt8]]?
        for event in step.events {
            if case .handshakeReceived(.certificate(let message), _) = event { chain = message.certificateList }
        }
        guard let chain else { return nil }
        let evaluator: (any PeerCertificateEvaluator)?
        let serverName: String?
        switch e.engine {
        case .client:
            evaluator = e.actor == .client ? (e.configuration?.certificateEvaluator ?? setup.client.certificateEvaluator) : nil
            serverName = setup.client.serverName
        case .server:
            evaluator = e.actor == .server ? setup.server.clientCertificateEvaluator : nil
            serverName = nil
        case .plain:
            return nil
        }
        guard let explaining = evaluator as? any ChainExplaining,
              let result = explaining.chainValidation(chain: chain, role: peer, serverName: serverName) else { return nil }
        return ChainValidationTrace(peer: peer, result: result)
    }

    /// Notes which stream bytes the record fills and which messages it carries (the record header
    /// counts with the first message it holds); remembers each message, change_cipher_spec and
    /// alert with the offset where its record ends, to match it with the peer's receipt.
    func place(_ record: RecordTrace, at offset: Int, by e: Endpoint) {
        let end = offset + record.wire.count
        let encrypted = record.crypto != nil
        switch record.contentType {
        case .handshake:
            var position = 0, first = true
            while position < record.plaintext.count, !e.unplaced.isEmpty {
                let take = min(e.unplaced[0].remaining, record.plaintext.count - position)
                if !encrypted {
                    let start = first ? offset : offset + TLSRecord.headerLength + position
                    addSpan(.handshake(e.unplaced[0].message.type), offset: start,
                            length: offset + TLSRecord.headerLength + position + take - start, encrypted: false, by: e)
                } else {
                    addSpan(.handshake(e.unplaced[0].message.type), offset: offset, length: record.wire.count, encrypted: true, by: e)
                }
                first = false
                position += take
                e.unplaced[0].remaining -= take
                if e.unplaced[0].remaining == 0 {
                    let done = e.unplaced.removeFirst()
                    e.outgoing.append((.handshake(done.message, bytes: done.bytes), end))
                }
            }
        case .changeCipherSpec:
            addSpan(.changeCipherSpec, offset: offset, length: record.wire.count, encrypted: encrypted, by: e)
            e.outgoing.append((.changeCipherSpec, end))
        case .alert:
            if let alert = try? Alert(decoding: record.plaintext) {
                addSpan(.alert(alert), offset: offset, length: record.wire.count, encrypted: encrypted, by: e)
                e.outgoing.append((.alert(alert), end))
            }
        default:
            addSpan(.applicationData, offset: offset, length: record.wire.count, encrypted: encrypted, by: e)
        }
    }

    func addSpan(_ content: StreamSpan.Content, offset: Int, length: Int, encrypted: Bool, by e: Endpoint) {
        guard let id = e.tcp, let iss = net.connection(id)?.iss else { return }
        spans.append(StreamSpan(source: id.local, destination: id.remote, firstSequence: iss.rawValue &+ 1, offset: offset,
                                length: length, content: content, encrypted: encrypted, connection: e.connection))
    }

    /// The peer's messages that `e` will never process: those whose record reached it after it
    /// failed (`arrivedOnly`), or — at the end of the run — everything still unsettled.
    func dropUnprocessed(by e: Endpoint, arrivedOnly: Bool) {
        guard let sender = e.other else { return }
        while sender.settled < sender.outgoing.count {
            let item = sender.outgoing[sender.settled]
            let arrived = item.end <= e.bytesRead
            if arrivedOnly && !arrived { break }
            let reason: Sentence
            if arrived, let failure = e.failure {
                reason = Sentence(failure.key, ["receiver": e.actor.rawValue, "alert": failure.alert])
            } else if arrived {
                reason = Sentence("dropped.stoppedReading", ["receiver": e.actor.rawValue])
            } else {
                reason = Sentence("dropped.connectionEnded", ["receiver": e.actor.rawValue])
            }
            sender.settled += 1
            events.append(TraceEvent(time: net.now, actor: e.actor, kind: .dropped(UndeliveredMessage(content: item.content, reason: reason)),
                                     connection: e.connection, peer: e.peer))
        }
    }

    func flushDueWrites() {
        for leg in legs {
            for e in [leg.initiator, leg.responder] {
                while let first = e.pendingWrites.first, first.due <= net.now, let id = e.tcp {
                    e.pendingWrites.removeFirst()
                    try? net.write(id, first.bytes)
                }
            }
        }
    }

    // MARK: - After the run: what the eavesdropper works out

    func afterTheRun() {
        // Every message sent is received or dropped: settle what never got processed.
        for leg in legs {
            dropUnprocessed(by: leg.initiator, arrivedOnly: false)
            dropUnprocessed(by: leg.responder, arrivedOnly: false)
        }
        let trace = Trace(events: events)
        let end = net.now
        func add(_ a: AttackEvent, connection: Int) {
            events.append(TraceEvent(time: end, actor: .eavesdropper, kind: .attack(a), connection: connection))
        }
        switch setup.attack {
        case .stealServerKeyAfterwards?:
            let key = setup.server.identity.privateKey
            add(.keyStolen(modulusBits: key.publicKey.bitLength), connection: 0)
            var sessions: [[UInt8]: [UInt8]] = [:]
            for (i, flow) in trace.recordedFlows.enumerated() {
                let tls = RecordedTLS(clientToServer: flow.clientToServer, serverToClient: flow.serverToClient)
                for a in PassiveAnalysis.keyTheft(tls, key: key, knownSessions: sessions) {
                    add(a, connection: i)
                    if case .learned("master secret", let master, _) = a, !tls.sessionID.isEmpty { sessions[tls.sessionID] = master }
                }
            }
        case .weakClientRandom(let weak)?:
            for (i, flow) in trace.recordedFlows.enumerated() {
                let tls = RecordedTLS(clientToServer: flow.clientToServer, serverToClient: flow.serverToClient)
                for a in PassiveAnalysis.seedSearch(tls, weak: weak, clientHelloTime: flow.firstClientDataTime ?? 0) {
                    add(a, connection: i)
                }
            }
        default:
            break
        }
    }
}
