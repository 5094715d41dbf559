import Foundation
import Testing
import TestSupport

/// `tlslab export --pki` of a scenario whose PKI has EC keys (`pki.keys`): OpenSSL verifies the
/// ECDSA-signed chains, and each exported EC private key belongs to its certificate.
@Suite struct ECExportTests {
    static let scenario = """
        title: EC export
        description: a mutual-TLS run with an EC P-384 server leaf and an EC P-256 client certificate
        pki: { seed: 5, keys: { intermediate: p-384, leaf: p-384, client_ca: p-256, client: p-256 } }
        server:
          client_auth: require
          client_cas: [client-root]
        client:
          identity: [client]
        expect:
          handshake: success
          suite: TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256
          server_signature: ecdsa_secp384r1_sha384
          client_signature: ecdsa_secp256r1_sha256

        """

    @Test(CrossCheckRequirement.trait(Tool.path("openssl") != nil, missing: "openssl is not installed"))
    func ecPKIFilesVerifyWithOpenSSL() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("ec.yaml")
        try Self.scenario.write(to: file, atomically: true, encoding: .utf8)
        let check = try CLI.run(["check", file.path])
        #expect(check.status == 0, "\(check.stdout) \(check.stderr)")
        let pki = dir.appendingPathComponent("pki")
        let result = try CLI.run(["export", file.path, "--pcap", dir.appendingPathComponent("x.pcap").path, "--pki", pki.path])
        #expect(result.status == 0, "\(result.stderr)")
        func path(_ name: String) -> String { pki.appendingPathComponent(name).path }
        // Leaf first, then the intermediate: split for -untrusted.
        let chain = try String(contentsOfFile: path("server-chain.pem"), encoding: .utf8)
        let blocks = chain.components(separatedBy: "-----END CERTIFICATE-----").dropLast()
            .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) + "\n-----END CERTIFICATE-----\n" }
        #expect(blocks.count == 2)
        let leaf = dir.appendingPathComponent("leaf.pem"), rest = dir.appendingPathComponent("rest.pem")
        try (blocks.first ?? "").write(to: leaf, atomically: true, encoding: .utf8)
        try blocks.dropFirst().joined().write(to: rest, atomically: true, encoding: .utf8)
        let server = try Tool.run("openssl", ["verify", "-no_check_time", "-check_ss_sig", "-CAfile", path("roots.pem"), "-purpose", "sslserver",
                                              "-verify_hostname", "example.com", "-untrusted", rest.path, leaf.path])
        #expect(server.output.contains(": OK"), "\(server.output)")
        let text = try Tool.run("openssl", ["x509", "-in", leaf.path, "-noout", "-text"]).output
        #expect(text.contains("Signature Algorithm: ecdsa-with-SHA384") && text.contains("NIST CURVE: P-384"), "\(text)")
        for (key, certificate) in [("server-key.pem", leaf.path), ("client-key.pem", path("client-chain.pem"))] {
            let fromKey = try Tool.run("openssl", ["pkey", "-in", path(key), "-pubout"]).output
            let fromCertificate = try Tool.run("openssl", ["x509", "-in", certificate, "-noout", "-pubkey"]).output
            #expect(fromKey.contains("BEGIN PUBLIC KEY") && fromKey == fromCertificate, "\(key) belongs to its certificate")
        }
    }
}
