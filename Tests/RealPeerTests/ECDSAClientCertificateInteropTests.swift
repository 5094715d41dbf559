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
        try connectWithClientCertificateAgainstSServer(certificate: "ecclient.pem", key: "ecclient.key", scheme: "ecdsa_secp256r1_sha256", subject: "TLSLab Test EC Client")
    }
}
