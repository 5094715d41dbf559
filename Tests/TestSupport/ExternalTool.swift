import Foundation

/// An external program a cross-check runs to completion (openssl, python3, tshark, a shell). Its
/// input, output and error go through temporary files, so no pipe can fill and stall either side
/// however much it writes; past the deadline it is terminated, then killed.
public enum ExternalTool {
    /// What the program did.
    public struct Result: Sendable {
        public let status: Int32
        public let stdout: Data
        public let stderr: Data
        /// The deadline passed and the program was stopped.
        public let timedOut: Bool

        public var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
        public var stderrText: String { String(decoding: stderr, as: UTF8.self) }
        public var succeeded: Bool { status == 0 && !timedOut }
    }

    /// A run that did not exit with status 0 (or timed out), with what it printed.
    public struct Failed: Error, CustomStringConvertible {
        public let executable: String
        public let result: Result
        public var description: String {
            "\(executable) " + (result.timedOut ? "timed out" : "exited with \(result.status)") + ": \(result.stdoutText)\(result.stderrText)"
        }
    }

    /// The executable `name` on PATH (nil when it is not installed).
    public static func find(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for dir in path.split(separator: ":") {
            let candidate = "\(dir)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// Runs `executable` (a path) with `arguments`, `stdin` as its input, until it exits or
    /// `timeout` seconds pass (then SIGTERM, and SIGKILL `grace` seconds later). With
    /// `mergingErrorIntoOutput` both streams go to one file, interleaved as written (``Result/stdout``).
    /// Throws only when it cannot be started.
    public static func run(_ executable: String, _ arguments: [String], stdin: Data = Data(),
                           environment: [String: String]? = nil, currentDirectory: String? = nil,
                           mergingErrorIntoOutput: Bool = false, timeout: TimeInterval = 120,
                           grace: TimeInterval = 2) throws -> Result {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("tlslab-tool-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let inURL = scratch.appendingPathComponent("in"), outURL = scratch.appendingPathComponent("out"),
            errURL = scratch.appendingPathComponent("err")
        try stdin.write(to: inURL)
        FileManager.default.createFile(atPath: outURL.path, contents: nil)
        FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let input = try FileHandle(forReadingFrom: inURL), output = try FileHandle(forWritingTo: outURL),
            error = try FileHandle(forWritingTo: errURL)
        defer {
            try? input.close()
            try? output.close()
            try? error.close()
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let environment { process.environment = environment }
        if let currentDirectory { process.currentDirectoryURL = URL(fileURLWithPath: currentDirectory) }
        process.standardInput = input
        process.standardOutput = output
        process.standardError = mergingErrorIntoOutput ? output : error
        try process.run()
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.005) }
        let timedOut = process.isRunning
        if timedOut {
            process.terminate()
            let killAt = Date().addingTimeInterval(grace)
            while process.isRunning && Date() < killAt { Thread.sleep(forTimeInterval: 0.01) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: (try? Data(contentsOf: outURL)) ?? Data(),
                      stderr: (try? Data(contentsOf: errURL)) ?? Data(), timedOut: timedOut)
    }

    /// `run`, requiring success: its standard output, or ``Failed`` with what it printed.
    @discardableResult
    public static func output(_ executable: String, _ arguments: [String], stdin: Data = Data(),
                              timeout: TimeInterval = 120) throws -> String {
        let result = try run(executable, arguments, stdin: stdin, timeout: timeout)
        guard result.succeeded else { throw Failed(executable: executable, result: result) }
        return result.stdoutText
    }
}

extension ExternalTool {
    /// Writing to a child that has exited fails with EPIPE instead of killing this process (SIGPIPE).
    static let ignoreBrokenPipes: Void = { _ = signal(SIGPIPE, SIG_IGN) }()

    /// A program left running beside a test (a server): its output and error go to files (with
    /// `mergingErrorIntoOutput`, one file, interleaved as written); its input is held open, so a server
    /// that quits at end of input keeps running. ``stop(grace:)`` ends it (SIGTERM, then SIGKILL), as
    /// does releasing it: no launch outlives its test.
    public final class Background {
        public let process = Process()
        private let scratch: URL
        private let outURL: URL, errURL: URL
        private let output: FileHandle, error: FileHandle
        private let input = Pipe()
        private var launched = false

        public init(_ executable: String, _ arguments: [String], environment: [String: String]? = nil,
                    currentDirectory: String? = nil, mergingErrorIntoOutput: Bool = false) throws {
            scratch = FileManager.default.temporaryDirectory.appendingPathComponent("tlslab-tool-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
            outURL = scratch.appendingPathComponent("out")
            errURL = mergingErrorIntoOutput ? outURL : scratch.appendingPathComponent("err")
            FileManager.default.createFile(atPath: outURL.path, contents: nil)
            FileManager.default.createFile(atPath: errURL.path, contents: nil)
            output = try FileHandle(forWritingTo: outURL)
            error = mergingErrorIntoOutput ? output : try FileHandle(forWritingTo: errURL)
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
            if let environment { process.environment = environment }
            if let currentDirectory { process.currentDirectoryURL = URL(fileURLWithPath: currentDirectory) }
            process.standardInput = input
            process.standardOutput = output
            process.standardError = error
            try process.run()
            launched = true
        }

        deinit {
            stop(grace: 0)
            try? output.close()
            try? error.close()
            try? FileManager.default.removeItem(at: scratch)
        }

        public var isRunning: Bool { process.isRunning }
        /// What it has written to its output so far.
        public var stdoutText: String { Self.text(outURL) }
        /// What it has written to its error so far (its output too, when merged).
        public var stderrText: String { Self.text(errURL) }

        /// A file's bytes as text, decoded leniently (a peer's binary bytes must not blank the rest).
        private static func text(_ url: URL) -> String {
            (try? Data(contentsOf: url)).map { String(decoding: $0, as: UTF8.self) } ?? ""
        }

        /// Writes `text` to its input (held open until it stops). Writing to a program that has exited
        /// fails quietly (SIGPIPE is ignored in this process) instead of ending the test run.
        public func send(_ text: String) {
            _ = ExternalTool.ignoreBrokenPipes
            try? input.fileHandleForWriting.write(contentsOf: Data(text.utf8))
        }

        /// Waits at most `timeout` seconds until its output holds `text`; false when it exits first or
        /// the time passes.
        public func waitForOutput(containing text: String, timeout: TimeInterval) -> Bool {
            let deadline = Date().addingTimeInterval(timeout)
            while Date() < deadline {
                if stdoutText.contains(text) { return true }
                guard process.isRunning else { return stdoutText.contains(text) }
                Thread.sleep(forTimeInterval: 0.02)
            }
            return false
        }

        /// Waits at most `seconds` for it to end by itself; true when it did.
        @discardableResult
        public func waitForExit(seconds: TimeInterval) -> Bool {
            let deadline = Date().addingTimeInterval(seconds)
            while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
            return !process.isRunning
        }

        /// Ends it if it still runs: SIGTERM, then SIGKILL `grace` seconds later; waits for the exit.
        public func stop(grace: TimeInterval = 2) {
            guard launched else { return }
            if process.isRunning {
                process.terminate()
                if !waitForExit(seconds: grace) { kill(process.processIdentifier, SIGKILL) }
            }
            process.waitUntilExit()
        }
    }
}
