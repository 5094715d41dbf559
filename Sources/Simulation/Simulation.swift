import TCPSim
import TLSCrypto
import TLSEngine

/// Everything one run needs: the two TLS endpoints, the network between them, and the HTTP
/// exchange to carry once the handshake is done.
public struct SimulationSetup {
    public var client: TLSClientConfiguration
    public var server: TLSServerConfiguration
    /// The source for everything random outside the TLS engines (TCP initial sequence numbers,
    /// random loss). Use the same seeded source as the engines to reproduce a run from one seed.
    public var random: RandomSource
    /// Documentation addresses (RFC 5737): nothing here is ever sent to a real network.
    public var clientAddress = IPv4Address(192, 0, 2, 10)
    public var serverAddress = IPv4Address(198, 51, 100, 20)
    public var serverPort: UInt16 = 443
    public var link = TCPLink(latency: TCPDuration.milliseconds(20))
    public var tcpConfig = TCPConfig()
    public var faults: [TCPFaultRule] = []
    /// The HTTP/1.1 request the client sends once the handshake completes (nil: none).
    public var httpRequest: String? = "GET / HTTP/1.1\r\nHost: example.com\r\nCookie: session=42\r\n\r\n"
    public var httpResponse = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 6\r\n\r\nhello\n"
    /// A run stops at this virtual time even if something still waits (a lost-for-good segment).
    public var timeLimit: TCPTime = TCPDuration.seconds(600)

    public init(client: TLSClientConfiguration, server: TLSServerConfiguration, random: RandomSource) {
        self.client = client
        self.server = server
        self.random = random
    }
}

/// Runs TLS over the simulated TCP: three-way handshake, the TLS handshake carried in segments,
/// the HTTP request and response as application data, close_notify both ways, four-way close.
/// Deterministic: the same setup with the same seeds gives the same trace, byte for byte.
public struct Simulation {
    public var setup: SimulationSetup

    public init(_ setup: SimulationSetup) { self.setup = setup }

    public func run() -> Trace {
        var run = Run(setup: setup)
        run.execute()
        return Trace(events: run.events)
    }
}

/// The mutable bookkeeping of one run.
struct Run {
    let setup: SimulationSetup
    let net: TCPNetwork
    var client: TLSClient
    var server: TLSServer
    var events: [TraceEvent] = []

    var clientConnection: TCPConnectionID?
    var serverConnection: TCPConnectionID?
    var tlsStarted = false
    var clientDone = false, serverDone = false          // handshake completed
    var clientFailed = false, serverFailed = false      // a fatal alert sent or received
    var requestSent = false, responseSent = false
    var clientClosedTLS = false, serverClosedTLS = false
    var clientClosedTCP = false, serverClosedTCP = false
    var requestBuffer: [UInt8] = [], responseBuffer: [UInt8] = []

    init(setup: SimulationSetup) {
        self.setup = setup
        net = TCPNetwork(random: TCPRandomAdapter(setup.random))
        client = TLSClient(configuration: setup.client)
        server = TLSServer(configuration: setup.server)
    }

    func actor(of address: IPv4Address) -> Actor {
        address == setup.clientAddress ? .client : (address == setup.serverAddress ? .server : .attacker)
    }

    mutating func note(_ phase: String) {
        events.append(TraceEvent(time: net.now, actor: .network, kind: .phase(phase)))
    }

    mutating func collectNetworkEvents() {
        for e in net.takeEvents() {
            let who: Actor
            switch e.kind {
            case .sent(let p), .duplicated(let p), .synCookieSent(let p): who = actor(of: p.source)
            case .delivered(let p): who = actor(of: p.destination)
            case .dropped(let p, _): who = actor(of: p.source)   // the segment's sender; the network lost it
            case .injected: who = .attacker
            case .synCookieAccepted: who = .server
            case .connection(let id, _): who = actor(of: id.local.address)
            }
            events.append(TraceEvent(time: e.time, actor: who, kind: .tcp(e.kind)))
        }
    }

    mutating func execute() {
        net.addHost(setup.clientAddress, config: setup.tcpConfig)
        net.addHost(setup.serverAddress, config: setup.tcpConfig)
        net.setLinks(between: setup.clientAddress, and: setup.serverAddress, setup.link)
        for rule in setup.faults { net.addFault(rule) }
        note("TCP three-way handshake")
        do {
            try net.listen(on: setup.serverAddress, port: setup.serverPort)
            clientConnection = try net.connect(from: setup.clientAddress, to: TCPEndpoint(setup.serverAddress, setup.serverPort))
        } catch {
            note("the TCP connection could not be opened: \(error)")
            collectNetworkEvents()
            return
        }
        collectNetworkEvents()
        while net.now <= setup.timeLimit, net.step() {
            collectNetworkEvents()
            pump()
            collectNetworkEvents()
        }
    }

    /// After every network step: start TLS once TCP is up, feed what arrived to each engine, write
    /// what they answer, and move the HTTP exchange and the closes along.
    mutating func pump() {
        guard let c = clientConnection else { return }
        if serverConnection == nil { serverConnection = net.accept(on: setup.serverAddress, port: setup.serverPort) }

        if !tlsStarted, net.state(of: c) == .established {
            tlsStarted = true
            note("TLS handshake")
            let step = client.start()
            record(step, by: .client)
        }
        // Client side: read and react.
        let fromServer = net.read(c)
        if !fromServer.isEmpty, !clientFailed {
            let step = client.receive(fromServer)
            record(step, by: .client)
        }
        if let s = serverConnection {
            let fromClient = net.read(s)
            if !fromClient.isEmpty, !serverFailed {
                let step = server.receive(fromClient)
                record(step, by: .server)
            }
        }
        advanceApplication()
        closeWhenDone()
    }

    mutating func advanceApplication() {
        if clientDone, !requestSent, !clientFailed, let request = setup.httpRequest {
            requestSent = true
            note("HTTP request over TLS")
            events.append(TraceEvent(time: net.now, actor: .client, kind: .http(.requestSent(request))))
            if let step = try? client.sendApplicationData(Array(request.utf8)) { record(step, by: .client) }
        }
        if serverDone, !responseSent, !serverFailed, setup.httpRequest != nil,
           String(decoding: requestBuffer, as: UTF8.self).contains("\r\n\r\n") {
            responseSent = true
            events.append(TraceEvent(time: net.now, actor: .server, kind: .http(.requestReceived(String(decoding: requestBuffer, as: UTF8.self)))))
            events.append(TraceEvent(time: net.now, actor: .server, kind: .http(.responseSent(setup.httpResponse))))
            if let step = try? server.sendApplicationData(Array(setup.httpResponse.utf8)) { record(step, by: .server) }
        }
    }

    var responseComplete: Bool {
        let text = String(decoding: responseBuffer, as: UTF8.self)
        guard let headerEnd = text.range(of: "\r\n\r\n") else { return false }
        let headers = text[..<headerEnd.lowerBound].lowercased()
        guard let line = headers.split(separator: "\r\n").first(where: { $0.hasPrefix("content-length:") }),
              let length = Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) else { return true }
        return text.utf8.count - text[..<headerEnd.upperBound].utf8.count >= length
    }

    mutating func closeWhenDone() {
        guard let c = clientConnection else { return }
        let exchangeOver = setup.httpRequest == nil ? clientDone : responseComplete
        // The client closes first: close_notify, then FIN.
        if (exchangeOver || clientFailed || serverFailed), !clientClosedTLS {
            clientClosedTLS = true
            if exchangeOver, !clientFailed {
                events.append(TraceEvent(time: net.now, actor: .client,
                                         kind: .http(.responseReceived(String(decoding: responseBuffer, as: UTF8.self)))))
                note("closing: close_notify and the TCP four-way close")
                record(client.close(), by: .client)
            }
        }
        if clientClosedTLS, !clientClosedTCP {
            clientClosedTCP = true
            try? net.close(c)
        }
        // The server answers the client's close_notify with its own, then closes TCP.
        if let s = serverConnection, !serverClosedTCP, clientClosedTCP,
           net.state(of: s) == .closeWait || serverFailed || clientFailed {
            if !serverClosedTLS, !serverFailed {
                serverClosedTLS = true
                record(server.close(), by: .server)
            }
            serverClosedTCP = true
            try? net.close(s)
        }
    }

    /// Logs a step's events, notices milestones, and writes its records to TCP.
    mutating func record(_ step: TLSStep, by who: Actor) {
        for event in step.events {
            events.append(TraceEvent(time: net.now, actor: who, kind: .tls(event)))
            switch event {
            case .handshakeCompleted:
                if who == .client { clientDone = true } else { serverDone = true }
            case .alertSent(let alert, _) where alert.isFatal,
                 .alertReceived(let alert) where alert.isFatal:
                if who == .client { clientFailed = true } else { serverFailed = true }
            case .applicationDataReceived(let data):
                if who == .server { requestBuffer += data } else { responseBuffer += data }
            default:
                break
            }
        }
        let bytes = step.output
        guard !bytes.isEmpty, let id = who == .client ? clientConnection : serverConnection else { return }
        try? net.write(id, bytes)
    }
}
