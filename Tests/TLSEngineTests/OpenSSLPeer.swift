import Foundation
@testable import TLSEngine

/// Runs `openssl s_server` and `openssl s_client -msg` on loopback and collects what s_client
/// printed: each record header and message, as hex, with its direction.
enum OpenSSLPeer {
    struct Entry {
        /// true for ">>>" (client to server).
        var sent: Bool
        /// e.g. "Handshake [length 00c9], ClientHello" or "RecordHeader [length 0005]".
        var label: String
        var bytes: [UInt8]
    }

    enum Failure: Error, CustomStringConvertible {
        case tool(String)
        var description: String {
            switch self { case let .tool(s): return s }
        }
    }

    /// The openssl executable on the PATH, if any.
    static let executable: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        for dir in path.split(separator: ":") {
            let candidate = "\(dir)/openssl"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }()

    static var available: Bool { executable != nil }

    /// Runs `openssl args`, waiting at most `timeout` seconds; returns stdout+stderr.
    @discardableResult
    static func run(_ args: [String], in dir: URL, timeout: TimeInterval = 10) throws -> (status: Int32, output: String) {
        guard let executable else { throw Failure.tool("openssl not found on PATH") }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: executable)
        p.arguments = args
        p.currentDirectoryURL = dir
        let out = dir.appendingPathComponent("out-\(UUID().uuidString).txt")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        let handle = try FileHandle(forWritingTo: out)
        p.standardOutput = handle
        p.standardError = handle
        p.standardInput = FileHandle.nullDevice
        try p.run()
        let deadline = Date().addingTimeInterval(timeout)
        while p.isRunning && Date() < deadline { usleep(20_000) }
        if p.isRunning { p.terminate(); p.waitUntilExit() }
        try handle.close()
        let text = (try? String(contentsOf: out, encoding: .utf8)) ?? ""
        return (p.terminationStatus, text)
    }

    /// One TLS 1.2 handshake between s_server and s_client; `serverArgs` adds options (for example
    /// `-cipher`). Returns s_client's `-msg` entries.
    static func handshake(serverArgs: [String] = [], clientArgs: [String] = []) throws -> [Entry] {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tlslab-wire-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let keygen = try run(["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "key.pem", "-out", "cert.pem",
                              "-subj", "/CN=localhost", "-days", "1"], in: dir, timeout: 30)
        guard keygen.status == 0 else { throw Failure.tool("openssl req failed: \(keygen.output)") }
        guard let executable else { throw Failure.tool("openssl not found on PATH") }

        var lastError = ""
        for attempt in 0 ..< 5 {
            let port = 20_000 + Int((UInt32(getpid()) &* 7919 &+ UInt32(attempt) &* 104_729) % 40_000)
            let server = Process()
            server.executableURL = URL(fileURLWithPath: executable)
            server.arguments = ["s_server", "-accept", "\(port)", "-cert", "cert.pem", "-key", "key.pem",
                                "-naccept", "1"] + serverArgs
            server.currentDirectoryURL = dir
            let log = dir.appendingPathComponent("server-\(attempt).txt")
            _ = FileManager.default.createFile(atPath: log.path, contents: nil)
            let handle = try FileHandle(forWritingTo: log)
            server.standardOutput = handle
            server.standardError = handle
            server.standardInput = Pipe()  // kept open so the server does not quit on EOF before the client comes
            try server.run()
            defer {
                if server.isRunning { server.terminate(); server.waitUntilExit() }
                try? handle.close()
            }
            // Wait until it listens (it prints ACCEPT) or gives up (port taken).
            let ready = Date().addingTimeInterval(5)
            var listening = false
            while Date() < ready, server.isRunning {
                if let text = try? String(contentsOf: log, encoding: .utf8), text.contains("ACCEPT") { listening = true; break }
                usleep(20_000)
            }
            guard listening else {
                lastError = (try? String(contentsOf: log, encoding: .utf8)) ?? "s_server did not start"
                continue
            }
            let client = try run(["s_client", "-connect", "127.0.0.1:\(port)", "-tls1_2", "-msg",
                                  "-servername", "localhost"] + clientArgs, in: dir)
            let entries = parse(client.output)
            if entries.contains(where: { $0.label.hasSuffix("ServerHelloDone") }) { return entries }
            lastError = client.output
        }
        throw Failure.tool("no handshake with s_server: \(lastError.prefix(2000))")
    }

    /// Parses `-msg` output: a `>>> ` or `<<< ` line, then indented lines of hex bytes.
    static func parse(_ text: String) -> [Entry] {
        var entries: [Entry] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix(">>> ") || line.hasPrefix("<<< ") {
                var label = String(line.dropFirst(4))
                if let comma = label.firstIndex(of: ",") { label = String(label[label.index(after: comma)...]).trimmingCharacters(in: .whitespaces) }
                entries.append(Entry(sent: line.hasPrefix(">>>"), label: label, bytes: []))
            } else if line.hasPrefix("    "), !entries.isEmpty, let bytes = Hex.bytes(String(line)) {
                entries[entries.count - 1].bytes += bytes
            }
        }
        return entries
    }
}
