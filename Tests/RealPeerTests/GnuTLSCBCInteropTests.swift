import Foundation
import Testing
import TestSupport

/// CBC suites with SHA-1 and SHA-256 MACs, with and without encrypt-then-MAC (RFC 7366), against
/// GnuTLS in both roles: gnutls-cli against `tlslab serve`, `tlslab connect` against gnutls-serv.
/// GnuTLS offers and accepts encrypt_then_mac by default; the priority string `%NO_ETM` turns it off.
/// gnutls-cli's "- Options:" line names EtM when it was negotiated.
@Suite("RealPeer: CBC and encrypt-then-MAC with GnuTLS, both roles", .serialized,
       CrossCheckRequirement.trait(Tools.openssl != nil, missing: "openssl is not on the PATH (it builds the test PKI)"))
struct GnuTLSCBCInteropTests {
    /// (GnuTLS MAC name, the suite with ECDHE-RSA and AES-128-CBC).
    static let macs: [(String, String)] = [("SHA1", "TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA"),
                                           ("SHA256", "TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256")]

    static func priority(mac: String, etm: Bool) -> String {
        "NORMAL:-VERS-ALL:+VERS-TLS1.2:-KX-ALL:+ECDHE-RSA:-CIPHER-ALL:+AES-128-CBC:-MAC-ALL:+\(mac)" + (etm ? "" : ":%NO_ETM")
    }

    /// The "- Options:" line gnutls-cli prints after the handshake.
    static func optionsLine(_ output: String) -> String? {
        output.split(separator: "\n").first { $0.hasPrefix("- Options:") }.map(String.init)
    }

    @Test("gnutls-cli against tlslab serve: the CBC suite with its MAC, EtM exactly when GnuTLS allows it",
          arguments: [0, 1], [true, false])
    func gnutlsClientAgainstServe(mac index: Int, etm: Bool) throws {
        let pki = try TestPKI.require()
        let (mac, suite) = Self.macs[index]
        let (serve, port) = try startServe(["--max-connections", "1"], pki: pki)
        defer { serve.stop() }
        let output = try GnuTLS.client(port: port, pki: pki, priority: Self.priority(mac: mac, etm: etm),
                                       until: "client certificate:")
        #expect(output.contains("-(AES-128-CBC)-(\(mac))"), "\(output.prefix(2500))")
        #expect(output.contains("cipher suite: \(suite)\n"), "our page names the suite: \(output.suffix(800))")
        let options = try #require(Self.optionsLine(output), "\(output.prefix(2500))")
        #expect(options.contains("EtM") == etm, "\(options)")
        #expect(serve.wait(for: suite), "serve's log line names the suite: \(serve.output)")
    }

    @Test("tlslab connect against gnutls-serv: the CBC suite, encrypt_then_mac in the trace exactly when GnuTLS allows it",
          arguments: [0, 1], [true, false])
    func connectAgainstGnuTLSServer(mac index: Int, etm: Bool) throws {
        let pki = try TestPKI.require()
        let tlslab = try Tools.need(Tools.tlslab, "the tlslab executable is not next to the test bundle")
        let (mac, suite) = Self.macs[index]
        let (server, port) = try GnuTLS.server(pki: pki, priority: Self.priority(mac: mac, etm: etm))
        defer { server.stop() }
        let r = try runTool(tlslab, ["connect", "127.0.0.1:\(port)", "--servername", "localhost", "--ca", "root.pem",
                                     "--suite", suite, "--format", "json", "--timeout", "60", "--request", "GET / HTTP/1.0\\r\\n\\r\\n"],
                            in: pki.dir, environment: ["NO_COLOR": "1"], timeout: GnuTLS.patience)
        #expect(r.status == 0, "\(r.output.suffix(1500))")
        let negotiated = try #require(r.output.split(separator: "\n").first { $0.contains("\"tls_negotiated\"") }, "\(r.output.prefix(1500))")
        #expect(negotiated.contains("\"\(suite)\""), "\(negotiated)")
        #expect(negotiated.contains("encrypt_then_mac") == etm, "\(negotiated)")
        // gnutls-serv --http answers with a page naming the session's cipher.
        #expect(r.output.contains("HTTP/1.0 200"), "\(r.output.suffix(1500))")
    }
}
