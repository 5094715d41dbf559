import Testing
@testable import TCPSim

/// Addresses used throughout: a client, a server, an attacker, and a host that does not exist.
enum Net {
    static let client = IPv4Address(10, 0, 0, 1)
    static let server = IPv4Address(10, 0, 0, 2)
    static let attacker = IPv4Address(10, 0, 0, 66)
    static let nowhere = IPv4Address(10, 9, 9, 9)
}

/// A config with short, test-friendly timers.
func fastConfig(_ edit: (inout TCPConfig) -> Void = { _ in }) -> TCPConfig {
    var c = TCPConfig()
    c.minimumRTO = TCPDuration.milliseconds(200)
    c.initialRTO = TCPDuration.seconds(1)
    c.msl = TCPDuration.seconds(2)
    edit(&c)
    return c
}

/// A segment from the client (port 1000) to the server (port 80), flags in compact form ("SA", "PA").
func seg(_ flags: String, seq: UInt32, ack: UInt32? = nil, payload: [UInt8] = [], window: UInt16 = 65_535,
         from: UInt16 = 1000, to: UInt16 = 80) -> TCPSegment {
    let f = TCPFlags(compact: flags) ?? []
    return TCPSegment(sourcePort: from, destinationPort: to, seq: SeqNumber(seq),
                      ack: f.contains(.ack) ? SeqNumber(ack ?? 0) : nil, flags: f, window: window, payload: payload)
}

extension TCPOutput {
    var stateChanges: [(TCPState, TCPState)] {
        events.compactMap { if case .stateChanged(let f, let t, _) = $0 { (f, t) } else { nil } }
    }
}

extension TCPNetwork {
    /// Packets sent on the wire, in order (`.sent` events).
    var sentPackets: [TCPPacket] {
        events.compactMap { if case .sent(let p) = $0.kind { p } else { nil } }
    }
    func sent(from a: IPv4Address) -> [TCPPacket] { sentPackets.filter { $0.source == a } }
    var droppedPackets: [(TCPPacket, TCPDropReason)] {
        events.compactMap { if case .dropped(let p, let r) = $0.kind { (p, r) } else { nil } }
    }
    func connectionEvents(_ id: TCPConnectionID) -> [(TCPTime, TCPEvent)] {
        events.compactMap { if case .connection(let i, let e) = $0.kind, i == id { ($0.time, e) } else { nil } }
    }
    func transitions(_ id: TCPConnectionID) -> [(TCPState, TCPState)] {
        connectionEvents(id).compactMap { if case .stateChanged(let f, let t, _) = $0.1 { (f, t) } else { nil } }
    }
    /// Every state change in the log, with the connection.
    var allTransitions: [(TCPConnectionID, TCPState, TCPState)] {
        events.compactMap {
            if case .connection(let i, .stateChanged(let f, let t, _)) = $0.kind { (i, f, t) } else { nil }
        }
    }

    /// A client and a server (port 80, listening) with the given configs and a symmetric link.
    static func pair(seed: UInt64 = 1, client: TCPConfig = fastConfig(), server: TCPConfig = fastConfig(),
                     link: TCPLink = TCPLink(), clientISN: ISNMode = .counter(start: 100, increment: 64_000),
                     serverISN: ISNMode = .counter(start: 300, increment: 64_000), backlog: Int = 128)
        -> TCPNetwork
    {
        let net = TCPNetwork(random: TCPSeededRandom(seed: seed))
        net.addHost(Net.client, config: client, isn: clientISN)
        net.addHost(Net.server, config: server, isn: serverISN)
        net.setLinks(between: Net.client, and: Net.server, link)
        do { try net.listen(on: Net.server, port: 80, backlog: backlog) } catch { Issue.record("listen: \(error)") }
        return net
    }

    /// Connects the client to the server and runs until the server accepts; returns (client, server) ids.
    func establish(localPort: UInt16? = nil) throws -> (TCPConnectionID, TCPConnectionID) {
        let c = try connect(from: Net.client, localPort: localPort, to: TCPEndpoint(Net.server, 80))
        var s: TCPConnectionID?
        while s == nil, step() { s = accept(on: Net.server, port: 80) }
        let server = try #require(s)
        run(until: now + TCPDuration.milliseconds(100))
        return (c, server)
    }
}

func bytes(_ n: Int, seed: UInt8 = 0) -> [UInt8] { (0 ..< n).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ Int(seed)) } }
