import HTTP2
import PKI
import Simulation
import TCPSim
import TLSEngine
import Trace

/// A value a run ends with, or one an expectation names.
public enum FactValue: Equatable, Sendable, CustomStringConvertible {
    case string(String)
    case bool(Bool)
    case int(Int)
    case list([String])
    case null
    /// Problems of the run itself (``RunProblem``), typed; the command line words them.
    case problems([RunProblem])

    public var description: String {
        switch self {
        case .string(let s): return s
        case .bool(let b): return b ? "true" : "false"
        case .int(let i): return "\(i)"
        case .list(let l): return "[" + l.map { $0.contains(",") ? "\"\($0)\"" : $0 }.joined(separator: ", ") + "]"
        case .null: return "null"
        case .problems(let p): return "[" + p.map(\.description).joined(separator: ", ") + "]"
        }
    }
}

/// One line of `expect`: the fact `key` must equal `value`.
public struct Expectation: Sendable {
    /// The fact's name (`alert`, `summary.cipher_suite`, …).
    public var key: String
    public var value: FactValue
    /// True when the fact need only contain the expected value (`reason_includes`: one of the run's
    /// trust reason identifiers; `client_response_includes`: part of the response text).
    public var containment = false
    public var line: Int
    public var column: Int
}

/// The first expectation a run did not meet.
public struct UnmetExpectation: Sendable, Equatable, CustomStringConvertible {
    public var key: String
    public var expected: FactValue
    public var actual: FactValue?
    public var description: String { "\(key): expected \(expected), got \(actual.map(\.description) ?? "nothing")" }
}

extension Scenario {
    /// Checks the expectations in file order against the facts of a run.
    public func firstUnmet(in facts: [String: FactValue]) -> UnmetExpectation? {
        // A TCP script step that could not be carried out (a send on a connection that does not
        // exist) fails the scenario rather than being skipped silently.
        if case .problems(let problems)? = facts["script_errors"], !problems.isEmpty {
            return UnmetExpectation(key: "actions", expected: .problems([]), actual: .problems(problems))
        }
        // Likewise an attacker step or a scripted fault that never found anything to act on
        // (a message the sender never sends, a byte past its end, a record or segment that never
        // came): the lesson would otherwise pass without the attack it describes.
        if case .list(let problems)? = facts["not_applied"], !problems.isEmpty {
            return UnmetExpectation(key: "not_applied", expected: .list([]), actual: .list(problems))
        }
        for e in expectations {
            if let unmet = Self.unmet(e, in: facts) { return unmet }
        }
        return nil
    }

    /// Every expectation in file order with what the run gave: nil when it holds. The run's own
    /// problems (a script step or an attack that never applied) come first, as in ``firstUnmet(in:)``.
    public func results(in facts: [String: FactValue]) -> (problems: [UnmetExpectation], checked: [(Expectation, UnmetExpectation?)]) {
        var problems: [UnmetExpectation] = []
        if case .problems(let p)? = facts["script_errors"], !p.isEmpty {
            problems.append(UnmetExpectation(key: "actions", expected: .problems([]), actual: .problems(p)))
        }
        if case .list(let p)? = facts["not_applied"], !p.isEmpty {
            problems.append(UnmetExpectation(key: "not_applied", expected: .list([]), actual: .list(p)))
        }
        return (problems, expectations.map { ($0, Self.unmet($0, in: facts)) })
    }

    /// The expectation checked against the facts: nil when it holds.
    static func unmet(_ e: Expectation, in facts: [String: FactValue]) -> UnmetExpectation? {
        let actual = facts[e.key]
        if e.containment, case .string(let want) = e.value, case .string(let got)? = actual, got.contains(want) { return nil }
        if e.containment, case .string(let want) = e.value, case .list(let got)? = actual, got.contains(want) { return nil }
        if e.containment || actual != e.value { return UnmetExpectation(key: e.key, expected: e.value, actual: actual) }
        return nil
    }
}

/// The `expect` schema: which facts each kind of scenario can assert, with their types.
enum ExpectationReader {
    enum Kind {
        case enumeration([String])
        case bool
        case int
        /// A whole number that may be −1 ("none").
        case intOrMinusOne
        case string
        /// A trust reason identifier (``TrustReason/identifier``): one step of the client's decision.
        case trustReason
        /// A set of words (compared sorted).
        case set([String])
        /// A list of words in order.
        case sequence([String])
        /// A list of free-text lines in order.
        case lines
        /// A list of whole numbers in order.
        case intList
        case summary
    }

    static let secrets = ["client_random", "server_random", "premaster_secret", "master_secret",
                          "client_write_key", "server_write_key", "http_cookie", "http_request", "http_response"]
    static let tcpStates = TCPState.allCasesForSchema
    /// The keys of the JSON summary object (`tlslab run --format json`'s last line), each with
    /// how its value is written in `expect.summary`.
    enum SummaryType { case text, bool, int, seconds }
    static let summarySchema: [(String, SummaryType)] = [
        ("t", .seconds), ("actor", .text), ("event", .text),
        ("client_random", .text), ("server_random", .text), ("premaster_secret", .text), ("master_secret", .text),
        ("client_verify_data", .text), ("server_verify_data", .text), ("cipher_suite", .text), ("version", .text),
        ("extended_master_secret", .bool), ("resumed", .bool), ("outcome", .text),
        ("connections", .int), ("full_handshakes", .int), ("abbreviated_handshakes", .int), ("requests", .int),
        ("responses", .int), ("round_trips", .int), ("round_trips_to_first_byte", .int), ("last_response_t", .seconds), ("cpu_time", .seconds),
        ("streams", .int), ("hpack_raw_bytes", .int), ("hpack_encoded_bytes", .int), ("pushed_responses", .int),
        ("http2_error", .text), ("alpn", .text),
    ]
    /// The keys only an HTTP/2 run's summary has.
    static let http2SummaryKeys: Set<String> = ["streams", "hpack_raw_bytes", "hpack_encoded_bytes", "pushed_responses", "http2_error"]
    static var summaryKeys: [String] { summarySchema.map(\.0) }
    /// The keys a run's JSON summary holds: all but the HTTP/2 ones unless it spoke HTTP/2, and
    /// `alpn` only when ALPN agreed on a protocol.
    static func summaryKeys(http2: Bool, alpn: Bool) -> [String] {
        summaryKeys.filter { (http2 || !http2SummaryKeys.contains($0)) && (alpn || $0 != "alpn") }
    }

    /// Virtual seconds as the JSON summary writes them: six decimals (`0.250000`).
    static func seconds(micros: Int64) -> String {
        let sign = micros < 0 ? "-" : ""
        let m = micros.magnitude
        let fraction = String(m % 1_000_000)
        return "\(sign)\(m / 1_000_000).\(String(repeating: "0", count: 6 - fraction.count))\(fraction)"
    }

    static func schema(for kind: String) -> [(String, Kind)] {
        switch kind {
        case "tcp":
            return [
                ("client_state", .enumeration(tcpStates)), ("server_state", .enumeration(tcpStates + ["none"])),
                ("client_states", .sequence(tcpStates)), ("server_states", .sequence(tcpStates)),
                ("retransmissions", .int), ("client_retransmissions", .int), ("server_retransmissions", .int),
                ("client_received", .string), ("server_received", .string), ("accepted", .bool),
                ("client_error", .enumeration(["none", "refused", "reset", "timedOut", "aborted"])),
                ("backlog_drops", .int), ("resets_sent", .int), ("syn_cookies_accepted", .int),
                ("segments_duplicated", .int), ("out_of_order_buffered", .int), ("unacceptable_segments", .int),
                ("segments", .lines),
            ]
        case "ats":
            return [("ats", .enumeration(["allowed", "blocked"])), ("reason_includes", .trustReason)]
        case "dh":
            return [("group_bits", .int), ("client_public", .int), ("server_public", .int), ("client_shared", .int),
                    ("server_shared", .int), ("range_check_rejects", .set(["client_public", "server_public"])),
                    ("eavesdropper_tries", .int), ("eavesdropper_exponent", .int), ("eavesdropper_recovers", .int)]
        default:
            let alerts = Array(AlertDescription.names.values).sorted() + ["none"]
            let suites = CipherSuite.allImplementedWithECDSA.compactMap(\.name) + ScenarioReader.tls13SuiteNames + ["none"]
            let schemes = (SignatureSchemes.offerWithECDSA + [SignatureSchemes.ecdsaP521, .ed25519]).compactMap(\.name) + ["none"]
            return [
                ("handshake", .enumeration(["success", "failure", "none"])),
                ("alert", .enumeration(alerts)), ("alert_sent_by", .enumeration(["client", "server", "none"])),
                ("suite", .enumeration(suites)), ("version", .enumeration(ScenarioReader.versionNames + ["TLS1.3", "none"])),
                ("group", .enumeration(ScenarioReader.tls13GroupNames + ["none"])), ("hello_retry_request", .bool), ("psk_accepted", .bool),
                ("early_data_accepted", .int), ("early_data_refused", .sequence(ScenarioRunner.earlyDataRefusals)),
                ("downgrade_sentinel", .bool), ("downgrade_detected", .bool),
                ("eavesdropper_reads", .set(ScenarioRunner.wireReadings)),
                ("ems", .bool), ("resumed", .bool), ("alpn", .string),
                ("master_secret_label", .enumeration(["master secret", "extended master secret", "none"])),
                ("master_from_randoms", .bool),
                ("trust", .enumeration(["accepted", "rejected", "not_evaluated"])),
                ("disposition", .enumeration(ChallengeDisposition.allCases.map(\.rawValue) + ["none"])),
                ("reason_includes", .trustReason),
                ("first_failing_check", .enumeration(ChainCheck.Kind.allCases.map(\.rawValue) + ["none"])),
                ("client_authenticated", .bool),
                ("server_key", .enumeration(ScenarioRunner.keyDescriptions + ["none"])), ("server_certificate_bytes", .int),
                ("server_signature", .enumeration(schemes)), ("server_signature_bytes", .int),
                ("client_signature", .enumeration(schemes)), ("client_signature_bytes", .int),
                ("client_certificate_disposition", .enumeration(ChallengeDisposition.allCases.map(\.rawValue) + ["none"])),
                ("eavesdropper_learns", .set(secrets)), ("client_learns", .set(secrets)), ("server_learns", .set(secrets)),
                ("eavesdropper_learns_afterwards", .set(secrets)), ("attacker_learns", .set(secrets)),
                ("connections", .int), ("full_handshakes", .int), ("abbreviated_handshakes", .int), ("requests", .int),
                ("responses", .int), ("requests_served", .int), ("round_trips", .int), ("round_trips_to_first_byte", .intOrMinusOne), ("cpu_us", .int), ("last_response_us", .intOrMinusOne),
                ("http2", .enumeration(["h2", "h2c", "none"])), ("streams", .int), ("pushed_responses", .int),
                ("http2_error", .enumeration(HTTP2ErrorCode.allCases.map(\.name) + ["none"])),
                ("request_header_blocks", .intList), ("hpack_raw_bytes", .int), ("hpack_encoded_bytes", .int),
                ("http_response", .bool), ("url_error", .enumeration(["none", "NSURLErrorCancelled", "other"])),
                ("response_altered", .bool), ("client_response_includes", .string),
                ("client_tcp_state", .enumeration(tcpStates)), ("server_tcp_state", .enumeration(tcpStates + ["none"])),
                ("client_tcp_states", .sequence(tcpStates)), ("server_tcp_states", .sequence(tcpStates)),
                ("retransmissions", .int), ("segments_duplicated", .int), ("out_of_order_buffered", .int),
                ("unacceptable_segments", .int),
                ("summary", .summary),
            ]
        }
    }

    static func read(_ value: YAMLValue, kind: String) throws(ScenarioError) -> [Expectation] {
        let schema = schema(for: kind)
        let m = try value.mapping(schema.map(\.0))
        guard !m.keys.isEmpty else { throw value.error("expected at least one expectation", "scenario.expect.none") }
        var out: [Expectation] = []
        for key in m.keys {
            guard let v = m[key], let type = schema.first(where: { $0.0 == key })?.1 else { continue }
            if case .summary = type {
                let s = try v.mapping(summaryKeys)
                for k in s.keys {
                    guard let sv = s[k] else { continue }
                    let fact: FactValue
                    if sv.isNull {
                        fact = .null
                    } else {
                        switch summarySchema.first(where: { $0.0 == k })?.1 ?? .text {
                        case .bool: fact = .bool(try sv.bool())
                        case .int: fact = .int(try sv.int(0 ... 1_000_000_000))
                        case .seconds: fact = .string(seconds(micros: try sv.seconds()))
                        case .text: fact = .string(try sv.string())
                        }
                    }
                    out.append(Expectation(key: ScenarioError.keyPath("summary", k), value: fact, line: sv.line, column: sv.column))
                }
                continue
            }
            out.append(Expectation(key: key, value: try fact(v, type), containment: key.hasSuffix("_includes"),
                                   line: v.line, column: v.column))
        }
        return out
    }

    static func fact(_ v: YAMLValue, _ type: Kind) throws(ScenarioError) -> FactValue {
        switch type {
        case .enumeration(let words): return .string(try v.oneOf(words))
        case .bool: return .bool(try v.bool())
        case .int: return .int(try v.int(0 ... 1_000_000_000))
        case .intOrMinusOne: return .int(try v.int(-1 ... 1_000_000_000))
        case .string: return .string(try v.string())
        case .trustReason: return .string(try trustReason(v))
        case .set(let words):
            var items: [String] = []
            for item in try v.list() { items.append(try item.oneOf(words)) }
            return .list(Array(Set(items)).sorted())
        case .sequence(let words):
            var items: [String] = []
            for item in try v.list() { items.append(try item.oneOf(words)) }
            return .list(items)
        case .lines:
            var items: [String] = []
            for item in try v.list() { items.append(try item.string()) }
            return .list(items)
        case .intList:
            var items: [String] = []
            for item in try v.list() { items.append(String(try item.int(0 ... 1_000_000_000))) }
            return .list(items)
        case .summary: return .null
        }
    }
}

extension ExpectationReader {
    /// A `reason_includes` value: a step's identifier. Lesson files once quoted the catalogue's
    /// English words of a step; those are refused with the way to say it now.
    static func trustReason(_ v: YAMLValue) throws(ScenarioError) -> String {
        let text = try v.string()
        guard !TrustReason.identifiers.contains(text) else { return text }
        if text.contains(" ") {
            throw v.error("reason_includes names a trust reason identifier, not its English words (those are the catalogue's "
                          + "and may be reworded): write e.g. ats.notForwardSecret or af.publicKeyPinFound; "
                          + "Scenarios/README.md lists every identifier", "scenario.expect.reasonWords")
        }
        let suggestion = Spelling.suggestion(for: text, among: TrustReason.identifiers)
        throw v.error("expected a trust reason identifier (e.g. ats.notForwardSecret, af.publicKeyPinFound, defaultHandling; "
                      + "Scenarios/README.md lists them), got \"\(text)\"" + Spelling.hint(for: text, among: TrustReason.identifiers),
                      suggestion == nil ? "scenario.expect.reasonIdentifier" : "scenario.expect.reasonIdentifier.suggested",
                      ["value": YAMLValue.clip(text), "suggestion": suggestion ?? ""])
    }
}

extension TCPState {
    static var allCasesForSchema: [String] {
        [TCPState.closed, .listen, .synSent, .synReceived, .established, .finWait1, .finWait2, .closeWait,
         .closing, .lastAck, .timeWait].map(\.rawValue)
    }
}
