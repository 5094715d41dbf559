import ArgumentParser
import Foundation
import PKI
import RealPeer
import Rendering
import Simulation
import TLSCrypto
import TLSEngine

/// `tlslab connect HOST:PORT`: the simulation's client state machine against a real server over a
/// real socket, traced like a simulation (the TCP layer only as far as the socket shows it).
struct ConnectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "connect",
        abstract: "Complete a real TLS 1.2 handshake with a server, send an HTTP request and trace it.",
        discussion: """
        The TLS layer is traced exactly as in a simulation. The TCP layer is what a socket lets us see
        (connect, bytes read and written, close) — no sequence numbers: the kernel keeps those.
        Exit codes: 0 success, 1 the handshake or the request failed (one line on standard error), 2 bad input.
        """
    )

    enum Policy: String, ExpressibleByArgument, CaseIterable {
        /// The chain must reach an anchor of --ca, be valid now and name the host (the simulation's default).
        case `default`
        /// Nothing is checked (AFSecurityPolicy allowInvalidCertificates YES, validatesDomainName NO).
        case none
    }

    @Argument(help: "HOST:PORT (a name, an IPv4 address, or [IPv6]:PORT).")
    var target: String

    @Option(help: "server_name to send and the name the certificate must match (default: HOST when it is a name).")
    var servername: String?

    @Option(name: .customLong("suite"), help: "A cipher suite to offer (IANA or OpenSSL name); repeat for several. Default: all TLSLab implements.")
    var suites: [String] = []

    @Option(help: "PEM file of trust anchors for the default policy.")
    var ca: String?

    @Option(help: "Trust policy: default (chain to --ca, validity, host name) or none (accept anything; for watching only).")
    var policy: Policy = .default

    @Option(help: "Client certificate chain (PEM) for mutual TLS.")
    var cert: String?

    @Option(help: "The key of --cert (PKCS#1 or PKCS#8 PEM).")
    var key: String?

    @Option(help: "The HTTP request to send after the handshake (\\r\\n escapes allowed; '' for none). Default: GET / for HOST.")
    var request: String?

    @Option(help: "Append the session's secrets to FILE in NSS key log format (for Wireshark).")
    var keylog: String?

    /// --format and --verbosity, shared with the root command (which parses them too); --seed does
    /// not apply: real connections use the system's random generator.
    @OptionGroup var render: RenderOptions

    @Option(help: "Seconds to wait for the server at each step.")
    var timeout: Int = 10

    func validate() throws {
        if render.seed != "1" { throw ValidationError("--seed does not apply: real connections use the system random generator") }
        if (cert == nil) != (key == nil) { throw ValidationError("--cert and --key go together") }
        if timeout <= 0 || timeout > 3_600 { throw ValidationError("--timeout takes 1…3600 seconds") }
    }

    func run() throws {
        let (host, port) = try Self.split(target)
        let isAddress = host.contains(":") || host.split(separator: ".").count == 4 && host.allSatisfy { $0.isNumber || $0 == "." }
        let name = servername ?? (isAddress ? nil : host)

        let offered: [CipherSuite]
        do { offered = try PeerOptions.suites(suites) } catch { throw CLIError.badInput("\(error)") }
        let evaluator: any PeerCertificateEvaluator
        switch policy {
        case .none:
            evaluator = AcceptAnyCertificate()
        case .default:
            let anchors: [X509Certificate]
            do { anchors = try ca.map { try PeerFiles.certificates(at: $0) } ?? [] } catch { throw CLIError.badInput("\(error)") }
            // Without --servername, an address is the name the certificate must carry (an IP SAN).
            evaluator = CheckedName(inner: PeerFiles.chainEvaluator(anchors: anchors, storeName: ca ?? "no anchors (use --ca)"),
                                    name: name ?? host)
        }
        var identity: TLSIdentity?
        if let cert, let key {
            do { identity = try PeerFiles.identity(certificate: cert, key: key) } catch { throw CLIError.badInput("\(error)") }
        }
        let configuration = TLSClientConfiguration(certificateEvaluator: evaluator, random: SystemRandom(),
                                                   cipherSuites: offered, serverName: name,
                                                   signatureAlgorithms: RealClient.openSSLSignatureOrder, identity: identity)
        let text: String? = request.map { $0.replacingOccurrences(of: "\\r", with: "\r").replacingOccurrences(of: "\\n", with: "\n") }
        let httpRequest = text.map { $0.isEmpty ? nil : $0 }
            ?? "GET / HTTP/1.1\r\nHost: \(name ?? host)\r\nConnection: close\r\n\r\n"
        let client = RealClient(host: host, port: port, configuration: configuration, request: httpRequest,
                                timeoutMilliseconds: Int32(timeout * 1_000))
        let result = client.run()

        PeerOptions.print(result.trace, format: render.format, verbosity: render.verbosity,
                          title: "TLSLab — connect \(host):\(port): a real server, the TLS layer exactly as in a simulation")
        if let keylog, let entry = result.keyLog { try PeerOptions.appendKeyLog(entry, to: keylog) }
        if render.format == .text, let response = result.response, !response.isEmpty {
            print("\n── HTTP response " + String(repeating: "─", count: 44))
            print(response)
        }
        if let failure = result.failure { throw CLIError.failed("connect \(host):\(port): \(failure)") }
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
            throw CLIError.badInput("expected HOST:PORT, got '\(target)'")
        }
        guard !host.isEmpty, let port = UInt16(portText), port > 0 else {
            throw CLIError.badInput("expected HOST:PORT with a port 1…65535, got '\(target)'")
        }
        return (String(host), port)
    }
}

/// Checks the server's chain against a fixed name (the --servername, or the address dialled).
struct CheckedName: PeerCertificateEvaluator {
    var inner: any PeerCertificateEvaluator
    var name: String

    func evaluate(chain: [[UInt8]], role: TLSRole, serverName: String?) -> CertificateDecision {
        inner.evaluate(chain: chain, role: role, serverName: serverName ?? name)
    }
}

/// What `connect` and `serve` share.
enum PeerOptions {
    static func suites(_ names: [String]) throws -> [CipherSuite] {
        guard !names.isEmpty else { return CipherSuite.implemented }
        return try names.map { name in
            guard let suite = SuiteNames.suite(named: name) else {
                throw CLIError.badInput("unknown or unimplemented suite '\(name)' (implemented: \(SuiteNames.known))")
            }
            return suite
        }
    }

    static func print(_ trace: Trace, format: RenderOptions.Format, verbosity: TextRenderer.Verbosity, title: String) {
        let lines: [String]
        switch format {
        case .json:
            lines = JSONLinesRenderer().render(trace)
        case .text:
            let color = Terminal.stdoutIsTerminal && ProcessInfo.processInfo.environment["NO_COLOR"] == nil
            lines = [title] + TextRenderer(verbosity: verbosity, width: Terminal.columns ?? 100, color: color).render(trace)
        }
        Swift.print(lines.joined(separator: "\n"))
        fflush(nil)  // every stream: stdout is a C global Swift 6 will not touch
    }

    static func appendKeyLog(_ entry: KeyLogEntry, to path: String) throws {
        let text = KeyLogWriter.text([KeyLogWriter.Session(clientRandom: entry.clientRandom, masterSecret: entry.masterSecret)])
        let line = text.split(separator: "\n").filter { !$0.hasPrefix("#") }.joined(separator: "\n") + "\n"
        if !FileManager.default.fileExists(atPath: path) {
            guard FileManager.default.createFile(atPath: path, contents: nil) else { throw CLIError.badInput("cannot create \(path)") }
        }
        guard let handle = FileHandle(forWritingAtPath: path) else { throw CLIError.badInput("cannot write \(path)") }
        defer { try? handle.close() }
        handle.seekToEndOfFile()
        handle.write(Data(line.utf8))
    }
}
