import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Launches `tlslab` on a pseudo-terminal (as a person at a terminal would), times its first full
/// screen — the interactive walkthrough's first page, written as one block that ends with "erase to
/// end of screen" (ESC [ J) — then presses `q` and waits for it to exit.
public struct PseudoTerminalLaunch {
    public struct Outcome {
        /// Seconds from spawn to the first output byte, and to the end of the first screen.
        public var firstByte: Double
        public var firstScreen: Double
        public var exitStatus: Int32
        public var maxRSSKiB: Int
    }

    /// Why the launch gave no figure, as data (worded by the command line, `cli.bench.failure.*`; an
    /// errno is described by the C library, strerror(3)).
    public enum Failure: Error, Sendable, Hashable {
        /// posix_openpt, grantpt, unlockpt or ptsname is not in the C library.
        case noPTYFunctions
        /// A pseudo-terminal call (`posix_openpt`, or `grantpt/unlockpt/ptsname`) failed with this errno.
        case pty(call: String, code: Int32)
        /// posix_spawn failed with this errno.
        case spawn(Int32)
        /// No first screen (no ESC [ J) within 10 s; `bytes` arrived.
        case noScreen(bytes: Int)
    }

    /// The child's environment, `NAME=value` each: `base` with `TERM` set if missing, `NO_COLOR`
    /// removed, and `overrides` set over it.
    public static func environment(_ overrides: [String: String],
                                   base: [String: String] = ProcessInfo.processInfo.environment) -> [String] {
        var environment = base
        environment["TERM"] = environment["TERM"] ?? "xterm"
        environment["NO_COLOR"] = nil
        return ChildProcess.environment(overrides, base: environment)
    }

    /// The sequence that ends a walkthrough screen: erase from the cursor to the end of the screen.
    public static let endOfScreen: [UInt8] = [0x1B, 0x5B, 0x4A]

    /// Runs `path` on a new pseudo-terminal with this process's environment, `TERM` set if missing,
    /// `NO_COLOR` removed and `environment`'s variables set over it.
    public static func run(_ path: String, _ arguments: [String] = [], columns: UInt16 = 100, rows: UInt16 = 30,
                           environment overrides: [String: String] = [:]) throws -> Outcome {
        guard let api = PTYFunctions.load() else { throw Failure.noPTYFunctions }
        let master = api.openpt(O_RDWR | O_NOCTTY)
        guard master >= 0 else { throw Failure.pty(call: "posix_openpt", code: errno) }
        defer { close(master) }
        guard api.grant(master) == 0, api.unlock(master) == 0, let name = api.name(master) else {
            throw Failure.pty(call: "grantpt/unlockpt/ptsname", code: errno)
        }
        let slavePath = String(cString: name)
        var size = winsize(ws_row: rows, ws_col: columns, ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(master, UInt(TIOCSWINSZ), &size)

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addclose(&actions, master)
        posix_spawn_file_actions_addopen(&actions, 0, slavePath, O_RDWR, 0)
        posix_spawn_file_actions_adddup2(&actions, 0, 1)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let envp: [UnsafeMutablePointer<CChar>?] = Self.environment(overrides).map { strdup($0) } + [nil]
        defer { envp.forEach { free($0) } }

        let clock = ContinuousClock()
        let started = clock.now
        var pid: pid_t = 0
        let code = posix_spawn(&pid, path, &actions, nil, argv, envp)
        guard code == 0 else { throw Failure.spawn(code) }

        var output: [UInt8] = []
        var firstByte: Double?, firstScreen: Double?
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let deadline = started + .seconds(10)
        while firstScreen == nil, clock.now < deadline {
            var pfd = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            guard poll(&pfd, 1, 100) > 0 else { continue }
            let n = buffer.withUnsafeMutableBytes { read(master, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }   // EIO: the child closed the terminal
            if firstByte == nil { firstByte = (clock.now - started).benchSeconds }
            output += buffer[0..<n]
            if output.windows(Self.endOfScreen) {
                firstScreen = (clock.now - started).benchSeconds
            }
        }
        // Press q (or, with no screen, stop it) and reap the child, draining the terminal meanwhile.
        if firstScreen != nil { _ = "q".withCString { write(master, $0, 1) } } else { kill(pid, SIGTERM) }
        var status: Int32 = 0
        var usage = rusage()
        let quitDeadline = clock.now + .seconds(5)
        while true {
            let reaped = wait4(pid, &status, WNOHANG, &usage)
            if reaped == pid { break }
            if reaped < 0 && errno != EINTR { break }
            if clock.now > quitDeadline { kill(pid, SIGKILL) }
            var pfd = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            if poll(&pfd, 1, 20) > 0 { _ = buffer.withUnsafeMutableBytes { read(master, $0.baseAddress, $0.count) } }
        }
        guard let firstByte, let firstScreen else {
            throw Failure.noScreen(bytes: output.count)
        }
        let signalled = status & 0x7f
        return Outcome(firstByte: firstByte, firstScreen: firstScreen,
                       exitStatus: signalled == 0 ? (status >> 8) & 0xff : 128 + signalled, maxRSSKiB: usage.ru_maxrss)
    }
}

/// posix_openpt, grantpt, unlockpt and ptsname: in the C library, but hidden from Swift's Glibc module
/// (they need _XOPEN_SOURCE), so looked up by name.
private struct PTYFunctions {
    typealias IntFunction = @convention(c) (Int32) -> Int32
    typealias NameFunction = @convention(c) (Int32) -> UnsafeMutablePointer<CChar>?
    let openpt: IntFunction
    let grant: IntFunction
    let unlock: IntFunction
    let name: NameFunction

    static func load() -> PTYFunctions? {
        let handle = dlopen(nil, RTLD_NOW)
        func symbol(_ name: String) -> UnsafeMutableRawPointer? { dlsym(handle, name) }
        guard let openpt = symbol("posix_openpt"), let grant = symbol("grantpt"), let unlock = symbol("unlockpt"),
              let name = symbol("ptsname") else { return nil }
        return PTYFunctions(openpt: unsafeBitCast(openpt, to: IntFunction.self), grant: unsafeBitCast(grant, to: IntFunction.self),
                            unlock: unsafeBitCast(unlock, to: IntFunction.self), name: unsafeBitCast(name, to: NameFunction.self))
    }
}

private extension Collection where Element == UInt8 {
    /// Whether `pattern` occurs as a contiguous run.
    func windows(_ pattern: [UInt8]) -> Bool {
        let bytes = Array(self)
        guard bytes.count >= pattern.count else { return false }
        for start in 0...(bytes.count - pattern.count) where Array(bytes[start..<(start + pattern.count)]) == pattern {
            return true
        }
        return false
    }
}
