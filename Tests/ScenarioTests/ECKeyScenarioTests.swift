import Languages
import PKI
import Rendering
@testable import Scenarios
import Testing
import TLSEngine

/// `pki.keys`: RSA or EC (P-256, P-384) per certificate, validated with located errors; an EC leaf
/// makes the server negotiate ECDHE_ECDSA and sign its ServerKeyExchange with ECDSA; an EC client
/// identity answers the CertificateRequest with an ECDSA CertificateVerify.
@Suite("Scenarios: pki.keys chooses RSA or EC per certificate")
struct ECKeyScenarioTests {
    static func facts(_ extra: String) throws -> [String: FactValue] {
        try ScenarioParser.parse(text: minimal(extra), file: "t.yaml").run().facts
    }

    @Test func errorsAreLocated() {
        // P-224 is not a kind (P-521 became one with issue #39).
        let curve = validationError(minimal("pki:\n  seed: 3\n  keys: { leaf: p-224 }\n"))
        #expect(curve?.description == "t.yaml:5:17: pki.keys.leaf: expected one of: rsa, p-256, p-384, p-521, ed25519, got the string 'p-224'; did you mean 'p-256'?", "\(curve.map { "\($0)" } ?? "valid")")
        let holder = validationError(minimal("pki:\n  seed: 3\n  keys: { leef: p-256 }\n"))
        #expect(holder?.path == "pki.keys.leef" && holder?.message.hasSuffix("did you mean 'leaf'?") == true, "\(holder.map { "\($0)" } ?? "valid")")
        let all = validationError(minimal("pki:\n  seed: 3\n  keys: p256\n"))
        #expect(all?.path == "pki.keys" && all?.message.contains("did you mean 'p-256'?") == true, "\(all.map { "\($0)" } ?? "valid")")
        let bits = validationError(minimal("pki:\n  seed: 3\n  key_bits: 3072\n  keys: p-384\n"))
        #expect(bits?.description == "t.yaml:5:3: pki.key_bits: contradiction: key_bits sizes RSA keys, and pki.keys gives every certificate an EC key")
        let small = validationError(minimal("pki:\n  seed: 3\n  defect: rsa-1024-leaf\n  keys: { leaf: p-256 }\n"))
        #expect(small?.path == "pki.keys.leaf" && small?.message.hasPrefix("contradiction: the rsa-1024-leaf defect") == true, "\(small.map { "\($0)" } ?? "valid")")
        let sha1 = validationError(minimal("pki:\n  seed: 3\n  defect: sha1-signature\n  keys: p-256\n"))
        #expect(sha1?.path == "pki.keys" && sha1?.message.contains("sha1WithRSAEncryption") == true, "\(sha1.map { "\($0)" } ?? "valid")")
        let suites = validationError(minimal("pki:\n  seed: 3\n  keys: { leaf: p-256 }\nserver:\n  suites: [TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256]\n"))
        #expect(suites?.path == "server.suites" && suites?.message.hasPrefix("contradiction: the server's certificate 'leaf' has an EC key") == true,
                "\(suites.map { "\($0)" } ?? "valid")")
        #expect(validationError(minimal("pki:\n  seed: 3\n  keys: { root: rsa, intermediate: p-384, leaf: p-256, client_ca: p-256, client: p-384 }\n")) == nil)
    }

    @Test(arguments: [("p-256", "EC P-256", "ecdsa_secp256r1_sha256"), ("p-384", "EC P-384", "ecdsa_secp384r1_sha384")])
    func anECLeafNegotiatesECDHEECDSA(kind: String, key: String, scheme: String) throws {
        let f = try Self.facts("pki:\n  seed: 3\n  keys: { leaf: \(kind) }\n")
        #expect(f["handshake"] == .string("success"))
        #expect(f["suite"] == .string("TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256"))
        #expect(f["server_key"] == .string(key))
        #expect(f["server_signature"] == .string(scheme))
        // DER SEQUENCE { r, s }: at most 2 + 2 × (2 + 33) = 72 bytes on P-256, 2 + 2 × (2 + 49) = 104 on P-384.
        guard case .int(let size)? = f["server_signature_bytes"] else { Issue.record("no size"); return }
        #expect(size <= (kind == "p-256" ? 72 : 104) && size >= (kind == "p-256" ? 64 : 96))
    }

    @Test func anRSALeafKeepsTheRSASignatureAndSizes() throws {
        let f = try Self.facts("pki:\n  seed: 3\n")
        #expect(f["suite"] == .string("TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256"))
        #expect(f["server_key"] == .string("RSA-2048"))
        #expect(f["server_signature"] == .string("rsa_pkcs1_sha256"))
        #expect(f["server_signature_bytes"] == .int(256))
        let ec = try Self.facts("pki:\n  seed: 3\n  keys: { leaf: p-256 }\n")
        guard case .int(let rsaBytes)? = f["server_certificate_bytes"], case .int(let ecBytes)? = ec["server_certificate_bytes"] else {
            Issue.record("no certificate sizes"); return
        }
        // The same names and extensions; the EC leaf's 65-byte point replaces a 270-byte RSAPublicKey.
        #expect(ecBytes < rsaBytes, "\(ecBytes) vs \(rsaBytes)")
    }

    @Test func anECClientIdentitySignsCertificateVerifyWithECDSA() throws {
        let f = try Self.facts("""
            pki:
              seed: 3
              keys: { client: p-256 }
            server:
              client_auth: require
              client_cas: [client-root]
            client:
              identity: [client]

            """)
        #expect(f["handshake"] == .string("success"))
        #expect(f["client_authenticated"] == .bool(true))
        #expect(f["client_signature"] == .string("ecdsa_secp256r1_sha256"))
        // The server leaf stays RSA.
        #expect(f["server_signature"] == .string("rsa_pkcs1_sha256"))
    }

    @Test func theVirtualCPUNamesECDSASignatures() throws {
        let trace = try #require(try ScenarioParser.parse(text: minimal("pki:\n  seed: 3\n  keys: p-256\nhttp: { cpu: measured }\n"), file: "t.yaml").run().trace)
        let text = TextRenderer(verbosity: .normal, width: 1000).render(trace).joined(separator: "\n")
        #expect(text.contains("ECDSA signature check"), "\(text)")
        #expect(!text.contains("RSA signature"))
        let zh = TextRenderer(verbosity: .normal, width: 1000, explanations: Language.zh.explanations).render(trace).joined(separator: "\n")
        #expect(zh.contains("ECDSA 验证签名"))
    }

    @Test func aSeedReproducesAnECRun() throws {
        // Every fact (randoms, secrets, signature sizes) is the same for the same seed; another seed differs.
        let s1 = try Self.facts("pki:\n  seed: 4\n  keys: p-384\n"), s2 = try Self.facts("pki:\n  seed: 4\n  keys: p-384\n")
        #expect(s1 == s2)
        let other = try Self.facts("seed: 9\npki:\n  seed: 4\n  keys: p-384\n")
        #expect(other != s1)
    }
}
