import Foundation
import TestSupport
import Testing

/// Hex helpers, the fixture file and external tools for the TLSCrypto tests.
enum Hex {
    /// Bytes from hex text; spaces, newlines and colons are ignored. Invalid text is a test bug.
    static func bytes(_ text: String) -> [UInt8] {
        let digits = text.filter { $0.isHexDigit }
        precondition(digits.count % 2 == 0, "odd number of hex digits in test data")
        var out = [UInt8]()
        out.reserveCapacity(digits.count / 2)
        var index = digits.startIndex
        while index < digits.endIndex {
            let next = digits.index(index, offsetBy: 2)
            out.append(UInt8(digits[index..<next], radix: 16) ?? 0)
            index = next
        }
        return out
    }

    static func string(_ bytes: [UInt8]) -> String {
        bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }
}

struct FixtureError: Error, CustomStringConvertible {
    let description: String
}

/// Tests/Fixtures/tls12-vectors.json, located relative to this source file.
enum Vectors {
    static let url = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()
        .deletingLastPathComponent()
        .appendingPathComponent("Fixtures")
        .appendingPathComponent("tls12-vectors.json")

    static func load() throws -> [String: Any] {
        let data = try Data(contentsOf: url)
        guard let root = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw FixtureError(description: "tls12-vectors.json is not an object")
        }
        return root
    }

    static func object(_ dict: [String: Any], _ key: String) throws -> [String: Any] {
        guard let value = dict[key] as? [String: Any] else {
            throw FixtureError(description: "missing object \(key)")
        }
        return value
    }

    static func text(_ dict: [String: Any], _ key: String) throws -> String {
        guard let value = dict[key] as? String else {
            throw FixtureError(description: "missing string \(key)")
        }
        return value
    }

    static func hex(_ dict: [String: Any], _ key: String) throws -> [UInt8] {
        var value = try text(dict, key)
        if value.hasPrefix("0x") { value.removeFirst(2) }
        return Hex.bytes(value)
    }

    static func hexList(_ dict: [String: Any], _ key: String) throws -> [[UInt8]] {
        guard let list = dict[key] as? [String] else {
            throw FixtureError(description: "missing list \(key)")
        }
        return list.map(Hex.bytes)
    }
}

/// The shared copy of the vectors, `../shared/vectors/tls12-vectors.json` beside the package root,
/// where the project keeps the file the fixture is copied from.
enum SharedVectors {
    static let url = Vectors.url
        .deletingLastPathComponent()   // Tests/Fixtures/
        .deletingLastPathComponent()   // Tests/
        .deletingLastPathComponent()   // the package root
        .deletingLastPathComponent()   // its parent
        .appendingPathComponent("shared/vectors/tls12-vectors.json")

    static var exists: Bool { FileManager.default.fileExists(atPath: url.path) }
}

/// Runs command-line tools (openssl, python3) for cross-checks.
enum ExternalTool {
    /// The full path of `name` on the PATH, or nil.
    static func find(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    static let openssl = find("openssl")

    /// python3, only when it can import `cryptography`.
    static let pythonWithCryptography: String? = {
        guard let python = find("python3"),
              let result = try? run(python, ["-c", "import cryptography"]),
              result.status == 0 else { return nil }
        return python
    }()

    struct Result {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    static func run(_ executable: String, _ arguments: [String], stdin: String = "") throws -> Result {
        let result = try TestSupport.ExternalTool.run(executable, arguments, stdin: Data(stdin.utf8))
        return Result(status: result.status, stdout: result.stdoutText, stderr: result.stderrText)
    }}

/// Heavy sweeps run only with TLSLAB_HEAVY=1 (CI runs them in release mode).
let heavyTestsEnabled = ProcessInfo.processInfo.environment["TLSLAB_HEAVY"] == "1"
