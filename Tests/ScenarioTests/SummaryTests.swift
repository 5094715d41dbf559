import HTTP2
@testable import Rendering
@testable import Scenarios
import Simulation
import Testing
import Trace
import Trust

/// `expect.summary` can name every value of the JSON summary, and the scenario's facts hold
/// exactly what `tlslab run --format json` writes there.
@Suite("expect.summary covers the JSON summary object")
struct SummaryTests {
    static let files = ["tls/rsa-one-way", "http/resumption", "http/https-cost", "attacks/http-plain-cookie",
                        "certs/expired", "attacks/mitm-default-client", "http/http2-server-push", "attacks/h2c-eavesdropper", "tls/alpn"]

    @Test(arguments: files)
    func everyJSONSummaryValueIsAFact(_ name: String) throws {
        let scenario = try ScenarioParser.parse(contentsOf: Library.root + "/\(name).yaml")
        let run = scenario.run()
        let trace = try #require(run.trace)
        let pairs = JSONLinesRenderer().summary(trace).pairs
        #expect(Set(pairs.map(\.0)) == Set(ExpectationReader.summaryKeys(http2: trace.statistics.usedHTTP2,
                                                                                   alpn: trace.summary.applicationProtocol != nil)),
                "the schema lists exactly the JSON summary's keys")
        for (key, json) in pairs {
            let expected: FactValue
            switch json {
            case .string(let s): expected = .string(s)
            case .bool(let b): expected = .bool(b)
            case .null: expected = .null
            case .number(let n): expected = n.contains(".") ? .string(n) : .int(Int(n) ?? -1)
            case .array: Issue.record("\(key): the summary has no arrays"); continue
            }
            #expect(run.facts["summary.\(key)"] == expected, "\(name): summary.\(key)")
        }
    }

    @Test func secondsAreWrittenAndReadLikeTheJSON() throws {
        #expect(ExpectationReader.seconds(micros: 250_000) == "0.250000")
        #expect(ExpectationReader.seconds(micros: 12_000_150) == "12.000150")
        let text = minimal("", expect: "expect:\n  summary: { cpu_time: 0.25, t: 1, last_response_t: ~, round_trips: 2 }\n")
        let s = try ScenarioParser.parse(text: text, file: "t.yaml")
        #expect(s.expectations.map(\.value) == [.string("0.250000"), .string("1.000000"), .null, .int(2)])
        let bad = validationError(minimal("", expect: "expect:\n  summary: { cpu_time: 0.1234567 }\n"))
        #expect(bad?.description == "t.yaml:4:24: expect.summary.cpu_time: expected a time in seconds with at most six decimals, got the number 0.1234567")
        let word = validationError(minimal("", expect: "expect:\n  summary: { round_trips: two }\n"))
        #expect(word?.path == "expect.summary.round_trips" && word?.message.hasPrefix("expected a whole number") == true)
    }
}
