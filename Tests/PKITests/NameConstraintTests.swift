import Testing
@testable import PKI

/// RFC 5280 §4.2.1.10 comparisons, one rule per row (expected values written from the RFC text).
@Suite struct NameConstraintTests {
    typealias M = NameConstraintMatching

    @Test func dnsNamesMatchTheBaseAndNamesWithLabelsAddedOnTheLeft() {
        #expect(M.dns("example.com", base: "example.com", excluded: false) == .inside)
        #expect(M.dns("foo.bar.Example.com", base: "example.COM", excluded: false) == .inside)
        #expect(M.dns("notexample.com", base: "example.com", excluded: false) == .outside)
        #expect(M.dns("example.com", base: "foo.example.com", excluded: false) == .outside)
        #expect(M.dns("anything.test", base: "", excluded: false) == .inside)
        #expect(M.dns(".example.com", base: "example.com", excluded: false) == .malformedName)
        #expect(M.dns("under_score.example.com", base: "example.com", excluded: false) == .malformedName)
    }

    @Test func aWildcardSANIsInsideAPermittedBaseOnlyWhenEveryNameItCoversIs() {
        // *.foo.com covers x.foo.com for every x: all inside foo.com, not all inside bar.foo.com.
        #expect(M.dns("*.foo.com", base: "foo.com", excluded: false) == .inside)
        #expect(M.dns("*.example.com", base: "foo.example.com", excluded: false) == .outside)
        // Excluded bar.example.com is one of the names *.example.com covers.
        #expect(M.dns("*.example.com", base: "bar.example.com", excluded: true) == .inside)
        #expect(M.dns("*.example.com", base: "other.test", excluded: true) == .outside)
    }

    @Test func emailConstraintsNameAMailboxAHostOrADomain() {
        #expect(M.email("foo@example.com", base: "foo@example.com") == .inside)
        #expect(M.email("bar@example.com", base: "foo@example.com") == .outside)
        #expect(M.email("foo@EXAMPLE.com", base: "example.com") == .inside)
        #expect(M.email("foo@sub.example.com", base: "example.com") == .outside)
        #expect(M.email("foo@sub.example.com", base: ".example.com") == .inside)
        #expect(M.email("foo@example.com", base: ".example.com") == .outside)
        // `*` is a literal character in a mailbox constraint.
        #expect(M.email("*@example.com", base: "*@example.com") == .inside)
        #expect(M.email("user@example.com", base: "*@example.com") == .outside)
        #expect(M.email("invalid@address@example.com", base: "example.com") == .malformedName)
    }

    @Test func ipAddressesMatchARangeOfTheSameFamily() {
        let range: [UInt8] = [192, 0, 2, 0], mask: [UInt8] = [255, 255, 255, 0]
        #expect(M.ip([192, 0, 2, 77], range: range, mask: mask) == .inside)
        #expect(M.ip([192, 0, 3, 1], range: range, mask: mask) == .outside)
        #expect(M.ip([UInt8](repeating: 0, count: 15) + [1], range: range, mask: mask) == .outside)
        #expect(GeneralName.isContiguous(mask: [255, 255, 255, 0]))
        #expect(!GeneralName.isContiguous(mask: [255, 0, 255, 0]))
    }

    @Test func uriConstraintsCompareTheHost() {
        #expect(M.uri("https://user@www.example.com:8443/x?y", base: ".example.com") == .inside)
        #expect(M.uri("https://example.com/", base: "example.com") == .inside)
        #expect(M.uri("https://www.example.com/", base: "example.com") == .outside)
        #expect(M.uri("urn:isbn:1234", base: "example.com") == .malformedName)
    }
}
