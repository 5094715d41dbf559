import TCPSim

extension ScenarioRunner {
    static let clientHost = IPv4Address(10, 0, 0, 1)
    static let serverHost = IPv4Address(10, 0, 0, 2)
    static let attackerHost = IPv4Address(10, 0, 0, 66)
    /// A trusted host that no longer answers (the off-path attacker spoofs it).
    static let silentHost = IPv4Address(10, 9, 9, 9)
    static let clientPort: UInt16 = 40_000
    static let serverPort: UInt16 = 80

    /// Runs a TCP-only world: both hosts, the server listening on port 80, the actions in time order.
    static func runTCP(_ w: TCPWorld, seed: UInt64) -> ScenarioRun {
        let net = TCPNetwork(random: TCPSeededRandom(seed: seed))
        let config = config(w.tcp)
        net.addHost(clientHost, config: config, isn: w.tcp.clientISN)
        net.addHost(serverHost, config: config, isn: w.tcp.serverISN)
        net.addHost(attackerHost, config: config, isn: .random)
        net.setLinks(between: clientHost, and: serverHost, link(w.network))
        net.setLinks(between: attackerHost, and: serverHost, link(w.network))
        for f in w.network.faults {
            let (from, to) = f.from == "client" ? (clientHost, serverHost) : (serverHost, clientHost)
            net.addFault(TCPFaultRule(from: from, to: to, nth: f.nth, f.action))
        }
        var notes: [String] = []
        do { try net.listen(on: serverHost, port: serverPort, backlog: w.tcp.backlog, synCookies: w.tcp.synCookies) } catch {
            notes.append("listen: \(error)")
        }
        var client: TCPConnectionID?
        var accepted: [TCPConnectionID] = []
        var received: [TCPConnectionID: [UInt8]] = [:]
        let limit = TCPDuration.milliseconds(Int64(w.runMs))

        func pump() {
            while let id = net.accept(on: serverHost, port: serverPort) { accepted.append(id) }
            for id in accepted + [client].compactMap({ $0 }) {
                let bytes = net.read(id)
                if !bytes.isEmpty { received[id, default: []] += bytes }
            }
        }
        func advance(to time: TCPTime) {
            while let next = net.nextEventTime, next <= time, net.step() { pump() }
            if net.now < time { net.run(until: time) }
            pump()
        }
        func serverConnection() -> TCPConnectionID? { accepted.first { $0.remote.address == clientHost } }

        for action in w.actions.sorted(by: { $0.atMs < $1.atMs }) {
            let at = TCPDuration.milliseconds(Int64(action.atMs))
            guard at <= limit else { break }
            advance(to: at)
            do {
                switch action.kind {
                case .connect:
                    client = try net.connect(from: clientHost, localPort: clientPort, to: TCPEndpoint(serverHost, serverPort))
                case .send(let by, let bytes):
                    guard let id = by == "client" ? client : serverConnection() else { notes.append("send: no \(by) connection"); continue }
                    try net.write(id, bytes)
                case .close(let by):
                    guard let id = by == "client" ? client : serverConnection() else { notes.append("close: no \(by) connection"); continue }
                    try net.close(id)
                case .abort(let by):
                    guard let id = by == "client" ? client : serverConnection() else { notes.append("abort: no \(by) connection"); continue }
                    try net.abort(id)
                case .oldDuplicateSYN(let seq):
                    net.inject(TCPPacket(source: clientHost, destination: serverHost,
                                         segment: TCPSegment(sourcePort: clientPort, destinationPort: serverPort, seq: SeqNumber(seq),
                                                             flags: .syn, window: 65_535)))
                case .synFlood(let perSecond, let seconds):
                    for second in 0 ..< seconds {
                        for i in 0 ..< perSecond {
                            let spoofed = IPv4Address(172, 16, UInt8(truncatingIfNeeded: second), UInt8(truncatingIfNeeded: i))
                            net.inject(TCPPacket(source: spoofed, destination: serverHost,
                                                 segment: TCPSegment(sourcePort: 1024 + UInt16(i), destinationPort: serverPort,
                                                                     seq: SeqNumber(UInt32(i * 1000)), flags: .syn, window: 65_535)),
                                       after: TCPDuration.seconds(Int64(second)))
                        }
                    }
                case .offPathInjection(let text):
                    // Learn the server's current ISN from a connection of the attacker's own …
                    let probe = try net.connect(from: attackerHost, to: TCPEndpoint(serverHost, serverPort))
                    advance(to: net.now + TCPDuration.milliseconds(100))
                    let observed = net.connection(probe)?.irs ?? SeqNumber(0)
                    try net.abort(probe)
                    advance(to: net.now + TCPDuration.milliseconds(100))
                    // … predict the next one (4.2BSD adds 64,000 per connection) and complete a handshake
                    // in the name of the silent trusted host, blind, carrying the command.
                    let predicted = observed + 64_000
                    net.inject(TCPPacket(source: silentHost, destination: serverHost,
                                         segment: TCPSegment(sourcePort: 1023, destinationPort: serverPort, seq: SeqNumber(5000),
                                                             flags: .syn, window: 65_535)))
                    net.inject(TCPPacket(source: silentHost, destination: serverHost,
                                         segment: TCPSegment(sourcePort: 1023, destinationPort: serverPort, seq: SeqNumber(5001),
                                                             ack: predicted + 1, flags: [.psh], window: 65_535, payload: Array(text.utf8))),
                               after: TCPDuration.milliseconds(100))
                }
            } catch {
                notes.append("\(error)")
            }
        }
        advance(to: limit)

        let events = net.events.map(\.kind)
        let facts = TCPFacts(events: events, client: clientHost, server: serverHost, alsoFrom: silentHost, clientID: client)
        var f: [String: FactValue] = [:]
        f["client_state"] = .string(facts.clientStates.last ?? "CLOSED")
        f["server_state"] = .string(facts.serverStates.last ?? "none")
        f["client_states"] = .list(facts.clientStates)
        f["server_states"] = .list(facts.serverStates)
        let cr = facts.retransmissions(of: clientHost), sr = facts.retransmissions(of: serverHost)
        f["retransmissions"] = .int(cr + sr)
        f["client_retransmissions"] = .int(cr)
        f["server_retransmissions"] = .int(sr)
        facts.reorderingFacts(into: &f)
        f["segments"] = .list(segmentLines(events))
        f["client_received"] = .string(client.map { String(decoding: received[$0] ?? [], as: UTF8.self) } ?? "")
        let victims = accepted.filter { $0.remote.address == clientHost || $0.remote.address == silentHost }
        f["server_received"] = .string(String(decoding: victims.flatMap { received[$0] ?? [] }, as: UTF8.self))
        f["accepted"] = .bool(!victims.isEmpty)
        f["client_error"] = .string(facts.error(of: client))
        f["backlog_drops"] = .int(events.filter {
            if case .dropped(let p, .backlogFull) = $0 { p.source == clientHost } else { false }
        }.count)
        f["resets_sent"] = .int(events.filter {
            if case .sent(let p) = $0 { p.source == clientHost && p.segment.flags.contains(.rst) } else { false }
        }.count)
        f["syn_cookies_accepted"] = .int(events.filter { if case .synCookieAccepted = $0 { true } else { false } }.count)
        f["script_errors"] = .list(notes)
        f["not_applied"] = .list(ScenarioRunner.unappliedFaults(w.network.faults, events: events, client: clientHost, server: serverHost))
        return ScenarioRun(facts: f, trace: nil, verdict: nil)
    }

    /// The segments the client and the server sent each other (port 40000 ↔ 80), in order, as
    /// tcpdump prints them with relative numbers: `client [S] seq 0, length 0`,
    /// `server [S.] seq 0, ack 1, length 0`, `client [P.] seq 1:6, ack 1, length 5`. Each side's
    /// numbers count from its own first SYN (or first segment), so `ack 1` reads "the peer's ISN + 1".
    static func segmentLines(_ events: [TCPNetworkEvent.Kind]) -> [String] {
        var base: [IPv4Address: SeqNumber] = [:]
        var lines: [String] = []
        for e in events {
            guard case .sent(let p) = e else { continue }
            let fromClient = p.source == clientHost && p.destination == serverHost && p.segment.sourcePort == clientPort
            let fromServer = p.source == serverHost && p.destination == clientHost && p.segment.destinationPort == clientPort
            guard fromClient || fromServer else { continue }
            let seg = p.segment
            if seg.flags.contains(.syn) || base[p.source] == nil { base[p.source] = seg.seq }
            let mine = base[p.source] ?? seg.seq
            let relative = UInt32(bitPattern: seg.seq - mine)
            var line = "\(fromClient ? "client" : "server") [\(seg.flags.tcpdumpNotation)] seq \(relative)"
            if !seg.payload.isEmpty { line += ":\(relative &+ UInt32(seg.payload.count))" }
            if let ack = seg.ack {
                if let theirs = base[p.destination] {
                    line += ", ack \(UInt32(bitPattern: ack - theirs))"
                } else {
                    line += ", ack \(ack.rawValue) (absolute)"
                }
            }
            lines.append(line + ", length \(seg.payload.count)")
        }
        return lines
    }
}
