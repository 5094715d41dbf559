import ArgumentParser
import Foundation
import HTTP2
import PKI
import RealPeer
import Rendering
import Simulation
import TLSCrypto
import TLSEngine
import Trace
import UserFiles

/// `tlslab serve`: the simulation's server state machine on a real listening socket. Each connection
/// waits for its client on its own thread; up to --concurrent of them work at once. Each is traced
/// and answered with a page saying what was negotiated.
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve HTTPS (TLS 1.2) on loopback with TLSLab's engine, tracing every handshake.",
        discussion: """
        Prints "listening on ADDRESS:PORT" first (--port 0 picks a free port), then each connection's \
        trace and a one-line log entry on standard error. Up to --max-open connections are open at \
        once, each waiting for its client without holding up the others; up to --concurrent N of them \
        do work (handshake steps, answers) at once. Stops on Ctrl-C, SIGTERM or after \
        --max-connections connections.
        """
    )

    enum Auth: String, ExpressibleByArgument, CaseIterable { case none, request, require }
    enum Group: String, ExpressibleByArgument, CaseIterable { case modp2048, ffdhe2048 }

    @Option(help: "TCP port (0: any free port).")
    var port: Int

    @Option(help: "IPv4 address to listen on.")
    var address: String = "127.0.0.1"

    @Option(help: "Certificate chain (PEM, leaf first).")
    var cert: String

    @Option(help: "The leaf's key (PKCS#1 or PKCS#8 PEM).")
    var key: String

    @Option(name: .customLong("suite"), help: "A cipher suite to accept, in preference order (IANA or OpenSSL name); repeat for several (default: every implemented suite, AEAD and forward-secret first).")
    var suites: [String] = []

    @Option(help: "Ask for a client certificate: none, request or require.")
    var clientAuth: Auth = .none

    @Option(help: "PEM file of the anchors client certificates must chain to.")
    var clientCa: String?

    @Option(help: "The DHE group: modp2048 (RFC 3526, OpenSSL's default) or ffdhe2048 (RFC 7919).")
    var dhGroup: Group = .modp2048

    @Option(help: ArgumentHelp("Speak ALPN (RFC 7301) with these protocols, in the server's order of preference: h2,http/1.1.",
                               discussion: "A client offering none of them gets the fatal alert no_application_protocol (120). With h2 chosen the page is served over HTTP/2 (then GOAWAY); a protocol other than HTTP/1.x and h2 is closed after the handshake."))
    var alpn: String?

    @Option(help: "HTTP/2: the most streams a client may have open at once (SETTINGS_MAX_CONCURRENT_STREAMS; beyond it REFUSED_STREAM).")
    var h2MaxStreams: UInt32 = 100

    @Option(help: "HTTP/2: a path to push (PUSH_PROMISE) with the response to the first request, when the client allows push; repeat for several.")
    var h2Push: [String] = []

    @Option(help: "Sessions kept for resumption by session ID (the oldest is forgotten first).")
    var sessionCacheSize: Int = 1_024

    @Flag(help: "Send an empty session ID and no session tickets: no client can resume.")
    var noResumption = false

    @Flag(help: "Issue no session tickets (RFC 5077); resumption by session ID stays.")
    var noTickets = false

    @Option(help: ArgumentHelp("Seconds a session can be resumed after its full handshake, by ticket or by session ID (as OpenSSL's session timeout); older ones get a full handshake.",
                               discussion: "Each ticket's ticket_lifetime_hint (RFC 5077 §3.3) is the time its session has left. RFC 5246 Appendix F.1.4 suggests at most 24 hours for session IDs."))
    var ticketLifetime: Int = 7_200

    @Option(help: "Append each session's secrets to FILE in NSS key log format.")
    var keylog: String?

    @Flag(help: "Print no traces, only the one-line log entry per connection (on standard error).")
    var logOnly = false

    /// --format and --verbosity (no --seed: real connections use the system's random generator).
    @OptionGroup var render: PeerRenderOptions

    @Option(help: "Stop after this many connections.")
    var maxConnections: Int?

    @Option(help: "Connections doing work (handshake steps, answers) at once; a connection waiting for its client does not count.")
    var concurrent: Int = 1

    @Option(help: "Connections open at once (each waits for its client on its own thread); more wait in the listen backlog.")
    var maxOpen: Int = 1_024

    @Option(help: "Seconds a client may stay silent before it is closed.")
    var timeout: Int = 10

    @Option(help: "Seconds the whole handshake may take, however slowly the client sends.")
    var handshakeTimeout: Int = 30

    @Option(help: "Seconds the HTTP request may take to arrive after the handshake.")
    var requestTimeout: Int = 30

    func validate() throws {
        try render.validateNoSeed()
        if !(1...3_600).contains(handshakeTimeout) { throw ValidationError("--handshake-timeout takes 1…3600 seconds") }
        if !(1...3_600).contains(requestTimeout) { throw ValidationError("--request-timeout takes 1…3600 seconds") }
        if !(0...65_535).contains(port) { throw ValidationError("--port takes 0…65535") }
        if clientAuth != Auth.none && clientCa == nil { throw ValidationError("--client-auth \(clientAuth.rawValue) needs --client-ca") }
        if let n = maxConnections, n <= 0 { throw ValidationError("--max-connections takes a positive number") }
        if !(1...256).contains(concurrent) { throw ValidationError("--concurrent takes 1…256") }
        if !(1...10_000).contains(maxOpen) { throw ValidationError("--max-open takes 1…10000") }
        if !(1...1_000_000).contains(sessionCacheSize) { throw ValidationError("--session-cache-size takes 1…1000000") }
        if !(1...604_800).contains(ticketLifetime) { throw ValidationError("--ticket-lifetime takes 1…604800 seconds (up to a week)") }
        if timeout <= 0 || timeout > 3_600 { throw ValidationError("--timeout takes 1…3600 seconds") }
        _ = try PeerOptions.alpn(alpn)
    }

    func run() throws {
        // The key log is checked before listening: a directory or a link is refused, nothing touched.
        if let keylog {
            do { try OutputFile.check(keylog) } catch { throw CLIError.file(error, Explanations.ofEnvironment) }
        }
        let identity: TLSIdentity
        let clientAnchors: [X509Certificate]
        do {
            identity = try PeerFiles.identity(certificate: cert, key: key)
            clientAnchors = try clientCa.map { try PeerFiles.certificates(at: $0) } ?? []
        } catch {
            throw CLIError.badInput("\(error)")
        }
        // A server accepts the extra CBC suites too (after the default list in its preference order):
        // clients that offer only CBC suites, as conformance suites do, are served.
        let accepted = try PeerOptions.suites(suites, defaults: CipherSuite.allImplementedWithECDSA)
        let auth = ClientAuthentication(rawValue: clientAuth.rawValue) ?? ClientAuthentication.none
        let group = dhGroup
        let caName = clientCa.map(TrustStoreName.file) ?? .noAnchors
        let resumes = !noResumption
        let protocols = try PeerOptions.alpn(alpn)
        let listener: TCPListener
        do { listener = try TCPListener(address: address, port: UInt16(port)) } catch {
            throw CLIError.failed("cannot listen on \(address):\(port): \(error)")
        }
        // One bounded session cache for every connection: a client that offers a session ID it was given
        // resumes (RFC 5246 §7.3, the abbreviated handshake), s_client -reconnect and -sess_in among them.
        let sessions = TLSSessionCache(capacity: sessionCacheSize)
        // One set of ticket keys for this run of serve, from the system's random source: a ticket opens on
        // any later connection until serve stops (then the keys are gone and every ticket means a full handshake).
        let ticketKeys = resumes && !noTickets ? SessionTicketKeys(random: SystemRandom()) : nil
        let lifetimeHint = UInt32(ticketLifetime)
        let server = RealServer(listener: listener, timeoutMilliseconds: Int32(timeout * 1_000),
                                handshakeTimeoutMilliseconds: Int32(handshakeTimeout * 1_000),
                                requestTimeoutMilliseconds: Int32(requestTimeout * 1_000)) {
            var configuration = TLSServerConfiguration(identity: identity, random: SystemRandom(), cipherSuites: accepted,
                                                       dhGroup: group == .ffdhe2048 ? .ffdhe2048 : .modp2048,
                                                       clientAuthentication: auth,
                                                       clientCertificateEvaluator: auth == ClientAuthentication.none ? nil
                                                           : PeerFiles.chainEvaluator(anchors: clientAnchors, storeName: caName),
                                                       sessionCache: resumes ? sessions : nil)
            configuration.applicationProtocols = protocols
            // A client certificate on P-521 or Ed25519 signs with ecdsa_secp521r1_sha512 or ed25519: list them, as OpenSSL does.
            configuration.certificateRequestSignatureAlgorithms = SignatureSchemes.certificateRequestOpenSSL
            configuration.sessionTicketKeys = ticketKeys
            configuration.ticketLifetimeHint = lifetimeHint
            // Tickets and cached sessions alike expire: the server checks each one's age against the
            // clock reading RealServer passes with the client's bytes.
            configuration.sessionLifetime = SessionLifetime(seconds: lifetimeHint)
            return configuration
        }
        // --log-only keeps no trace events at all: memory per connection stays small however long it runs.
        server.keepsTrace = !logOnly
        server.maxOpenConnections = maxOpen
        // Each open connection is a descriptor: without this a 1024 soft limit would leave clients in the backlog.
        DescriptorLimit.raise(to: maxOpen + 64)
        server.http2MaxConcurrentStreams = h2MaxStreams
        server.http2Push = h2Push
        StopSignal.install()
        print("listening on \(address):\(listener.port)")
        fflush(nil)  // every stream: stdout is a C global Swift 6 will not touch
        let keylogPath = keylog
        let words = Explanations.ofEnvironment
        let output = render.effectiveFormat
        let quiet = logOnly
        let detail = render.effectiveVerbosity
        var keylogError: Error?
        do {
            try server.run(maxConnections: maxConnections, concurrency: concurrent, shouldStop: { StopSignal.requested }) { connection in
                switch output {
                case _ where quiet: break
                case .json: PeerOptions.print(connection.trace, format: .json, verbosity: detail, title: "")
                case .text: PeerOptions.print(connection.trace, format: .text, verbosity: detail,
                                              title: "\nTLSLab — serve: connection from \(connection.facts.peer)")
                }
                FileHandle.standardError.write(Data("tlslab serve: \(connection.logLine(Explanations.english.exchangeFailure))\n".utf8))
                if let keylogPath, let entry = connection.keyLog {
                    do { try PeerOptions.appendKeyLog(entry, to: keylogPath, words) } catch { keylogError = error }
                }
            }
        } catch {
            throw CLIError.failed("serving stopped: \(error)")
        }
        if let keylogError { throw keylogError }
        FileHandle.standardError.write(Data("tlslab serve: stopped\n".utf8))
    }
}
