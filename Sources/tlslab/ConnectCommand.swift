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
import Trust
import UserFiles

/// `tlslab connect HOST:PORT`: the simulation's client state machine against a real server over a
/// real socket, traced like a simulation (the TCP layer only as far as the socket shows it).
struct ConnectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "connect",
        abstract: CLIWords.text("cli.connectCommand.abstract"),
        discussion: CLIWords.text("cli.connectCommand.discussion")
    )

    /// The client app's trust policy: the simulation's `ClientTrustPolicy` cases.
    enum Policy: String, ExpressibleByArgument, CaseIterable {
        /// No delegate: the system's evaluation — chain to --ca, validity, host name (the simulation's default).
        case `default`
        /// Trust anything (AFSecurityPolicy mode none, allowInvalidCertificates YES, validatesDomainName NO). For watching only.
        case none
        /// AFSecurityPolicy with pinning mode none / publicKey / certificate (pins from --pin).
        case afNone = "af-none", afPublicKey = "af-public-key", afCertificate = "af-certificate"
        /// Challenge-handler modes None (trust all) / Simple (chain, no host) / Full (chain and host).
        case challengeNone = "challenge-none", challengeSimple = "challenge-simple", challengeFull = "challenge-full"
        /// A web container that trusts every server.
        case webContainer = "web-container"
        /// An image downloader (--allow-invalid-certificates sets allowInvalidSSLCertificates).
        case imageDownloader = "image-downloader"
        /// The bundled-anchor delegate: the --bundle certificates as the only anchors; valid → UseCredential, else Cancel.
        case bundledAnchor = "bundled-anchor"
    }

    @Argument(help: CLIWords.help("cli.connectCommand.target"))
    var target: String

    @Option(help: CLIWords.help("cli.connectCommand.servername"))
    var servername: String?

    @Option(name: .customLong("suite"), help: CLIWords.help("cli.connectCommand.suites"))
    var suites: [String] = []

    @Option(help: CLIWords.help("cli.connectCommand.ca"))
    var ca: String?

    @Option(help: ArgumentHelp(CLIWords.text("cli.connectCommand.alpn"),
                               discussion: CLIWords.text("cli.connectCommand.alpn.discussion")))
    var alpn: String?

    @Option(help: ArgumentHelp(CLIWords.text("cli.connectCommand.policy", ["list": "\(Policy.allCases.map(\.rawValue).joined(separator: ", "))"]),
                               discussion: CLIWords.text("cli.connectCommand.policy.discussion")))
    var policy: Policy = .default

    @Option(name: .customLong("pin"), help: CLIWords.help("cli.connectCommand.pins"))
    var pins: [String] = []

    @Option(name: .customLong("bundle"), help: CLIWords.help("cli.connectCommand.bundled"))
    var bundled: [String] = []

    @Flag(help: CLIWords.help("cli.connectCommand.keepSystemAnchors"))
    var keepSystemAnchors = false

    @Flag(help: CLIWords.help("cli.connectCommand.allowInvalidCertificates"))
    var allowInvalidCertificates = false

    @Flag(name: .customLong("no-validates-domain-name"), help: CLIWords.help("cli.connectCommand.noValidatesDomainName"))
    var noValidatesDomainName = false

    @Flag(help: CLIWords.help("cli.connectCommand.ats"))
    var ats = false

    @Flag(help: CLIWords.help("cli.connectCommand.atsNoForwardSecrecy"))
    var atsNoForwardSecrecy = false

    @Option(help: CLIWords.help("cli.connectCommand.cert"))
    var cert: String?

    @Option(help: CLIWords.help("cli.connectCommand.key"))
    var key: String?

    @Option(help: CLIWords.help("cli.connectCommand.request"))
    var request: String?

    @Flag(help: CLIWords.help("cli.connectCommand.h2Push"))
    var h2Push = false

    @Option(help: ArgumentHelp(CLIWords.text("cli.connectCommand.h2Request"),
                               discussion: CLIWords.text("cli.connectCommand.h2Request.discussion")))
    var h2Request: [String] = []

    @Option(help: CLIWords.help("cli.connectCommand.keylog"))
    var keylog: String?

    @Option(help: CLIWords.help("cli.connectCommand.tls"))
    var tls: String = "1.2,1.3"

    @Option(help: CLIWords.help("cli.connectCommand.earlyData"))
    var earlyData: String?

    /// `--tls 1.2`, `1.3`, `1.2,1.3` (either order).
    static func versionOffer(_ text: String) -> RealClient.VersionOffer? {
        switch Set(text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }) {
        case ["1.2"]: return .tls12
        case ["1.3"]: return .tls13
        case ["1.2", "1.3"]: return .tls12AndTLS13
        default: return nil
        }
    }

    /// --format and --verbosity (no --seed: real connections use the system's random generator).
    @OptionGroup var render: PeerRenderOptions

    @Option(help: CLIWords.help("cli.connectCommand.timeout"))
    var timeout: Int = 10

    @Flag(help: CLIWords.help("cli.connectCommand.noEtm"))
    var noEtm = false

    @Option(help: CLIWords.help("cli.connectCommand.reconnect"))
    var reconnect: Int = 0

    @Flag(help: CLIWords.help("cli.connectCommand.noTickets"))
    var noTickets = false

    @Option(help: ArgumentHelp(CLIWords.text("cli.connectCommand.sessionOut"),
                               discussion: CLIWords.text("cli.connectCommand.sessionOut.discussion")))
    var sessionOut: String?

    @Option(help: ArgumentHelp(CLIWords.text("cli.connectCommand.sessionIn"),
                               discussion: CLIWords.text("cli.connectCommand.sessionIn.discussion")))
    var sessionIn: String?

    /// RFC 7919 §3: a DHE group the server sends that the client did not name is the client's local policy.
    enum UnofferedGroup: String, ExpressibleByArgument, CaseIterable {
        /// ``UnofferedDHGroupPolicy/acceptIfLargeEnough``.
        case accept
        /// ``UnofferedDHGroupPolicy/refuse``.
        case refuse

        var policy: UnofferedDHGroupPolicy { self == .accept ? .acceptIfLargeEnough : .refuse }
    }

    @Option(help: ArgumentHelp(CLIWords.text("cli.connectCommand.unofferedDhGroup"),
                               discussion: CLIWords.text("cli.connectCommand.unofferedDhGroup.discussion")))
    var unofferedDhGroup: UnofferedGroup = .accept

    @Option(help: CLIWords.help("cli.connectCommand.handshakeTimeout"))
    var handshakeTimeout: Int = 30

    @Option(help: ArgumentHelp(CLIWords.text("cli.connectCommand.responseTimeout"),
                               discussion: CLIWords.text("cli.connectCommand.responseTimeout.discussion")))
    var responseTimeout: Int = 60

    @Option(help: ArgumentHelp(CLIWords.text("cli.connectCommand.maxResponseBytes"),
                               discussion: CLIWords.text("cli.connectCommand.maxResponseBytes.discussion")))
    var maxResponseBytes: Int = 16 << 20

    func validate() throws {
        try render.validateNoSeed()
        if !(1...3_600).contains(handshakeTimeout) { throw OptionProblem.takesSeconds(option: "--handshake-timeout", range: "1…3600").validationError }
        if !(1...86_400).contains(responseTimeout) { throw OptionProblem.takesSeconds(option: "--response-timeout", range: "1…86400").validationError }
        if !(1...(1 << 30)).contains(maxResponseBytes) { throw OptionProblem.takes(option: "--max-response-bytes", range: "1…1073741824").validationError }
        if (cert == nil) != (key == nil) { throw OptionProblem.goTogether(first: "--cert", second: "--key").validationError }
        if timeout <= 0 || timeout > 3_600 { throw OptionProblem.takesSeconds(option: "--timeout", range: "1…3600").validationError }
        if !(0...100).contains(reconnect) { throw OptionProblem.takes(option: "--reconnect", range: "0…100").validationError }
        let pinning: Set<Policy> = [.afPublicKey, .afCertificate]
        if pinning.contains(policy) && pins.isEmpty { throw OptionProblem.needsAPin(policy: policy.rawValue).validationError }
        if !pins.isEmpty && !pinning.contains(policy) { throw OptionProblem.goesWithEither(option: "--pin", first: "--policy af-public-key", second: "af-certificate").validationError }
        if policy == .bundledAnchor && bundled.isEmpty { throw OptionProblem.needsABundledCertificate(policy: "bundled-anchor").validationError }
        if !bundled.isEmpty && policy != .bundledAnchor { throw OptionProblem.goesWith(option: "--bundle", other: "--policy bundled-anchor").validationError }
        if keepSystemAnchors && policy != .bundledAnchor { throw OptionProblem.goesWith(option: "--keep-system-anchors", other: "--policy bundled-anchor").validationError }
        let afOnly: Set<Policy> = [.afNone, .afPublicKey, .afCertificate]
        if noValidatesDomainName && !afOnly.contains(policy) { throw OptionProblem.goesWithAFPolicy(option: "--no-validates-domain-name").validationError }
        if allowInvalidCertificates && !(afOnly.contains(policy) || policy == .imageDownloader) {
            throw OptionProblem.goesWithAFPolicyOrImageDownloader(option: "--allow-invalid-certificates").validationError
        }
        if atsNoForwardSecrecy && !ats { throw OptionProblem.goesWith(option: "--ats-no-forward-secrecy", other: "--ats").validationError }
        _ = try PeerOptions.alpn(alpn)
        if Self.versionOffer(tls) == nil { throw OptionProblem.takes(option: "--tls", range: "1.2 | 1.3 | 1.2,1.3").validationError }
        if earlyData != nil && reconnect == 0 && sessionIn == nil {
            throw OptionProblem.goesWithEither(option: "--early-data", first: "--reconnect", second: "--session-in").validationError
        }
        if earlyData != nil, (try? PeerOptions.alpn(alpn))?.contains(.h2) == true { throw OptionProblem.earlyDataWithHTTP2.validationError }
        if earlyData != nil && Self.versionOffer(tls) == .tls12 { throw OptionProblem.needs(option: "--early-data", other: "--tls 1.3").validationError }
        // --suite restricts the versions too; an unknown name is refused by run() with the known ones.
        if let choice = try? PeerOptions.suites(suites), let offer = Self.versionOffer(tls) {
            let left = try choice.versions((offer != .tls13, offer != .tls12), tls: tls)
            if earlyData != nil && !left.tls13 { throw OptionProblem.needs(option: "--early-data", other: "--suite TLS_AES_128_GCM_SHA256").validationError }
        }
    }

    /// The versions to offer: `--tls`, less a version `--suite` names no suite of.
    func versionOffer(_ choice: PeerOptions.SuiteChoice) throws -> RealClient.VersionOffer {
        let offer = Self.versionOffer(tls) ?? .tls12AndTLS13
        let left = try choice.versions((offer != .tls13, offer != .tls12), tls: tls)
        return left.tls12 && left.tls13 ? .tls12AndTLS13 : left.tls13 ? .tls13 : .tls12
    }

    /// The simulation's `ClientTrustPolicy` for the flags.
    func clientTrustPolicy() throws -> ClientTrustPolicy {
        func af(_ mode: AFSecurityPolicy.PinningMode) throws -> ClientTrustPolicy {
            var pinned: [[UInt8]] = []
            do { for pin in pins { pinned += try PeerFiles.certificates(at: pin).map(\.der) } } catch { throw CLIError.input(.peerFile(error)) }
            return .afNetworking(AFSecurityPolicy(mode: mode, pinnedCertificates: pinned, allowInvalidCertificates: allowInvalidCertificates,
                                                  validatesDomainName: !noValidatesDomainName))
        }
        switch policy {
        case .default: return .systemDefault
        case .none: return .afNetworking(AFSecurityPolicy(mode: .none, allowInvalidCertificates: true, validatesDomainName: false))
        case .afNone: return try af(.none)
        case .afPublicKey: return try af(.publicKey)
        case .afCertificate: return try af(.certificate)
        case .challengeNone: return .challengeMode(.none)
        case .challengeSimple: return .challengeMode(.simple)
        case .challengeFull: return .challengeMode(.full)
        case .webContainer: return .webContainer
        case .imageDownloader: return .imageDownloader(allowInvalidSSLCertificates: allowInvalidCertificates)
        case .bundledAnchor:
            do { return .bundledAnchor(try bundled.flatMap { try PeerFiles.certificates(at: $0) }, anchorsOnly: !keepSystemAnchors) }
            catch let error as PeerFileError { throw CLIError.input(.peerFile(error)) }
        }
    }

    func run() throws {
        let (host, port) = try Self.split(target)
        // Every file to be written is checked before connecting: a directory, a link or a missing
        // folder is refused with nothing touched.
        let words = render.language.explanations
        for path in [keylog, sessionOut].compactMap({ $0 }) {
            do { try OutputFile.check(path) } catch { throw CLIError.file(error, words) }
        }
        let isAddress = host.contains(":") || host.split(separator: ".").count == 4 && host.allSatisfy { $0.isNumber || $0 == "." }
        let name = servername ?? (isAddress ? nil : host)

        let choice = try PeerOptions.suites(suites, defaults: CipherSuite.openSSLOrder)
        let versions = try versionOffer(choice)
        // Without a TLS 1.2 suite listed TLS 1.2 is not offered, and the list below goes unused.
        let offered = choice.tls12.isEmpty ? CipherSuite.openSSLOrder : choice.tls12
        let anchors: [X509Certificate]
        do { anchors = try ca.map { try PeerFiles.certificates(at: $0) } ?? [] } catch let error as PeerFileError { throw CLIError.input(.peerFile(error)) }
        let atsPolicy: ATSPolicy? = ats
            ? ATSPolicy(exceptionDomains: atsNoForwardSecrecy ? [name ?? host: ATSPolicy.ExceptionDomain(requiresForwardSecrecy: false)] : [:])
            : nil
        // Without --servername, an address is the name the certificate must carry (an IP SAN).
        let evaluator = RealTrust.evaluator(policy: try clientTrustPolicy(), ats: atsPolicy, anchors: anchors,
                                            storeName: ca.map(TrustStoreName.file) ?? .noAnchors, host: name ?? host)
        var identity: TLSIdentity?
        if let cert, let key {
            do { identity = try PeerFiles.identity(certificate: cert, key: key) } catch { throw CLIError.input(.peerFile(error)) }
        }
        var configuration = TLSClientConfiguration(certificateEvaluator: evaluator, random: SystemRandom(),
                                                   cipherSuites: offered, serverName: name,
                                                   signatureAlgorithms: RealClient.openSSLSignatureOrder,
                                                   supportedGroups: [.x25519, .secp256r1, .secp384r1, .secp521r1], identity: identity)
        configuration.applicationProtocols = try PeerOptions.alpn(alpn)
        // As OpenSSL's client: ask for encrypt-then-MAC (RFC 7366), used when the server picks a CBC suite.
        configuration.offerEncryptThenMAC = !noEtm
        // RFC 7919 §3: with DHE suites offered, name the FFDHE groups too (as GnuTLS's client does), so
        // a compliant server uses one of them; a server's own group is still accepted when large enough.
        configuration.finiteFieldGroups = [.ffdhe2048, .ffdhe3072]
        configuration.unofferedDHGroups = unofferedDhGroup.policy
        // RFC 5077: ask for a session ticket (unless --no-tickets); --reconnect offers it back.
        configuration.offerSessionTicket = !noTickets
        if let atsPolicy {
            switch RealTrust.restrict(configuration, ats: atsPolicy, host: name ?? host) {
            case .success(let restricted): configuration = restricted
            case .failure(let error):
                throw CLIError.failed(words.phrase("cli.input.refusedBeforeConnecting", ["target": "\(host):\(port)", "detail": words.sentence(error)]))
            }
        }
        let unescaped = { (text: String) in text.replacingOccurrences(of: "\\r", with: "\r").replacingOccurrences(of: "\\n", with: "\n") }
        var text: String? = request.map(unescaped)
        // --early-data FILE: the file is the request, sent as 0-RTT data when the ticket allows it.
        if let earlyData {
            do throws(InputFileError) { text = String(decoding: try InputFile.read(earlyData, limit: 1 << 20), as: UTF8.self) }
            catch { throw CLIError.file(error, words) }
        }
        let httpRequest = text.map { $0.isEmpty ? nil : $0 }
            ?? "GET / HTTP/1.1\r\nHost: \(name ?? host)\r\nConnection: close\r\n\r\n"
        var client = RealClient(host: host, port: port, configuration: configuration, request: httpRequest,
                                timeoutMilliseconds: Int32(timeout * 1_000),
                                handshakeTimeoutMilliseconds: Int32(handshakeTimeout * 1_000))
        client.acceptsPush = h2Push
        client.responseTimeoutMilliseconds = Int32(responseTimeout * 1_000)
        client.maxResponseBytes = maxResponseBytes
        client.additionalRequests = h2Request.map(unescaped)
        client.versions = versions
        client.tls13Suites = choice.tls13
        client.sendsRequestAsEarlyData = earlyData != nil
        if let sessionIn {
            do {
                switch try StoredSession.read(sessionIn) {
                case .tls12(let session): client.configuration.session = session
                case .tls13(let ticket):
                    // RFC 8446 §4.6.1: a ticket past its ticket_lifetime is not offered.
                    client.tls13Ticket = ticket.isValid(at: client.millisecondClock()) ? ticket : nil
                }
            }
            catch let error as InputFileError { throw CLIError.file(error, words) }
            catch let error as SessionFile.FormatError { throw CLIError.input(.sessionFile(path: sessionIn, error)) }
        }
        for attempt in 0 ... reconnect {
            let result = client.run()
            let target = "\(host):\(port)"
            let title = (attempt == 0 ? words("cli.connect.title", ["target": target])
                : words("cli.connect.title.reconnection", ["target": target, "attempt": "\(attempt)", "count": "\(reconnect)"])) ?? target
            PeerOptions.print(result.trace, format: render.effectiveFormat, verbosity: render.effectiveVerbosity, title: title,
                              explanations: words)
            if let keylog, let entry = result.keyLog { try PeerOptions.appendKeyLog(entry, to: keylog, words) }
            if render.effectiveFormat == .text, let response = result.response, !response.isEmpty {
                let heading = words.phrase("cli.connect.responseHeading")
                print("\n" + PeerOptions.heading(heading, explanations: words))
                // The server's bytes: printable text and line breaks kept, anything that would drive the terminal escaped.
                print(TerminalText.escaped(response, keepingLineBreaks: true))
            }
            if let accepted = result.earlyDataAccepted {
                let key = accepted ? "cli.connect.earlyData.accepted" : "cli.connect.earlyData.rejected"
                FileHandle.standardError.write(Data("tlslab connect: \(words(key, ["number": "\(attempt + 1)"]) ?? key)\n".utf8))
            } else if client.sendsRequestAsEarlyData && client.tls13Ticket != nil {
                let line = words.phrase("cli.connect.earlyData.notSent", ["number": "\(attempt + 1)"])
                FileHandle.standardError.write(Data("tlslab connect: \(line)\n".utf8))
            }
            if let failure = result.failure {
                throw CLIError.failed(words("cli.connect.failed", ["target": target, "failure": words.exchangeFailure(failure)]) ?? target)
            }
            if reconnect > 0 {
                let key = attempt == 0 ? "cli.connect.attempt.full" : result.resumed ? "cli.connect.attempt.resumed" : "cli.connect.attempt.notResumed"
                let how = words(key, ["number": "\(attempt + 1)", "count": "\(reconnect + 1)"]) ?? key
                FileHandle.standardError.write(Data("tlslab connect: \(how)\n".utf8))
            }
            // The next connection offers this one's session or newest TLS 1.3 ticket (a resumed
            // TLS 1.2 session keeps the same; a TLS 1.3 ticket is offered once, RFC 8446 §C.4).
            let newTicket = result.tls13Tickets.last
            if result.version == .tls13 {
                client.tls13Ticket = newTicket
                client.configuration.session = nil
            } else {
                client.configuration.session = result.session ?? client.configuration.session
                client.tls13Ticket = nil
            }
            if let sessionOut, attempt == reconnect {
                if let newTicket {
                    do { try TLS13TicketFile.write(newTicket, to: sessionOut) } catch { throw CLIError.file(error, words) }
                } else if let session = result.session {
                    do { try SessionFile.write(session, to: sessionOut) } catch { throw CLIError.file(error, words) }
                } else {
                    let key = result.tls13TicketsDiscarded > 0 ? "cli.connect.onlyDiscardedTickets" : "cli.connect.noSessionToWrite"
                    let note = words(key, ["path": sessionOut]) ?? sessionOut
                    FileHandle.standardError.write(Data("tlslab connect: \(note)\n".utf8))
                }
            }
        }
    }

    /// "host:port", "[v6]:port".
    static func split(_ target: String) throws -> (String, UInt16) {
        var host: Substring
        var portText: Substring
        if target.hasPrefix("["), let close = target.firstIndex(of: "]") {
            host = target[target.index(after: target.startIndex) ..< close]
            portText = target[close...].dropFirst().drop { $0 == ":" }
        } else if let colon = target.lastIndex(of: ":") {
            host = target[..<colon]
            portText = target[target.index(after: colon)...]
        } else {
            throw CLIError.input(.notHostPort(target: target))
        }
        guard !host.isEmpty, let port = UInt16(portText), port > 0 else {
            throw CLIError.input(.portOutOfRange(target: target))
        }
        return (String(host), port)
    }
}

/// The rendering options of `connect` and `serve`: --format and --verbosity as elsewhere, and a
/// hidden --seed that is refused with a reason (real connections use the system's random generator),
/// so --help does not offer it.
struct PeerRenderOptions: ParsableArguments {
    @Option(help: CLIWords.help("cli.peerRenderOptions.format"))
    var format: RenderOptions.Format = .text

    @Option(help: CLIWords.help("cli.peerRenderOptions.verbosity"))
    var verbosity: TextRenderer.Verbosity = .normal

    @Option(help: .hidden)
    var seed: String?

    /// `--lang`: the trace's sentences and the command's own lines (the log, the titles) in this language.
    @OptionGroup var language: LanguageOption

    /// The root command declares --seed too and may take the value itself, so the command line is
    /// looked at as well.
    func validateNoSeed() throws {
        let given = seed != nil || CommandLine.arguments.dropFirst().contains { $0 == "--seed" || $0.hasPrefix("--seed=") }
        if given { throw OptionProblem.seedDoesNotApply.validationError }
    }

    /// The root command declares --format and --verbosity too and takes their values (the root
    /// validated them), which left `connect --format json` printing text; so the command line is
    /// read as well, the last occurrence winning as in ArgumentParser.
    var effectiveFormat: RenderOptions.Format {
        Self.lastValue(of: "--format").flatMap(RenderOptions.Format.init(rawValue:)) ?? format
    }

    var effectiveVerbosity: TextRenderer.Verbosity {
        Self.lastValue(of: "--verbosity").flatMap(TextRenderer.Verbosity.init(rawValue:)) ?? verbosity
    }

    /// The value given to `name` (`--name value` or `--name=value`), last one first; nil when absent.
    static func lastValue(of name: String, in arguments: [String] = Array(CommandLine.arguments.dropFirst())) -> String? {
        var value: String?
        var i = 0
        while i < arguments.count {
            let argument = arguments[i]
            if argument == "--" { break }
            if argument == name, i + 1 < arguments.count {
                value = arguments[i + 1]
                i += 1
            } else if argument.hasPrefix(name + "=") {
                value = String(argument.dropFirst(name.count + 1))
            }
            i += 1
        }
        return value
    }
}

/// What `connect` and `serve` share.
enum PeerOptions {
    /// `--alpn h2,http/1.1`: the ALPN protocol names (RFC 7301), or none without the option.
    static func alpn(_ text: String?) throws -> [ProtocolName] {
        guard let text else { return [] }
        guard let names = ProtocolName.list(text) else {
            throw OptionProblem.alpnList.validationError
        }
        return names
    }

    /// What `--suite` names, split by version (a TLS 1.3 suite is used only in TLS 1.3, a TLS 1.2 one
    /// only in TLS 1.2, RFC 8446 Appendix B.4); without the option, `defaults` and the three TLS 1.3 suites.
    struct SuiteChoice {
        var tls12: [CipherSuite]
        var tls13: [TLS13CipherSuite]
        /// The `--suite` names as given (empty without the option).
        var names: [String]

        /// The versions the list leaves of `offer`: a version none of whose suites is listed drops out.
        /// A list that leaves none is an option error naming the suites and the version asked for.
        func versions(_ offer: (tls12: Bool, tls13: Bool), tls: String) throws -> (tls12: Bool, tls13: Bool) {
            guard !names.isEmpty else { return offer }
            let left = (tls12: offer.tls12 && !tls12.isEmpty, tls13: offer.tls13 && !tls13.isEmpty)
            guard left.tls12 || left.tls13 else {
                throw OptionProblem.suitesOfAnotherVersion(suites: names, tls: tls, suitesVersion: tls13.isEmpty ? "1.2" : "1.3").validationError
            }
            return left
        }
    }

    /// `--suite` names (IANA or OpenSSL, TLS 1.2 and TLS 1.3), or the defaults without the option.
    static func suites(_ names: [String], defaults: [CipherSuite] = CipherSuite.implemented) throws -> SuiteChoice {
        guard !names.isEmpty else { return SuiteChoice(tls12: defaults, tls13: TLS13CipherSuite.allCases, names: []) }
        var choice = SuiteChoice(tls12: [], tls13: [], names: names)
        for name in names {
            if let suite = SuiteNames.tls13Suite(named: name) {
                choice.tls13.append(suite)
            } else if let suite = SuiteNames.suite(named: name) {
                choice.tls12.append(suite)
            } else {
                throw CLIError.input(.unknownSuite(name: name, known: SuiteNames.known))
            }
        }
        return choice
    }

    static func print(_ trace: Trace, format: RenderOptions.Format, verbosity: TextRenderer.Verbosity, title: String,
                      explanations: Explanations = .english) {
        let lines: [String]
        switch format {
        case .json:
            lines = JSONLinesRenderer().render(trace)
        case .text:
            lines = [title] + TextRenderer(verbosity: verbosity, width: Terminal.columns ?? 100, color: textColor,
                                            explanations: explanations).render(trace)
        }
        Swift.print(lines.joined(separator: "\n"))
        fflush(nil)  // every stream: stdout is a C global Swift 6 will not touch
    }

    /// A heading after the trace (the HTTP response's), drawn as the trace's own headings are: the
    /// same rule, width and colour.
    static func heading(_ title: String, explanations: Explanations = .english) -> String {
        TextRenderer(width: Terminal.columns ?? 100, color: textColor, explanations: explanations).heading(title)
    }

    /// Colour for the text trace: on a terminal, unless NO_COLOR is set.
    static var textColor: Bool { Terminal.stdoutIsTerminal && ProcessInfo.processInfo.environment["NO_COLOR"] == nil }

    /// Appends one connection's secrets to a key log, created readable by its owner only (it
    /// decrypts the connection); never through a link, never over a directory.
    static func appendKeyLog(_ entry: KeyLogEntry, to path: String, _ words: Explanations) throws {
        let text = entry.keyLogText
        let line = text.split(separator: "\n").filter { !$0.hasPrefix("#") }.joined(separator: "\n") + "\n"
        do { try OutputFile.append(Array(line.utf8), to: path, access: .ownerOnly) } catch { throw CLIError.file(error, words) }
    }
}

extension KeyLogEntry {
    /// The connection's key log lines, with the format's comment line first.
    var keyLogText: String {
        switch secrets {
        case .tls12(let masterSecret):
            KeyLogWriter.text([KeyLogWriter.Session(clientRandom: clientRandom, masterSecret: masterSecret)])
        case .tls13(let steps):
            KeyLogWriter.text(tls13: [KeyLogWriter.TLS13Session(clientRandom: clientRandom, secrets: steps)])
        }
    }
}
