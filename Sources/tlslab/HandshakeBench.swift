import ArgumentParser
import Foundation
import HTTP2
import Simulation
import TLSCrypto
import TLSEngine
import Trace

/// The key exchanges `tlslab bench handshake` measures, with the same suite on both sides.
enum HandshakeKind: String, ExpressibleByArgument, CaseIterable {
    case rsa, dhe, ecdhe

    var label: String {
        switch self {
        case .rsa: return "RSA-2048 key exchange"
        case .dhe: return "DHE ffdhe2048"
        case .ecdhe: return "ECDHE X25519"
        }
    }

    /// The OpenSSL name of the suite the built-in run uses (AES-128-GCM, SHA-256, RSA-2048 certificate).
    var opensslCipher: String {
        switch self {
        case .rsa: return "AES128-GCM-SHA256"
        case .dhe: return "DHE-RSA-AES128-GCM-SHA256"
        case .ecdhe: return "ECDHE-RSA-AES128-GCM-SHA256"
        }
    }

    /// The built-in run's setup (demo PKI parsed once, so keys are pre-generated); DHE uses ffdhe2048.
    func setup(seed: UInt64) throws -> SimulationSetup {
        let run: BuiltInRun = switch self { case .rsa: .rsa; case .dhe: .dhe; case .ecdhe: .ecdhe }
        var setup = try run.setup(seed: seed)
        setup.server.dhGroup = .ffdhe2048
        return setup
    }
}

/// The DHE private exponent size of a benchmark run: `short` (256 bits, the default: RFC 7919 §5.2;
/// OpenSSL 3 uses 225 bits for ffdhe2048 on both ends) or `full` (uniform below p − 1: what full-size
/// exponents cost, which OpenSSL does not pay).
enum DHExponentSetting: String, ExpressibleByArgument, CaseIterable, Codable {
    case short, full

    var exponentSize: DHKeyPair.ExponentSize {
        switch self {
        case .short: return .bits(256)
        case .full: return .full
        }
    }

    var label: String {
        switch self {
        case .short: return "256-bit exponents"
        case .full: return "full-size exponents"
        }
    }
}

/// One row of the handshake benchmark: a key exchange, and for DHE the exponent size.
struct HandshakeVariant: Hashable {
    var kind: HandshakeKind
    var dhExponent: DHExponentSetting?

    var label: String {
        guard kind == .dhe, let dhExponent else { return kind.label }
        return "\(kind.label), \(dhExponent.label)"
    }

    /// The built-in run's setup with this variant's exponent size on both sides.
    func setup(seed: UInt64) throws -> SimulationSetup {
        var setup = try kind.setup(seed: seed)
        if let dhExponent {
            setup.server.dhExponentSize = dhExponent.exponentSize
            setup.client.dhExponentSize = dhExponent.exponentSize
        }
        return setup
    }

    /// The child command line that measures this variant (`tlslab bench handshake-child …`).
    func childArguments(seconds: Int, iterations: Int?) -> [String] {
        ["bench", "handshake-child", "--kx", kind.rawValue, "--seconds", "\(seconds)"]
            + (dhExponent.map { ["--dh-exponent", $0.rawValue] } ?? [])
            + (iterations.map { ["--iterations", "\($0)"] } ?? [])
    }
}

/// `tlslab bench handshake`: complete simulated connections per second — both TLS endpoints, the
/// TCP simulator between them and the record layer in one process — beside `openssl s_time -new`
/// against `openssl s_server` on loopback with the same suite.
struct HandshakeBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "handshake",
        abstract: CLIWords.text("cli.handshakeBenchCommand.abstract")
    )

    @Option(help: CLIWords.help("cli.handshakeBenchCommand.seconds"))
    var seconds: Int = 5

    @Option(help: CLIWords.help("cli.cryptoBenchCommand.runs"))
    var runs: Int = 3

    @Option(name: .customLong("kx"), help: CLIWords.help("cli.handshakeBenchCommand.kinds"))
    var kinds: [HandshakeKind] = []

    @Option(help: CLIWords.help("cli.handshakeBenchCommand.iterations"))
    var iterations: Int?

    @Option(name: .customLong("dh-exponent"),
            help: CLIWords.help("cli.handshakeBenchCommand.dhExponents"))
    var dhExponents: [DHExponentSetting] = []

    @Flag(help: CLIWords.help("cli.cryptoBenchCommand.noOpenssl"))
    var noOpenssl = false

    /// `--format text|json`: the root command's option, which ArgumentParser hands down by type.
    @OptionGroup(visibility: .hidden) var options: RenderOptions
    var format: BenchFormat { BenchFormat(options.format) }

    func validate() throws {
        guard (1...60).contains(seconds) else { throw OptionProblem.mustBe(option: "--seconds", range: "1…60").validationError }
        guard (1...20).contains(runs) else { throw OptionProblem.mustBe(option: "--runs", range: "1…20").validationError }
        if let iterations, !(1...1_000_000).contains(iterations) { throw OptionProblem.mustBe(option: "--iterations", range: "1…1000000").validationError }
    }

    /// The rows: each key exchange once, DHE once per exponent size.
    var variants: [HandshakeVariant] {
        let kinds = self.kinds.isEmpty ? HandshakeKind.allCases : self.kinds
        let exponents = dhExponents.isEmpty ? DHExponentSetting.allCases : dhExponents
        return kinds.flatMap { kind in
            kind == .dhe ? exponents.map { HandshakeVariant(kind: kind, dhExponent: $0) } : [HandshakeVariant(kind: kind)]
        }
    }

    func run() throws {
        let variants = self.variants
        let kinds = variants.map(\.kind).reduce(into: [HandshakeKind]()) { if !$0.contains($1) { $0.append($1) } }
        let openssl = noOpenssl ? nil : OpenSSLSpeed.locate()
        let server = try openssl.map { try OpenSSLLoopback(openssl: $0) }
        defer { server?.removeFiles() }
        var ours: [HandshakeVariant: [HandshakeBench.Measurement]] = [:]
        var theirs: [HandshakeKind: [OpenSSLLoopback.Measurement]] = [:]
        for run in 1...runs {
            if format == .text { FileHandle.standardError.write(Data("run \(run)/\(runs)…\n".utf8)) }
            for kind in kinds {
                // Ours and OpenSSL alternate so that both see the same machine load. Each of our rows runs
                // in its own child process, so that its peak memory is its own.
                for variant in variants where variant.kind == kind {
                    ours[variant, default: []].append(try HandshakeBench.Measurement.inChild(variant, seconds: seconds, iterations: iterations))
                }
                if let server { theirs[kind, default: []].append(try server.measure(kind, seconds: seconds)) }
            }
        }
        var rows: [BenchRow] = []
        for variant in variants {
            let mine = ours[variant] ?? [], other = theirs[variant.kind]
            // The target applies where both do the same work: short exponents on both ends, each
            // peer value fully validated. Full-size exponents are ours alone (shown, not judged).
            let comparable = variant.dhExponent != .full
            let target = BenchTarget.ratio(atLeast: 1.0)
            let wall = BenchRow(operation: "full handshake, \(variant.label) (wall clock)", unit: "handshakes/s",
                                ours: BenchSummary(mine.map(\.wallRate)), openssl: other.map { BenchSummary($0.map(\.wallRate)) },
                                peakMemoryKiB: mine.compactMap(\.peakKiB).max(), opensslPeakMemoryKiB: other?.compactMap(\.peakKiB).max())
            let cpu = BenchRow(operation: "full handshake, \(variant.label) (CPU time, both ends)", unit: "handshakes/s",
                               ours: BenchSummary(mine.map(\.cpuRate)), openssl: other.map { BenchSummary($0.map(\.cpuRate)) })
            rows.append(comparable ? wall.judged(by: target) : wall)
            rows.append(comparable ? cpu.judged(by: target) : cpu)
        }
        let report = BenchReport(
            benchmark: "handshake",
            settings: ["seconds": "\(seconds)", "runs": "\(runs)", "iterations": iterations.map(String.init) ?? "time-bound",
                       "kx": kinds.map(\.rawValue).joined(separator: ","),
                       "dhExponent": variants.compactMap(\.dhExponent).map(\.rawValue).joined(separator: ",")],
            rows: rows,
            notes: [
                "Ours: one complete simulated connection per handshake in one thread — TCP three-way handshake, TLS 1.2 "
                    + "full handshake (AES-128-GCM, extended master secret, chain validation), one HTTP request and response "
                    + "as encrypted records, close_notify both ways, TCP close — with the trace events the engine records; "
                    + "no rendering. The demo PKI is parsed once; ephemeral (EC)DHE keys are made per handshake. Each row "
                    + "runs in its own child process (`tlslab bench handshake-child`): its peak RSS is that child's.",
                "OpenSSL: openssl s_time -new -time S against openssl s_server -tls1_2 on 127.0.0.1, same suite "
                    + "(DHE with -dhparam ffdhe2048, ECDHE with -groups X25519), the same demo certificate and key; "
                    + "client and server are separate processes (two cores), no application data. Both DHE rows compare "
                    + "with the same OpenSSL measurement.",
                "DHE: `--dh-exponent short` (256-bit private exponents; RFC 7919 §5.2 asks for at least 225) is the "
                    + "comparison: OpenSSL 3 recognises ffdhe2048 from p and g and draws 225-bit exponents on both ends, "
                    + "and each end checks the peer's value with y^q mod p = 1 — a 2047-bit exponentiation, most of "
                    + "OpenSSL's DHE cost — as ours does. `full` (uniform below p − 1) shows what full-size exponents "
                    + "cost; OpenSSL does not use them, so that row has no target.",
                "CPU-time rows divide by the CPU seconds both ends spent (ours: the child's measuring thread; OpenSSL: "
                    + "s_time and s_server, user + system, kernel loopback TCP included). Peak RSS OpenSSL = s_server + s_time.",
            ])
        try report.print(format)
    }
}

/// `tlslab bench handshake-child --kx K [--dh-exponent E]`: one measurement of our handshakes in this
/// process, printed as JSON with this process's peak memory (the child of `bench handshake`).
struct HandshakeChildCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "handshake-child", abstract: CLIWords.text("cli.handshakeChildCommand.abstract"), shouldDisplay: false)

    @Option(name: .customLong("kx")) var kind: HandshakeKind = .ecdhe
    @Option(name: .customLong("dh-exponent")) var dhExponent: DHExponentSetting?
    @Option var seconds: Int = 5
    @Option var iterations: Int?

    func validate() throws {
        guard (1...60).contains(seconds) else { throw OptionProblem.mustBe(option: "--seconds", range: "1…60").validationError }
        if let iterations, !(1...1_000_000).contains(iterations) { throw OptionProblem.mustBe(option: "--iterations", range: "1…1000000").validationError }
    }

    func run() throws {
        var measurement = try HandshakeBench(variant: HandshakeVariant(kind: kind, dhExponent: kind == .dhe ? (dhExponent ?? .short) : nil))
            .measure(seconds: Double(seconds), iterations: iterations)
        measurement.peakKiB = ProcMemory.field("VmHWM")
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        print(String(decoding: try encoder.encode(measurement), as: UTF8.self))
    }
}

/// Our side: the built-in run for one key exchange, repeated.
struct HandshakeBench {
    struct Measurement: Codable {
        var handshakes: Int
        var wallRate: Double
        var cpuRate: Double
        /// The measuring process's peak resident set, KiB.
        var peakKiB: Int?

        /// Measures `variant` in a child process (`tlslab bench handshake-child`).
        static func inChild(_ variant: HandshakeVariant, seconds: Int, iterations: Int?) throws -> Measurement {
            let child = try ChildProcess(ChildProcess.ownExecutable, variant.childArguments(seconds: seconds, iterations: iterations),
                                         inheritStderr: true)
            let outcome = child.wait()
            guard outcome.exitStatus == 0 else {
                throw CLIError.failed("bench handshake-child (\(variant.label)) exited with status \(outcome.exitStatus)")
            }
            do {
                var measurement = try JSONDecoder().decode(Measurement.self, from: Data(outcome.stdout))
                measurement.peakKiB = measurement.peakKiB ?? outcome.maxRSSKiB
                return measurement
            } catch {
                throw CLIError.failed("bench handshake-child (\(variant.label)): unreadable output \(outcome.stdoutText.prefix(200))")
            }
        }
    }

    enum Failure: Error, CustomStringConvertible {
        case notSuccessful(String, String)
        var description: String {
            switch self {
            case .notSuccessful(let label, let outcome): return "the \(label) benchmark run did not succeed: \(outcome)"
            }
        }
    }

    let variant: HandshakeVariant
    let setup: SimulationSetup

    init(variant: HandshakeVariant) throws {
        self.variant = variant
        setup = try variant.setup(seed: 1)
    }

    /// One complete simulated connection; throws unless both sides finished the handshake.
    func once() throws {
        let outcome = Simulation(setup).run().summary.outcome
        guard outcome == "success" else { throw Failure.notSuccessful(variant.label, outcome) }
    }

    /// Runs for `seconds` of wall-clock time (or exactly `iterations` handshakes).
    func measure(seconds: Double, iterations: Int? = nil) throws -> Measurement {
        try once()  // warm-up, and proof that the run succeeds
        let clock = ContinuousClock()
        let start = clock.now, cpuStart = CPUTime.thread()
        let budget = Duration.milliseconds(Int64(seconds * 1000))
        var count = 0
        repeat {
            try once()
            count += 1
        } while iterations.map { count < $0 } ?? (clock.now - start < budget)
        let wall = (clock.now - start).benchSeconds, cpu = CPUTime.thread() - cpuStart
        return Measurement(handshakes: count, wallRate: Double(count) / wall, cpuRate: Double(count) / max(cpu, 1e-9),
                           peakKiB: nil)
    }
}

/// OpenSSL's side: `openssl s_server` on a free loopback port and `openssl s_time -new` against it.
struct OpenSSLLoopback {
    struct Measurement {
        var handshakes: Int
        var wallRate: Double
        var cpuRate: Double
        var peakKiB: Int?
    }

    enum Failure: Error, CustomStringConvertible {
        case setup(String)
        case noPort
        case serverDidNotStart(HandshakeKind)
        case unparsable(String)
        var description: String {
            switch self {
            case .setup(let why): return "cannot prepare the OpenSSL server: \(why)"
            case .noPort: return "no free loopback port"
            case .serverDidNotStart(let kind): return "openssl s_server (\(kind.rawValue)) did not start listening"
            case .unparsable(let output): return "cannot read openssl s_time's output: \(output.prefix(200))"
            }
        }
    }

    let openssl: String
    let directory: URL

    init(openssl: String) throws {
        self.openssl = openssl
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("tlslab-bench-\(UUID().uuidString)")
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try Data(DemoPKI.serverCertificatePEM.utf8).write(to: directory.appendingPathComponent("cert.pem"))
            try Data(DemoPKI.serverKeyPEM.utf8).write(to: directory.appendingPathComponent("key.pem"))
            try Data(Self.ffdhe2048PEM.utf8).write(to: directory.appendingPathComponent("ffdhe2048.pem"))
        } catch {
            throw Failure.setup("\(error)")
        }
    }

    func removeFiles() { try? FileManager.default.removeItem(at: directory) }

    /// RFC 7919 ffdhe2048 as OpenSSL writes it (`openssl genpkey -genparam -algorithm DH -pkeyopt group:ffdhe2048`).
    static var ffdhe2048PEM: String {
        var der: [UInt8] = [0x30, 0x82, 0x01, 0x08, 0x02, 0x82, 0x01, 0x01, 0x00]
        der += DHGroup.ffdhe2048.p.bigEndianBytes   // 256 bytes, top bit set: hence the 00 above
        der += [0x02, 0x01, 0x02]
        let base64 = Data(der).base64EncodedString(options: [.lineLength64Characters, .endLineWithLineFeed])
        return "-----BEGIN DH PARAMETERS-----\n\(base64)\n-----END DH PARAMETERS-----\n"
    }

    func measure(_ kind: HandshakeKind, seconds: Int) throws -> Measurement {
        guard let port = LoopbackPort.free() else { throw Failure.noPort }
        var serverArguments = ["s_server", "-accept", "127.0.0.1:\(port)", "-quiet", "-tls1_2", "-no_ticket",
                               "-cert", directory.appendingPathComponent("cert.pem").path,
                               "-key", directory.appendingPathComponent("key.pem").path, "-cipher", kind.opensslCipher]
        switch kind {
        case .rsa: break
        case .dhe: serverArguments += ["-dhparam", directory.appendingPathComponent("ffdhe2048.pem").path]
        case .ecdhe: serverArguments += ["-groups", "X25519"]
        }
        let server = try ChildProcess(openssl, serverArguments, captureOutput: false)
        var stopped = false
        defer { if !stopped { _ = server.terminate() } }
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(5)
        while !LoopbackPort.accepts(port) {
            guard clock.now < deadline else { throw Failure.serverDidNotStart(kind) }
            usleep(20_000)
        }
        let serverCPUBefore = server.cpuSoFar()
        let client = try ChildProcess(openssl, ["s_time", "-connect", "127.0.0.1:\(port)", "-new", "-time", "\(seconds)",
                                                "-cipher", kind.opensslCipher])
        let result = client.wait()
        let serverCPU = server.cpuSoFar() - serverCPUBefore
        let ended = server.terminate()
        stopped = true
        // "212 connections in 1.14s; 185.96 connections/user sec, bytes read 0"
        guard let line = result.stdoutText.split(separator: "\n").first(where: { $0.contains("connections in") && $0.contains("user sec") }),
              let count = Int(line.split(separator: " ").first ?? "")
        else { throw Failure.unparsable(result.stdoutText) }
        let cpu = result.userCPU + result.systemCPU + serverCPU
        return Measurement(handshakes: count, wallRate: Double(count) / result.wall, cpuRate: Double(count) / max(cpu, 1e-9),
                           peakKiB: ended.maxRSSKiB + result.maxRSSKiB)
    }
}
