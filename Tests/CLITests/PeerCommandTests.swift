import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `tlslab serve` and `tlslab connect` as a user runs them, against each other on loopback, with the
/// engine fixture PKI (a CA and a leaf for localhost).
@Suite("CLI: tlslab serve and tlslab connect", .serialized)
struct PeerCommandTests {
    static let pki = Fixtures.directory.appendingPathComponent("engine")

    /// Starts `tlslab serve --port 0 …` and reads the port it prints.
    static func serve(_ extra: [String]) throws -> (Process, UInt16, Pipe) {
        let binary = try #require(CLI.binary)
        let process = Process()
        process.executableURL = binary
        process.arguments = ["serve", "--port", "0", "--cert", pki.appendingPathComponent("server.cert.pem").path,
                             "--key", pki.appendingPathComponent("server.key.pem").path, "--log-only", "--timeout", "3"] + extra
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let line = String(decoding: out.fileHandleForReading.availableData, as: UTF8.self)
        guard let port = line.split(separator: ":").last.flatMap({ UInt16($0.trimmingCharacters(in: .whitespacesAndNewlines)) }) else {
            process.terminate()
            process.waitUntilExit()
            throw CLI.CLIRunnerError.binaryNotFound
        }
        return (process, port, err)
    }

    /// Waits at most `seconds` for `process` to end, then kills it; true when it ended by itself.
    @discardableResult
    static func reap(_ process: Process, seconds: Double = 5) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        let ended = !process.isRunning
        if !ended { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        return ended
    }

    @Test("connect ↔ serve: JSON trace with socket-level and TLS events, key log written, trust failure exits 1 with one line")
    func connectServe() throws {
        let (server, port, serverErr) = try Self.serve(["--max-connections", "2"])
        defer { if server.isRunning { server.terminate() }; Self.reap(server) }
        let keylog = FileManager.default.temporaryDirectory.appendingPathComponent("tlslab-keylog-\(UUID().uuidString).txt")
        defer { try? FileManager.default.removeItem(at: keylog) }
        let ok = try CLI.run(["connect", "127.0.0.1:\(port)", "--servername", "localhost", "--ca",
                              Self.pki.appendingPathComponent("ca.cert.pem").path, "--format", "json", "--keylog", keylog.path])
        #expect(ok.status == 0, "\(ok.stderr)")
        #expect(ok.stdout.contains("socket-level (what the kernel lets us see)"))
        #expect(ok.stdout.contains("TLSLab serve: this connection"), "the page is in the JSON trace's HTTP event")
        let log = (try? String(contentsOf: keylog, encoding: .utf8)) ?? ""
        #expect(log.hasPrefix("CLIENT_RANDOM ") && log.split(separator: " ").count == 3, "\(log)")

        let refused = try CLI.run(["connect", "127.0.0.1:\(port)", "--servername", "localhost", "--format", "json"])
        #expect(refused.status == 1)
        #expect(refused.stderr.hasPrefix("tlslab: connect 127.0.0.1:\(port): refused: unknown_ca"), "\(refused.stderr)")
        #expect(refused.stderr.split(separator: "\n").count == 1)

        #expect(Self.reap(server), "serve stops by itself after --max-connections")
        #expect(server.terminationStatus == 0)
        let serverLog = String(decoding: serverErr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(serverLog.contains("→ 200"), "\(serverLog)")
        #expect(serverLog.contains("the client sent a fatal alert: unknown_ca"), "\(serverLog)")
    }

    @Test("serve stops cleanly on SIGTERM; connect to a closed port fails with one line")
    func stops() throws {
        let (server, port, serverErr) = try Self.serve([])
        usleep(100_000)
        kill(server.processIdentifier, SIGTERM)
        #expect(Self.reap(server), "serve ends on SIGTERM")
        #expect(server.terminationStatus == 0)
        let serverLog = String(decoding: serverErr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(serverLog.contains("stopped"))
        let closed = try CLI.run(["connect", "127.0.0.1:\(port)", "--policy", "none", "--timeout", "2"])
        #expect(closed.status == 1)
        #expect(closed.stderr.contains("cannot connect"), "\(closed.stderr)")
    }
}
