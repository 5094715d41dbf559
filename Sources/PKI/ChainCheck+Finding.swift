import TLSCrypto

extension ChainCheck {
    /// What a check found, pass or fail, as typed facts for a renderer to word. Each case belongs to
    /// one ``Kind`` (``kind``); the RFC 5280 section a case rests on is named in its comment.
    public enum Finding: Sendable, Equatable {
        // MARK: pathBuilding
        /// The peer's Certificate message was empty: there is no leaf to start a path from.
        case noCertificatePresented

        // MARK: anchor (RFC 5280 §6.1.1 d)
        /// No path reaches a trust anchor: `issuer` (of the topmost certificate) is in none of `stores`.
        case noPathToAnchor(issuer: String, stores: [TrustStoreName])
        /// The leaf itself is a trust anchor in `store` (a pinned or self-signed certificate).
        case isItselfAnchor(store: TrustStoreName)
        /// The path ends in `anchor`, found in `store`.
        case anchoredBy(anchor: String, store: TrustStoreName)

        // MARK: signature (RFC 5280 §6.1.3 a.1)
        /// The certificate's signature, verified with the next certificate's (`issuer`'s) key.
        case signedBy(issuer: String, algorithm: SignatureAlgorithm, outcome: SignatureCheck.Outcome)
        /// The outer signatureAlgorithm differs from the TBSCertificate's signature field (§4.1.1.2).
        case signatureAlgorithmsDiffer

        // MARK: validity (§4.1.2.5, §6.1.3 a.2)
        /// notBefore ≤ now ≤ notAfter; `anchor` for the trust anchor's own period.
        case withinValidity(anchor: Bool)
        /// now > notAfter (Unix seconds).
        case expired(anchor: Bool, notAfter: Int64, now: Int64)
        /// now < notBefore (Unix seconds).
        case notYetValid(anchor: Bool, notBefore: Int64, now: Int64)

        // MARK: algorithmStrength
        /// The signature algorithm and the key: neither too weak.
        case strongEnough(signatureAlgorithm: SignatureAlgorithm, key: SubjectPublicKeyInfo.KeyKind, keyBits: Int)
        /// Too weak: each of `problems`; `anchor` when it is the trust anchor's key.
        case tooWeak(anchor: Bool, problems: [WeakAlgorithm])
        /// A synthetic failure: App Transport Security's own certificate rules refused the leaf.
        case refusedByATSCertificateRules

        // MARK: criticalExtensions (§4.2)
        /// No critical extension the verifier does not process.
        case noUnknownCriticalExtension
        /// Extension criticality that makes the certificate unusable.
        case criticalityProblems(anchor: Bool, problems: [CriticalityProblem])

        // MARK: profile (§4.1.2.2, §4.2.1.x; CABF BR §7.1.2)
        case profileProblems(anchor: Bool, problems: [ProfileProblem])

        // MARK: caFlag (§4.2.1.9, §6.1.4 k)
        /// basicConstraints cA = TRUE.
        case isCA
        /// An issuer without basicConstraints.
        case noBasicConstraints
        /// An issuer whose basicConstraints says cA = FALSE.
        case notCA
        /// A CA with an empty subject (§4.1.2.6).
        case caWithEmptySubject

        // MARK: keyCertSign (§4.2.1.3, §6.1.4 n)
        /// keyUsage has keyCertSign.
        case hasKeyCertSign
        /// An issuer's keyUsage lacks keyCertSign.
        case lacksKeyCertSign(keyUsage: CertificateExtensions.KeyUsage)

        // MARK: pathLength (§4.2.1.9, §6.1.4 l–m)
        /// `limit` = pathLenConstraint; `intermediatesBelow` non-self-issued CAs below this one.
        case pathLength(limit: Int, intermediatesBelow: Int)

        // MARK: extendedKeyUsage (§4.2.1.12)
        case extendedKeyUsageAllows(purpose: KeyPurpose)
        /// The EKU lists `listed` (OIDs), neither the purpose nor anyExtendedKeyUsage.
        case extendedKeyUsageLacks(purpose: KeyPurpose, listed: [String])

        // MARK: keyUsage (§4.2.1.3; OpenSSL's TLS purpose rule)
        /// keyUsage allows a TLS server's (`server`) or client's use.
        case keyUsageAllows(keyUsage: CertificateExtensions.KeyUsage, server: Bool)
        case keyUsageUnsuitable(keyUsage: CertificateExtensions.KeyUsage, server: Bool)

        // MARK: endEntity (§4.2.1.9, §4.2.1.3)
        /// Neither CA:TRUE nor keyCertSign on the leaf.
        case endEntity
        /// The leaf claims to be a CA: basicConstraints CA:TRUE (`caTrue`), keyUsage keyCertSign (`keyCertSign`).
        case notEndEntity(caTrue: Bool, keyCertSign: Bool)

        // MARK: name (RFC 9525 §6.3)
        /// The host-name check's outcome, pass or fail.
        case name(NameFinding)

        // MARK: nameConstraints (§4.2.1.10, §6.1.3 b–c)
        case nameConstraintsSatisfied
        /// The first problems found (at most four).
        case nameConstraintViolations([NameConstraintProblem])

        // MARK: chainDepth
        /// `intermediates` non-self-issued intermediates; the verifier allows `limit`.
        case chainDepth(intermediates: Int, limit: Int)
    }

    /// The purpose an extendedKeyUsage must allow (RFC 5280 §4.2.1.12).
    public enum KeyPurpose: String, Sendable, Hashable, CaseIterable {
        case serverAuth, clientAuth
    }

    /// Why an algorithm or key is too weak (or, for a TLS leaf, not one TLS may use).
    public enum WeakAlgorithm: Sendable, Hashable {
        /// The certificate is signed with SHA-1 or MD5.
        case digest(HashAlgorithm)
        /// An RSA key under 2048 bits.
        case rsaKeyTooShort(bits: Int)
        /// An RSA modulus that is not a whole number of bytes.
        case rsaModulusNotWholeBytes(bits: Int)
        /// A leaf EC key on a curve other than P-256/P-384/P-521 (CABF BR §6.1.5).
        case unsupportedCurve(String)
        /// A leaf key of an algorithm TLS does not use (the OID).
        case unsupportedKeyAlgorithm(oid: String)
    }

    /// Extension criticality that makes a certificate unusable (RFC 5280 §4.2).
    public enum CriticalityProblem: Sendable, Hashable {
        /// Critical extensions the verifier does not process (their OIDs).
        case unknownCritical([String])
        /// §4.2.1.1: authorityKeyIdentifier MUST be non-critical.
        case authorityKeyIdentifierCritical
        /// §4.2.1.2: subjectKeyIdentifier MUST be non-critical.
        case subjectKeyIdentifierCritical
        /// §4.2.1.6: with an empty subject, subjectAltName MUST be critical.
        case emptySubjectWithNonCriticalSubjectAltName
    }

    /// A certificate-profile rule broken (RFC 5280, CABF Baseline Requirements).
    public enum ProfileProblem: Sendable, Hashable {
        /// §4.1.2.2: the serial number MUST be positive.
        case negativeSerialNumber
        case zeroSerialNumber
        /// §4.1.2.2: at most 20 octets.
        case serialNumberTooLong(octets: Int)
        /// §4.2.1.1: authorityKeyIdentifier keyIdentifier MUST be present unless self-signed.
        case missingAuthorityKeyIdentifier
        /// CABF BR §7.1.2.11.1: keyIdentifier present …
        case authorityKeyIdentifierWithoutKeyIdentifier
        /// … and authorityCertIssuer/authorityCertSerialNumber absent.
        case authorityKeyIdentifierWithIssuerAndSerial
        /// A root whose authorityKeyIdentifier is not its own subjectKeyIdentifier.
        case rootAuthorityKeyIdentifierMismatch
        /// §4.2.1.2: a CA MUST carry subjectKeyIdentifier.
        case caWithoutSubjectKeyIdentifier
        /// §4.2.1.9: a CA's basicConstraints MUST be critical.
        case caBasicConstraintsNotCritical
        /// §4.2.1.10: nameConstraints only in CA certificates.
        case nameConstraintsInEndEntity
        /// §4.2.1.11: policyConstraints MUST be critical.
        case policyConstraintsNotCritical
        /// §4.2.2.1: authorityInfoAccess MUST be non-critical.
        case authorityInfoAccessCritical
        /// CABF BR §7.1.2.7.12: subjectAltName critical only with an empty subject.
        case subjectAltNameCriticalWithSubject
    }

    /// A name-constraint problem (RFC 5280 §4.2.1.10). Names and subtrees are their
    /// `GeneralName` descriptions ("DNS:example.com").
    public enum NameConstraintProblem: Sendable, Hashable {
        /// Constraints that are not well-formed names of their type.
        case malformedConstraints([String])
        /// More comparisons than the bound: refused as a denial of service.
        case tooManyComparisons(limit: Int)
        /// The name at `depth` is not a well-formed name of its type.
        case malformedName(depth: Int, name: String)
        /// The name lies in an excluded subtree.
        case excluded(depth: Int, name: String, subtree: String)
        /// The name lies in none of the permitted subtrees of its type.
        case notPermitted(depth: Int, name: String, permitted: [String])
    }
}
