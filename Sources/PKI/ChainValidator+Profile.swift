/// The certificate-profile rules a conforming certificate follows (RFC 5280 §4.1.2.2, §4.2.1.x) and
/// the CA/Browser Forum Baseline Requirements (§7.1.2) add, where x509-limbo expects a validator to
/// enforce them. Each decision, and where TLSLab differs from RFC 5280, webpki or Apple, is listed
/// in docs/PathValidation.md.
extension ChainValidator {
    /// Profile problems of one certificate of the path. `isAnchor`: it is the trust anchor;
    /// `isLeaf`: depth 0.
    static func profileProblems(_ cert: X509Certificate, isAnchor: Bool, isLeaf: Bool) -> [String] {
        let ext = cert.extensions
        var problems: [String] = []
        // RFC 5280 §4.1.2.2: a positive integer of at most 20 octets (a trust anchor is taken as configured).
        if !isAnchor {
            let serial = cert.serialNumber
            let magnitude = serial.first == 0 ? Array(serial.dropFirst()) : serial
            if serial.first.map({ $0 & 0x80 != 0 }) == true { problems.append("negative serialNumber (RFC 5280 §4.1.2.2: MUST be positive)") }
            else if magnitude.allSatisfy({ $0 == 0 }) { problems.append("serialNumber 0 (RFC 5280 §4.1.2.2: MUST be positive)") }
            else if magnitude.count > 20 { problems.append("serialNumber of \(magnitude.count) octets (RFC 5280 §4.1.2.2: at most 20)") }
        }
        // §4.2.1.1: every certificate except a self-signed one carries authorityKeyIdentifier.keyIdentifier. A trust
        // anchor is taken as configured (§6.1.1 d), even a cross-signed CA without one (x509-limbo cve-2024-0567).
        if !isAnchor, !cert.isSelfIssued, ext.authorityKeyIdentifier == nil {
            problems.append("no authorityKeyIdentifier keyIdentifier (RFC 5280 §4.2.1.1: MUST be present unless self-signed)")
        }
        // CABF BR §7.1.2.1.3 / §7.1.2.11.1 (what webpki enforces): keyIdentifier present, the issuer/serial form absent,
        // and on a root (a self-issued anchor) it names the root's own key. A self-issued intermediate (a key
        // rollover certificate) names the old key, so the last rule is for anchors only.
        if ext.raw("2.5.29.35") != nil {
            if ext.authorityKeyIdentifier == nil { problems.append("authorityKeyIdentifier without keyIdentifier (CABF BR §7.1.2.11.1)") }
            if ext.authorityKeyIdentifierHasIssuerAndSerial {
                problems.append("authorityKeyIdentifier with authorityCertIssuer/authorityCertSerialNumber (CABF BR §7.1.2.11.1: MUST NOT)")
            }
            if isAnchor, cert.isSelfIssued, let aki = ext.authorityKeyIdentifier, let ski = ext.subjectKeyIdentifier, aki != ski {
                problems.append("a root whose authorityKeyIdentifier differs from its own subjectKeyIdentifier")
            }
        }
        if cert.isCA {
            // §4.2.1.2: CA certificates MUST carry subjectKeyIdentifier; §4.2.1.9: basicConstraints MUST be critical.
            if ext.subjectKeyIdentifier == nil { problems.append("a CA without subjectKeyIdentifier (RFC 5280 §4.2.1.2: MUST be present)") }
            if ext.raw("2.5.29.19")?.critical == false { problems.append("a CA whose basicConstraints is not critical (RFC 5280 §4.2.1.9: MUST be critical)") }
        } else if ext.nameConstraints != nil {
            problems.append("nameConstraints in an end-entity certificate (RFC 5280 §4.2.1.10: only in CA certificates)")
        }
        // §4.2.1.11: policyConstraints MUST be critical (a critical one is an unprocessed critical extension).
        if ext.raw("2.5.29.36")?.critical == false { problems.append("policyConstraints not critical (RFC 5280 §4.2.1.11: MUST be critical)") }
        // §4.2.2.1: authorityInfoAccess MUST be non-critical.
        if ext.raw(CertificateExtensions.authorityInfoAccess)?.critical == true {
            problems.append("authorityInfoAccess marked critical (RFC 5280 §4.2.2.1: MUST be non-critical)")
        }
        // CABF BR §7.1.2.7.12: a subscriber's subjectAltName is critical only when the subject is empty.
        if isLeaf, !cert.subject.attributes.isEmpty, ext.raw("2.5.29.17")?.critical == true {
            problems.append("subjectAltName critical with a non-empty subject (CABF BR §7.1.2.7.12)")
        }
        return problems
    }

    /// Keys a TLS end entity may have (CABF BR §6.1.5, §7.1.3.1; Apple supports the same): RSA,
    /// RSA-PSS, EC P-256/P-384/P-521, Ed25519. nil when allowed.
    static func unsupportedLeafKey(_ cert: X509Certificate) -> String? {
        switch cert.publicKey.kind {
        case .rsa, .rsaPSS, .ed25519: return nil
        case .ec(let curve): return ["P-256", "P-384", "P-521"].contains(curve) ? nil : "EC key on curve \(curve)"
        case .other(let oid): return "public key algorithm \(oid)"
        }
    }
}
