import Testing
@testable import PKI
@Test func placeholder() { #expect(Bool(true)) }
