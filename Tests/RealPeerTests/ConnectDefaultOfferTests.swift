import Foundation
import RealPeer
import TLSEngine
import Testing
import TestSupport

/// Issue #38, defect 2: `connect`'s help says it offers every suite TLSLab implements by default; the
/// ClientHello listed 9 of 23, so a server accepting only suites outside those nine answered "no shared
/// cipher". The default is now all 23, in OpenSSL's order of preference.
@Suite("RealPeer: connect offers every implemented suite by default", .serialized,
       CrossCheckRequirement.trait(Tools.openssl != nil, missing: "openssl is not on the PATH"))
struct ConnectDefaultOfferTests {
    @Test("the default list is every implemented suite once, in the order of OpenSSL's DEFAULT list")
    func openSSLOrder() throws {
        let list = CipherSuite.openSSLOrder
        #expect(list.count == 27 && Set(list).count == list.count)
        #expect(Set(list) == Set(CipherSuite.allImplementedWithECDSA))
        let openssl = try #require(Tools.openssl)
        let r = try runTool(openssl, ["ciphers", "-s", "-tls1_2", "-V", "DEFAULT"], in: FileManager.default.temporaryDirectory)
        // "0xC0,0x2C - ECDHE-ECDSA-AES256-GCM-SHA384 TLSv1.2 ...": the code point, in OpenSSL's order.
        let order = r.output.split(separator: "\n").compactMap { line -> CipherSuite? in
            let bytes = line.split(separator: " ").first?.split(separator: ",").compactMap { UInt16($0.dropFirst(2), radix: 16) } ?? []
            guard bytes.count == 2 else { return nil }
            return CipherSuite(rawValue: bytes[0] << 8 | bytes[1])
        }.filter(Set(CipherSuite.allImplementedWithECDSA).contains)
        #expect(order == list, "OpenSSL's order: \(order.map { CipherSuite.names[$0.rawValue] ?? "?" })")
    }

    @Test("s_server -cipher ECDHE-RSA-AES256-SHA:ECDHE-RSA-AES128-SHA:AES256-SHA256 (all implemented, none in the old default): connected")
    func serverWithCBCSuitesOnly() throws {
        let pki = try TestPKI.require()
        let tlslab = try Tools.need(Tools.tlslab, "the tlslab executable is not next to the test bundle")
        let (server, port) = try startSServer(["-cert", "chain.pem", "-key", "leaf.key", "-www",
                                               "-cipher", "ECDHE-RSA-AES256-SHA:ECDHE-RSA-AES128-SHA:AES256-SHA256"], pki: pki)
        defer { server.stop() }
        let r = try runTool(tlslab, ["connect", "127.0.0.1:\(port)", "--servername", "localhost", "--ca", "root.pem",
                                     "--format", "text", "--timeout", "5"], in: pki.dir, timeout: 30)
        #expect(r.status == 0, "\(r.output.suffix(1500))")
        // s_server's page names the suite it chose: the first of the three in the client's order.
        #expect(r.output.contains("Cipher is ECDHE-RSA-AES256-SHA"), "\(r.output.suffix(1500))")
    }

    @Test("--help states the default")
    func help() throws {
        let tlslab = try Tools.need(Tools.tlslab, "the tlslab executable is not next to the test bundle")
        let r = try runTool(tlslab, ["connect", "--help"], in: FileManager.default.temporaryDirectory)
        let flat = r.output.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(flat.contains("Default: all 27 TLS 1.2 suites TLSLab implements, in OpenSSL's order of preference, and the three TLS 1.3 suites."), "\(r.output)")
    }
}
