/// The certificate-profile rules a conforming certificate follows (RFC 5280 §4.1.2.2, §4.2.1.x) and
/// the CA/Browser Forum Baseline Requirements (§7.1.2) add, where x509-limbo expects a validator to
/// enforce them. Each decision, and where TLSLab differs from RFC 5280, webpki or Apple, is listed
/// in docs/PathValidation.md.
extension ChainValidator {
    /// Profile problems of one certificate of the path. `isAnchor`: it is the trust anchor;
    /// `isLeaf`: depth 0.
    static func profileProblems(_ cert: X509Certificate, isAnchor: Bool, isLeaf: Bool) -> [ChainCheck.ProfileProblem] {
        let ext = cert.extensions
        var problems: [ChainCheck.ProfileProblem] = []
        // RFC 5280 §4.1.2.2: a positive integer of at most 20 octets (a trust anchor is taken as configured).
        if !isAnchor {
            let serial = cert.serialNumber
            let magnitude = serial.first == 0 ? Array(serial.dropFirst()) : serial
            if serial.first.map({ $0 & 0x80 != 0 }) == true { problems.append(.negativeSerialNumber) }
            else if magnitude.allSatisfy({ $0 == 0 }) { problems.append(.zeroSerialNumber) }
            else if magnitude.count > 20 { problems.append(.serialNumberTooLong(octets: magnitude.count)) }
        }
        // §4.2.1.1: every certificate except a self-signed one carries authorityKeyIdentifier.keyIdentifier. A trust
        // anchor is taken as configured (§6.1.1 d), even a cross-signed CA without one (x509-limbo cve-2024-0567).
        if !isAnchor, !cert.isSelfIssued, ext.authorityKeyIdentifier == nil {
            problems.append(.missingAuthorityKeyIdentifier)
        }
        // CABF BR §7.1.2.1.3 / §7.1.2.11.1 (what webpki enforces): keyIdentifier present, the issuer/serial form absent,
        // and on a root (a self-issued anchor) it names the root's own key. A self-issued intermediate (a key
        // rollover certificate) names the old key, so the last rule is for anchors only.
        if ext.raw("2.5.29.35") != nil {
            if ext.authorityKeyIdentifier == nil { problems.append(.authorityKeyIdentifierWithoutKeyIdentifier) }
            if ext.authorityKeyIdentifierHasIssuerAndSerial {
                problems.append(.authorityKeyIdentifierWithIssuerAndSerial)
            }
            if isAnchor, cert.isSelfIssued, let aki = ext.authorityKeyIdentifier, let ski = ext.subjectKeyIdentifier, aki != ski {
                problems.append(.rootAuthorityKeyIdentifierMismatch)
            }
        }
        if cert.isCA {
            // §4.2.1.2: CA certificates MUST carry subjectKeyIdentifier; §4.2.1.9: basicConstraints MUST be critical.
            if ext.subjectKeyIdentifier == nil { problems.append(.caWithoutSubjectKeyIdentifier) }
            if ext.raw("2.5.29.19")?.critical == false { problems.append(.caBasicConstraintsNotCritical) }
        } else if ext.nameConstraints != nil {
            problems.append(.nameConstraintsInEndEntity)
        }
        // §4.2.1.11: policyConstraints MUST be critical (a critical one is an unprocessed critical extension).
        if ext.raw("2.5.29.36")?.critical == false { problems.append(.policyConstraintsNotCritical) }
        // §4.2.2.1: authorityInfoAccess MUST be non-critical.
        if ext.raw(CertificateExtensions.authorityInfoAccess)?.critical == true {
            problems.append(.authorityInfoAccessCritical)
        }
        // CABF BR §7.1.2.7.12: a subscriber's subjectAltName is critical only when the subject is empty.
        if isLeaf, !cert.subject.attributes.isEmpty, ext.raw("2.5.29.17")?.critical == true {
            problems.append(.subjectAltNameCriticalWithSubject)
        }
        return problems
    }

    /// Keys a TLS end entity may have (CABF BR §6.1.5, §7.1.3.1; Apple supports the same): RSA,
    /// RSA-PSS, EC P-256/P-384/P-521, Ed25519. nil when allowed.
    static func unsupportedLeafKey(_ cert: X509Certificate) -> ChainCheck.WeakAlgorithm? {
        switch cert.publicKey.kind {
        case .rsa, .rsaPSS, .ed25519: return nil
        case .ec(let curve): return ["P-256", "P-384", "P-521"].contains(curve) ? nil : .unsupportedCurve(curve)
        case .other(let oid): return .unsupportedKeyAlgorithm(oid: oid)
        }
    }
}
