import Foundation
import TestSupport

/// Runs the built `tlslab` binary the way a user would.
enum CLI {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// The `tlslab` executable next to the test bundle (SwiftPM builds both into one directory).
    static var binary: URL? {
        let candidates = [
            Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("tlslab"),
            Bundle.main.bundleURL.appendingPathComponent("tlslab"),
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("tlslab"),
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    static func run(_ arguments: [String], stdin: String? = nil, environment: [String: String] = [:],
                    currentDirectory: String? = nil) throws -> Result {
        guard let binary else { throw CLIRunnerError.binaryNotFound }
        var env = ProcessInfo.processInfo.environment
        env["NO_COLOR"] = "1"
        // English unless a test asks otherwise, whatever the locale of the machine running the tests.
        env["TLSLAB_LANG"] = "en"
        for (k, v) in environment { env[k] = v }
        let result = try ExternalTool.run(binary.path, arguments, stdin: Data((stdin ?? "").utf8), environment: env,
                                          currentDirectory: currentDirectory, timeout: 600)
        return Result(status: result.status, stdout: result.stdoutText, stderr: result.stderrText)
    }

    enum CLIRunnerError: Error { case binaryNotFound }
}

enum Fixtures {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures")

    /// The handshake messages of the real OpenSSL 3.0 handshake in tls12-vectors.json, as hex.
    static func opensslHandshakeHex() throws -> [String] {
        let data = try Data(contentsOf: directory.appendingPathComponent("tls12-vectors.json"))
        let root = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        let real = root?["rsa_kx_openssl_real"] as? [String: Any]
        return real?["handshake_messages_in_order(hex, each with 4-byte header)"] as? [String] ?? []
    }
}
