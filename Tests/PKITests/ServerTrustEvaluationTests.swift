import Testing
@testable import PKI

/// A server trust is made for one host and runs the system default evaluation once, when it is
/// made; every rule that asks for that evaluation reads it (issue #32, review §2.9).
@Suite struct ServerTrustEvaluationTests {
    static let host = "www.example.com"

    @Test func theTrustHoldsTheDefaultEvaluationForItsHost() {
        let trust = PKIFixtures.trust(["leaf-wronghost", "int"], host: Self.host)
        let fresh = ChainValidator(anchors: trust.anchors, purpose: .sslServer(host: Self.host), time: trust.time).validate(trust.presented)
        #expect(trust.host == Self.host)
        #expect(trust.defaultEvaluation == fresh)
        #expect(!trust.defaultEvaluation.isValid)
        // The same policy and anchors is the held evaluation; another host or policy is evaluated anew.
        #expect(trust.evaluate(.sslServer(host: Self.host)) == trust.defaultEvaluation)
        #expect(trust.evaluate(.sslServer(host: Self.host), anchors: trust.anchors) == trust.defaultEvaluation)
        #expect(trust.evaluate(.basicX509).isValid)
        let named = ChainValidator(anchors: trust.anchors, purpose: .sslServer(host: "wrong.example.net"), time: trust.time)
        #expect(trust.evaluate(.sslServer(host: "wrong.example.net")) == named.validate(trust.presented))
    }

    @Test func defaultHandlingAndATSReadTheTrustsEvaluation() {
        let trust = PKIFixtures.trust(["leaf-expired", "int"], host: Self.host)
        let outcome = ChallengeResolver.resolve(method: .serverTrust, disposition: .performDefaultHandling, trust: trust,
                                                host: Self.host, reasons: [])
        #expect(outcome.reasons == [.defaultHandling(host: Self.host, EvaluationSummary(trust.defaultEvaluation))])
        #expect(!outcome.handshakeContinues)
        let ats = ATSPolicy().evaluate(ATSPolicy.Connection(host: Self.host, trust: trust))
        #expect(!ats.accepted)
        #expect(ats.evaluation == nil || ats.evaluation == trust.defaultEvaluation)
        #expect(ats.atsChecks.last?.firstFailure == trust.defaultEvaluation.firstFailure)
    }
}
