import Testing
@testable import PKI

@Suite struct AFSecurityPolicyTests {
    /// A server situation: what the server presents and what the app pinned.
    struct Situation: Sendable, CustomStringConvertible {
        let name: String
        let chain: [String]
        let pins: [String]
        /// Expected YES/NO for the 12 columns: mode none, publicKey, certificate; within each
        /// (allowInvalid, validatesDomainName) = (N,N) (N,Y) (Y,N) (Y,Y). Derived by hand from the
        /// procedure of seed 002 (see the comment on each row), NOT from the code under test.
        let expected: String
        var description: String { name }
    }

    // System roots: root, other-root, ec-root. Host: www.example.com.
    // Chain validity (BasicX509 / SSL+host): valid/valid except wrong host (valid/invalid),
    // self-signed and expired (invalid/invalid).
    // Step 1 (allowInvalid ∧ validatesDomain ∧ (none ∨ no pins)) → NO fills column 4 of mode none
    // and every (Y,Y) column of an empty pin set.
    static let situations: [Situation] = [
        // none: chain valid → YYY, step 1 → N. publicKey: root key in the built path → Y.
        // certificate: root is the anchor and in the path → Y.
        Situation(name: "CA-issued valid, root pinned", chain: ["leaf", "int"], pins: ["root"], expected: "YYYN YYYY YYYY"),
        // none: Basic valid Y, SSL invalid N, allowInvalid Y, step 1 N. publicKey: (N,Y) step 4 N, else leaf key matches.
        // certificate: pinned leaf as anchor; (Y,Y) SSL policy fails on the name → N.
        Situation(name: "wrong host, leaf pinned", chain: ["leaf-wronghost", "int"], pins: ["leaf-wronghost"], expected: "YNYN YNYY YNYN"),
        // none: invalid → N N, allowInvalid Y, step 1 N. publicKey: step 4 N N, then own key Y Y.
        // certificate: step 4 N N; with allowInvalid the pinned self-signed leaf is its own anchor, name OK → Y Y.
        Situation(name: "self-signed, pinned", chain: ["selfsigned"], pins: ["selfsigned"], expected: "NNYN NNYY NNYY"),
        // as self-signed, but certificate mode re-evaluates with the expired leaf as anchor: still expired → N.
        Situation(name: "expired, pinned", chain: ["leaf-expired", "int"], pins: ["leaf-expired"], expected: "NNYN NNYY NNNN"),
        Situation(name: "pinned leaf", chain: ["leaf", "int"], pins: ["leaf"], expected: "YYYN YYYY YYYY"),
        Situation(name: "pinned intermediate", chain: ["leaf", "int"], pins: ["int"], expected: "YYYN YYYY YYYY"),
        // publicKey: no key matches → N. certificate: other-leaf as the only anchor → chain invalid → N.
        Situation(name: "unrelated pin", chain: ["leaf", "int"], pins: ["other-leaf"], expected: "YYYN NNNN NNNN"),
        // publicKey: same key survives renewal → Y. certificate: old leaf as anchor does not issue the new one → N.
        Situation(name: "renewed, same key", chain: ["leaf-renewed-same-key", "int"], pins: ["leaf"], expected: "YYYN YYYY NNNN"),
        Situation(name: "renewed, new key", chain: ["leaf-renewed-new-key", "int"], pins: ["leaf"], expected: "YYYN NNNN NNNN"),
        // publicKey: nothing to match → N; certificate: no anchors → invalid → N; (Y,Y) step 1.
        Situation(name: "empty pin set", chain: ["leaf", "int"], pins: [], expected: "YYYN NNNN NNNN"),
    ]

    @Test(arguments: situations)
    func decisionTable(situation: Situation) {
        let expected = Array(situation.expected.filter { $0 != " " })
        #expect(expected.count == 12)
        let trust = PKIFixtures.trust(situation.chain)
        var column = 0
        for mode in [AFSecurityPolicy.PinningMode.none, .publicKey, .certificate] {
            for allowInvalid in [false, true] {
                for validatesDomain in [false, true] {
                    let policy = AFSecurityPolicy(mode: mode, pinnedCertificates: situation.pins.map { PKIFixtures.cert($0).der },
                                                  allowInvalidCertificates: allowInvalid, validatesDomainName: validatesDomain)
                    let decision = policy.evaluate(trust, forDomain: "www.example.com")
                    let want = expected[column] == "Y"
                    #expect(decision.accepted == want,
                            "\(situation.name): mode \(mode) allowInvalid \(allowInvalid) validatesDomain \(validatesDomain): \(decision.reasons)")
                    #expect(!decision.reasons.isEmpty)
                    column += 1
                }
            }
        }
    }

    @Test func historicalBehaviours() {
        let selfSigned = PKIFixtures.trust(["selfsigned"])
        let wrongHost = PKIFixtures.trust(["leaf-wronghost", "int"])
        let current = AFSecurityPolicy.defaultPolicy
        var v251 = current; v251.behaviour = .v2_5_1
        var v252 = current; v252.behaviour = .v2_5_2
        #expect(!current.evaluate(selfSigned, forDomain: "www.example.com").accepted)
        #expect(v251.evaluate(selfSigned, forDomain: "www.example.com").accepted)          // 2.5.1 accepted anything
        #expect(!v252.evaluate(selfSigned, forDomain: "www.example.com").accepted)         // 2.5.2 checks the chain…
        #expect(v252.evaluate(wrongHost, forDomain: "www.example.com").accepted)           // …but not the host
        #expect(!current.evaluate(wrongHost, forDomain: "www.example.com").accepted)
    }

    @Test func defaultPolicyAndStep1Reason() {
        let policy = AFSecurityPolicy.defaultPolicy
        #expect(policy.mode == .none && !policy.allowInvalidCertificates && policy.validatesDomainName && policy.pinnedCertificates.isEmpty)
        let risky = AFSecurityPolicy(mode: .none, allowInvalidCertificates: true, validatesDomainName: true)
        let decision = risky.evaluate(PKIFixtures.trust(["leaf", "int"]), forDomain: "www.example.com")
        #expect(!decision.accepted)
        #expect(decision.reasons.first?.contains("MUST use pinning") == true)
        // Without a domain, step 1 does not apply.
        #expect(risky.evaluate(PKIFixtures.trust(["leaf", "int"]), forDomain: nil).accepted)
    }

    @Test func challengeLayer() {
        let good = PKIFixtures.trust(["leaf", "int"])
        let bad = PKIFixtures.trust(["selfsigned"])
        let policy = AFSecurityPolicy.defaultPolicy
        let ok = ChallengeResolver.afNetworking(policy: policy, method: .serverTrust, trust: good, host: "www.example.com")
        #expect(ok.disposition == .useCredential && ok.handshakeContinues)
        let no = ChallengeResolver.afNetworking(policy: policy, method: .serverTrust, trust: bad, host: "www.example.com")
        #expect(no.disposition == .cancelAuthenticationChallenge && !no.handshakeContinues)
        let client = ChallengeResolver.afNetworking(policy: policy, method: .clientCertificate, trust: good, host: "www.example.com")
        #expect(client.disposition == .performDefaultHandling && client.handshakeContinues)
        // Default handling of a server trust = the system evaluation with the host.
        #expect(!ChallengeResolver.resolve(method: .serverTrust, disposition: .performDefaultHandling, trust: bad,
                                           host: "www.example.com", reasons: []).handshakeContinues)
        #expect(!ChallengeResolver.resolve(method: .serverTrust, disposition: .rejectProtectionSpace, trust: good,
                                           host: "www.example.com", reasons: []).handshakeContinues)
    }

    @Test func seed001Policies() {
        let host = "www.example.com"
        let expired = PKIFixtures.trust(["leaf-expired", "int"])
        let wrongHost = PKIFixtures.trust(["leaf-wronghost", "int"])
        let good = PKIFixtures.trust(["leaf", "int"])
        // (mode, trust, continues) by hand: None trusts all; Simple checks the chain only; Full = chain + host.
        let table: [(Seed001Policies.ChallengeMode, ServerTrust, Bool)] = [
            (.none, expired, true), (.none, wrongHost, true), (.none, good, true),
            (.simple, expired, false), (.simple, wrongHost, true), (.simple, good, true),
            (.full, expired, false), (.full, wrongHost, false), (.full, good, true),
        ]
        for (mode, trust, continues) in table {
            #expect(Seed001Policies.challengeMode(mode, trust: trust, host: host).handshakeContinues == continues, "\(mode)")
        }
        #expect(Seed001Policies.webContainer(method: .serverTrust, trust: expired, host: host).handshakeContinues)
        let dl = { (allow: Bool, trust: ServerTrust) in
            Seed001Policies.imageDownloader(method: .serverTrust, allowInvalidSSLCertificates: allow, ownCredential: false, trust: trust, host: host)
        }
        #expect(dl(true, expired).disposition == .useCredential)
        #expect(dl(false, expired).disposition == .performDefaultHandling && !dl(false, expired).handshakeContinues)
        #expect(dl(false, good).handshakeContinues)
        #expect(Seed001Policies.imageDownloader(method: .clientCertificate, allowInvalidSSLCertificates: false, ownCredential: true,
                                                trust: good, host: host).disposition == .useCredential)
        #expect(Seed001Policies.imageDownloader(method: .clientCertificate, allowInvalidSSLCertificates: false, ownCredential: false,
                                                trust: good, host: host).disposition == .cancelAuthenticationChallenge)
    }
}
