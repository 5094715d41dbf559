import Foundation
import Testing
import TestSupport
import Crypto
@testable import TLSCrypto

// Shared helpers of the RSA tests: fixtures, a deterministic random source, external tools.

/// A deterministic test-only random source: SHA-256 in counter mode over a seed.
/// (Tests only; the engine's seeded generator is the HMAC-DRBG.)
final class RSATestRandom: RandomSource {
    private let seed: [UInt8]
    private var counter: UInt64 = 0
    private var buffer: [UInt8] = []

    init(seed value: Int) {
        seed = withUnsafeBytes(of: UInt64(bitPattern: Int64(value)).bigEndian) { Array($0) }
    }

    func bytes(count: Int) -> [UInt8] {
        while buffer.count < count {
            let block = withUnsafeBytes(of: counter.bigEndian) { Array($0) }
            buffer += Array(SHA256.hash(data: seed + block))
            counter += 1
        }
        let out = Array(buffer.prefix(count))
        buffer.removeFirst(count)
        return out
    }
}

enum RSAFixtures {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures")

    static func text(_ name: String) throws -> String {
        try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
    }

    static func pkcs8Key() throws -> RSAPrivateKey { try RSAPrivateKey(pem: try text("rsa2048-pkcs8.pem")) }
    static func pkcs1Key() throws -> RSAPrivateKey { try RSAPrivateKey(pem: try text("rsa2048-pkcs1.pem")) }

    /// Small generated keys, made once per test process (key generation is slow).
    static let key512: RSAPrivateKey? = try? RSAPrivateKey.generate(bits: 512, using: RSATestRandom(seed: 512))
    static let key1024: RSAPrivateKey? = try? RSAPrivateKey.generate(bits: 1024, using: RSATestRandom(seed: 1024))
}

extension Array where Element == UInt8 {
    init?(rsaTestHex hex: String) {
        var bytes: [UInt8] = []
        var iterator = hex.utf8.makeIterator()
        while let high = iterator.next() {
            guard let low = iterator.next(),
                  let h = Self.nibble(high), let l = Self.nibble(low) else { return nil }
            bytes.append(h << 4 | l)
        }
        self = bytes
    }

    private static func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    var rsaTestHex: String { map { String(format: "%02x", $0) }.joined() }
}

/// Runs external tools (openssl, python3) for the cross-checks.
enum RSAExternalTool {
    /// The absolute path of `name` on the PATH, or nil.
    static func find(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    static let openssl = find("openssl")
    static let python3 = find("python3")

    struct Result {
        let status: Int32
        let output: Data
        let error: String
    }

    static func run(_ executable: String, _ arguments: [String]) throws -> Result {
        let result = try TestSupport.ExternalTool.run(executable, arguments)
        return Result(status: result.status, output: result.stdout, error: result.stderrText)
    }
    /// A fresh temporary directory, removed by the caller with `cleanUp`.
    static func scratchDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("tlslab-rsa-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

/// The trait of an OpenSSL cross-check: skipped with a message when openssl is missing, failed in CI.
let rsaNeedsOpenSSL = CrossCheckRequirement.trait(RSAExternalTool.openssl != nil, missing: "openssl is not on the PATH")

/// Runs `body` with openssl and a scratch directory.
func withRSAOpenSSL(_ body: (String, URL) throws -> Void) throws {
    guard let openssl = RSAExternalTool.openssl else {
        Issue.record("openssl is not on the PATH")
        return
    }
    let directory = try RSAExternalTool.scratchDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    try body(openssl, directory)
}

func rsaWrite(_ bytes: [UInt8], to url: URL) throws { try Data(bytes).write(to: url) }
func rsaWrite(_ text: String, to url: URL) throws { try Data(text.utf8).write(to: url) }
func rsaRead(_ url: URL) throws -> [UInt8] { Array(try Data(contentsOf: url)) }

@Suite("RSA test support")
struct RSATestSupportTests {
    @Test("the test random source is deterministic")
    func deterministicSource() {
        #expect(RSATestRandom(seed: 1).bytes(count: 50) == RSATestRandom(seed: 1).bytes(count: 50))
        #expect(RSATestRandom(seed: 1).bytes(count: 50) != RSATestRandom(seed: 2).bytes(count: 50))
        let a = RSATestRandom(seed: 3)
        let joined = a.bytes(count: 7) + a.bytes(count: 40)
        #expect(joined == RSATestRandom(seed: 3).bytes(count: 47))
    }
}
