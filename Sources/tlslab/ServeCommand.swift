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
        abstract: CLIWords.text("cli.serveCommand.abstract"),
        discussion: CLIWords.text("cli.serveCommand.discussion")
    )

    enum Auth: String, ExpressibleByArgument, CaseIterable { case none, request, require }
    enum Group: String, ExpressibleByArgument, CaseIterable { case modp2048, ffdhe2048 }
    enum EarlyData: String, ExpressibleByArgument, CaseIterable { case accept, reject }

    @Option(help: CLIWords.help("cli.serveCommand.port"))
    var port: Int

    @Option(help: CLIWords.help("cli.serveCommand.address"))
    var address: String = "127.0.0.1"

    @Option(help: CLIWords.help("cli.serveCommand.cert"))
    var cert: String

    @Option(help: CLIWords.help("cli.serveCommand.key"))
    var key: String

    @Option(name: .customLong("suite"), help: CLIWords.help("cli.serveCommand.suites"))
    var suites: [String] = []

    @Option(help: CLIWords.help("cli.serveCommand.clientAuth"))
    var clientAuth: Auth = .none

    @Option(help: CLIWords.help("cli.serveCommand.clientCa"))
    var clientCa: String?

    @Option(help: CLIWords.help("cli.serveCommand.dhGroup"))
    var dhGroup: Group = .modp2048

    @Option(help: ArgumentHelp(CLIWords.text("cli.serveCommand.alpn"),
                               discussion: CLIWords.text("cli.serveCommand.alpn.discussion")))
    var alpn: String?

    @Option(help: CLIWords.help("cli.serveCommand.h2MaxStreams"))
    var h2MaxStreams: UInt32 = 100

    @Option(help: CLIWords.help("cli.serveCommand.h2Push"))
    var h2Push: [String] = []

    @Option(help: CLIWords.help("cli.serveCommand.sessionCacheSize"))
    var sessionCacheSize: Int = 1_024

    @Flag(help: CLIWords.help("cli.serveCommand.noResumption"))
    var noResumption = false

    @Flag(help: CLIWords.help("cli.serveCommand.noTickets"))
    var noTickets = false

    @Option(help: ArgumentHelp(CLIWords.text("cli.serveCommand.ticketLifetime"),
                               discussion: CLIWords.text("cli.serveCommand.ticketLifetime.discussion")))
    var ticketLifetime: Int = 7_200

    @Option(help: CLIWords.help("cli.serveCommand.tls"))
    var tls: String = "1.2,1.3"

    @Option(help: CLIWords.help("cli.serveCommand.earlyData"))
    var earlyData: EarlyData = .reject

    @Option(help: CLIWords.help("cli.serveCommand.maxEarlyData"))
    var maxEarlyData: Int = 16_384

    @Flag(help: CLIWords.help("cli.serveCommand.allowReplay"))
    var allowReplay = false

    @Option(help: CLIWords.help("cli.serveCommand.keylog"))
    var keylog: String?

    @Flag(help: CLIWords.help("cli.serveCommand.logOnly"))
    var logOnly = false

    /// --format and --verbosity (no --seed: real connections use the system's random generator).
    @OptionGroup var render: PeerRenderOptions

    @Option(help: CLIWords.help("cli.serveCommand.maxConnections"))
    var maxConnections: Int?

    @Option(help: CLIWords.help("cli.serveCommand.concurrent"))
    var concurrent: Int = 1

    @Option(help: CLIWords.help("cli.serveCommand.maxOpen"))
    var maxOpen: Int = 1_024

    @Option(help: CLIWords.help("cli.serveCommand.timeout"))
    var timeout: Int = 10

    @Option(help: CLIWords.help("cli.serveCommand.handshakeTimeout"))
    var handshakeTimeout: Int = 30

    @Option(help: CLIWords.help("cli.serveCommand.requestTimeout"))
    var requestTimeout: Int = 30

    func validate() throws {
        try render.validateNoSeed()
        if !(1...3_600).contains(handshakeTimeout) { throw OptionProblem.takesSeconds(option: "--handshake-timeout", range: "1…3600").validationError }
        if !(1...3_600).contains(requestTimeout) { throw OptionProblem.takesSeconds(option: "--request-timeout", range: "1…3600").validationError }
        if !(0...65_535).contains(port) { throw OptionProblem.takes(option: "--port", range: "0…65535").validationError }
        if clientAuth != Auth.none && clientCa == nil { throw OptionProblem.needs(option: "--client-auth \(clientAuth.rawValue)", other: "--client-ca").validationError }
        if let n = maxConnections, n <= 0 { throw OptionProblem.positive(option: "--max-connections").validationError }
        if !(1...256).contains(concurrent) { throw OptionProblem.takes(option: "--concurrent", range: "1…256").validationError }
        if !(1...10_000).contains(maxOpen) { throw OptionProblem.takes(option: "--max-open", range: "1…10000").validationError }
        if !(1...1_000_000).contains(sessionCacheSize) { throw OptionProblem.takes(option: "--session-cache-size", range: "1…1000000").validationError }
        if !(1...604_800).contains(ticketLifetime) { throw OptionProblem.takesSecondsUpToAWeek(option: "--ticket-lifetime", range: "1…604800").validationError }
        if timeout <= 0 || timeout > 3_600 { throw OptionProblem.takesSeconds(option: "--timeout", range: "1…3600").validationError }
        _ = try PeerOptions.alpn(alpn)
        let offered = try versions()
        // --suite restricts the versions too; an unknown name is refused by run() with the known ones.
        if let choice = try? PeerOptions.suites(suites) { _ = try choice.versions(offered, tls: tls) }
        if !(1...1_048_576).contains(maxEarlyData) { throw OptionProblem.takes(option: "--max-early-data", range: "1…1048576").validationError }
    }

    /// `--tls`: which of TLS 1.2 and TLS 1.3 this server speaks.
    func versions() throws -> (tls12: Bool, tls13: Bool) {
        let parts = Set(tls.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
        guard !parts.isEmpty, parts.isSubset(of: ["1.2", "1.3"]) else {
            throw OptionProblem.takes(option: "--tls", range: "1.2, 1.3, 1.2,1.3").validationError
        }
        return (parts.contains("1.2"), parts.contains("1.3"))
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
        } catch let error as PeerFileError {
            throw CLIError.input(.peerFile(error))
        }
        // A server accepts the extra CBC suites too (after the default list in its preference order):
        // clients that offer only CBC suites, as conformance suites do, are served.
        let choice = try PeerOptions.suites(suites, defaults: CipherSuite.allImplementedWithECDSA)
        // Without a TLS 1.2 suite listed TLS 1.2 is not spoken (below), and the list goes unused.
        let accepted = choice.tls12.isEmpty ? CipherSuite.allImplementedWithECDSA : choice.tls12
        let accepted13 = choice.tls13
        let auth = ClientAuthentication(rawValue: clientAuth.rawValue) ?? ClientAuthentication.none
        let group = dhGroup
        let caName = clientCa.map(TrustStoreName.file) ?? .noAnchors
        let resumes = !noResumption
        let protocols = try PeerOptions.alpn(alpn)
        let listener: TCPListener
        do { listener = try TCPListener(address: address, port: UInt16(port)) } catch {
            let words = render.language.explanations
            throw CLIError.failed(words.phrase("cli.serve.cannotListen", ["address": "\(address):\(port)", "error": words.socketError(error)]))
        }
        // One bounded session cache for every connection: a client that offers a session ID it was given
        // resumes (RFC 5246 §7.3, the abbreviated handshake), s_client -reconnect and -sess_in among them.
        let sessions = TLSSessionCache(capacity: sessionCacheSize)
        // One set of ticket keys for this run of serve, from the system's random source: a ticket opens on
        // any later connection until serve stops (then the keys are gone and every ticket means a full handshake).
        let ticketKeys = resumes && !noTickets ? SessionTicketKeys(random: SystemRandom()) : nil
        let lifetimeHint = UInt32(ticketLifetime)
        let (speaks12, speaks13) = try choice.versions(try versions(), tls: tls)
        // TLS 1.3 tickets (RFC 8446 §4.6.1) live in one store for this run of serve; each is used once
        // (§8.1) unless --allow-replay, which keeps them for the 0-RTT replay lesson.
        let tickets13 = resumes && !noTickets ? TLS13TicketStore(capacity: sessionCacheSize) : nil
        let early13 = TLS13ServerEarlyData(maxEarlyDataSize: earlyData == .accept ? UInt32(maxEarlyData) : 0,
                                           accepts: earlyData == .accept, singleUseTickets: !allowReplay)
        let server = RealServer(listener: listener, timeoutMilliseconds: Int32(timeout * 1_000),
                                handshakeTimeoutMilliseconds: Int32(handshakeTimeout * 1_000),
                                requestTimeoutMilliseconds: Int32(requestTimeout * 1_000),
                                page: { [words = render.language.explanations] in words.servePage($0) }) {
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
            // --tls 1.3: the TLS 1.2 engine speaks no version, so a client without TLS 1.3 gets
            // protocol_version (RFC 8446 §4.2.1).
            if !speaks12 { configuration.minimumVersion = .tls13 }
            return configuration
        }
        if speaks13 {
            server.makeTLS13Configuration = {
                // X25519 first, then P-256: a client whose only share is P-256 still gets a 1-RTT
                // handshake; one whose shares are for neither gets a HelloRetryRequest (§4.1.4).
                var configuration = TLS13ServerConfiguration(identity: identity, suites: accepted13, groups: [.x25519, .secp256r1])
                configuration.applicationProtocols = protocols
                configuration.ticketLifetime = tickets13 == nil ? nil : lifetimeHint
                configuration.ticketStore = tickets13
                configuration.earlyData = early13
                configuration.clientAuthentication = auth
                configuration.clientCertificateEvaluator = auth == ClientAuthentication.none ? nil
                    : PeerFiles.chainEvaluator(anchors: clientAnchors, storeName: caName)
                return configuration
            }
        }
        // --log-only keeps no trace events at all: memory per connection stays small however long it runs.
        server.keepsTrace = !logOnly
        server.maxOpenConnections = maxOpen
        // Each open connection is a descriptor: without this a 1024 soft limit would leave clients in the backlog.
        DescriptorLimit.raise(to: maxOpen + 64)
        server.http2MaxConcurrentStreams = h2MaxStreams
        server.http2Push = h2Push
        StopSignal.install()
        let words = render.language.explanations
        print(words.phrase("cli.serve.listening", ["address": "\(address):\(listener.port)"]))
        fflush(nil)  // every stream: stdout is a C global Swift 6 will not touch
        let keylogPath = keylog
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
                                              title: "\n" + words.phrase("cli.serve.title", ["peer": connection.facts.peer]),
                                              explanations: words)
                }
                FileHandle.standardError.write(Data("tlslab serve: \(words.serveLogLine(connection.logEntry))\n".utf8))
                if let keylogPath, let entry = connection.keyLog {
                    do { try PeerOptions.appendKeyLog(entry, to: keylogPath, words) } catch { keylogError = error }
                }
            }
        } catch {
            throw CLIError.failed(words.phrase("cli.serve.failed", ["error": "\(error)"]))
        }
        if let keylogError { throw keylogError }
        FileHandle.standardError.write(Data("tlslab serve: \(words.phrase("cli.serve.stopped"))\n".utf8))
    }
}
