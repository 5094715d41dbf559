import PKI
import Trace

/// JSON Lines objects for lessons without a TLS connection:
/// - `"ats_plan"`: `url`, `host`, `https`, `load`, `tls_version`, `forward_secret`, `chain`,
///   `settings` (objects with `path`, a list of keys, and `value`);
/// - `"ats_rule"`: `rule`, `result` (`passed`, `failed`, `relaxed`, `applies`), the rule's `values`
///   and `relaxed_by` (the Info.plist key path that lifts it, possibly empty);
/// - `"ats_verdict"`: `allowed`;
/// - `"dh_step"`: `step` and its numbers;
/// - `"tcp_script"`: `step` and its values; `"tcp_end"`: each side's final state, the client's error,
///   what each application read, retransmissions.
extension JSONLinesRenderer {
    /// A lesson file's frame: `{"event":"lesson"}` with `name`, `kind`, `title`, `description`,
    /// `try_next`, `demo` (printed first), and one `{"event":"expectation"}` per expectation with
    /// `key`, `expected`, `passed` and, when it failed, `actual` (printed before the summary); the
    /// run's own problems (a step that never applied) as expectations of their key too.
    public func lesson(_ page: LessonPage) -> (head: String, checks: [String]) {
        let head = JSONObject([("t", .number(seconds(0))), ("actor", .string("network")), ("event", .string("lesson")),
                               ("name", .string(page.name)), ("kind", .string(page.kind)), ("title", .string(page.title)),
                               ("description", .string(page.description)), ("try_next", .array(page.tryNext.map { .string($0) })),
                               ("demo", .bool(page.isDemo))]).text
        var checks = page.problems.map { p in
            JSONObject([("t", .number(seconds(0))), ("actor", .string("network")), ("event", .string("expectation")),
                        ("key", .string(p.key)), ("expected", .array([])), ("passed", .bool(false)), ("actual", .string(p.actual))]).text
        }
        checks += page.checks.map { c in
            var pairs: [(String, JSONValue)] = [("t", .number(seconds(0))), ("actor", .string("network")), ("event", .string("expectation")),
                                                ("key", .string(c.key)), ("expected", .string(c.expected)), ("passed", .bool(c.holds))]
            if let actual = c.actual { pairs.append(("actual", .string(actual))) }
            return JSONObject(pairs).text
        }
        return (head, checks)
    }

    func lesson(_ l: LessonEvent) -> [(String, JSONValue)] {
        func n(_ v: Int) -> JSONValue { .number(String(v)) }
        func u(_ v: UInt32) -> JSONValue { .number(String(v)) }
        switch l {
        case .atsPlan(let p):
            let settings: [JSONValue] = p.settings.map {
                .object([("path", .array($0.path.map { .string($0) })), ("value", .string($0.value))])
            }
            return [("event", .string("ats_plan")), ("url", .string(p.url)), ("host", .string(p.host)), ("https", .bool(p.usesHTTPS)),
                    ("load", .string(p.load)), ("tls_version", .string(p.tlsVersion)), ("forward_secret", .bool(p.forwardSecret)),
                    ("chain", .array(p.chain.map { .string($0) })), ("settings", .array(settings))]
        case .atsRule(let c):
            var words = c.values
            // The default trust evaluation's first failing check, in the catalogue's English.
            if c.rule == .defaultTrust, words["result"] != "noCertificate" {
                words["detail"] = c.firstFailure.map { Explanations.english.chainCheckDetail($0) } ?? ""
            }
            let values = words.sorted { $0.key < $1.key }.map { ($0.key, JSONValue.string($0.value)) }
            return [("event", .string("ats_rule")), ("rule", .string(c.rule.rawValue)), ("result", .string(c.result.rawValue)),
                    ("values", .object(values)), ("relaxed_by", .array(c.relaxedBy.map { .string($0) }))]
        case .atsVerdict(let allowed):
            return [("event", .string("ats_verdict")), ("allowed", .bool(allowed))]
        case .dh(let step):
            var f: [(String, JSONValue)] = [("event", .string("dh_step"))]
            switch step {
            case .group(let p, let g, let bits): f += [("step", .string("group")), ("p", n(p)), ("g", n(g)), ("bits", n(bits))]
            case .privateExponent(let side, let value): f += [("step", .string("private")), ("side", .string(side.rawValue)), ("value", n(value))]
            case .publicValue(let side, let g, let e, let p, let value):
                f += [("step", .string("public")), ("side", .string(side.rawValue)), ("g", n(g)), ("exponent", n(e)), ("p", n(p)), ("value", n(value))]
            case .sent(let side, let value): f += [("step", .string("sent")), ("side", .string(side.rawValue)), ("value", n(value))]
            case .rangeCheck(let side, let value, let p, let passed):
                f += [("step", .string("range_check")), ("side", .string(side.rawValue)), ("value", n(value)), ("p", n(p)), ("passed", .bool(passed))]
            case .shared(let side, let peer, let e, let p, let value):
                f += [("step", .string("shared")), ("side", .string(side.rawValue)), ("peer_value", n(peer)), ("exponent", n(e)), ("p", n(p)), ("value", n(value))]
            case .agreement(let client, let server): f += [("step", .string("agreement")), ("client", n(client)), ("server", n(server))]
            case .search(let target, let tries, let exponent, let recovered):
                f += [("step", .string("search")), ("target", n(target)), ("tries", n(tries)),
                      ("exponent", exponent.map(n) ?? .null), ("recovered", recovered.map(n) ?? .null)]
            }
            return f
        case .tcpScript(let step):
            var f: [(String, JSONValue)] = [("event", .string("tcp_script"))]
            switch step {
            case .connect(let by): f += [("step", .string("connect")), ("by", .string(by.rawValue))]
            case .send(let by, let octets): f += [("step", .string("send")), ("by", .string(by.rawValue)), ("octets", n(octets))]
            case .close(let by): f += [("step", .string("close")), ("by", .string(by.rawValue))]
            case .abort(let by): f += [("step", .string("abort")), ("by", .string(by.rawValue))]
            case .oldDuplicateSYN(let seq): f += [("step", .string("old_duplicate_syn")), ("seq", u(seq))]
            case .synFlood(let perSecond, let seconds): f += [("step", .string("syn_flood")), ("per_second", n(perSecond)), ("seconds", n(seconds))]
            case .floodTotals(let spoofed, let synAcks, let drops, let clientDrops):
                f += [("step", .string("flood_totals")), ("spoofed_syns", n(spoofed)), ("syn_acks", n(synAcks)),
                      ("backlog_drops", n(drops)), ("client_backlog_drops", n(clientDrops))]
            case .probe(let isn): f += [("step", .string("probe")), ("observed_isn", u(isn))]
            case .predictISN(let observed, let predicted, let spoofed):
                f += [("step", .string("predict_isn")), ("observed_isn", u(observed)), ("predicted_isn", u(predicted)), ("spoofed", .string(spoofed))]
            }
            return f
        case .tcpEnd(let e):
            return [("event", .string("tcp_end")), ("client_state", .string(e.clientState)), ("server_state", .string(e.serverState)),
                    ("client_error", .string(e.clientError)), ("client_received", .string(e.clientReceived)),
                    ("server_received", .string(e.serverReceived)), ("retransmissions", n(e.retransmissions))]
        }
    }
}
