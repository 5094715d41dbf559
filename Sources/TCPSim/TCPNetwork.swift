/// A simulated IPv4 network of TCP hosts on a virtual clock: per-direction links with latency and
/// faults (scripted or drawn from the injected random source), and a single time-ordered queue of
/// segment deliveries and connection timers. `step()` handles the earliest item; nothing happens
/// between items, so a run is a pure function of the seed and the calls made.
///
/// The API for the Simulation layer: `addHost`, `listen`/`accept`, `connect`, `write`, `read`,
/// `close`, `abort`, `step`/`run(until:)`, and the `events` log.
public final class TCPNetwork {
    public private(set) var now: TCPTime = 0
    /// Everything that happened, in order (kept only while `recordsEvents`).
    public private(set) var events: [TCPNetworkEvent] = []
    public var recordsEvents = true
    /// Round-trip every delivered segment through `encoded`/`decode` (checksum included).
    public var verifiesWireFormat = false
    /// The link used for a direction without its own.
    public var defaultLink = TCPLink()
    /// An on-path party (a router or Wi-Fi access point under an attacker's control): called with every
    /// packet a host transmits, after it is recorded as sent and before the link's faults; it returns the
    /// packet the path carries on — the same one, a rewritten copy, or nil to swallow it. Extra packets
    /// are put on the path with `inject`.
    public var onPath: ((TCPPacket) -> TCPPacket?)?

    private struct Direction: Hashable {
        var from: IPv4Address
        var to: IPv4Address
    }
    private enum Item {
        /// A packet and its number (`TCPPacketLinks.packet`).
        case deliver(TCPPacket, Int)
        case timer(TCPConnectionID)
    }

    private let random: any TCPRandomSource
    private var hosts: [IPv4Address: TCPHost] = [:]
    private var links: [Direction: TCPLink] = [:]
    private var rules: [TCPFaultRule] = []
    private var sentCounts: [Direction: Int] = [:]
    private var queue = TimedQueue<Item>()
    /// The earliest timer entry queued for each connection.
    private var scheduled: [TCPConnectionID: TCPTime] = [:]
    /// The number the next packet put on the wire gets.
    private var nextPacket = 1
    /// The packet being delivered: what a segment sent meanwhile answers.
    private var arrival: Int?

    public init(random: any TCPRandomSource) {
        self.random = random
    }

    // MARK: - Topology and faults

    public func addHost(_ address: IPv4Address, config: TCPConfig = TCPConfig(), isn: ISNMode = .random) {
        hosts[address] = TCPHost(address: address, config: config, isn: ISNGenerator(isn))
    }

    public func setLink(from: IPv4Address, to: IPv4Address, _ link: TCPLink) {
        links[Direction(from: from, to: to)] = link
    }

    /// Sets both directions between `a` and `b`.
    public func setLinks(between a: IPv4Address, and b: IPv4Address, _ link: TCPLink) {
        setLink(from: a, to: b, link)
        setLink(from: b, to: a, link)
    }

    public func addFault(_ rule: TCPFaultRule) { rules.append(rule) }

    // MARK: - User calls

    /// Passive OPEN on `port` with a backlog of half-open connections; `synCookies` answers SYNs
    /// statelessly once the backlog is full.
    public func listen(on address: IPv4Address, port: UInt16, backlog: Int = 128, synCookies: Bool = false)
        throws(TCPUserError)
    {
        guard hosts[address] != nil else { throw .unknownHost(address) }
        guard hosts[address]?.listeners[port] == nil else { throw .portInUse(port) }
        let cookie = synCookies ? SYNCookie(secret: UInt64(random.next32()) << 32 | UInt64(random.next32())) : nil
        hosts[address]?.listeners[port] = TCPListener(port: port, backlog: backlog, synCookie: cookie)
    }

    /// Active OPEN from `address` (an ephemeral port unless `localPort` is given) to `remote`.
    @discardableResult
    public func connect(from address: IPv4Address, localPort: UInt16? = nil, to remote: TCPEndpoint)
        throws(TCPUserError) -> TCPConnectionID
    {
        // Hosts are mutated in place (never through a local copy): a copy of a host would make the next
        // change copy its whole connection table.
        guard let config = hosts[address]?.config, let first = hosts[address]?.nextEphemeralPort else {
            throw .unknownHost(address)
        }
        var port: UInt16
        if let localPort {
            port = localPort
        } else {
            port = first
            var tries = 0
            while hosts[address]?.connections[TCPFourTuple(local: TCPEndpoint(address, port), remote: remote)] != nil {
                port = port == UInt16.max ? 49_152 : port + 1
                tries += 1
                if tries > 16_384 { throw .portInUse(port) }  // every ephemeral port is taken
            }
            hosts[address]?.nextEphemeralPort = port == UInt16.max ? 49_152 : port + 1
        }
        let id = TCPFourTuple(local: TCPEndpoint(address, port), remote: remote)
        guard hosts[address]?.connections[id] == nil else { throw .portInUse(port) }
        var conn = TCPConnection(localPort: port, remotePort: remote.port, config: config)
        let iss = nextISN(address)
        let out = try conn.openActive(iss: iss, at: now)
        hosts[address]?.connections[id] = conn
        apply(out, id)
        return id
    }

    /// The next established connection on a listener, if any.
    public func accept(on address: IPv4Address, port: UInt16) -> TCPConnectionID? {
        while let id = hosts[address]?.listeners[port]?.acceptQueue.first {
            hosts[address]?.listeners[port]?.acceptQueue.removeFirst()
            if hosts[address]?.connections[id] != nil { return id }
        }
        return nil
    }

    public func write(_ id: TCPConnectionID, _ bytes: [UInt8]) throws(TCPUserError) {
        let now = self.now
        var out = freshOutput()
        guard (try inPlace(id, { (conn) throws(TCPUserError) in try conn.send(bytes, at: now, into: &out) })) != nil else {
            throw .connectionDoesNotExist
        }
        apply(out, id)
    }

    /// Up to `maxCount` octets the connection has received in order.
    public func read(_ id: TCPConnectionID, maxCount: Int = Int.max) -> [UInt8] {
        let now = self.now
        var out = freshOutput()
        guard let bytes = inPlace(id, { (conn) throws(Never) in conn.receive(maxCount: maxCount, at: now, into: &out) })
        else { return [] }
        apply(out, id)
        return bytes
    }

    public func close(_ id: TCPConnectionID) throws(TCPUserError) {
        let now = self.now
        guard let out = try inPlace(id, { (conn) throws(TCPUserError) in try conn.close(at: now) }) else {
            throw .connectionDoesNotExist
        }
        apply(out, id)
    }

    public func abort(_ id: TCPConnectionID) throws(TCPUserError) {
        let now = self.now
        guard let out = try inPlace(id, { (conn) throws(TCPUserError) in try conn.abort(at: now) }) else {
            throw .connectionDoesNotExist
        }
        apply(out, id)
    }

    /// Puts a hand-made segment on the wire (an attacker's spoofed segment, an old duplicate); it is
    /// delivered after `delay` with no loss.
    public func inject(_ packet: TCPPacket, after delay: TCPTime = 0) {
        let number = newPacketNumber()
        record(.injected(packet), links: TCPPacketLinks(packet: number))
        queue.push(.deliver(packet, number), at: now + max(0, delay))
    }

    // MARK: - Inspection

    /// A live connection, or the last state of one that closed.
    public func connection(_ id: TCPConnectionID) -> TCPConnection? {
        hosts[id.local.address]?.connections[id] ?? hosts[id.local.address]?.closed[id]
    }

    public func state(of id: TCPConnectionID) -> TCPState? { connection(id)?.state }

    public func listener(on address: IPv4Address, port: UInt16) -> TCPListener? {
        hosts[address]?.listeners[port]
    }

    /// Connections not yet CLOSED on a host.
    public func liveConnectionCount(on address: IPv4Address) -> Int { hosts[address]?.connections.count ?? 0 }

    /// Returns the events recorded since the last call and forgets them (for a caller that renders a
    /// long run incrementally).
    public func takeEvents() -> [TCPNetworkEvent] {
        defer { events.removeAll(keepingCapacity: true) }
        return events
    }

    /// Items waiting in the time queue.
    public var pendingCount: Int { queue.count }
    public var nextEventTime: TCPTime? { queue.nextTime }

    // MARK: - Running

    /// Handles the earliest delivery or timer; false when nothing is left.
    @discardableResult
    public func step() -> Bool {
        guard let (time, item) = queue.pop().map({ ($0.time, $0.item) }) else { return false }
        now = max(now, time)
        switch item {
        case .deliver(let packet, let number):
            deliver(packet, number: number)
        case .timer(let id):
            if scheduled[id] == time { scheduled[id] = nil }
            let now = self.now
            var out = freshOutput()
            guard hosts[id.local.address]?.connections[id]?.mutate({ $0.advance(to: now, into: &out) }) != nil else {
                return true
            }
            apply(out, id)
        }
        return true
    }

    /// Runs every item due up to `time`, then sets the clock to `time`.
    public func run(until time: TCPTime) {
        while let t = queue.nextTime, t <= time { step() }
        now = max(now, time)
    }

    /// Runs until nothing is left to do or the clock passes `limit`.
    public func runUntilIdle(limit: TCPTime = .max) {
        while let t = queue.nextTime, t <= limit { step() }
    }

    // MARK: - Internals

    /// An empty output for one connection input, keeping events only if they will be recorded.
    private func freshOutput() -> TCPOutput { TCPOutput(recordsEvents: recordsEvents) }

    /// `kind` is built only when events are recorded (building one copies the packet it carries).
    private func record(_ kind: @autoclosure () -> TCPNetworkEvent.Kind, links: TCPPacketLinks? = nil) {
        if recordsEvents { events.append(TCPNetworkEvent(time: now, kind: kind(), links: links)) }
    }

    private func newPacketNumber() -> Int {
        defer { nextPacket += 1 }
        return nextPacket
    }

    /// Runs `body` on the live connection `id` — or on the closed record of one (reading what a closed
    /// connection still holds) — where it is stored. Never through a local copy: a copy would share the
    /// connection's buffers, and the next change would copy them whole.
    private func inPlace<T, E: Error>(_ id: TCPConnectionID, _ body: (inout TCPConnection) throws(E) -> T) throws(E) -> T?
    {
        let address = id.local.address
        if let result = try hosts[address]?.connections[id]?.mutate(body) { return result }
        return try hosts[address]?.closed[id]?.mutate(body)
    }

    /// Records a connection's events, transmits its segments and keeps the host's tables in step
    /// with its state: listener queues, the closed record, the timer schedule.
    private func apply(_ out: TCPOutput, _ id: TCPConnectionID) {
        if recordsEvents {
            for e in out.events { record(.connection(id, e)) }
        }
        for (seg, cause) in zip(out.segments, out.causes) {
            transmit(TCPPacket(source: id.local.address, destination: id.remote.address, segment: seg, cause: cause))
        }
        // Only what the tables need: keeping a copy of the connection would retain and release every
        // buffer it holds.
        guard let host = hosts[id.local.address],
              let conn = host.connections[id].map({ (state: $0.state, isPassive: $0.isPassive,
                                                     nextDeadline: $0.nextDeadline) })
        else { return }
        var halfOpenChild = false
        let port = id.local.port
        if conn.isPassive, host.listeners[port]?.children.contains(id) == true {
            halfOpenChild = true
            switch conn.state {
            case .synReceived:
                host.listeners[port]?.halfOpen.insert(id)
            case .listen, .closed:
                host.listeners[port]?.halfOpen.remove(id)
                host.listeners[port]?.children.remove(id)
            default:
                host.listeners[port]?.halfOpen.remove(id)
                host.listeners[port]?.children.remove(id)
                host.listeners[port]?.acceptQueue.append(id)
            }
        }
        if conn.state == .closed || (conn.state == .listen && conn.isPassive) {
            let lastState = host.connections.removeValue(forKey: id)
            // Keep the final state of connections the user knows of (active or accepted), not of
            // half-open ones that died in the backlog (a SYN flood would otherwise fill memory).
            if conn.state == .closed && !halfOpenChild { host.closed[id] = lastState }
            scheduled[id] = nil
            return
        }
        if let d = conn.nextDeadline, scheduled[id].map({ d < $0 }) ?? true {
            scheduled[id] = d
            queue.push(.timer(id), at: d)
        }
    }

    /// Adds one and returns the new value (one dictionary lookup where get-then-set takes two).
    private static func increment(_ count: inout Int) -> Int {
        count += 1
        return count
    }

    /// Puts a TCP's segment on the wire (`answering`: the packet whose arrival it answers, if any).
    private func transmit(_ sent: TCPPacket, answering: Int? = nil) {
        let dir = Direction(from: sent.source, to: sent.destination)
        let n = Self.increment(&sentCounts[dir, default: 0])
        var number = newPacketNumber()
        record(.sent(sent), links: TCPPacketLinks(packet: number, answering: answering ?? arrival))
        var packet = sent
        if let onPath {
            guard let carried = onPath(sent) else { return }
            if carried != sent {
                let replaced = number
                number = newPacketNumber()
                record(.forwarded(carried, TCPRewrite(from: sent.segment, to: carried.segment)),
                       links: TCPPacketLinks(packet: number, replacing: replaced))
            }
            packet = carried
        }
        let link = links[dir] ?? defaultLink
        var delay = link.latency
        var drop: TCPDropReason?
        var duplicate = false
        for rule in rules where rule.from == packet.source && rule.to == packet.destination && rule.nth == n {
            switch rule.action {
            case .drop: drop = .scriptedLoss
            case .duplicate: duplicate = true
            case .delay(let d): delay += d
            }
        }
        if drop == nil && random.chance(link.lossRate) { drop = .randomLoss }
        if let drop {
            record(.dropped(packet, drop), links: TCPPacketLinks(packet: number))
            return
        }
        queue.push(.deliver(packet, number), at: now + delay + random.upTo(link.jitter))
        if duplicate || random.chance(link.duplicateRate) {
            record(.duplicated(packet), links: TCPPacketLinks(packet: number))
            queue.push(.deliver(packet, number), at: now + delay + random.upTo(link.jitter))
        }
    }

    private func deliver(_ original: TCPPacket, number: Int) {
        var packet = original
        let links = TCPPacketLinks(packet: number)
        // Looked up once: a host is a reference, so its tables are changed where they are stored.
        guard let host = hosts[packet.destination] else {
            record(.dropped(packet, .noRoute), links: links)
            return
        }
        if verifiesWireFormat {
            let bytes = packet.segment.encoded(source: packet.source, destination: packet.destination)
            do {
                packet.segment = try TCPSegment.decode(bytes, source: packet.source, destination: packet.destination)
            } catch {
                record(.dropped(packet, .malformed), links: links)
                return
            }
        }
        record(.delivered(packet), links: links)
        // Whatever a TCP sends while handling this arrival answers it.
        arrival = number
        defer { arrival = nil }
        let seg = packet.segment
        let id = TCPFourTuple(local: packet.destinationEndpoint, remote: packet.sourceEndpoint)
        let now = self.now
        var out = freshOutput()
        if host.connections[id]?.mutate({ $0.segmentArrives(seg, at: now, into: &out) }) != nil {
            apply(out, id)
            return
        }
        guard let backlog = host.listeners[seg.destinationPort]?.backlog,
              let halfOpen = host.listeners[seg.destinationPort]?.halfOpen.count
        else {
            // RFC 9293 §3.10.7.1: no connection: answer with RST ("connection refused").
            if let rst = TCPConnection.resetReply(to: seg) {
                transmit(TCPPacket(source: packet.destination, destination: packet.source, segment: rst, cause: .reset))
            }
            return
        }
        let cookie = host.listeners[seg.destinationPort]?.synCookie
        arriveAtListener(packet, id, room: halfOpen < backlog, cookie: cookie, config: host.config)
    }

    private func arriveAtListener(_ packet: TCPPacket, _ id: TCPConnectionID, room: Bool, cookie: SYNCookie?,
                                  config: TCPConfig) {
        let seg = packet.segment
        let address = packet.destination
        let flags = seg.flags
        if flags.contains(.syn) && seg.ack == nil && !flags.contains(.rst) {
            if room {
                fork(id, config) { conn, now, out in conn.segmentArrives(seg, at: now, into: &out) }
            } else if let cookie {
                let synAck = TCPSegment(
                    sourcePort: seg.destinationPort, destinationPort: seg.sourcePort,
                    seq: cookie.isn(for: id, clientISN: seg.seq, at: now), ack: seg.seq + 1, flags: .syn,
                    window: UInt16(clamping: config.receiveBufferSize), mss: UInt16(clamping: config.mss))
                let reply = TCPPacket(source: address, destination: packet.source, segment: synAck, cause: .synAcknowledgment)
                record(.synCookieSent(reply), links: TCPPacketLinks(packet: nextPacket, answering: arrival))
                transmit(reply)
            } else {
                record(.dropped(packet, .backlogFull), links: arrival.map { TCPPacketLinks(packet: $0) })
            }
            return
        }
        if let ack = seg.ack, !flags.contains(.syn), !flags.contains(.rst), let cookie,
           cookie.validates(tuple: id, seq: seg.seq, ack: ack, at: now)
        {
            record(.synCookieAccepted(id))
            fork(id, config) { conn, now, out in
                out.append(conn.restoreFromSYNCookie(iss: ack - 1, irs: seg.seq - 1, at: now))
                conn.segmentArrives(seg, at: now, into: &out)
            }
            return
        }
        // LISTEN (RFC 9293 §3.10.7.2): ignore RST, answer an ACK with RST, drop the rest.
        if seg.ack != nil, let rst = TCPConnection.resetReply(to: seg) {
            transmit(TCPPacket(source: address, destination: packet.source, segment: rst, cause: .reset))
        } else {
            record(.connection(id, .segmentDiscarded(flags.contains(.rst) ? .resetInListen : .noSYNInListen)))
        }
    }

    private func nextISN(_ address: IPv4Address) -> SeqNumber {
        hosts[address]?.isn.next(using: random) ?? SeqNumber(random.next32())
    }

    /// A fresh LISTEN connection for `id`, forked from the listener, then fed by `body`.
    private func fork(_ id: TCPConnectionID, _ config: TCPConfig,
                      _ body: (inout TCPConnection, TCPTime, inout TCPOutput) -> Void) {
        let address = id.local.address
        var conn = TCPConnection(localPort: id.local.port, remotePort: id.remote.port, config: config)
        let iss = nextISN(address)
        var out = freshOutput()
        if let opened = try? conn.openPassive(iss: iss, at: now) { out.append(opened) }
        body(&conn, now, &out)
        hosts[address]?.connections[id] = conn
        hosts[address]?.listeners[id.local.port]?.children.insert(id)
        apply(out, id)
    }
}
