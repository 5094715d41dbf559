import Foundation
import Languages
import Simulation
import TLSCrypto
import TLSEngine
import Trace
#if canImport(Glibc)
import Glibc
#endif

/// The key exchanges `tlslab bench handshake` measures, with the same suite on both sides.
public enum HandshakeKind: String, CaseIterable, Codable, Sendable {
    case rsa, dhe, ecdhe

    /// The OpenSSL name of the suite the built-in run uses (AES-128-GCM, SHA-256, RSA-2048 certificate).
    public var opensslCipher: String {
        switch self {
        case .rsa: return "AES128-GCM-SHA256"
        case .dhe: return "DHE-RSA-AES128-GCM-SHA256"
        case .ecdhe: return "ECDHE-RSA-AES128-GCM-SHA256"
        }
    }

    /// The built-in run's setup (demo PKI parsed once, so keys are pre-generated); DHE uses ffdhe2048.
    public func setup(seed: UInt64) throws -> SimulationSetup {
        let run: BuiltInRun = switch self { case .rsa: .rsa; case .dhe: .dhe; case .ecdhe: .ecdhe }
        var setup: SimulationSetup
        do throws(BuiltInRun.SetupError) { setup = try run.setup(seed: seed) } catch {
            throw BuiltInRunSetupFailure(run: run, cause: error)
        }
        setup.server.dhGroup = .ffdhe2048
        return setup
    }
}

/// The DHE private exponent size of a benchmark run: `short` (256 bits, the default: RFC 7919 §5.2;
/// OpenSSL 3 uses 225 bits for ffdhe2048 on both ends) or `full` (uniform below p − 1: what full-size
/// exponents cost, which OpenSSL does not pay).
public enum DHExponentSetting: String, CaseIterable, Codable, Sendable {
    case short, full

    public var exponentSize: DHKeyPair.ExponentSize {
        switch self {
        case .short: return .bits(256)
        case .full: return .full
        }
    }
}

/// One row of the handshake benchmark: a key exchange, and for DHE the exponent size.
public struct HandshakeVariant: Hashable, Codable, Sendable {
    public var kind: HandshakeKind
    public var dhExponent: DHExponentSetting?

    public init(kind: HandshakeKind, dhExponent: DHExponentSetting? = nil) {
        self.kind = kind
        self.dhExponent = dhExponent
    }

    /// The variant as its command-line values (`dhe/short`), for error messages.
    public var label: String {
        guard kind == .dhe, let dhExponent else { return kind.rawValue }
        return "\(kind.rawValue)/\(dhExponent.rawValue)"
    }

    /// The built-in run's setup with this variant's exponent size on both sides.
    public func setup(seed: UInt64) throws -> SimulationSetup {
        var setup = try kind.setup(seed: seed)
        if let dhExponent {
            setup.server.dhExponentSize = dhExponent.exponentSize
            setup.client.dhExponentSize = dhExponent.exponentSize
        }
        return setup
    }

    /// The child command line that measures this variant (`tlslab bench handshake-child …`).
    public func childArguments(seconds: Int, iterations: Int?) -> [String] {
        ["bench", "handshake-child", "--kx", kind.rawValue, "--seconds", "\(seconds)"]
            + (dhExponent.map { ["--dh-exponent", $0.rawValue] } ?? [])
            + (iterations.map { ["--iterations", "\($0)"] } ?? [])
    }
}

/// Our side: the built-in run for one key exchange, repeated.
public struct HandshakeBench {
    public struct Measurement: Codable {
        public var handshakes: Int
        public var wallRate: Double
        public var cpuRate: Double
        /// The measuring process's peak resident set, KiB.
        public var peakKiB: Int?

        /// Measures `variant` in a child process (`tlslab bench handshake-child`); its standard error
        /// (a person reads it) in `language`.
        public static func inChild(_ variant: HandshakeVariant, seconds: Int, iterations: Int?, language: Language) throws -> Measurement {
            let child = try ChildProcess(ChildProcess.ownExecutable, variant.childArguments(seconds: seconds, iterations: iterations),
                                         inheritStderr: true, environment: ChildProcess.languageEnvironment(language))
            let outcome = child.wait()
            guard outcome.exitStatus == 0 else {
                throw BenchFailure.handshakeChildExited(variant, status: outcome.exitStatus)
            }
            do {
                var measurement = try JSONDecoder().decode(Measurement.self, from: Data(outcome.stdout))
                measurement.peakKiB = measurement.peakKiB ?? outcome.maxRSSKiB
                return measurement
            } catch {
                throw BenchFailure.handshakeChildOutputUnreadable(variant, excerpt: String(outcome.stdoutText.prefix(200)))
            }
        }
    }

    /// Why a measurement stopped, as data (worded by the command line, `cli.bench.failure.*`).
    public enum Failure: Error, Sendable, Hashable {
        /// The built-in run of `variant` did not end in a completed handshake; `outcome` is the run
        /// summary's outcome word (`failed`, `incomplete` or the alert's name).
        case notSuccessful(HandshakeVariant, outcome: String)
    }

    public let variant: HandshakeVariant
    public let setup: SimulationSetup

    public init(variant: HandshakeVariant) throws {
        self.variant = variant
        setup = try variant.setup(seed: 1)
    }

    /// One complete simulated connection; throws unless both sides finished the handshake.
    public func once() throws {
        let outcome = Simulation(setup).run().summary.outcome
        guard outcome == "success" else { throw Failure.notSuccessful(variant, outcome: outcome) }
    }

    /// Runs for `seconds` of wall-clock time (or exactly `iterations` handshakes).
    public func measure(seconds: Double, iterations: Int? = nil) throws -> Measurement {
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
public struct OpenSSLLoopback {
    public struct Measurement {
        public var handshakes: Int
        public var wallRate: Double
        public var cpuRate: Double
        public var peakKiB: Int?
    }

    /// Why OpenSSL's side could not be measured, as data (worded by the command line, `cli.bench.failure.*`).
    public enum Failure: Error, Sendable, Hashable {
        /// The certificate, key or DH parameters could not be written under `directory`; `code` is the
        /// errno the file system gave, when it gave one.
        case setup(directory: String, code: Int32?)
        /// No free port on 127.0.0.1.
        case noPort
        /// `openssl s_server` for this key exchange was not accepting connections within 5 s.
        case serverDidNotStart(HandshakeKind)
        /// `openssl s_time` printed no "N connections in T s" line (`excerpt`: the first 200 characters it printed).
        case unparsable(excerpt: String)
    }

    public let openssl: String
    public let directory: URL

    public init(openssl: String) throws {
        self.openssl = openssl
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("tlslab-bench-\(UUID().uuidString)")
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try Data(DemoPKI.serverCertificatePEM.utf8).write(to: directory.appendingPathComponent("cert.pem"))
            try Data(DemoPKI.serverKeyPEM.utf8).write(to: directory.appendingPathComponent("key.pem"))
            try Data(Self.ffdhe2048PEM.utf8).write(to: directory.appendingPathComponent("ffdhe2048.pem"))
        } catch {
            let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
            throw Failure.setup(directory: directory.path,
                                code: underlying.flatMap { $0.domain == NSPOSIXErrorDomain ? Int32(truncatingIfNeeded: $0.code) : nil })
        }
    }

    public func removeFiles() { try? FileManager.default.removeItem(at: directory) }

    /// RFC 7919 ffdhe2048 as OpenSSL writes it (`openssl genpkey -genparam -algorithm DH -pkeyopt group:ffdhe2048`).
    public static var ffdhe2048PEM: String {
        var der: [UInt8] = [0x30, 0x82, 0x01, 0x08, 0x02, 0x82, 0x01, 0x01, 0x00]
        der += DHGroup.ffdhe2048.p.bigEndianBytes   // 256 bytes, top bit set: hence the 00 above
        der += [0x02, 0x01, 0x02]
        let base64 = Data(der).base64EncodedString(options: [.lineLength64Characters, .endLineWithLineFeed])
        return "-----BEGIN DH PARAMETERS-----\n\(base64)\n-----END DH PARAMETERS-----\n"
    }

    public func measure(_ kind: HandshakeKind, seconds: Int) throws -> Measurement {
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
        else { throw Failure.unparsable(excerpt: String(result.stdoutText.prefix(200))) }
        let cpu = result.userCPU + result.systemCPU + serverCPU
        return Measurement(handshakes: count, wallRate: Double(count) / result.wall, cpuRate: Double(count) / max(cpu, 1e-9),
                           peakKiB: ended.maxRSSKiB + result.maxRSSKiB)
    }
}
