import Testing
import Trace
@testable import Scenarios

/// Issue #32 §2.11: the lesson runner reads whether a CertificateRequest reached the client, how
/// HTTP/2 was chosen and the first response off the simulation's result (`Trace.exchange`), not
/// off the events.
@Suite("Lesson facts from the simulation's result")
struct RunExchangeFactsTests {
    static func run(_ path: String) throws -> ScenarioRun {
        try ScenarioParser.parse(contentsOf: Library.root + "/" + path + ".yaml").run()
    }

    /// Mutual TLS asks for a certificate (RFC 5246 §7.4.4); a one-way handshake does not.
    @Test func aCertificateRequestReachesTheClientOnlyWhenAsked() throws {
        let mutual = try Self.run("mtls/success")
        #expect(try #require(mutual.trace).exchange.certificateRequestReachedClient)
        #expect(mutual.facts["client_certificate_disposition"] != .string("none"))
        let oneWay = try Self.run("tls/rsa-one-way")
        #expect(try #require(oneWay.trace).exchange.certificateRequestReachedClient == false)
        #expect(oneWay.facts["client_certificate_disposition"] == .string("none"))
    }

    /// The response facts are the result's: what the client read is what the server sent.
    @Test func theResponseFactsAreTheResults() throws {
        let run = try Self.run("tls/rsa-one-way")
        let exchange = try #require(run.trace).exchange
        let read = try #require(exchange.firstResponseRead)
        #expect(run.facts["client_response_includes"] == .string(read))
        #expect(exchange.firstResponseSent == read && run.facts["response_altered"] == .bool(false))
        #expect(run.facts["http_response"] == .bool(exchange.responseRead) && exchange.responseRead)
        #expect(run.facts["http2"] == .string("none") && exchange.http2Negotiation == nil)
    }
}
