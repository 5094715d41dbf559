import Testing
@testable import Scenarios

/// A scenario's host is a DNS name or an IP address; anything else is a located error (issue #22).
@Suite("Validation: hosts are DNS names or IP addresses")
struct HostValidationTests {
    @Test func neitherNameNorAddressIsRefused() {
        let e = validationError(minimal("client: { host: 999.1.1.1 }\n"))
        #expect(e?.description == "t.yaml:3:17: client.host: expected a DNS name or an IP address, got '999.1.1.1'", "\(e.map { "\($0)" } ?? "valid")")
        let nul = validationError(minimal("client: { host: \"mail\\0.example.com\" }\n"))
        #expect(nul?.line == 3 && nul?.column == 17 && nul?.path == "client.host", "\(nul.map { "\($0)" } ?? "valid")")
        #expect(nul?.message.contains("\\x00") == true, "the NUL is shown escaped: \(nul.map { "\($0)" } ?? "valid")")
        let connection = validationError("title: t\ndescription: a description long enough to teach\nkind: ats\nats: {}\nconnection: { host: \"a b\" }\nexpect: { ats: blocked }\n")
        #expect(connection?.path == "connection.host", "\(connection.map { "\($0)" } ?? "valid")")
        let pki = validationError(minimal("pki: { hosts: [\"-bad.example.com\"] }\n"))
        #expect(pki?.path == "pki.hosts[0]", "\(pki.map { "\($0)" } ?? "valid")")
    }

    @Test(arguments: ["example.com", "a.b.example.com", "localhost", "xn--bcher-kva.example", "_srv.example.com",
                      "10.0.0.1", "255.255.255.255", "::1", "2001:db8::1", "::ffff:192.0.2.1", "1:2:3:4:5:6:7:8"])
    func validHosts(_ host: String) {
        #expect(YAMLValue.isHost(host, wildcard: false), "\(host)")
    }

    @Test(arguments: ["999.1.1.1", "1.2.3", "256.0.0.1", "a..b", "-a.com", "a-.com", "a b", "a\u{0}b", "1:2:3:4:5:6:7:8:9",
                      "::1::", "12345::", "*.example.com", "\(String(repeating: "a", count: 64)).com", "example.123"])
    func invalidHosts(_ host: String) {
        #expect(!YAMLValue.isHost(host, wildcard: false), "\(host)")
    }

    @Test func wildcardsOnlyForCertificateNames() {
        #expect(YAMLValue.isHost("*.example.com", wildcard: true))
        #expect(!YAMLValue.isHost("*.com", wildcard: true))
        #expect(!YAMLValue.isHost("a.*.com", wildcard: true))
    }
}
