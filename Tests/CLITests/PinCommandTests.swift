import Foundation
import Testing

@Suite("tlslab pin")
struct PinCommandTests {
    static let pki = Fixtures.directory.appendingPathComponent("pki")

    /// The seeds' recipes, run through OpenSSL itself.
    static func openssl(_ script: String) throws -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments = ["-c", script]
        let out = Pipe()
        p.standardOutput = out
        p.standardError = Pipe()
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func pinsEqualTheOpenSSLRecipes() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.pki.path).filter { $0.hasSuffix(".pem") && !$0.contains("key") }.sorted()
        #expect(!files.isEmpty)
        guard (try? Self.openssl("command -v openssl")).map({ !$0.isEmpty }) == true else {
            print("skipped: openssl is not installed")
            return
        }
        for name in files.prefix(6) {
            let path = Self.pki.appendingPathComponent(name).path
            let result = try CLI.run(["pin", path])
            #expect(result.status == 0, "\(name): \(result.stderr)")
            let certPin = try Self.openssl("openssl x509 -in '\(path)' -outform der | openssl dgst -sha256 -binary | openssl enc -base64")
            let keyPin = try Self.openssl("openssl x509 -in '\(path)' -pubkey -noout | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | openssl enc -base64")
            #expect(result.stdout.contains(certPin), "\(name): certificate pin differs from OpenSSL's \(certPin)")
            #expect(result.stdout.contains(keyPin), "\(name): public-key pin differs from OpenSSL's \(keyPin)")
        }
    }

    @Test func notACertificateIsExitCode2NamingTheFile() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("not-a-cert-\(UUID()).txt")
        try Data("hello".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try CLI.run(["pin", file.path])
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("tlslab: \(file.path): not a certificate"))
        let missing = try CLI.run(["pin", "/nonexistent/cert.pem"])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("cannot read /nonexistent/cert.pem"))
    }
}
