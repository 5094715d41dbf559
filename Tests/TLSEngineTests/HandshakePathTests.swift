import Testing
import TLSCrypto
@testable import TLSEngine

/// Each kind of TLS 1.2 handshake walks one path through the two state machines: the full
/// handshake with RSA key transport, DHE and ECDHE (RSA- and ECDSA-signed), with and without a
/// client certificate, the abbreviated one by session ID and by ticket (RFC 5246 §7.3, Figures 1
/// and 2; RFC 5077 §3.1). For each run the states seen, in order, are exactly the expected path,
/// every step of it is an edge of the machine's table (``HandshakeState/handshakeEdges``) leaving
/// the state the previous step entered, and together the runs take every edge of both tables.
@Suite("TLS 1.2 handshakes: the states each kind of run passes through, edge by edge")
struct HandshakePathTests {
    /// One run: its configurations and the states each side must enter, in order, from its first
    /// state (the client's `start`, the server's `expectClientHello`) to `closed` after close_notify.
    struct Walk: CustomStringConvertible {
        var description: String
        var client: TLSClientConfiguration
        var server: TLSServerConfiguration
        var clientPath: [TLSStateName]
        var serverPath: [TLSStateName]
    }

    // The paths, read off RFC 5246 §7.3's figures.
    static let clientFull: [TLSStateName] = [.expectServerHello, .expectCertificate, .expectCertificateRequestOrServerHelloDone,
                                             .expectChangeCipherSpec, .expectFinished, .connected, .closed]
    static let clientSigned: [TLSStateName] = [.expectServerHello, .expectCertificate, .expectServerKeyExchange,
                                               .expectCertificateRequestOrServerHelloDone, .expectChangeCipherSpec,
                                               .expectFinished, .connected, .closed]
    static let clientSignedRequested: [TLSStateName] = [.expectServerHello, .expectCertificate, .expectServerKeyExchange,
                                                        .expectCertificateRequestOrServerHelloDone, .expectServerHelloDone,
                                                        .expectChangeCipherSpec, .expectFinished, .connected, .closed]
    static let clientRequested: [TLSStateName] = [.expectServerHello, .expectCertificate, .expectCertificateRequestOrServerHelloDone,
                                                  .expectServerHelloDone, .expectChangeCipherSpec, .expectFinished, .connected, .closed]
    static let serverFull: [TLSStateName] = [.expectClientKeyExchange, .expectChangeCipherSpec, .expectFinished, .connected, .closed]
    static let serverCertified: [TLSStateName] = [.expectClientCertificate, .expectClientKeyExchange, .expectCertificateVerify,
                                                  .expectChangeCipherSpec, .expectFinished, .connected, .closed]
    static let serverEmptyCertificate: [TLSStateName] = [.expectClientCertificate, .expectClientKeyExchange,
                                                         .expectChangeCipherSpec, .expectFinished, .connected, .closed]
    static let serverAbbreviated: [TLSStateName] = [.expectChangeCipherSpec, .expectFinished, .connected, .closed]

    /// The client's path with a NewSessionTicket before the server's ChangeCipherSpec (RFC 5077 §3.1).
    static func withTicket(_ path: [TLSStateName]) -> [TLSStateName] {
        var path = path
        path.insert(.expectNewSessionTicket, at: path.firstIndex(of: .expectChangeCipherSpec)!)
        return path
    }

    static func walks() throws -> [Walk] {
        func suites(_ suite: CipherSuite) throws -> (TLSClientConfiguration, TLSServerConfiguration) {
            (try Harness.clientConfiguration(seed: 7, suites: [suite]), try Harness.serverConfiguration(seed: 7, suites: [suite]))
        }
        var walks: [Walk] = []
        // Full handshakes, one per key exchange (RFC 5246 §7.4.3: RSA sends no ServerKeyExchange).
        let (rsaClient, rsaServer) = try suites(.TLS_RSA_WITH_AES_128_GCM_SHA256)
        walks.append(Walk(description: "RSA", client: rsaClient, server: rsaServer, clientPath: clientFull, serverPath: serverFull))
        let (dheClient, dheServer) = try suites(.TLS_DHE_RSA_WITH_AES_128_GCM_SHA256)
        walks.append(Walk(description: "DHE_RSA", client: dheClient, server: dheServer, clientPath: clientSigned, serverPath: serverFull))
        let (ecdheClient, ecdheServer) = try suites(.TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256)
        walks.append(Walk(description: "ECDHE_RSA", client: ecdheClient, server: ecdheServer, clientPath: clientSigned, serverPath: serverFull))
        let (ecdsaClient, ecdsaServer, _) = try ECDSAHandshakeTests.configurations(seed: 7, curve: .p256)
        walks.append(Walk(description: "ECDHE_ECDSA", client: ecdsaClient, server: ecdsaServer, clientPath: clientSigned, serverPath: serverFull))
        // TLS 1.1 (RFC 4346): the same flow; RSA key transport over a CBC suite.
        var oldClient = try Harness.clientConfiguration(seed: 8, suites: [.TLS_RSA_WITH_AES_128_CBC_SHA])
        oldClient.minimumVersion = .tls11
        oldClient.maximumVersion = .tls11
        var oldServer = try Harness.serverConfiguration(seed: 8)
        oldServer.minimumVersion = .tls10
        walks.append(Walk(description: "RSA, TLS 1.1", client: oldClient, server: oldServer, clientPath: clientFull, serverPath: serverFull))

        // Client certificates (RFC 5246 §7.4.4, §7.4.6, §7.4.8).
        for (name, client, server) in [("RSA", rsaClient, rsaServer), ("DHE_RSA", dheClient, dheServer), ("ECDHE_RSA", ecdheClient, ecdheServer)] {
            var requiring = server
            requiring.clientAuthentication = .require
            var identified = client
            identified.identity = try Harness.clientIdentity()
            let requested = name == "RSA" ? clientRequested : clientSignedRequested
            walks.append(Walk(description: "\(name), client certificate", client: identified, server: requiring,
                              clientPath: requested, serverPath: serverCertified))
            var requesting = server
            requesting.clientAuthentication = .request
            walks.append(Walk(description: "\(name), certificate requested, none sent", client: client, server: requesting,
                              clientPath: requested, serverPath: serverEmptyCertificate))
        }
        var oldMutual = oldServer
        oldMutual.clientAuthentication = .require
        oldClient.identity = try Harness.clientIdentity()
        walks.append(Walk(description: "RSA, TLS 1.1, client certificate (MD5 ‖ SHA-1 CertificateVerify)", client: oldClient,
                          server: oldMutual, clientPath: clientRequested, serverPath: serverCertified))

        // Resumption by session ID (RFC 5246 §7.3, Figure 2).
        var caching = rsaServer
        caching.sessionCache = TLSSessionCache()
        let first = Harness.run(client: rsaClient, server: caching)
        var resuming = try Harness.clientConfiguration(seed: 9, suites: [.TLS_RSA_WITH_AES_128_GCM_SHA256])
        let cached = try #require(first.client.session)
        resuming.session = cached
        walks.append(Walk(description: "resumed by session ID", client: resuming, server: caching,
                          clientPath: [.expectServerHello, .expectChangeCipherSpec, .expectFinished, .connected, .closed],
                          serverPath: serverAbbreviated))

        // Session tickets (RFC 5077): issued after a full handshake, renewed when resuming by one,
        // issued after a handshake with a client certificate.
        var ticketServer = ecdheServer
        ticketServer.sessionTicketKeys = SessionTicketKeys(random: HMACDRBG(seed: 207))
        var ticketClient = ecdheClient
        ticketClient.offerSessionTicket = true
        walks.append(Walk(description: "ticket issued", client: ticketClient, server: ticketServer,
                          clientPath: withTicket(clientSigned), serverPath: serverFull))
        let issued = Harness.run(client: ticketClient, server: ticketServer)
        var ticketResuming = ticketClient
        let ticketed = try #require(issued.client.session)
        ticketResuming.session = ticketed
        #expect(ticketResuming.session?.ticket != nil)
        walks.append(Walk(description: "resumed by ticket, ticket renewed", client: ticketResuming, server: ticketServer,
                          clientPath: [.expectServerHello, .expectNewSessionTicket, .expectChangeCipherSpec, .expectFinished, .connected, .closed],
                          serverPath: serverAbbreviated))
        var ticketMutual = ticketServer
        ticketMutual.clientAuthentication = .require
        var ticketIdentified = ticketClient
        ticketIdentified.identity = try Harness.clientIdentity()
        walks.append(Walk(description: "ticket issued, client certificate", client: ticketIdentified, server: ticketMutual,
                          clientPath: withTicket(clientSignedRequested), serverPath: serverCertified))
        return walks
    }

    /// The state names a role's events entered, in order, after checking that each change leaves
    /// the state the one before it entered (starting from `initial`) and is an edge the machine
    /// allows: one of its handshake edges, or `connected → closed`.
    static func path(_ events: [TLSEvent], role: TLSRole, initial: TLSStateName,
                     edges: Set<StateEdge>, taken: inout Set<StateEdge>, walk: String) -> [TLSStateName] {
        var current = initial
        var entered: [TLSStateName] = []
        for event in events {
            guard case .stateChanged(let changed, let from, let to) = event else { continue }
            #expect(changed == role, "\(walk): a \(changed) change among the \(role)'s events")
            #expect(from == current, "\(walk): \(role) left \(from) while in \(current)")
            let edge = StateEdge(from, to)
            #expect(edges.contains(edge) || edge == StateEdge(.connected, .closed), "\(walk): \(role) took \(edge), outside its table")
            taken.insert(edge)
            current = to
            entered.append(to)
        }
        return entered
    }

    @Test("each run enters exactly its RFC 5246 §7.3 states, along table edges, and the runs take every edge")
    func everyKindOfRunWalksItsPath() throws {
        var clientTaken: Set<StateEdge> = [], serverTaken: Set<StateEdge> = []
        for walk in try Self.walks() {
            let run = Harness.run(client: walk.client, server: walk.server)
            #expect(run.outcome == .connected, "\(walk): \(run.outcome)")
            let client = Self.path(run.clientEvents, role: .client, initial: .start,
                                   edges: ClientHandshake.State.handshakeEdges, taken: &clientTaken, walk: walk.description)
            let server = Self.path(run.serverEvents, role: .server, initial: .expectClientHello,
                                   edges: ServerHandshake.State.handshakeEdges, taken: &serverTaken, walk: walk.description)
            #expect(client == walk.clientPath, "\(walk): client")
            #expect(server == walk.serverPath, "\(walk): server")
            #expect(run.client.isResumed == (walk.serverPath == Self.serverAbbreviated), "\(walk): resumed")
        }
        let clientMissing = ClientHandshake.State.handshakeEdges.subtracting(clientTaken)
        let serverMissing = ServerHandshake.State.handshakeEdges.subtracting(serverTaken)
        #expect(clientMissing.isEmpty, "client edges no run took: \(clientMissing)")
        #expect(serverMissing.isEmpty, "server edges no run took: \(serverMissing)")
        // Every state a machine names (but `failed`: no run here fails) was entered or started in.
        let clientStates = Set(clientTaken.flatMap { [$0.from, $0.to] })
        let serverStates = Set(serverTaken.flatMap { [$0.from, $0.to] })
        #expect(clientStates == ClientHandshake.State.stateNames.subtracting([.failed]))
        #expect(serverStates == ServerHandshake.State.stateNames.subtracting([.failed]))
    }
}
