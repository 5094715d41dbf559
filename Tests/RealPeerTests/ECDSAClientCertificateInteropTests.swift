import Foundation
import RealPeer
import TLSEngine
import Testing
import TestSupport

/// Mutual TLS with an EC P-256 client certificate (RFC 8422 §5.5 ecdsa_sign, a CertificateVerify
/// signed ecdsa_secp256r1_sha256): `openssl s_client -cert ecclient.pem` against `tlslab serve`
/// requiring client certificates, and `tlslab connect --cert ecclient.pem` against `openssl s_server -Verify 1`.
@Suite("RealPeer: ECDSA client certificates against OpenSSL", .serialized, CrossCheckRequirement.trait(Tools.openssl != nil, missing: "openssl is not on the PATH"))
struct ECDSAClientCertificateInteropTests {
    @Test("serve --client-auth require: s_client with an EC client certificate is accepted; s_client reads ecdsa_sign and ECDSA+SHA256 in our CertificateRequest")
    func sClientWithECCertificateAgainstServe() throws {
        let pki = try TestPKI.require()
        let (serve, port) = try startServe(["--client-auth", "require", "--client-ca", "root.pem", "--max-connections", "1"], pki: pki)
        defer { serve.stop() }
        let r = try ServerRoleTests.sClient(port, pki: pki, ["-cert", "ecclient.pem", "-key", "ecclient.key"])
        #expect(r.output.contains("Verify return code: 0 (ok)"), "\(r.output)")
        // OpenSSL prints what our CertificateRequest asked for (RFC 5246 §7.4.4).
        #expect(r.output.contains("Client Certificate Types: RSA sign, ECDSA sign"), "\(r.output)")
        #expect(r.output.contains("Requested Signature Algorithms: ECDSA+SHA256:ECDSA+SHA384:"), "\(r.output)")
        #expect(r.output.contains("client certificate: CN=TLSLab Test EC Client"), "our page names the client: \(r.output)")
        #expect(serve.wait(for: "stopped", seconds: 5), "\(serve.output)")
        #expect(serve.output.contains("client CN=TLSLab Test EC Client"), "\(serve.output)")
    }

    @Test("tlslab connect --cert/--key with an EC client certificate against s_server -Verify 1: s_server verifies our ECDSA CertificateVerify")
    func connectWithECCertificateAgainstSServer() throws {
        let pki = try TestPKI.require()
        let tlslab = try Tools.need(Tools.tlslab, "the tlslab executable is not next to the test bundle")
        let (server, port) = try startSServer(["-cert", "leaf.pem", "-cert_chain", "root.pem", "-key", "leaf.key",
                                               "-Verify", "1", "-CAfile", "root.pem", "-verify_return_error", "-www"], pki: pki)
        defer { server.stop() }
        let ok = try runTool(tlslab, ["connect", "127.0.0.1:\(port)", "--servername", "localhost", "--ca", "root.pem", "--timeout", "5",
                                      "--cert", "ecclient.pem", "--key", "ecclient.key"], in: pki.dir, environment: ["NO_COLOR": "1"])
        #expect(ok.status == 0, "\(ok.output.suffix(1500))")
        #expect(ok.output.contains("HTTP/1.0 200 ok"), "s_server's page: \(ok.output.suffix(1500))")
        #expect(ok.output.contains("ecdsa_secp256r1_sha256"), "the CertificateVerify scheme: \(ok.output.suffix(3000))")
        #expect(server.wait(for: "CN = TLSLab Test EC Client", seconds: 3), "s_server verified our client certificate: \(server.output)")
    }
}
