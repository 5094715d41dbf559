import TCPSim
import Trace

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
        var notes: [RunProblem] = []
        // Script steps the segments do not show, each placed before the network event it precedes.
        var script: [(position: Int, time: TCPTime, step: TCPScriptStep)] = []
        func say(_ step: TCPScriptStep) { script.append((net.events.count, net.now, step)) }
        func side(_ by: String) -> Actor { by == "client" ? .client : .server }
        do throws(TCPUserError) { try net.listen(on: serverHost, port: serverPort, backlog: w.tcp.backlog, synCookies: w.tcp.synCookies) } catch {
            notes.append(.refusedCall(action: "listen", error))
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
            do throws(TCPUserError) {
                switch action.kind {
                case .connect:
                    say(.connect(by: .client))
                    client = try net.connect(from: clientHost, localPort: clientPort, to: TCPEndpoint(serverHost, serverPort))
                case .send(let by, let bytes):
                    guard let id = by == "client" ? client : serverConnection() else { notes.append(.noConnection(action: "send", side: by)); continue }
                    say(.send(by: side(by), octets: bytes.count))
                    try net.write(id, bytes)
                case .close(let by):
                    guard let id = by == "client" ? client : serverConnection() else { notes.append(.noConnection(action: "close", side: by)); continue }
                    say(.close(by: side(by)))
                    try net.close(id)
                case .abort(let by):
                    guard let id = by == "client" ? client : serverConnection() else { notes.append(.noConnection(action: "abort", side: by)); continue }
                    say(.abort(by: side(by)))
                    try net.abort(id)
                case .oldDuplicateSYN(let seq):
                    say(.oldDuplicateSYN(seq: seq))
                    net.inject(TCPPacket(source: clientHost, destination: serverHost,
                                         segment: TCPSegment(sourcePort: clientPort, destinationPort: serverPort, seq: SeqNumber(seq),
                                                             flags: .syn, window: 65_535)))
                case .synFlood(let perSecond, let seconds):
                    say(.synFlood(perSecond: perSecond, seconds: seconds))
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
                    let probeStep = script.count
                    say(.probe(observedISN: 0))
                    let probe = try net.connect(from: attackerHost, to: TCPEndpoint(serverHost, serverPort))
                    advance(to: net.now + TCPDuration.milliseconds(100))
                    let observed = net.connection(probe)?.irs ?? SeqNumber(0)
                    script[probeStep].step = .probe(observedISN: observed.rawValue)
                    try net.abort(probe)
                    advance(to: net.now + TCPDuration.milliseconds(100))
                    // … predict the next one (4.3BSD adds TCP_ISSINCR/2 = 64,000 per connection) and complete a handshake
                    // in the name of the silent trusted host, blind, carrying the command.
                    let predicted = observed + 64_000
                    say(.predictISN(observed: observed.rawValue, predicted: predicted.rawValue, spoofed: "\(silentHost)"))
                    net.inject(TCPPacket(source: silentHost, destination: serverHost,
                                         segment: TCPSegment(sourcePort: 1023, destinationPort: serverPort, seq: SeqNumber(5000),
                                                             flags: .syn, window: 65_535)))
                    net.inject(TCPPacket(source: silentHost, destination: serverHost,
                                         segment: TCPSegment(sourcePort: 1023, destinationPort: serverPort, seq: SeqNumber(5001),
                                                             ack: predicted + 1, flags: [.psh], window: 65_535, payload: Array(text.utf8))),
                               after: TCPDuration.milliseconds(100))
                }
            } catch {
                notes.append(.refusedCall(action: action.kind.verb, error))
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
        f["script_errors"] = .problems(notes)
        f["not_applied"] = .list(ScenarioRunner.unappliedFaults(w.network.faults, events: events, client: clientHost, server: serverHost))
        let end = TCPLessonEnd(clientState: facts.clientStates.last ?? "CLOSED", serverState: facts.serverStates.last ?? "none",
                               clientError: facts.error(of: client), clientReceived: f["client_received"]?.description ?? "",
                               serverReceived: f["server_received"]?.description ?? "", retransmissions: cr + sr)
        return ScenarioRun(facts: f, trace: lessonTrace(net.events, script: script, end: end, at: limit), verdict: nil)
    }

    /// The run as a trace the ladder draws: every segment and connection event between the client,
    /// the server and the attacker (its probe, and the trusted host it spoofs), the script's steps in
    /// place, and how the connection ended. A SYN flood's spoofed segments are counted, not drawn.
    static func lessonTrace(_ events: [TCPNetworkEvent], script: [(position: Int, time: TCPTime, step: TCPScriptStep)],
                            end: TCPLessonEnd, at limit: TCPTime) -> Trace {
        let known: [IPv4Address: Actor] = [clientHost: .client, serverHost: .server, attackerHost: .attacker, silentHost: .attacker]
        func drawn(_ p: TCPPacket) -> Bool { known[p.source] != nil && known[p.destination] != nil }
        var out: [TraceEvent] = []
        var spoofedSYNs = 0, synAcks = 0, floodDrops = 0, clientDrops = 0, flooded = false
        var pending = script[...]
        // RFC 9293 §3.3.2: the server's passive OPEN, before anything else.
        let listener = TCPFourTuple(local: TCPEndpoint(serverHost, serverPort), remote: TCPEndpoint(IPv4Address(0), 0))
        out.append(TraceEvent(time: 0, actor: .server, kind: .tcp(.connection(listener, .stateChanged(from: .closed, to: .listen, cause: .passiveOpen)))))
        for (index, e) in events.enumerated() {
            while let next = pending.first, next.position <= index {
                if case .synFlood = next.step { flooded = true }
                out.append(TraceEvent(time: next.time, actor: actor(of: next.step), kind: .lesson(.tcpScript(next.step))))
                pending = pending.dropFirst()
            }
            let who: Actor
            switch e.kind {
            case .sent(let p), .duplicated(let p), .synCookieSent(let p), .forwarded(let p, _):
                guard drawn(p) else {
                    if p.source == serverHost, p.segment.flags.contains(.syn), case .sent = e.kind { synAcks += 1 }
                    continue
                }
                // A changed copy an on-path hook passes on is that hook's send, whatever source address it keeps.
                if case .forwarded = e.kind { who = .attacker } else { who = known[p.source] ?? .attacker }
            case .delivered(let p):
                guard drawn(p) else { continue }
                who = known[p.destination] ?? .attacker
            case .dropped(let p, let reason):
                if reason == .backlogFull {
                    if p.source == clientHost { clientDrops += 1 } else if !drawn(p) { floodDrops += 1 }
                }
                guard drawn(p) else { continue }
                who = known[p.source] ?? .attacker
            case .injected(let p):
                guard drawn(p) else { spoofedSYNs += 1; continue }
                // An old duplicate is the network's stale copy of the client's SYN; anything else an attacker's.
                who = p.source == clientHost ? .network : .attacker
            case .synCookieAccepted(let id):
                guard known[id.remote.address] != nil else { continue }
                who = .server
            case .connection(_, .stateChanged(.closed, .listen, _)):
                continue   // a connection forked from the listener starts in its LISTEN (traced once above)
            case .connection(let id, _):
                guard known[id.remote.address] != nil || id.remote.address == IPv4Address(0) else { continue }
                who = known[id.local.address] ?? .attacker
            }
            out.append(TraceEvent(time: e.time, actor: who, kind: .tcp(e.kind), packetLinks: e.links))
        }
        for rest in pending { out.append(TraceEvent(time: rest.time, actor: actor(of: rest.step), kind: .lesson(.tcpScript(rest.step)))) }
        if flooded {
            out.append(TraceEvent(time: limit, actor: .attacker, kind: .lesson(.tcpScript(
                .floodTotals(spoofedSYNs: spoofedSYNs, synAcks: synAcks, backlogDrops: floodDrops, clientDrops: clientDrops)))))
        }
        out.append(TraceEvent(time: limit, actor: .network, kind: .lesson(.tcpEnd(end))))
        return Trace(events: out, participants: known)
    }

    static func actor(of step: TCPScriptStep) -> Actor {
        switch step {
        case .connect(let by), .send(let by, _), .close(let by), .abort(let by): return by
        case .oldDuplicateSYN: return .network
        case .synFlood, .floodTotals, .probe, .predictISN: return .attacker
        }
    }

    /// The segments the client and the server sent each other (port 40000 ↔ 80), in order, as
    /// tcpdump prints them with relative numbers: `client [S] seq 0, length 0`,
    /// `server [S.] seq 0, ack 1, length 0`, `client [P.] seq 1:6, ack 1, length 5`. Each side's
    /// numbers count from its ISN, so `ack 1` reads "the peer's ISN + 1".
    ///
    /// A stale SYN from an earlier incarnation (an old duplicate the network delivers in the client's
    /// name) is listed too, marked `(old duplicate)`. When a side's SYNs carry different sequence
    /// numbers, two incarnations share the list and no single ISN makes relative numbers meaningful
    /// (an RST answering the stale SYN's SYN-ACK would read `seq 4294967287` against the real ISN):
    /// then every number is absolute, as `tcpdump -S` prints it, and each SYN is marked `(ISN)`.
    static func segmentLines(_ events: [TCPNetworkEvent.Kind]) -> [String] {
        var segments: [(fromClient: Bool, segment: TCPSegment, oldDuplicate: Bool)] = []
        for e in events {
            let p: TCPPacket, injected: Bool
            switch e {
            case .sent(let packet): p = packet; injected = false
            case .injected(let packet) where packet.source == clientHost: p = packet; injected = true
            default: continue
            }
            let fromClient = p.source == clientHost && p.destination == serverHost && p.segment.sourcePort == clientPort
            let fromServer = p.source == serverHost && p.destination == clientHost && p.segment.destinationPort == clientPort
            guard fromClient || fromServer else { continue }
            segments.append((fromClient, p.segment, injected))
        }
        let absolute = [true, false].contains { side in
            Set(segments.filter { $0.fromClient == side && $0.segment.flags.contains(.syn) }.map(\.segment.seq)).count > 1
        }
        var base: [Bool: SeqNumber] = [:]
        return segments.map { fromClient, seg, oldDuplicate in
            let syn = seg.flags.contains(.syn)
            if syn || base[fromClient] == nil { base[fromClient] = seg.seq }
            let first = absolute ? seg.seq.rawValue : UInt32(bitPattern: seg.seq - (base[fromClient] ?? seg.seq))
            var line = "\(fromClient ? "client" : "server") [\(seg.flags.tcpdumpNotation)] seq \(first)"
            if !seg.payload.isEmpty { line += ":\(first &+ UInt32(seg.payload.count))" }
            if absolute && syn { line += " (ISN)" }
            if let ack = seg.ack {
                if absolute {
                    line += ", ack \(ack.rawValue)"
                } else if let theirs = base[!fromClient] {
                    line += ", ack \(UInt32(bitPattern: ack - theirs))"
                } else {
                    line += ", ack \(ack.rawValue) (absolute)"
                }
            }
            return line + ", length \(seg.payload.count)" + (oldDuplicate ? " (old duplicate)" : "")
        }
    }
}
