import PKI

/// `handlers`: the same TLS world once per ServerTrust challenge handler, side by side, each with
/// its own `expect`. An entry names the handler's answer (`answer: useCredential`: a handler that
/// always answers so, evaluating nothing itself) or a full policy (`policy:`, as `client.policy`).
extension ScenarioReader {
    static let handlerKeys = ["name", "answer", "policy", "expect"]
    /// The dispositions a fixed handler may answer a ServerTrust challenge with. RejectProtectionSpace
    /// is left out: a ServerTrust challenge has no other protection space to fall back to.
    static let handlerAnswers: [ChallengeDisposition] = [.performDefaultHandling, .useCredential, .cancelAuthenticationChallenge]
    static let handlerCount = 2 ... 4

    func handlers(_ top: YAMLMapping, _ certs: [String: NamedCertificate]) throws(ScenarioError) -> [HandlerVariant] {
        guard let value = top["handlers"] else { return [] }
        if top.has("expect") {
            throw top.keyError("expect", "contradiction: a file with handlers states what must happen under each handler (handlers[N].expect), not at the top level", "scenario.handlers.topLevelExpect")
        }
        if let client = top["client"], !client.isNull, try client.mapping(Self.clientKeys).has("policy") {
            throw top.keyError("handlers", "contradiction: each handler answers the ServerTrust challenge itself, so client.policy would play no part; drop one of them", "scenario.handlers.withPolicy")
        }
        let items = try value.list()
        guard Self.handlerCount.contains(items.count) else {
            throw value.error("expected a list of \(Self.handlerCount.lowerBound) to \(Self.handlerCount.upperBound) handlers to compare, got \(items.count)", "scenario.handlers.count", ["lowest": "\(Self.handlerCount.lowerBound)", "highest": "\(Self.handlerCount.upperBound)", "count": "\(items.count)"])
        }
        var out: [HandlerVariant] = []
        for item in items {
            let m = try item.mapping(Self.handlerKeys)
            let policy: ClientPolicy
            var name: String
            switch (m["answer"], m["policy"]) {
            case (let answer?, nil):
                let word = try answer.oneOf(Self.handlerAnswers.map(\.rawValue))
                let disposition = ChallengeDisposition(rawValue: word) ?? .performDefaultHandling
                policy = .fixedAnswer(disposition)
                name = word
            case (nil, let p?):
                policy = try self.policy(p, certs)
                name = try p.mapping(Self.policyKinds).keys.first ?? "policy"
            case (_?, _?):
                throw m.keyError("policy", "contradiction: a handler has either answer (one disposition) or policy (a client policy), not both", "scenario.handlers.answerAndPolicy")
            case (nil, nil):
                throw item.error("missing required key 'answer': expected one of: \(Self.handlerAnswers.map(\.rawValue).joined(separator: ", ")) (or a policy: mapping)", "scenario.handlers.missingAnswer", ["list": Self.handlerAnswers.map(\.rawValue).joined(separator: ", ")])
            }
            if let given = m["name"] {
                name = try given.name(limit: 40)
                guard name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "." }), name.first?.isLetter == true else {
                    throw given.error("expected a short name of letters, digits, '-', '_' or '.', starting with a letter, got '\(YAMLValue.clip(name))'", "scenario.handlers.badName", ["value": YAMLValue.clip(name)])
                }
            }
            if out.contains(where: { $0.name == name }) {
                throw (m["name"] ?? item).error("contradiction: two handlers are named '\(name)'; give each a different name", "scenario.handlers.sameName", ["name": name])
            }
            let expect = try m.required("expect", .init("a mapping of what must happen with this handler (as a file's expect)", "scenario.expected.handlerExpect"))
            out.append(HandlerVariant(name: name, policy: policy, expectations: try ExpectationReader.read(expect, kind: "tls"),
                                      line: item.line, column: item.column))
        }
        return out
    }
}
