import Foundation
import TestSupport
@testable import PKI

/// Loads the OpenSSL-made fixtures of Tests/Fixtures/pki (scripts/make-pki-fixtures.sh).
enum PKIFixtures {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/pki")

    /// The fixed test clock: 2030-06-01T00:00:00Z.
    static let now: Int64 = 1_906_502_400

    static func path(_ name: String) -> String { directory.appendingPathComponent(name + ".pem").path }

    static func data(_ name: String) -> [UInt8] {
        (try? [UInt8](Data(contentsOf: URL(fileURLWithPath: path(name))))) ?? []
    }

    static func cert(_ name: String) -> X509Certificate {
        do {
            guard let first = try X509Certificate.parseAll(data(name), source: name).first else {
                preconditionFailure("fixture \(name) is empty")
            }
            return first
        } catch {
            preconditionFailure("fixture \(name): \(error)")
        }
    }

    static let systemRoots = TrustStore.system([cert("root"), cert("other-root"), cert("ec-root")])

    static func trust(_ names: [String], anchors: AnchorSelection? = nil, host: String? = "www.example.com",
                      rejectWeakAlgorithms: Bool = true) -> ServerTrust {
        ServerTrust(presented: names.map(cert), anchors: anchors ?? AnchorSelection(system: systemRoots), time: now, host: host,
                    rejectWeakAlgorithms: rejectWeakAlgorithms)
    }
}

/// Runs an external tool; nil when it is not installed.
enum ExternalTool {
    static func find(_ name: String) -> String? {
        for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":") {
            let candidate = "\(dir)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// (exit status, stdout, stderr); `input` goes to stdin.
    static func run(_ tool: String, _ arguments: [String], input: Data? = nil) -> (status: Int32, out: Data, err: String)? {
        guard let executable = find(tool),
              let result = try? TestSupport.ExternalTool.run(executable, arguments, stdin: input ?? Data()) else { return nil }
        return (result.status, result.stdout, result.stderrText)
    }
    static var hasOpenSSL: Bool { find("openssl") != nil }
}
