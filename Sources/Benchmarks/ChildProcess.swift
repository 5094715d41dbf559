import Foundation
import Languages
#if canImport(Glibc)
import Glibc
#endif

/// A child process started with `posix_spawn` and reaped with `wait4`, so that the benchmarks get
/// what Foundation's `Process` hides: the child's own resource usage (peak resident set, CPU time)
/// and the moment its first output byte arrives.
public final class ChildProcess {
    /// Why a child could not be started, as data (worded by the command line, `cli.bench.failure.*`;
    /// an errno is described by the C library, strerror(3)).
    public enum Failure: Error, Sendable, Hashable {
        /// posix_spawn of this path failed with this errno.
        case spawn(String, Int32)
        /// pipe(2) failed with this errno.
        case pipe(Int32)
    }

    /// What a finished child left behind.
    public struct Outcome {
        public var exitStatus: Int32
        /// Set when a signal ended the child.
        public var signal: Int32?
        public var stdout: [UInt8]
        /// Seconds from spawn to the first byte on standard output (nil: it wrote nothing).
        public var firstByte: Double?
        /// Seconds from spawn to exit.
        public var wall: Double
        public var userCPU: Double
        public var systemCPU: Double
        /// The child's peak resident set (`ru_maxrss`), KiB.
        public var maxRSSKiB: Int
        public var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
    }

    public let pid: pid_t
    private let readFD: Int32?
    private let started: ContinuousClock.Instant
    private let clock = ContinuousClock()

    /// Starts `path` with `arguments` and this process's environment with `environment`'s variables
    /// set over it. Standard output goes to a pipe (or /dev/null with `captureOutput: false`);
    /// standard error to /dev/null unless `inheritStderr`.
    public init(_ path: String, _ arguments: [String], captureOutput: Bool = true, inheritStderr: Bool = false,
                environment: [String: String] = [:]) throws {
        var fds: [Int32] = [-1, -1]
        if captureOutput {
            guard pipe(&fds) == 0 else { throw Failure.pipe(errno) }
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if captureOutput {
            posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
            posix_spawn_file_actions_addclose(&actions, fds[0])
            posix_spawn_file_actions_addclose(&actions, fds[1])
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        if !inheritStderr { posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0) }
        let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let envp: [UnsafeMutablePointer<CChar>?] = Self.environment(environment).map { strdup($0) } + [nil]
        defer { envp.forEach { free($0) } }
        var child: pid_t = 0
        started = clock.now
        let code = posix_spawn(&child, path, &actions, nil, argv, envp)
        if captureOutput { close(fds[1]) }
        guard code == 0 else {
            if captureOutput { close(fds[0]) }
            throw Failure.spawn(path, code)
        }
        pid = child
        readFD = captureOutput ? fds[0] : nil
    }

    deinit {
        if let readFD { close(readFD) }
    }

    /// A child's environment, `NAME=value` each: `base` (this process's) with `overrides` set over it.
    public static func environment(_ overrides: [String: String],
                                   base: [String: String] = ProcessInfo.processInfo.environment) -> [String] {
        base.merging(overrides) { _, new in new }.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
    }

    /// What a tlslab child needs to speak the parent's language: `TLSLAB_LANG` outranks the locale in
    /// the child (``Language/chosen(flag:environment:)``), so the parent's `--lang` reaches it too.
    public static func languageEnvironment(_ language: Language) -> [String: String] {
        ["TLSLAB_LANG": language.rawValue]
    }

    /// Reads standard output to its end, then reaps the child.
    public func wait() -> Outcome {
        var output: [UInt8] = []
        var firstByte: Double?
        if let readFD {
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let n = buffer.withUnsafeMutableBytes { read(readFD, $0.baseAddress, $0.count) }
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { break }
                if firstByte == nil { firstByte = (clock.now - started).benchSeconds }
                output += buffer[0..<n]
            }
        }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        let wall = (clock.now - started).benchSeconds
        let signalled = status & 0x7f
        return Outcome(
            exitStatus: signalled == 0 ? (status >> 8) & 0xff : 128 + signalled,
            signal: signalled == 0 ? nil : signalled,
            stdout: output, firstByte: firstByte, wall: wall,
            userCPU: Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) * 1e-6,
            systemCPU: Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) * 1e-6,
            maxRSSKiB: usage.ru_maxrss)
    }

    /// Sends SIGTERM and reaps the child.
    public func terminate() -> Outcome {
        kill(pid, SIGTERM)
        return wait()
    }

    /// This child's CPU time so far (user + system, from /proc; Linux only, else 0).
    public func cpuSoFar() -> Double {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return 0 }
        // Fields after "(comm)": state is field 3, utime 14, stime 15.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// This child's peak resident set so far, KiB (VmHWM from /proc; nil elsewhere).
    public func peakRSSSoFar() -> Int? { ProcMemory.field("VmHWM", pid: "\(pid)") }

    /// The path of the running `tlslab` executable.
    public static var ownExecutable: String {
        if let resolved = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { return resolved }
        return URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL.path
    }

    /// The first executable called `name` on the PATH.
    public static func locate(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }
}

/// Memory figures of a process from /proc/PID/status (Linux).
public enum ProcMemory {
    /// A "kB" field of /proc/PID/status (VmHWM: peak resident set, VmRSS: current), KiB.
    public static func field(_ name: String, pid: String = "self") -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix(name + ":") {
            return Int(line.dropFirst(name.count + 1).split(whereSeparator: { $0 == " " || $0 == "\t" }).first ?? "")
        }
        return nil
    }
}

/// A TCP port on 127.0.0.1 that was free a moment ago (bound, then released): any port the kernel
/// picks, or the first free one in `TLSLAB_BENCH_PORTS=LOW-HIGH` when that is set (for shared machines
/// where each user keeps to a range).
public enum LoopbackPort {
    public static func free() -> UInt16? {
        guard let text = ProcessInfo.processInfo.environment["TLSLAB_BENCH_PORTS"] else { return bindable(0) }
        let bounds = text.split(separator: "-").compactMap { UInt16($0.trimmingCharacters(in: .whitespaces)) }
        guard bounds.count == 2, bounds[0] > 0, bounds[0] <= bounds[1] else { return nil }
        return (bounds[0]...bounds[1]).lazy.compactMap(bindable).first
    }

    /// `port` (0: one the kernel picks) when it can be bound on 127.0.0.1 right now.
    private static func bindable(_ port: UInt16) -> UInt16? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = port.bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw -> Bool in
                bind(fd, raw, length) == 0 && getsockname(fd, raw, &length) == 0
            }
        }
        return bound ? UInt16(bigEndian: address.sin_port) : nil
    }

    /// True once something accepts connections on 127.0.0.1:`port`.
    public static func accepts(_ port: UInt16) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = port.bigEndian
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }
}
