/// The English line the app policies still quote in their own stated reasons (AFSecurityPolicy, ATS,
/// the challenge delegates, mutual TLS; scenario files' `reason_includes` match it). No renderer reads
/// it: they word ``ChainCheck/finding`` from their catalogue. It goes once those policies carry typed
/// reasons instead of text (issue #18).
extension ChainCheck {
    public var detail: String { finding.policyText }
}

extension ChainCheck.Finding {
    var policyText: String {
        switch self {
        case .noCertificatePresented: return "no certificate presented"
        case let .noPathToAnchor(issuer, stores):
            return "no path to a trusted anchor: issuer \(issuer) is not in \(stores.map(\.policyText).joined(separator: " or "))"
        case .isItselfAnchor(let store): return "the certificate itself is a trust anchor in \(store.policyText)"
        case let .anchoredBy(anchor, store): return "anchored by \(anchor) in \(store.policyText)"
        case let .signedBy(issuer, algorithm, outcome): return "signed by \(issuer) with \(algorithm): \(outcome.policyText)"
        case .signatureAlgorithmsDiffer: return "outer signatureAlgorithm differs from the TBSCertificate's"
        case .withinValidity(let anchor): return (anchor ? "anchor " : "") + "within validity"
        case let .expired(anchor, notAfter, now): return (anchor ? "anchor " : "") + "expired (notAfter \(notAfter) < now \(now))"
        case let .notYetValid(anchor, notBefore, now): return (anchor ? "anchor " : "") + "not yet valid (notBefore \(notBefore) > now \(now))"
        case let .strongEnough(algorithm, key, bits): return "\(algorithm), \(key) \(bits) bits"
        case let .tooWeak(anchor, problems):
            return anchor ? "anchor key too weak: " + problems.map(\.policyText).joined(separator: ", ")
                          : "too weak: " + problems.map(\.policyText).joined(separator: ", ")
        case .refusedByATSCertificateRules: return "refused by ATS's certificate rules"
        case .noUnknownCriticalExtension: return "no unknown critical extension"
        case let .criticalityProblems(anchor, problems):
            return (anchor ? "anchor: " : "") + problems.map(\.policyText).joined(separator: "; ")
        case let .profileProblems(anchor, problems): return (anchor ? "anchor: " : "") + problems.map(\.policyText).joined(separator: "; ")
        case .isCA: return "basicConstraints CA:TRUE"
        case .noBasicConstraints: return "no basicConstraints: not a CA"
        case .notCA: return "basicConstraints CA:FALSE: may not issue certificates"
        case .caWithEmptySubject: return "a CA with an empty subject (RFC 5280 §4.1.2.6: a CA's subject MUST be non-empty)"
        case .hasKeyCertSign: return "keyUsage has keyCertSign"
        case .lacksKeyCertSign(let ku): return "keyUsage [\(ku)] lacks keyCertSign"
        case let .pathLength(limit, below): return "pathLen \(limit), \(below) intermediate CA(s) below"
        case .extendedKeyUsageAllows(let purpose): return "extendedKeyUsage allows \(purpose.rawValue)"
        case let .extendedKeyUsageLacks(purpose, listed): return "extendedKeyUsage [\(listed.joined(separator: ", "))] lacks \(purpose.rawValue)"
        case let .keyUsageAllows(ku, server): return "keyUsage [\(ku)] allows TLS \(server ? "server" : "client") use"
        case let .keyUsageUnsuitable(ku, server):
            let wanted = server ? "digitalSignature, keyEncipherment or keyAgreement" : "digitalSignature or keyAgreement"
            return "keyUsage [\(ku)] has none of \(wanted): unsuitable for a TLS \(server ? "server" : "client")"
        case .endEntity: return "an end-entity certificate"
        case let .notEndEntity(caTrue, keyCertSign):
            return "not a valid end entity: " + [caTrue ? "basicConstraints CA:TRUE" : nil, keyCertSign ? "keyUsage keyCertSign" : nil]
                .compactMap { $0 }.joined(separator: ", ")
        case .name(let finding): return finding.line
        case .nameConstraintsSatisfied: return "every name below satisfies the name constraints"
        case .nameConstraintViolations(let problems): return problems.map(\.policyText).joined(separator: "; ")
        case let .chainDepth(intermediates, limit): return "\(intermediates) intermediate(s), at most \(limit) allowed"
        }
    }
}

extension TrustStoreName {
    var policyText: String {
        switch self {
        case .systemRoots: return "system roots"
        case .appAnchors: return "app anchors"
        case .pinnedCertificates: return "pinned certificates"
        case .bundledCertificates: return "bundled certificates"
        case .clientCAs: return "client CAs"
        case .file(let path): return path
        case .noAnchors: return "no anchors (use --ca)"
        }
    }
}

extension ChainCheck.WeakAlgorithm {
    var policyText: String {
        switch self {
        case .digest(let hash): return "\(hash) signature"
        case .rsaKeyTooShort(let bits): return "RSA-\(bits) key"
        case .rsaModulusNotWholeBytes(let bits): return "RSA modulus of \(bits) bits (not a whole number of bytes)"
        case .unsupportedCurve(let curve): return "EC key on curve \(curve)"
        case .unsupportedKeyAlgorithm(let oid): return "public key algorithm \(oid)"
        }
    }
}

extension ChainCheck.CriticalityProblem {
    var policyText: String {
        switch self {
        case .unknownCritical(let oids): return "unknown critical extension(s) \(oids.joined(separator: ", "))"
        case .authorityKeyIdentifierCritical: return "authorityKeyIdentifier marked critical (RFC 5280 §4.2.1.1: MUST be non-critical)"
        case .subjectKeyIdentifierCritical: return "subjectKeyIdentifier marked critical (RFC 5280 §4.2.1.2: MUST be non-critical)"
        case .emptySubjectWithNonCriticalSubjectAltName:
            return "empty subject with a non-critical subjectAltName (RFC 5280 §4.2.1.6: MUST be critical)"
        }
    }
}

extension ChainCheck.ProfileProblem {
    var policyText: String {
        switch self {
        case .negativeSerialNumber: return "negative serialNumber (RFC 5280 §4.1.2.2: MUST be positive)"
        case .zeroSerialNumber: return "serialNumber 0 (RFC 5280 §4.1.2.2: MUST be positive)"
        case .serialNumberTooLong(let octets): return "serialNumber of \(octets) octets (RFC 5280 §4.1.2.2: at most 20)"
        case .missingAuthorityKeyIdentifier: return "no authorityKeyIdentifier keyIdentifier (RFC 5280 §4.2.1.1: MUST be present unless self-signed)"
        case .authorityKeyIdentifierWithoutKeyIdentifier: return "authorityKeyIdentifier without keyIdentifier (CABF BR §7.1.2.11.1)"
        case .authorityKeyIdentifierWithIssuerAndSerial:
            return "authorityKeyIdentifier with authorityCertIssuer/authorityCertSerialNumber (CABF BR §7.1.2.11.1: MUST NOT)"
        case .rootAuthorityKeyIdentifierMismatch: return "a root whose authorityKeyIdentifier differs from its own subjectKeyIdentifier"
        case .caWithoutSubjectKeyIdentifier: return "a CA without subjectKeyIdentifier (RFC 5280 §4.2.1.2: MUST be present)"
        case .caBasicConstraintsNotCritical: return "a CA whose basicConstraints is not critical (RFC 5280 §4.2.1.9: MUST be critical)"
        case .nameConstraintsInEndEntity: return "nameConstraints in an end-entity certificate (RFC 5280 §4.2.1.10: only in CA certificates)"
        case .policyConstraintsNotCritical: return "policyConstraints not critical (RFC 5280 §4.2.1.11: MUST be critical)"
        case .authorityInfoAccessCritical: return "authorityInfoAccess marked critical (RFC 5280 §4.2.2.1: MUST be non-critical)"
        case .subjectAltNameCriticalWithSubject: return "subjectAltName critical with a non-empty subject (CABF BR §7.1.2.7.12)"
        }
    }
}

extension ChainCheck.NameConstraintProblem {
    var policyText: String {
        switch self {
        case .malformedConstraints(let bases): return "malformed constraint(s) \(bases.joined(separator: ", "))"
        case .tooManyComparisons(let limit): return "more than \(limit) name/constraint comparisons: refused as a denial of service"
        case let .malformedName(depth, name): return "depth \(depth): \(name) is not a well-formed name of its type"
        case let .excluded(depth, name, subtree): return "depth \(depth): \(name) lies in excluded subtree \(subtree)"
        case let .notPermitted(depth, name, permitted):
            return "depth \(depth): \(name) lies in none of the permitted subtrees " + permitted.joined(separator: ", ")
        }
    }
}

extension SignatureCheck.Outcome {
    var policyText: String {
        switch self {
        case .hashesEqual: return "Hash1 == Hash2"
        case .hashesDiffer: return "Hash1 != Hash2: signature does not match the TBSCertificate"
        case let .digestInfoNamesOtherHash(named, says): return "DigestInfo names \(named.map { "\($0)" } ?? "an unknown hash"), algorithm says \(says)"
        case .noValidPKCS1Block(let error): return "RSA public operation gave no valid PKCS#1 block: \(error)"
        case let .issuerKeyIsNot(family, key):
            return "issuer key is \(key), not " + [.rsa: "RSA", .ec: "EC", .ed25519: "Ed25519"][family, default: ""]
        case .issuerRSAKeyUnusable(let error): return "issuer RSA key unusable: \(error)"
        case .issuerKeyUnusable(let why): return "issuer key unusable: \(why)"
        case let .pssKeyRestrictionViolated(restriction, _, violations):
            return "the issuer's RSA-PSS key is restricted to \(restriction), but this signature uses " + violations.map { v in
                switch v {
                case let .hash(used, allowed): return "hash \(used), the key allows only \(allowed)"
                case let .maskHash(used, allowed): return "MGF1-\(used), the key allows only MGF1-\(allowed)"
                case let .saltTooShort(used, minimum): return "salt \(used) < the key's minimum \(minimum)"
                }
            }.joined(separator: "; ")
        case .pss(let failure):
            return "PSS: the signature hides a salted hash of Hash1, so there is no Hash2 to read out; "
                + (failure == nil ? "EMSA-PSS verification passed" : "EMSA-PSS verification failed")
        case .ecdsaSignatureMalformed: return "signatureValue is not an Ecdsa-Sig-Value SEQUENCE of two positive INTEGERs r and s"
        case .ecdsa(let ok):
            return "ECDSA: the recovery idea does not apply (a signature is a pair (r, s), not an encrypted hash); "
                + (ok ? "verify(Hash1, r, s) passed" : "verify(Hash1, r, s) failed")
        case .ed25519(let ok): return "Ed25519 " + (ok ? "verification passed" : "verification failed")
        case .unsupportedAlgorithm(let oid): return "unsupported signature algorithm \(oid)"
        }
    }
}
