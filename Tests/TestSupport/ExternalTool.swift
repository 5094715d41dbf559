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
    /// `timeout` seconds pass. Throws only when it cannot be started.
    public static func run(_ executable: String, _ arguments: [String], stdin: Data = Data(),
                           environment: [String: String]? = nil, timeout: TimeInterval = 120) throws -> Result {
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
        process.standardInput = input
        process.standardOutput = output
        process.standardError = error
        try process.run()
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.005) }
        let timedOut = process.isRunning
        if timedOut {
            process.terminate()
            let grace = Date().addingTimeInterval(2)
            while process.isRunning && Date() < grace { Thread.sleep(forTimeInterval: 0.01) }
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
