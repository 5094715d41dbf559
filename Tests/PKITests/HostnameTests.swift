import Testing
@testable import PKI

@Suite struct HostnameTests {
    /// (presented dNSName, reference host, expected) — RFC 9525 §6.3/§6.4 by hand.
    static let table: [(String, String, Bool)] = [
        ("www.example.com", "www.example.com", true),
        ("WWW.Example.COM", "www.example.com", true),
        ("www.example.com", "WWW.EXAMPLE.COM.", true),
        ("www.example.com", "mail.example.com", false),
        ("*.example.com", "mail.example.com", true),
        ("*.example.com", "example.com", false),
        ("*.example.com", "a.b.example.com", false),
        ("*.example.com", "mail.example.org", false),
        ("w*.example.com", "www.example.com", false),
        ("*w.example.com", "www.example.com", false),
        ("www.*.example.com", "www.a.example.com", false),
        ("*.*.example.com", "a.b.example.com", false),
        ("*.com", "example.com", false),
        ("*", "localhost", false),
        ("example.com", "www.example.com", false),
        ("www.example.com", "www.example.com.evil", false),
        ("*.example.com", "*.example.com", false),
        ("*.example.com", "192.0.2.1", false),
    ]

    @Test func dnsTable() {
        for (pattern, host, expected) in Self.table {
            #expect(HostnameMatcher.matches(pattern: pattern, host: host) == expected, "\(pattern) vs \(host)")
        }
    }

    @Test func certificateIdentities() {
        let leaf = PKIFixtures.cert("leaf")
        #expect(HostnameMatcher.finding(leaf, host: "www.example.com").matches)
        #expect(HostnameMatcher.finding(leaf, host: "v1.api.example.com").matches)
        #expect(!HostnameMatcher.finding(leaf, host: "api.example.com").matches)
        #expect(!HostnameMatcher.finding(leaf, host: "example.com").matches)
        #expect(HostnameMatcher.finding(leaf, host: "192.0.2.10").matches)
        #expect(!HostnameMatcher.finding(leaf, host: "192.0.2.11").matches)
        let ec = PKIFixtures.cert("ec-leaf")
        #expect(HostnameMatcher.finding(ec, host: "2001:db8::1").matches)
        #expect(HostnameMatcher.finding(ec, host: "[2001:0db8:0:0:0:0:0:1]").matches)
        #expect(!HostnameMatcher.finding(ec, host: "2001:db8::2").matches)
        // The CN is never consulted (RFC 9525): the intermediate's CN is not a name it covers.
        #expect(!HostnameMatcher.finding(PKIFixtures.cert("int"), host: "TLSLab Test Intermediate CA").matches)
        // CN = www.example.com, SAN = mail.example.com: a SAN is present, so the matching CN is ignored
        // (RFC 6125 §6.4.4; openssl verify -verify_hostname says "hostname mismatch" — ChainValidationTests).
        let cnOnly = PKIFixtures.cert("leaf-cn-only-match")
        #expect(cnOnly.subject.commonNames == ["www.example.com"])
        #expect(!HostnameMatcher.finding(cnOnly, host: "www.example.com").matches)
        #expect(HostnameMatcher.finding(cnOnly, host: "mail.example.com").matches)
    }

    @Test func ipParsing() {
        #expect(HostnameMatcher.parseIPv4("192.0.2.1") == [192, 0, 2, 1])
        #expect(HostnameMatcher.parseIPv4("192.0.2") == nil)
        #expect(HostnameMatcher.parseIPv4("256.0.0.1") == nil)
        #expect(HostnameMatcher.parseIPv4("01.0.0.1") == nil)
        #expect(HostnameMatcher.parseIPv6("::1") == [UInt8](repeating: 0, count: 15) + [1])
        #expect(HostnameMatcher.parseIPv6("1::2::3") == nil)
        #expect(HostnameMatcher.parseIPv6("example.com") == nil)
    }
}
