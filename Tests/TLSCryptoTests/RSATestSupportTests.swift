import Crypto
import Foundation
import Testing
@testable import TLSCrypto

/// Shared helpers for the RSA test files (no tests of its own).
enum RSATestSupport {
    /// A deterministic RandomSource for tests: SHA-256(seed || counter) blocks.
    final class CounterRandom: RandomSource {
        private let seed: [UInt8]
        private var counter: UInt64 = 0
        private var buffer: [UInt8] = []

        init(seed: UInt64) {
            self.seed = (0..<8).map { UInt8(truncatingIfNeeded: seed >> (8 * $0)) }
        }

        func bytes(count: Int) -> [UInt8] {
            while buffer.count < count {
                let c = (0..<8).map { UInt8(truncatingIfNeeded: counter >> (8 * $0)) }
                buffer += Array(SHA256.hash(data: seed + c))
                counter += 1
            }
            let out = Array(buffer.prefix(count))
            buffer.removeFirst(count)
            return out
        }
    }

    static let fixtures = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures")

    static func fixtureText(_ name: String) throws -> String {
        try String(contentsOf: fixtures.appendingPathComponent(name), encoding: .utf8)
    }

    static func hex(_ text: String) -> [UInt8] {
        var out: [UInt8] = []
        var iterator = text.filter { !$0.isWhitespace }.makeIterator()
        while let a = iterator.next(), let b = iterator.next() {
            guard let byte = UInt8(String([a, b]), radix: 16) else { return [] }
            out.append(byte)
        }
        return out
    }

    static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    /// Generated keys are shared: key generation is the slow part of this suite.
    static let key512: RSAPrivateKey? = try? RSAPrivateKey.generate(bits: 512, using: CounterRandom(seed: 512))
    static let key1024: RSAPrivateKey? = try? RSAPrivateKey.generate(bits: 1024, using: CounterRandom(seed: 1024))
    static let pkcs8Key: RSAPrivateKey? = (try? fixtureText("rsa2048-pkcs8.pem")).flatMap { try? RSAPrivateKey(pem: $0) }
    static let pkcs1Key: RSAPrivateKey? = (try? fixtureText("rsa2048-pkcs1.pem")).flatMap { try? RSAPrivateKey(pem: $0) }

    /// Runs a tool; nil when it cannot be started.
    static func run(_ tool: String, _ arguments: [String], input: [UInt8] = []) -> (status: Int32, output: [UInt8], error: String)? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [tool] + arguments
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        do { try process.run() } catch { return nil }
        let errorData = LockedData()
        let outputData = LockedData()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async { outputData.set(stdout.fileHandleForReading.readDataToEndOfFile()); group.leave() }
        group.enter()
        DispatchQueue.global().async { errorData.set(stderr.fileHandleForReading.readDataToEndOfFile()); group.leave() }
        stdin.fileHandleForWriting.write(Data(input))
        try? stdin.fileHandleForWriting.close()
        process.waitUntilExit()
        group.wait()
        return (process.terminationStatus, Array(outputData.get()), String(decoding: errorData.get(), as: UTF8.self))
    }

    final class LockedData: @unchecked Sendable {
        private let lock = NSLock()
        private var data = Data()
        func set(_ d: Data) { lock.lock(); data = d; lock.unlock() }
        func get() -> Data { lock.lock(); defer { lock.unlock() }; return data }
    }

    static let hasOpenSSL: Bool = run("openssl", ["version"])?.status == 0

    /// A temporary directory for files handed to openssl.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("tlslab-rsa-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
