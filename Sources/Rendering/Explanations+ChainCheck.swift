import PKI
import TLSEngine

/// A chain check worded from the catalogue: its typed finding (``ChainCheck/Finding``), the
/// signature verification's outcome, the trust store's name, and for each kind of check what it
/// checks, why (the RFC section) and what it protects against (`chain.why.<kind>`).
extension Explanations {
    /// A chain check's outcome in one line.
    public func chainCheckDetail(_ check: ChainCheck) -> String {
        let (key, values) = chainCheckWords(check.finding)
        return word(key, values)
    }

    /// The catalogue key of a finding and its typed values as text (JSON Lines shows both).
    public func chainCheckWords(_ finding: ChainCheck.Finding) -> (key: String, values: [String: String]) {
        func list(_ items: [String]) -> String { items.joined(separator: ", ") }
        func problems(_ items: [String]) -> String { items.joined(separator: word("check.join.problems")) }
        switch finding {
        case .noCertificatePresented: return ("check.noCertificatePresented", [:])
        case let .noPathToAnchor(issuer, stores):
            return ("check.noPathToAnchor", ["issuer": issuer, "stores": stores.map(trustStoreName).joined(separator: word("check.join.or"))])
        case .isItselfAnchor(let store): return ("check.isItselfAnchor", ["store": trustStoreName(store)])
        case let .anchoredBy(anchor, store): return ("check.anchoredBy", ["anchor": anchor, "store": trustStoreName(store)])
        case let .signedBy(issuer, algorithm, outcome):
            return ("check.signedBy", ["issuer": issuer, "algorithm": signatureAlgorithmName(algorithm), "outcome": signatureOutcome(outcome)])
        case .signatureAlgorithmsDiffer: return ("check.signatureAlgorithmsDiffer", [:])
        case .withinValidity(let anchor): return (anchor ? "check.withinValidity.anchor" : "check.withinValidity", [:])
        case let .expired(anchor, notAfter, now):
            return (anchor ? "check.expired.anchor" : "check.expired", ["notAfter": "\(notAfter)", "now": "\(now)"])
        case let .notYetValid(anchor, notBefore, now):
            return (anchor ? "check.notYetValid.anchor" : "check.notYetValid", ["notBefore": "\(notBefore)", "now": "\(now)"])
        case let .strongEnough(algorithm, key, bits):
            return ("check.strongEnough", ["algorithm": signatureAlgorithmName(algorithm), "key": keyKindName(key), "bits": "\(bits)"])
        case let .tooWeak(anchor, weak):
            return (anchor ? "check.tooWeak.anchor" : "check.tooWeak", ["problems": list(weak.map(weakAlgorithm))])
        case .refusedByATSCertificateRules: return ("check.refusedByATSCertificateRules", [:])
        case .noUnknownCriticalExtension: return ("check.noUnknownCriticalExtension", [:])
        case let .criticalityProblems(anchor, found):
            return (anchor ? "check.criticalityProblems.anchor" : "check.criticalityProblems", ["problems": problems(found.map(criticalityProblem))])
        case let .profileProblems(anchor, found):
            return (anchor ? "check.profileProblems.anchor" : "check.profileProblems", ["problems": problems(found.map(profileProblem))])
        case .isCA: return ("check.isCA", [:])
        case .noBasicConstraints: return ("check.noBasicConstraints", [:])
        case .notCA: return ("check.notCA", [:])
        case .caWithEmptySubject: return ("check.caWithEmptySubject", [:])
        case .hasKeyCertSign: return ("check.hasKeyCertSign", [:])
        case .lacksKeyCertSign(let ku): return ("check.lacksKeyCertSign", ["keyUsage": "\(ku)"])
        case let .pathLength(limit, below):
            return ("check.pathLength", ["limit": "\(limit)", "below": "\(below)"])
        case .extendedKeyUsageAllows(let purpose): return ("check.extendedKeyUsageAllows", ["purpose": purpose.rawValue])
        case let .extendedKeyUsageLacks(purpose, listed):
            return ("check.extendedKeyUsageLacks", ["purpose": purpose.rawValue, "listed": list(listed)])
        case let .keyUsageAllows(ku, server):
            return (server ? "check.keyUsageAllows.server" : "check.keyUsageAllows.client", ["keyUsage": "\(ku)"])
        case let .keyUsageUnsuitable(ku, server):
            return (server ? "check.keyUsageUnsuitable.server" : "check.keyUsageUnsuitable.client", ["keyUsage": "\(ku)"])
        case .endEntity: return ("check.endEntity", [:])
        case let .notEndEntity(caTrue, keyCertSign):
            let claims = [caTrue ? "basicConstraints CA:TRUE" : nil, keyCertSign ? "keyUsage keyCertSign" : nil].compactMap { $0 }
            return ("check.notEndEntity", ["claims": list(claims)])
        case .name(.ipAddressMatches(let ip)): return ("check.name.ipAddressMatches", ["ip": ip])
        case let .name(.ipAddressNotListed(ip, listed)): return ("check.name.ipAddressNotListed", ["ip": ip, "listed": list(listed)])
        case .name(.noDNSName(let host)): return ("check.name.noDNSName", ["host": host])
        case let .name(.dnsNameMatches(pattern, host)): return ("check.name.dnsNameMatches", ["pattern": pattern, "host": host])
        case let .name(.noDNSNameMatches(host, names)): return ("check.name.noDNSNameMatches", ["host": host, "names": list(names)])
        case .nameConstraintsSatisfied: return ("check.nameConstraintsSatisfied", [:])
        case .nameConstraintViolations(let found): return ("check.nameConstraintViolations", ["problems": problems(found.map(nameConstraintProblem))])
        case let .chainDepth(intermediates, limit):
            return ("check.chainDepth", ["intermediates": "\(intermediates)", "limit": "\(limit)"])
        }
    }

    /// What a kind of check checks, why (the RFC section) and what it protects against.
    public func chainCheckWhy(_ kind: ChainCheck.Kind) -> String { word(CatalogueKey.chainWhy(kind)) }

    /// A trust store's name.
    public func trustStoreName(_ store: TrustStoreName) -> String {
        switch store {
        case .systemRoots: return word("store.systemRoots")
        case .appAnchors: return word("store.appAnchors")
        case .pinnedCertificates: return word("store.pinnedCertificates")
        case .bundledCertificates: return word("store.bundledCertificates")
        case .clientCAs: return word("store.clientCAs")
        case .file(let path): return word("store.file", ["path": path])
        case .noAnchors: return word("store.noAnchors")
        }
    }

    /// Why an RSA-PSS key's parameters cannot be used (RFC 4055 §3.1).
    public func pssParametersUnsupported(_ why: RSAPSSParameters.Unsupported) -> String {
        switch why {
        case .maskGenerationFunction(let oid): return word("pss.unsupported.maskGenerationFunction", ["oid": oid])
        case .trailerField(let value): return word("pss.unsupported.trailerField", ["value": "\(value)"])
        case .hashAlgorithm(let oid): return word("pss.unsupported.hashAlgorithm", ["oid": oid])
        case .maskGenerationHash(let oid): return word("pss.unsupported.maskGenerationHash", ["oid": oid])
        }
    }

    /// A signature verification's outcome in one clause.
    public func signatureOutcome(_ outcome: SignatureCheck.Outcome) -> String {
        switch outcome {
        case .hashesEqual: return word("signature.hashesEqual")
        case .hashesDiffer: return word("signature.hashesDiffer")
        case let .digestInfoNamesOtherHash(named, says):
            return word("signature.digestInfoNamesOtherHash", ["named": named.map { "\($0)" } ?? word("signature.unknownHash"), "expected": "\(says)"])
        case .noValidPKCS1Block(let fault): return word("signature.noValidPKCS1Block", ["error": signatureBlockFault(fault)])
        case let .issuerKeyIsNot(family, key): return word(Self.issuerKeyIsNotKey(family), ["key": keyKindName(key)])
        case .issuerRSAKeyUnusable(let error): return word("signature.issuerRSAKeyUnusable", ["error": issuerRSAKeyFault(error)])
        case .issuerKeyUnusable(let why): return word("signature.issuerKeyUnusable", ["why": pssParametersUnsupported(why)])
        case let .pssKeyRestrictionViolated(restriction, _, violations):
            return word("signature.pssKeyRestrictionViolated", ["restriction": pssParameters(restriction),
                                                                 "violations": violations.map(pssViolation).joined(separator: word("check.join.problems"))])
        case .pss(nil): return word("signature.pss.passed")
        case .pss(let failure?): return word("signature.pss.failed", ["failure": pssFailure(failure)])
        case .ecdsaSignatureMalformed: return word("signature.ecdsaSignatureMalformed")
        case .ecdsa(let ok): return word(ok ? "signature.ecdsa.passed" : "signature.ecdsa.failed")
        case .ed25519(let ok): return word(ok ? "signature.ed25519.passed" : "signature.ed25519.failed")
        case .unsupportedAlgorithm(let oid): return word("signature.unsupportedAlgorithm", ["oid": oid])
        case .pssParametersUnusable(let why): return word("signature.pssParametersUnusable", ["why": pssParametersUnsupported(why)])
        }
    }

    func weakAlgorithm(_ weak: ChainCheck.WeakAlgorithm) -> String {
        switch weak {
        case .digest(let hash): return word("weak.digest", ["hash": "\(hash)"])
        case .rsaKeyTooShort(let bits): return word("weak.rsaKeyTooShort", ["bits": "\(bits)"])
        case .rsaModulusNotWholeBytes(let bits): return word("weak.rsaModulusNotWholeBytes", ["bits": "\(bits)"])
        case .unsupportedCurve(let curve): return word("weak.unsupportedCurve", ["curve": curve])
        case .unsupportedKeyAlgorithm(let oid): return word("weak.unsupportedKeyAlgorithm", ["oid": oid])
        }
    }

    func criticalityProblem(_ problem: ChainCheck.CriticalityProblem) -> String {
        switch problem {
        case .unknownCritical(let oids): return word("critical.unknownCritical", ["oids": oids.joined(separator: ", ")])
        case .authorityKeyIdentifierCritical: return word("critical.authorityKeyIdentifierCritical")
        case .subjectKeyIdentifierCritical: return word("critical.subjectKeyIdentifierCritical")
        case .emptySubjectWithNonCriticalSubjectAltName: return word("critical.emptySubjectWithNonCriticalSubjectAltName")
        }
    }

    func profileProblem(_ problem: ChainCheck.ProfileProblem) -> String {
        switch problem {
        case .negativeSerialNumber: return word("profile.negativeSerialNumber")
        case .zeroSerialNumber: return word("profile.zeroSerialNumber")
        case .serialNumberTooLong(let octets): return word("profile.serialNumberTooLong", ["octets": "\(octets)"])
        case .missingAuthorityKeyIdentifier: return word("profile.missingAuthorityKeyIdentifier")
        case .authorityKeyIdentifierWithoutKeyIdentifier: return word("profile.authorityKeyIdentifierWithoutKeyIdentifier")
        case .authorityKeyIdentifierWithIssuerAndSerial: return word("profile.authorityKeyIdentifierWithIssuerAndSerial")
        case .rootAuthorityKeyIdentifierMismatch: return word("profile.rootAuthorityKeyIdentifierMismatch")
        case .caWithoutSubjectKeyIdentifier: return word("profile.caWithoutSubjectKeyIdentifier")
        case .caBasicConstraintsNotCritical: return word("profile.caBasicConstraintsNotCritical")
        case .nameConstraintsInEndEntity: return word("profile.nameConstraintsInEndEntity")
        case .policyConstraintsNotCritical: return word("profile.policyConstraintsNotCritical")
        case .authorityInfoAccessCritical: return word("profile.authorityInfoAccessCritical")
        case .subjectAltNameCriticalWithSubject: return word("profile.subjectAltNameCriticalWithSubject")
        }
    }

    func nameConstraintProblem(_ problem: ChainCheck.NameConstraintProblem) -> String {
        switch problem {
        case .malformedConstraints(let bases): return word("nameConstraint.malformedConstraints", ["bases": bases.joined(separator: ", ")])
        case .tooManyComparisons(let limit): return word("nameConstraint.tooManyComparisons", ["limit": "\(limit)"])
        case let .malformedName(depth, name): return word("nameConstraint.malformedName", ["depth": "\(depth)", "name": name])
        case let .excluded(depth, name, subtree):
            return word("nameConstraint.excluded", ["depth": "\(depth)", "name": name, "subtree": subtree])
        case let .notPermitted(depth, name, permitted):
            return word("nameConstraint.notPermitted", ["depth": "\(depth)", "name": name, "permitted": permitted.joined(separator: ", ")])
        }
    }

    func pssViolation(_ violation: SignatureCheck.PSSRestrictionViolation) -> String {
        switch violation {
        case let .hash(used, allowed): return word("pssViolation.hash", ["used": "\(used)", "allowed": "\(allowed)"])
        case let .maskHash(used, allowed): return word("pssViolation.maskHash", ["used": "\(used)", "allowed": "\(allowed)"])
        case let .saltTooShort(used, minimum): return word("pssViolation.saltTooShort", ["used": "\(used)", "minimum": "\(minimum)"])
        }
    }

    func pssFailure(_ failure: SignatureCheck.PSSFailure) -> String {
        switch failure {
        case let .signatureLength(bytes, modulus): return word("pssFailure.signatureLength", ["bytes": "\(bytes)", "modulus": "\(modulus)"])
        case .representativeOutOfRange: return word("pssFailure.representativeOutOfRange")
        case .messageRepresentativeTooLong(let emLen): return word("pssFailure.messageRepresentativeTooLong", ["emLen": "\(emLen)"])
        case let .modulusTooShort(hash, salt): return word("pssFailure.modulusTooShort", ["hash": "\(hash)", "salt": "\(salt)"])
        case .noTrailerByte: return word("pssFailure.noTrailerByte")
        case .leftmostBitsNotZero: return word("pssFailure.leftmostBitsNotZero")
        case .dataBlockMalformed: return word("pssFailure.dataBlockMalformed")
        case .hashMismatch: return word("pssFailure.hashMismatch")
        }
    }

    private func word(_ key: String, _ values: [String: String] = [:]) -> String { self(key, values) ?? key }

    /// The sentence for an issuer key of the wrong family.
    static func issuerKeyIsNotKey(_ family: SignatureCheck.KeyFamily) -> String {
        switch family {
        case .rsa: "signature.issuerKeyIsNot.rsa"
        case .ec: "signature.issuerKeyIsNot.ec"
        case .ed25519: "signature.issuerKeyIsNot.ed25519"
        }
    }
}
