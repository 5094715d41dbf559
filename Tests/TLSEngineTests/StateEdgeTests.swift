import Testing
import TLSCrypto
@testable import TLSEngine

/// The TLS state machines' legal-edge tables (as TCP's `TCPState.isRFCEdge`): every pair of state
/// names is legal exactly when RFC 5246 §7.3's flow (and RFC 5077 §3.1's ticket) allows it; every
/// legal edge is one the engine takes — from every state a handshake passes through, closing and
/// failing — and nothing it takes is outside the table.
@Suite("TLS state machines: the legal-edge tables, every edge taken, every other edge refused")
struct StateEdgeTests {
    /// RFC 5246 §7.3, Figure 1 (full) and Figure 2 (abbreviated), and RFC 5077 §3.1 (a ticket
    /// announced in ServerHello comes before the server's ChangeCipherSpec), as the client's
    /// transitions.
    static let clientHandshake: Set<StateEdge> = [
        StateEdge(.start, .expectServerHello),
        StateEdge(.expectServerHello, .expectCertificate),
        StateEdge(.expectServerHello, .expectChangeCipherSpec),
        StateEdge(.expectServerHello, .expectNewSessionTicket),
        StateEdge(.expectCertificate, .expectServerKeyExchange),
        StateEdge(.expectCertificate, .expectCertificateRequestOrServerHelloDone),
        StateEdge(.expectServerKeyExchange, .expectCertificateRequestOrServerHelloDone),
        StateEdge(.expectCertificateRequestOrServerHelloDone, .expectServerHelloDone),
        StateEdge(.expectCertificateRequestOrServerHelloDone, .expectChangeCipherSpec),
        StateEdge(.expectCertificateRequestOrServerHelloDone, .expectNewSessionTicket),
        StateEdge(.expectServerHelloDone, .expectChangeCipherSpec),
        StateEdge(.expectServerHelloDone, .expectNewSessionTicket),
        StateEdge(.expectNewSessionTicket, .expectChangeCipherSpec),
        StateEdge(.expectChangeCipherSpec, .expectFinished),
        StateEdge(.expectFinished, .connected),
    ]

    /// The same figures as the server's transitions (resuming, its own Finished went first).
    static let serverHandshake: Set<StateEdge> = [
        StateEdge(.expectClientHello, .expectClientCertificate),
        StateEdge(.expectClientHello, .expectClientKeyExchange),
        StateEdge(.expectClientHello, .expectChangeCipherSpec),
        StateEdge(.expectClientCertificate, .expectClientKeyExchange),
        StateEdge(.expectClientKeyExchange, .expectCertificateVerify),
        StateEdge(.expectClientKeyExchange, .expectChangeCipherSpec),
        StateEdge(.expectCertificateVerify, .expectChangeCipherSpec),
        StateEdge(.expectChangeCipherSpec, .expectFinished),
        StateEdge(.expectFinished, .connected),
    ]

    /// Every legal edge: the handshake's; from any state but `failed` to `failed` (a fatal alert
    /// sent or received, RFC 5246 §7.2.2); from any state but `closed` and `failed` to `closed`
    /// (close_notify, §7.2.1). `failed` is the end: nothing leaves it.
    static func legalEdges(_ handshake: Set<StateEdge>) -> Set<StateEdge> {
        let states = Set(handshake.flatMap { [$0.from, $0.to] }).union([.closed, .failed])
        var edges = handshake
        for state in states where state != .failed { edges.insert(StateEdge(state, .failed)) }
        for state in states where state != .failed && state != .closed { edges.insert(StateEdge(state, .closed)) }
        return edges
    }

    static let legal: [TLSRole: Set<StateEdge>] = [.client: legalEdges(clientHandshake), .server: legalEdges(serverHandshake)]

    @Test("every pair of state names is legal exactly when the table has it (names of the other role never are)")
    func everyPair() {
        #expect(ClientHandshake.State.handshakeEdges == Self.clientHandshake)
        #expect(ServerHandshake.State.handshakeEdges == Self.serverHandshake)
        var refused = 0
        for from in TLSStateName.allCases {
            for to in TLSStateName.allCases {
                let edge = StateEdge(from, to)
                #expect(ClientHandshake.State.isLegal(edge) == Self.legal[.client]!.contains(edge), "client \(edge)")
                #expect(ServerHandshake.State.isLegal(edge) == Self.legal[.server]!.contains(edge), "server \(edge)")
                if !ClientHandshake.State.isLegal(edge) { refused += 1 }
            }
        }
        // A few the RFC never allows, named so that a reader sees what "illegal" means.
        #expect(!ClientHandshake.State.isLegal(StateEdge(.start, .connected)))
        #expect(!ClientHandshake.State.isLegal(StateEdge(.expectCertificate, .expectFinished)))
        #expect(!ClientHandshake.State.isLegal(StateEdge(.expectClientHello, .failed)), "a server state in the client")
        #expect(!ServerHandshake.State.isLegal(StateEdge(.expectClientHello, .connected)))
        #expect(!ServerHandshake.State.isLegal(StateEdge(.failed, .closed)))
        #expect(!ServerHandshake.State.isLegal(StateEdge(.closed, .closed)))
        #expect(!ServerHandshake.State.isLegal(StateEdge(.closed, .connected)))
        #expect(!ServerHandshake.State.isLegal(StateEdge(.expectNewSessionTicket, .expectChangeCipherSpec)), "a client state in the server")
        #expect(refused == TLSStateName.allCases.count * TLSStateName.allCases.count - Self.legal[.client]!.count)
    }

    @Test("every legal edge is taken: the handshakes' flows, and closing and failing from every state they pass through")
    func everyLegalEdgeIsTaken() throws {
        var visited = Visited()
        let rsa: [CipherSuite] = [.TLS_RSA_WITH_AES_128_GCM_SHA256]
        let ecdhe: [CipherSuite] = [.TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256]
        // A full handshake (RSA key transport) the server caches, then its resumption by session ID.
        var cached = try Harness.serverConfiguration(seed: 1, suites: rsa)
        cached.sessionCache = TLSSessionCache()
        let session = try #require(Self.walk(client: try Harness.clientConfiguration(seed: 1, suites: rsa), server: cached, into: &visited))
        var resuming = try Harness.clientConfiguration(seed: 2, suites: rsa)
        resuming.session = session
        _ = Self.walk(client: resuming, server: cached, into: &visited)
        // ECDHE with a client certificate: ServerKeyExchange, CertificateRequest, CertificateVerify.
        var mutual = try Harness.serverConfiguration(seed: 3, suites: ecdhe)
        mutual.clientAuthentication = .require
        var identified = try Harness.clientConfiguration(seed: 3, suites: ecdhe)
        identified.identity = try Harness.clientIdentity()
        _ = Self.walk(client: identified, server: mutual, into: &visited)
        // Session tickets (RFC 5077): issued after a full handshake, renewed when resuming by one,
        // and issued after a handshake with a client certificate.
        var tickets = try Harness.serverConfiguration(seed: 4, suites: ecdhe)
        tickets.sessionTicketKeys = SessionTicketKeys(random: HMACDRBG(seed: 204))
        var ticketClient = try Harness.clientConfiguration(seed: 4, suites: ecdhe)
        ticketClient.offerSessionTicket = true
        let issued = try #require(Self.walk(client: ticketClient, server: tickets, into: &visited))
        #expect(issued.ticket != nil)
        ticketClient.session = issued
        _ = Self.walk(client: ticketClient, server: tickets, into: &visited)
        tickets.clientAuthentication = .require
        ticketClient.session = nil
        ticketClient.identity = try Harness.clientIdentity()
        _ = Self.walk(client: ticketClient, server: tickets, into: &visited)

        // Every state but `failed` (no walk fails) was visited.
        #expect(Set(visited.clients.keys) == ClientHandshake.State.stateNames.subtracting([.failed]), "every client state visited")
        #expect(Set(visited.servers.keys) == ServerHandshake.State.stateNames.subtracting([.failed]), "every server state visited")
        // From each state, a copy of the machine closes, and another fails on a fatal alert record
        // (sent in the clear: under the read keys it fails to authenticate, bad_record_mac). A
        // failed machine then neither closes nor changes state on more bytes.
        let fatalAlert = TLSRecord(contentType: .alert, fragment: [2, AlertDescription.handshakeFailure.rawValue]).encoded
        for machine in visited.clients.values {
            var closing = machine, failing = machine
            visited.note(closing.close(), .client)
            visited.note(failing.receive(fatalAlert), .client)
            #expect(failing.stateName == .failed)
            visited.note(failing.receive(fatalAlert), .client)
            visited.note(failing.close(), .client)
            #expect(failing.stateName == .failed)
        }
        for machine in visited.servers.values {
            var closing = machine, failing = machine
            visited.note(closing.close(), .server)
            visited.note(failing.receive(fatalAlert), .server)
            #expect(failing.stateName == .failed)
            visited.note(failing.receive(fatalAlert), .server)
            visited.note(failing.close(), .server)
            #expect(failing.stateName == .failed)
        }
        for role in [TLSRole.client, .server] {
            let taken = visited.taken[role] ?? []
            #expect(taken.subtracting(Self.legal[role]!).isEmpty, "\(role) took edges outside its table: \(taken.subtracting(Self.legal[role]!))")
            #expect(Self.legal[role]!.subtracting(taken).isEmpty, "\(role) table edges never taken: \(Self.legal[role]!.subtracting(taken))")
        }
    }

    /// The transitions taken, and a copy of each machine in each state it was in between two records.
    struct Visited {
        var clients: [TLSStateName: TLSClient] = [:]
        var servers: [TLSStateName: TLSServer] = [:]
        var taken: [TLSRole: Set<StateEdge>] = [:]

        @discardableResult
        mutating func note(_ step: TLSStep, _ role: TLSRole) -> [UInt8] {
            for event in step.events {
                if case .stateChanged(let changed, let from, let to) = event {
                    #expect(changed == role)
                    taken[role, default: []].insert(StateEdge(from, to))
                }
            }
            return step.output
        }

        mutating func keep(_ client: TLSClient) { if clients[client.stateName] == nil { clients[client.stateName] = client } }
        mutating func keep(_ server: TLSServer) { if servers[server.stateName] == nil { servers[server.stateName] = server } }
    }

    /// Re-frames one direction's bytes so that, while it is in the clear, each record carries one
    /// handshake message (RFC 5246 §6.2.1 lets a sender split messages across records any way):
    /// each record then moves the receiver by at most one state. After the direction's
    /// ChangeCipherSpec, records pass as they are.
    struct OneMessagePerRecord {
        var protected = false

        mutating func records(_ bytes: [UInt8]) -> [[UInt8]] {
            var rest = bytes[...]
            var records: [[UInt8]] = []
            while rest.count >= 5 {
                let header = Array(rest.prefix(5))
                let length = Int(header[3]) << 8 | Int(header[4])
                var fragment = Array(rest.dropFirst(5).prefix(length))
                rest = rest.dropFirst(5 + length)
                guard header[0] == ContentType.handshake.rawValue, !protected else {
                    if header[0] == ContentType.changeCipherSpec.rawValue { protected = true }
                    records.append(header + fragment)
                    continue
                }
                while !fragment.isEmpty {
                    let size = min(fragment.count, 4 + (Int(fragment[1]) << 16 | Int(fragment[2]) << 8 | Int(fragment[3])))
                    records.append([header[0], header[1], header[2], UInt8(size >> 8), UInt8(size & 0xff)] + fragment.prefix(size))
                    fragment.removeFirst(size)
                }
            }
            #expect(rest.isEmpty, "a step's output is whole records")
            return records
        }
    }

    /// One handshake, record by record, then the client's close_notify and the server's answer;
    /// every state both sides pass through is kept. Returns the client's session.
    static func walk(client clientConfiguration: TLSClientConfiguration, server serverConfiguration: TLSServerConfiguration,
                     into visited: inout Visited) -> TLSSession? {
        var client = TLSClient(configuration: clientConfiguration)
        var server = TLSServer(configuration: serverConfiguration)
        visited.keep(client)
        visited.keep(server)
        var toServer = OneMessagePerRecord(), toClient = OneMessagePerRecord()
        var flight = toServer.records(visited.note(client.start(), .client))
        visited.keep(client)
        for _ in 0..<6 where !flight.isEmpty {
            var answer: [UInt8] = []
            for record in flight {
                answer += visited.note(server.receive(record), .server)
                visited.keep(server)
            }
            var reply: [UInt8] = []
            for record in toClient.records(answer) {
                reply += visited.note(client.receive(record), .client)
                visited.keep(client)
            }
            flight = toServer.records(reply)
        }
        #expect(client.isConnected && server.isConnected, "\(client.stateName), \(server.stateName)")
        let closeNotify = visited.note(client.close(), .client)
        visited.keep(client)
        visited.note(server.receive(closeNotify), .server)
        visited.keep(server)
        return client.session
    }

    @Test("the transitions of many runs are exactly the tables' edges")
    func edgesCoverRuns() throws {
        var taken: [TLSRole: Set<StateEdge>] = [.client: [], .server: []]
        func note(_ run: EngineRun) {
            for event in run.clientEvents + run.serverEvents {
                if case .stateChanged(let role, let from, let to) = event { taken[role, default: []].insert(StateEdge(from, to)) }
            }
        }
        for seed in 0..<6 {
            for suite in CipherSuite.implemented {
                note(Harness.run(client: try Harness.clientConfiguration(seed: UInt64(seed), suites: [suite]),
                                 server: try Harness.serverConfiguration(seed: UInt64(seed), suites: [suite])))
            }
            var mutual = try Harness.serverConfiguration(seed: UInt64(seed))
            mutual.clientAuthentication = .require
            var client = try Harness.clientConfiguration(seed: UInt64(seed))
            client.identity = try Harness.clientIdentity()
            note(Harness.run(client: client, server: mutual))
            note(Harness.run(client: try Harness.clientConfiguration(seed: UInt64(seed)), server: mutual))
            for index in 0..<4 {
                note(Harness.run(client: try Harness.clientConfiguration(seed: UInt64(seed)),
                                 server: try Harness.serverConfiguration(seed: UInt64(seed)),
                                 flip: BitFlip(flow: index % 2 == 0 ? .clientToServer : .serverToClient, index: index / 2, bit: (7 + seed) * 8 + 1)))
            }
            let cache = TLSSessionCache()
            var server = try Harness.serverConfiguration(seed: UInt64(seed))
            server.sessionCache = cache
            let first = Harness.run(client: try Harness.clientConfiguration(seed: UInt64(seed)), server: server)
            note(first)
            var resuming = try Harness.clientConfiguration(seed: UInt64(seed) + 100)
            resuming.session = first.client.session
            note(Harness.run(client: resuming, server: server))
            // Session tickets (RFC 5077): issued after a full handshake (with and without a client
            // certificate), renewed on resumption.
            var ticketServer = try Harness.serverConfiguration(seed: UInt64(seed))
            ticketServer.sessionTicketKeys = SessionTicketKeys(random: HMACDRBG(seed: UInt64(seed) + 200))
            var ticketClient = try Harness.clientConfiguration(seed: UInt64(seed))
            ticketClient.offerSessionTicket = true
            let issued = Harness.run(client: ticketClient, server: ticketServer)
            note(issued)
            ticketClient.session = issued.client.session
            note(Harness.run(client: ticketClient, server: ticketServer))
            ticketServer.clientAuthentication = .require
            ticketClient.session = nil
            ticketClient.identity = try Harness.clientIdentity()
            note(Harness.run(client: ticketClient, server: ticketServer))
        }
        let legal: [TLSRole: (StateEdge) -> Bool] = [.client: ClientHandshake.State.isLegal, .server: ServerHandshake.State.isLegal]
        for (role, edges) in taken {
            for edge in edges { #expect(legal[role]!(edge), "\(role) took \(edge), which its table does not have") }
        }
        let handshake: [TLSRole: Set<StateEdge>] = [.client: ClientHandshake.State.handshakeEdges, .server: ServerHandshake.State.handshakeEdges]
        for (role, edges) in handshake {
            let missing = edges.subtracting(taken[role] ?? [])
            #expect(missing.isEmpty, "\(role) table edges no run took: \(missing)")
        }
    }
}
