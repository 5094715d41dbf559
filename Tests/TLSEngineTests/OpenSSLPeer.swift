import Foundation
@testable import TLSEngine
import TestSupport

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
        let result = try ExternalTool.run(executable, args, currentDirectory: dir.path, mergingErrorIntoOutput: true, timeout: timeout)
        return (result.status, result.stdoutText)
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
            let server = try ExternalTool.Background(executable, ["s_server", "-accept", "\(port)", "-cert", "cert.pem", "-key", "key.pem",
                                                                  "-naccept", "1"] + serverArgs,
                                                     currentDirectory: dir.path, mergingErrorIntoOutput: true)
            defer { server.stop() }
            // Wait until it listens (it prints ACCEPT) or gives up (port taken).
            let listening = server.waitForOutput(containing: "ACCEPT", timeout: 5)
            guard listening else {
                lastError = server.stdoutText.isEmpty ? "s_server did not start" : server.stdoutText
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
