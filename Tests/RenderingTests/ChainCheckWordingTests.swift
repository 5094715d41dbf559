@testable import PKI
@testable import Rendering
import Testing
import TLSCrypto
import TLSEngine

/// Every chain-check finding, signature outcome and trust-store name is worded by the catalogue in
/// English and Chinese, and every kind of check says what it checks, why and against what.
@Suite("Chain checks worded from the catalogue")
struct ChainCheckWordingTests {
    static let rsa = CertificateExtensions.KeyUsage(bits: 0b101)
    static let outcomes: [SignatureCheck.Outcome] = [
        .hashesEqual, .hashesDiffer, .digestInfoNamesOtherHash(named: .sha1, algorithmSays: .sha256),
        .digestInfoNamesOtherHash(named: nil, algorithmSays: .sha256),
        .noValidPKCS1Block(.signatureLength(bytes: 255, modulusBytes: 256)), .noValidPKCS1Block(.representativeOutOfRange),
        .noValidPKCS1Block(.notBlockType1), .noValidPKCS1Block(.noZeroSeparator), .noValidPKCS1Block(.shortPadding(count: 7)),
        .noValidPKCS1Block(.malformedDigestInfo),
        .issuerKeyIsNot(.rsa, issuerKey: .ec(curve: "P-256")), .issuerKeyIsNot(.ec, issuerKey: .rsa),
        .issuerKeyIsNot(.ed25519, issuerKey: .rsa), .issuerKeyIsNot(.rsa, issuerKey: .other(oid: "1.2.3")),
        .issuerRSAKeyUnusable(.invalidKeyEncoding("RSAPublicKey: truncated")), .issuerRSAKeyUnusable(.invalidKey("even modulus")),
        .issuerRSAKeyUnusable(.representativeOutOfRange), .issuerKeyUnusable(.trailerField(2)),
        .issuerKeyUnusable(.maskGenerationFunction(oid: "1.2.840.113549.1.1.9")), .issuerKeyUnusable(.hashAlgorithm(oid: "2.16.840.1.101.3.4.2.4")),
        .issuerKeyUnusable(.maskGenerationHash(oid: "2.16.840.1.101.3.4.2.4")),
        .pssKeyRestrictionViolated(restriction: RSAPSSParameters(hash: .sha256, saltLength: 32),
                                   used: RSAPSSParameters(hash: .sha384, saltLength: 20),
                                   violations: [.hash(used: .sha384, allowed: .sha256), .maskHash(used: .sha384, allowed: .sha256),
                                                .saltTooShort(used: 20, minimum: 32)]),
        .pss(failure: nil), .pss(failure: .signatureLength(bytes: 255, modulusBytes: 256)), .pss(failure: .representativeOutOfRange),
        .pss(failure: .messageRepresentativeTooLong(emLen: 256)), .pss(failure: .modulusTooShort(hash: .sha512, saltLength: 64)),
        .pss(failure: .noTrailerByte), .pss(failure: .leftmostBitsNotZero), .pss(failure: .dataBlockMalformed), .pss(failure: .hashMismatch),
        .ecdsaSignatureMalformed, .ecdsa(verified: true), .ecdsa(verified: false), .ed25519(verified: true), .ed25519(verified: false),
        .unsupportedAlgorithm(oid: "1.2.3.4"), .pssParametersUnusable(.maskGenerationFunction(oid: "1.2.3.4")),
        .pssParametersUnusable(.trailerField(2)),
    ]
    static let stores: [TrustStoreName] = [.systemRoots, .appAnchors, .pinnedCertificates, .bundledCertificates, .clientCAs,
                                           .file("ca.pem"), .noAnchors]

    /// One finding (at least) of every case, with the kind of check it belongs to. `kind(of:)` is an
    /// exhaustive switch: a new case does not compile until it is listed there, and `everyCaseHasAnExample`
    /// then fails until it has an example here.
    static let findings: [ChainCheck.Finding] = [
        .noCertificatePresented, .noPathToAnchor(issuer: "CN=Root", stores: stores), .isItselfAnchor(store: .pinnedCertificates),
        .anchoredBy(anchor: "CN=Root", store: .systemRoots), .signatureAlgorithmsDiffer,
        .withinValidity(anchor: false), .withinValidity(anchor: true), .expired(anchor: false, notAfter: 1, now: 2),
        .expired(anchor: true, notAfter: 1, now: 2), .notYetValid(anchor: false, notBefore: 2, now: 1), .notYetValid(anchor: true, notBefore: 2, now: 1),
        .strongEnough(signatureAlgorithm: .rsaPKCS1v15(.sha256), key: .rsa, keyBits: 2048),
        .tooWeak(anchor: false, problems: [.digest(.sha1), .rsaKeyTooShort(bits: 1024), .rsaModulusNotWholeBytes(bits: 2047),
                                           .unsupportedCurve("secp256k1"), .unsupportedKeyAlgorithm(oid: "1.2.3")]),
        .tooWeak(anchor: true, problems: [.rsaKeyTooShort(bits: 1024)]), .refusedByATSCertificateRules, .noUnknownCriticalExtension,
        .criticalityProblems(anchor: false, problems: [.unknownCritical(["1.2.3"]), .authorityKeyIdentifierCritical, .subjectKeyIdentifierCritical,
                                                       .emptySubjectWithNonCriticalSubjectAltName]),
        .criticalityProblems(anchor: true, problems: [.unknownCritical(["1.2.3"])]),
        .profileProblems(anchor: false, problems: [.negativeSerialNumber, .zeroSerialNumber, .serialNumberTooLong(octets: 21),
                                                   .missingAuthorityKeyIdentifier, .authorityKeyIdentifierWithoutKeyIdentifier,
                                                   .authorityKeyIdentifierWithIssuerAndSerial, .rootAuthorityKeyIdentifierMismatch,
                                                   .caWithoutSubjectKeyIdentifier, .caBasicConstraintsNotCritical, .nameConstraintsInEndEntity,
                                                   .policyConstraintsNotCritical, .authorityInfoAccessCritical, .subjectAltNameCriticalWithSubject]),
        .profileProblems(anchor: true, problems: [.rootAuthorityKeyIdentifierMismatch]),
        .isCA, .noBasicConstraints, .notCA, .caWithEmptySubject, .hasKeyCertSign, .lacksKeyCertSign(keyUsage: rsa),
        .pathLength(limit: 0, intermediatesBelow: 1), .extendedKeyUsageAllows(purpose: .serverAuth),
        .extendedKeyUsageLacks(purpose: .clientAuth, listed: ["1.3.6.1.5.5.7.3.1"]), .keyUsageAllows(keyUsage: rsa, server: true),
        .keyUsageAllows(keyUsage: rsa, server: false), .keyUsageUnsuitable(keyUsage: rsa, server: true), .keyUsageUnsuitable(keyUsage: rsa, server: false),
        .endEntity, .notEndEntity(caTrue: true, keyCertSign: true), .name(.dnsNameMatches(pattern: "*.example.com", host: "www.example.com")),
        .name(.noDNSNameMatches(host: "mail.example.com", names: ["example.com"])), .name(.noDNSName(host: "example.com")),
        .name(.ipAddressMatches(ip: "192.0.2.1")), .name(.ipAddressNotListed(ip: "192.0.2.2", listed: ["192.0.2.1"])),
        .nameConstraintsSatisfied,
        .nameConstraintViolations([.malformedConstraints(["DNS:.."]), .tooManyComparisons(limit: 250_000), .malformedName(depth: 0, name: "DNS:a..b"),
                                   .excluded(depth: 0, name: "DNS:evil.example", subtree: "DNS:evil.example"),
                                   .notPermitted(depth: 0, name: "DNS:other.org", permitted: ["DNS:example.com"])]),
        .chainDepth(intermediates: 3, limit: 2),
    ] + outcomes.map { .signedBy(issuer: "CN=Int", algorithm: .ecdsa(.sha256), outcome: $0) }
      + algorithms.map { .signedBy(issuer: "CN=Int", algorithm: $0, outcome: .hashesDiffer) }
      + algorithms.map { .strongEnough(signatureAlgorithm: $0, key: .other(oid: "1.2.3"), keyBits: 2048) }

    /// Signature algorithms whose names carry words (RSA-PSS's parameters, an unusable or unknown algorithm).
    static let algorithms: [SignatureAlgorithm] = [
        .rsaPSS(RSAPSSParameters(hash: .sha256, saltLength: 32)), .rsaPSSUnusable(.maskGenerationHash(oid: "2.16.840.1.101.3.4.2.4")),
        .unknown(oid: "1.2.3.4"),
    ]

    static func kind(of finding: ChainCheck.Finding) -> ChainCheck.Kind {
        switch finding {
        case .noCertificatePresented: .pathBuilding
        case .noPathToAnchor, .isItselfAnchor, .anchoredBy: .anchor
        case .signedBy, .signatureAlgorithmsDiffer: .signature
        case .withinValidity, .expired, .notYetValid: .validity
        case .strongEnough, .tooWeak, .refusedByATSCertificateRules: .algorithmStrength
        case .noUnknownCriticalExtension, .criticalityProblems: .criticalExtensions
        case .profileProblems: .profile
        case .isCA, .noBasicConstraints, .notCA, .caWithEmptySubject: .caFlag
        case .hasKeyCertSign, .lacksKeyCertSign: .keyCertSign
        case .pathLength: .pathLength
        case .extendedKeyUsageAllows, .extendedKeyUsageLacks: .extendedKeyUsage
        case .keyUsageAllows, .keyUsageUnsuitable: .keyUsage
        case .endEntity, .notEndEntity: .endEntity
        case .name: .name
        case .nameConstraintsSatisfied, .nameConstraintViolations: .nameConstraints
        case .chainDepth: .chainDepth
        }
    }

    /// The catalogue's key prefixes: a text still holding one is a key with no text.
    static let keyPrefixes = ["check.", "weak.", "critical.", "profile.", "nameConstraint.", "store.", "signature.", "pssViolation.",
                              "pssFailure.", "chain.why.", "chain.kind."]

    @Test func everyCaseHasAnExample() {
        let keys = Set(Self.findings.map { Explanations.english.chainCheckWords($0).key })
        // Every key the wording of a finding can choose, found among the examples' keys.
        let findingKeys = Set(Explanations.englishChainChecks.keys.filter { $0.hasPrefix("check.") && !$0.hasPrefix("check.join.") })
        #expect(findingKeys.subtracting(keys).isEmpty, "no example for \(findingKeys.subtracting(keys).sorted())")
        for prefix in ["weak.", "critical.", "profile.", "nameConstraint.", "store.", "signature.", "pssViolation.", "pssFailure."] {
            let needed = Explanations.englishChainChecks.keys.filter { $0.hasPrefix(prefix) }
            let english = Self.findings.map(Explanations.english.chainCheckWords).map { Explanations.english($0.key, $0.values) ?? "" }
            for key in needed {
                let text = Explanations.english(key) ?? ""
                // The text's fixed words (before its first placeholder) appear in some example's wording.
                let fixed = String(text.prefix { $0 != "{" })
                #expect(fixed.isEmpty || english.contains { $0.contains(fixed) }, "\(key): no example shows '\(fixed)'")
            }
        }
    }

    @Test func everyFindingIsWordedInBothLanguages() {
        for finding in Self.findings {
            let check = ChainCheck(kind: Self.kind(of: finding), depth: 0, subject: "CN=x", passed: false, finding: finding)
            let english = Explanations.english.chainCheckDetail(check)
            let chinese = Explanations.chinese.chainCheckDetail(check)
            for text in [english, chinese] {
                #expect(!text.isEmpty)
                #expect(!Self.keyPrefixes.contains { text.hasPrefix($0) || text.contains(" \($0)") }, "a key without text: \(text)")
            }
            // The Chinese differs wherever there are words to translate.
            #expect(chinese != english || english.allSatisfy { !$0.isLetter || $0.isASCII } && ChineseLayoutTests.englishRuns(in: english).isEmpty,
                    "not translated: \(english)")
            if !Self.carriesOtherModulesText(finding) {
                #expect(ChineseLayoutTests.englishRuns(in: chinese, loneWords: false).isEmpty, "English in: \(chinese)")
            }
        }
    }

    /// Findings that quote another module's own account. None left (issue #34): a PKCS#1 block's fault,
    /// an issuer RSA key's fault, RSA-PSS parameters TLSLab cannot use and an unknown signature algorithm
    /// are typed data, worded in both languages.
    static func carriesOtherModulesText(_ finding: ChainCheck.Finding) -> Bool { false }

    @Test func signatureOutcomesAndStoresInBothLanguages() {
        for outcome in Self.outcomes {
            let english = Explanations.english.signatureOutcome(outcome), chinese = Explanations.chinese.signatureOutcome(outcome)
            #expect(!english.hasPrefix("signature.") && !chinese.hasPrefix("signature."))
            #expect(chinese != english || ChineseLayoutTests.englishRuns(in: english).isEmpty, "not translated: \(english)")
        }
        for store in Self.stores {
            let chinese = Explanations.chinese.trustStoreName(store)
            #expect(!chinese.hasPrefix("store."))
            if case .file = store { continue }
            #expect(chinese != Explanations.english.trustStoreName(store))
        }
    }

    /// Per kind of check: a name and a "why" in both languages, the why naming the rule's section, and
    /// a failing example among the findings.
    @Test(arguments: ChainCheck.Kind.allCases)
    func everyKindSaysWhatItChecksAndWhy(kind: ChainCheck.Kind) {
        for catalogue in [Explanations.english, Explanations.chinese] {
            #expect(catalogue("chain.kind.\(kind.rawValue)") != nil, "\(kind): no name")
            let why = catalogue("chain.why.\(kind.rawValue)")
            #expect(why != nil, "\(kind): no why")
            #expect(why.map { $0.contains("RFC") || $0.contains("OpenSSL") } == true, "\(kind): no rule named in \(why ?? "")")
        }
        #expect(Explanations.chinese.chainCheckWhy(kind) != Explanations.english.chainCheckWhy(kind))
        #expect(Self.findings.contains { Self.kind(of: $0) == kind }, "\(kind): no example finding")
    }
}
