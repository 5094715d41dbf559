import Foundation
import TestSupport
import Testing

@Suite("tlslab pin")
struct PinCommandTests {
    static let pki = Fixtures.directory.appendingPathComponent("pki")

    /// The usual recipes, run through OpenSSL itself.
    static func openssl(_ script: String) throws -> String {
        try ExternalTool.run("/bin/sh", ["-c", script]).stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
    }
    /// Every fixture file, and every certificate of each bundle: `tlslab pin` prints, per certificate in
    /// file order, the same two pins the usual OpenSSL recipes print for that certificate. Files that
    /// hold no certificate (the public-key PEM) must be refused with one clean line.
    @Test func pinsEqualTheOpenSSLRecipes() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.pki.path).filter { $0.hasSuffix(".pem") }.sorted()
        #expect(files.count >= 40)
        guard (try? Self.openssl("command -v openssl")).map({ !$0.isEmpty }) == true else {
            print("skipped: openssl is not installed")
            return
        }
        var certificatesChecked = 0, bundles = 0
        for name in files {
            let path = Self.pki.appendingPathComponent(name).path
            let text = try String(contentsOfFile: path, encoding: .utf8)
            let expectedCount = text.components(separatedBy: "-----BEGIN CERTIFICATE-----").count - 1
            let result = try CLI.run(["pin", path])
            guard expectedCount > 0 else {
                #expect(result.status == 2, "\(name) holds no certificate but was accepted")
                #expect(result.stderr.split(separator: "\n").count == 1, "\(name): \(result.stderr)")
                continue
            }
            #expect(result.status == 0, "\(name): \(result.stderr)")
            if expectedCount > 1 { bundles += 1 }
            // The recipes, once per certificate of the file (awk splits the bundle), in file order.
            let pins = try Self.openssl("""
                dir=$(mktemp -d); awk -v d="$dir" '/BEGIN CERTIFICATE/{n++} n{print > (d "/" n ".pem")}' '\(path)'
                for f in $(ls "$dir" | sort -n); do
                  openssl x509 -in "$dir/$f" -outform der | openssl dgst -sha256 -binary | openssl enc -base64
                  openssl x509 -in "$dir/$f" -pubkey -noout | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | openssl enc -base64
                done; rm -rf "$dir"
                """).split(separator: "\n").map(String.init)
            #expect(pins.count == 2 * expectedCount, "\(name): OpenSSL printed \(pins)")
            // Our report groups are separated by blank lines: "FILE [i]", subject, issuer, certificate pin, public-key pin.
            let groups = result.stdout.components(separatedBy: "\n\n")
            #expect(groups.count == expectedCount, "\(name): \(groups.count) reports for \(expectedCount) certificates")
            for (index, group) in groups.enumerated() where 2 * index + 1 < pins.count {
                #expect(group.hasPrefix("\(path) [\(index)]"), "\(name): report \(index) is \(group)")
                #expect(group.contains("certificate pin:  \(pins[2 * index])\n"), "\(name) [\(index)]: certificate pin differs from OpenSSL's")
                #expect(group.contains("public-key pin:   \(pins[2 * index + 1])"), "\(name) [\(index)]: public-key pin differs from OpenSSL's")
                certificatesChecked += 1
            }
        }
        #expect(bundles >= 2 && certificatesChecked >= files.count + 2)
    }

    @Test func notACertificateIsExitCode2NamingTheFile() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("not-a-cert-\(UUID()).txt")
        try Data("hello".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try CLI.run(["pin", file.path])
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("tlslab: \(file.path): not a certificate"))
        // One line, the file named once, no library internals (a swift-asn1 source path) in it.
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(result.stderr.components(separatedBy: file.path).count == 2, "\(result.stderr)")
        #expect(!result.stderr.contains(".swift") && !result.stderr.contains("ASN1Error"), "\(result.stderr)")
        // A bundle whose second certificate is broken names the file and the certificate.
        let bundle = FileManager.default.temporaryDirectory.appendingPathComponent("bad-bundle-\(UUID()).pem")
        let good = try String(contentsOf: Self.pki.appendingPathComponent("leaf.pem"), encoding: .utf8)
        try Data((good + "-----BEGIN CERTIFICATE-----\nMIIBAAAA\n-----END CERTIFICATE-----\n").utf8).write(to: bundle)
        defer { try? FileManager.default.removeItem(at: bundle) }
        let broken = try CLI.run(["pin", bundle.path])
        #expect(broken.status == 2)
        #expect(broken.stderr == "tlslab: \(bundle.path): not a certificate (certificate 2 of the file: the DER ends inside an element (X.690 §8.1))\n",
                "\(broken.stderr)")
        let missing = try CLI.run(["pin", "/nonexistent/cert.pem"])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("cannot read /nonexistent/cert.pem"))
    }
}
