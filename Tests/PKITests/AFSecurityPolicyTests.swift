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
        /// documented procedure (see the comment on each row), NOT from the code under test.
        let expected: String
        var description: String { name }

        init(name: String, chain: [String], pins: [String], expected: String) {
            self.name = name
            self.chain = chain
            self.pins = pins
            self.expected = expected
        }

        /// The 12 expected columns under `behaviour`. Every column sets validatesDomainName explicitly, so
        /// 2.5.2 behaves as later releases (its difference is only the default, see `releaseDefaults`);
        /// 2.5.1 returns YES for mode none before any step ("YYYY"); the pinning modes are the same in all
        /// three releases.
        func columns(_ behaviour: AFSecurityPolicy.Behaviour) -> [Character] {
            let all = Array(expected.filter { $0 != " " })
            switch behaviour {
            case .current, .v2_5_2: return all
            case .v2_5_1: return Array("YYYY") + all.dropFirst(4)
            }
        }
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
        // A pinned self-signed leaf is its own anchor in step 5, but it must still be a usable TLS server
        // certificate there (OpenSSL -partial_chain: error 26 / 66). Derivation from the procedure:
        // the system evaluation never anchors it → none N N, allowInvalid Y, step 1 N; publicKey: step 4 N N,
        // then step 6 finds its own key → Y Y (no re-evaluation); certificate: step 4 N N, then with
        // allowInvalid step 5 re-evaluates with the pin as the only anchor and still needs a VALID result:
        // clientAuth-only EKU passes the BasicX509 policy (no EKU rule; validatesDomainName NO) → Y, but fails
        // SSL(host) (serverAuth required) → N.
        Situation(name: "self-signed clientAuth-only, pinned", chain: ["selfsigned-clientonly"], pins: ["selfsigned-clientonly"],
                  expected: "NNYN NNYY NNYN"),
        // The RSA-1024 key fails the key-strength rule under either policy (TLSLab's SecTrust rejects RSA < 2048
        // for every policy, as OpenSSL level 2 does), so step 5 fails in both certificate-mode columns.
        Situation(name: "self-signed RSA-1024, pinned", chain: ["selfsigned-rsa1024"], pins: ["selfsigned-rsa1024"],
                  expected: "NNYN NNYY NNNN"),
    ]

    @Test(arguments: situations, AFSecurityPolicy.Behaviour.allCases)
    func decisionTable(situation: Situation, behaviour: AFSecurityPolicy.Behaviour) {
        let expected = situation.columns(behaviour)
        #expect(expected.count == 12)
        let trust = PKIFixtures.trust(situation.chain)
        var column = 0
        for mode in [AFSecurityPolicy.PinningMode.none, .publicKey, .certificate] {
            for allowInvalid in [false, true] {
                for validatesDomain in [false, true] {
                    let policy = AFSecurityPolicy(mode: mode, pinnedCertificates: situation.pins.map { PKIFixtures.cert($0).der },
                                                  allowInvalidCertificates: allowInvalid, validatesDomainName: validatesDomain,
                                                  behaviour: behaviour)
                    let decision = policy.evaluate(trust, forDomain: "www.example.com")
                    let want = expected[column] == "Y"
                    #expect(decision.accepted == want,
                            "\(situation.name) [\(behaviour)]: mode \(mode) allowInvalid \(allowInvalid) validatesDomain \(validatesDomain): \(decision.reasons)")
                    #expect(!decision.reasons.isEmpty)
                    column += 1
                }
            }
        }
    }

    @Test func pinnedSelfSignedLeafFailsStep5ForTheEndEntityReason() throws {
        let policy = AFSecurityPolicy(mode: .certificate, pinnedCertificates: [PKIFixtures.cert("selfsigned-clientonly").der],
                                      allowInvalidCertificates: true, validatesDomainName: true)
        let decision = policy.evaluate(PKIFixtures.trust(["selfsigned-clientonly"]), forDomain: "www.example.com")
        #expect(!decision.accepted)
        #expect(decision.reasons.contains {
            if case .afNetworking(.chainChecked(_, tolerated: true)) = $0 { return true } else { return false }
        })
        #expect(decision.evaluation?.firstFailure?.kind == .extendedKeyUsage)
        #expect(decision.reasons.last == .afNetworking(.noPinnedCertificateInChain)
                || { if case .afNetworking(.pinnedAnchorsInvalid)? = decision.reasons.last { return true } else { return false } }())
        let weak = AFSecurityPolicy(mode: .certificate, pinnedCertificates: [PKIFixtures.cert("selfsigned-rsa1024").der],
                                    allowInvalidCertificates: true, validatesDomainName: false)
        let weakDecision = weak.evaluate(PKIFixtures.trust(["selfsigned-rsa1024"]), forDomain: "www.example.com")
        #expect(!weakDecision.accepted && weakDecision.evaluation?.firstFailure?.kind == .algorithmStrength)
    }

    @Test func historicalBehaviours() {
        let selfSigned = PKIFixtures.trust(["selfsigned"])
        let wrongHost = PKIFixtures.trust(["leaf-wronghost", "int"])
        let current = AFSecurityPolicy.defaultPolicy
        let v251 = AFSecurityPolicy(mode: .none, behaviour: .v2_5_1)
        let v252 = AFSecurityPolicy(mode: .none, behaviour: .v2_5_2)
        #expect(!current.evaluate(selfSigned, forDomain: "www.example.com").accepted)
        #expect(v251.evaluate(selfSigned, forDomain: "www.example.com").accepted)          // 2.5.1 accepted anything
        #expect(!v252.evaluate(selfSigned, forDomain: "www.example.com").accepted)         // 2.5.2 checks the chain…
        #expect(v252.evaluate(wrongHost, forDomain: "www.example.com").accepted)           // …but not the host
        #expect(!current.evaluate(wrongHost, forDomain: "www.example.com").accepted)
    }

    /// AFNetworking 2.5.2 (issue #19): mode none leaves validatesDomainName NO unless the app sets it; an
    /// explicit YES adds SecPolicyCreateSSL(true, domain), so the wrong host is refused. From 2.5.3 on the
    /// default is YES in every mode. The pinning modes default to YES in every release.
    @Test func releaseDefaults() {
        let wrongHost = PKIFixtures.trust(["leaf-wronghost", "int"])
        #expect(!AFSecurityPolicy(mode: .none, behaviour: .v2_5_2).validatesDomainName)
        #expect(AFSecurityPolicy(mode: .none, behaviour: .current).validatesDomainName)
        for mode in [AFSecurityPolicy.PinningMode.publicKey, .certificate] {
            for behaviour in AFSecurityPolicy.Behaviour.allCases {
                #expect(AFSecurityPolicy(mode: mode, behaviour: behaviour).validatesDomainName)
            }
        }
        let implicit = AFSecurityPolicy(mode: .none, behaviour: .v2_5_2).evaluate(wrongHost, forDomain: "www.example.com")
        #expect(implicit.accepted && implicit.evaluation?.isValid == true)
        #expect(implicit.reasons.contains(.afNetworking(.basicX509Policy)))
        let explicit = AFSecurityPolicy(mode: .none, validatesDomainName: true, behaviour: .v2_5_2)
        let decision = explicit.evaluate(wrongHost, forDomain: "www.example.com")
        #expect(!decision.accepted && decision.evaluation?.firstFailure?.kind == .name, "\(decision.reasons)")
        #expect(decision.reasons.contains(.afNetworking(.sslPolicy(host: "www.example.com"))))
        #expect(!decision.reasons.contains(.afNetworking(.basicX509Policy)))
    }

    @Test func defaultPolicyAndStep1Reason() {
        let policy = AFSecurityPolicy.defaultPolicy
        #expect(policy.mode == .none && !policy.allowInvalidCertificates && policy.validatesDomainName && policy.pinnedCertificates.isEmpty)
        let risky = AFSecurityPolicy(mode: .none, allowInvalidCertificates: true, validatesDomainName: true)
        let decision = risky.evaluate(PKIFixtures.trust(["leaf", "int"]), forDomain: "www.example.com")
        #expect(!decision.accepted)
        #expect(decision.reasons.first == .afNetworking(.mustUsePinning(modeNone: true)))
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

    @Test func challengeHandlingPolicies() {
        let host = "www.example.com"
        let expired = PKIFixtures.trust(["leaf-expired", "int"])
        let wrongHost = PKIFixtures.trust(["leaf-wronghost", "int"])
        let good = PKIFixtures.trust(["leaf", "int"])
        // (mode, trust, continues) by hand: None trusts all; Simple checks the chain only; Full = chain + host.
        let table: [(ChallengeHandlingPolicies.ChallengeMode, ServerTrust, Bool)] = [
            (.none, expired, true), (.none, wrongHost, true), (.none, good, true),
            (.simple, expired, false), (.simple, wrongHost, true), (.simple, good, true),
            (.full, expired, false), (.full, wrongHost, false), (.full, good, true),
        ]
        for (mode, trust, continues) in table {
            #expect(ChallengeHandlingPolicies.challengeMode(mode, trust: trust, host: host).handshakeContinues == continues, "\(mode)")
        }
        #expect(ChallengeHandlingPolicies.webContainer(method: .serverTrust, trust: expired, host: host).handshakeContinues)
        let dl = { (allow: Bool, trust: ServerTrust) in
            ChallengeHandlingPolicies.imageDownloader(method: .serverTrust, allowInvalidSSLCertificates: allow, ownCredential: false, trust: trust, host: host)
        }
        #expect(dl(true, expired).disposition == .useCredential)
        #expect(dl(false, expired).disposition == .performDefaultHandling && !dl(false, expired).handshakeContinues)
        #expect(dl(false, good).handshakeContinues)
        #expect(ChallengeHandlingPolicies.imageDownloader(method: .clientCertificate, allowInvalidSSLCertificates: false, ownCredential: true,
                                                trust: good, host: host).disposition == .useCredential)
        #expect(ChallengeHandlingPolicies.imageDownloader(method: .clientCertificate, allowInvalidSSLCertificates: false, ownCredential: false,
                                                trust: good, host: host).disposition == .cancelAuthenticationChallenge)
    }
}
