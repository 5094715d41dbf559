import TLSCrypto

/// Builds a path leaf → anchor and validates it (RFC 5280 §6, simplified: no policy tree, no CRLs),
/// recording every check for the teaching trace. docs/PathValidation.md lists each rule and where
/// TLSLab follows RFC 5280, the CA/Browser Forum, webpki or Apple's SecTrust.
public struct ChainValidator: Sendable {
    /// What the chain is for (`SecPolicyCreateSSL` / `SecPolicyCreateBasicX509`).
    public enum Purpose: Sendable, Hashable {
        /// TLS server: EKU serverAuth, and the host when given.
        case sslServer(host: String?)
        /// TLS client certificate: EKU clientAuth.
        case sslClient
        /// Chain only: no EKU, no name.
        case basicX509
    }

    public var anchors: AnchorSelection
    public var purpose: Purpose
    /// The simulated clock, Unix seconds.
    public var time: Int64
    /// Reject SHA-1/MD5 signatures and RSA keys under 2048 bits (what Apple and OpenSSL level 2 do).
    public var rejectWeakAlgorithms: Bool
    public var maxDepth: Int
    /// The most intermediates a path may have, self-issued ones not counted (a verifier's maximum
    /// chain depth, like OpenSSL's `-verify_depth`); nil: only `maxDepth` bounds path building.
    public var maxIntermediates: Int?

    public init(anchors: AnchorSelection, purpose: Purpose, time: Int64, rejectWeakAlgorithms: Bool = true, maxDepth: Int = 8,
                maxIntermediates: Int? = nil) {
        self.anchors = anchors
        self.purpose = purpose
        self.time = time
        self.rejectWeakAlgorithms = rejectWeakAlgorithms
        self.maxDepth = maxDepth
        self.maxIntermediates = maxIntermediates
    }

    /// Validates the certificates the peer presented (leaf first; the rest are untrusted intermediates).
    public func validate(_ presented: [X509Certificate]) -> ChainValidationResult {
        guard let leaf = presented.first else {
            let check = ChainCheck(kind: .pathBuilding, depth: 0, subject: "-", passed: false, finding: .noCertificatePresented)
            return ChainValidationResult(result: .recoverableTrustFailure, path: [], checks: [check], anchorStore: nil)
        }
        let pool = Array(presented.dropFirst())
        let paths = buildPaths(leaf: leaf, pool: pool)
        var best: ChainValidationResult?
        for (path, store) in paths {
            let outcome = evaluate(path: path, store: store)
            if outcome.isValid { return outcome }
            if best == nil { best = outcome }
        }
        if let best { return best }
        // No path reaches an anchor: check what we can of the greedy chain, then fail the anchor step.
        let partial = greedyChain(leaf: leaf, pool: pool)
        var checks = linkChecks(path: partial, anchorIncluded: false)
        let top = partial.last ?? leaf
        checks.append(ChainCheck(kind: .anchor, depth: partial.count - 1, subject: top.subject.description, passed: false,
                                 finding: .noPathToAnchor(issuer: top.issuer.description, stores: anchors.stores.map(\.name))))
        return ChainValidationResult(result: checks.contains { !$0.passed && Self.isFatal($0.kind) } ? .fatalTrustFailure : .recoverableTrustFailure,
                                     path: partial, checks: checks, anchorStore: nil)
    }

    // MARK: path building

    private func anchorStore(for certificate: X509Certificate) -> TrustStore? {
        anchors.stores.first { $0.contains(certificate) }
    }

    private func isIssuer(_ candidate: X509Certificate, of certificate: X509Certificate) -> Bool {
        guard candidate.subject.der == certificate.issuer.der else { return false }
        if let aki = certificate.extensions.authorityKeyIdentifier, let ski = candidate.extensions.subjectKeyIdentifier, aki != ski {
            return false
        }
        return true
    }

    /// All complete paths (ending at an anchor), depth-first, anchors preferred; bounded work.
    private func buildPaths(leaf: X509Certificate, pool: [X509Certificate]) -> [([X509Certificate], TrustStore)] {
        var results: [([X509Certificate], TrustStore)] = []
        var budget = 256
        let allAnchors = anchors.stores.flatMap { store in store.anchors.map { ($0, store) } }
        func extend(_ path: [X509Certificate]) {
            guard budget > 0, results.count < 8, let current = path.last else { return }
            budget -= 1
            if let store = anchorStore(for: current) {
                results.append((path, store))
                return
            }
            guard path.count < maxDepth else { return }
            for (anchor, store) in allAnchors where isIssuer(anchor, of: current) && !path.contains(anchor) {
                results.append((path + [anchor], store))
            }
            for candidate in pool where isIssuer(candidate, of: current) && !path.contains(candidate)
                && !allAnchors.contains(where: { $0.0 == candidate }) {
                extend(path + [candidate])
            }
        }
        extend([leaf])
        return results
    }

    private func greedyChain(leaf: X509Certificate, pool: [X509Certificate]) -> [X509Certificate] {
        var path = [leaf]
        while path.count < maxDepth, let current = path.last, !current.isSelfIssued,
              let next = pool.first(where: { isIssuer($0, of: current) && !path.contains($0) }) {
            path.append(next)
        }
        return path
    }

    // MARK: checks

    static func weakKey(_ cert: X509Certificate) -> ChainCheck.WeakAlgorithm? {
        guard cert.publicKey.kind == .rsa || cert.publicKey.kind == .rsaPSS else { return nil }
        if cert.publicKey.keyBits < 2048 { return .rsaKeyTooShort(bits: cert.publicKey.keyBits) }
        if cert.publicKey.keyBits % 8 != 0 { return .rsaModulusNotWholeBytes(bits: cert.publicKey.keyBits) }
        return nil
    }

    /// Extension criticality that makes a certificate unusable: an unknown critical extension
    /// (RFC 5280 §4.2), a critical authority/subject key identifier (§4.2.1.1, §4.2.1.2: MUST be
    /// non-critical), or a non-critical subjectAltName on a certificate with an empty subject (§4.2.1.6).
    static func criticalityProblems(_ cert: X509Certificate) -> [ChainCheck.CriticalityProblem] {
        let ext = cert.extensions
        var problems: [ChainCheck.CriticalityProblem] = []
        let unhandled = ext.unhandledCritical
        if !unhandled.isEmpty { problems.append(.unknownCritical(unhandled)) }
        if ext.all.contains(where: { $0.oid == "2.5.29.35" && $0.critical }) { problems.append(.authorityKeyIdentifierCritical) }
        if ext.all.contains(where: { $0.oid == "2.5.29.14" && $0.critical }) { problems.append(.subjectKeyIdentifierCritical) }
        if cert.subject.attributes.isEmpty, ext.all.contains(where: { $0.oid == "2.5.29.17" && !$0.critical }) {
            problems.append(.emptySubjectWithNonCriticalSubjectAltName)
        }
        return problems
    }

    static func isFatal(_ kind: ChainCheck.Kind) -> Bool { kind == .signature || kind == .criticalExtensions }

    private func evaluate(path: [X509Certificate], store: TrustStore) -> ChainValidationResult {
        var checks = linkChecks(path: path, anchorIncluded: true)
        for (depth, problems) in Self.nameConstraintResults(path: path) {
            checks.append(ChainCheck(kind: .nameConstraints, depth: depth, subject: path[depth].subject.description, passed: problems.isEmpty,
                                     finding: problems.isEmpty ? .nameConstraintsSatisfied : .nameConstraintViolations(Array(problems.prefix(4)))))
        }
        if let limit = maxIntermediates {
            let counted = path.dropFirst().dropLast().filter { !$0.isSelfIssued }.count
            checks.append(ChainCheck(kind: .chainDepth, depth: max(path.count - 2, 0), subject: path[max(path.count - 2, 0)].subject.description,
                                     passed: counted <= limit, finding: .chainDepth(intermediates: counted, limit: limit)))
        }
        if let anchor = path.last {
            checks.append(ChainCheck(kind: .anchor, depth: path.count - 1, subject: anchor.subject.description, passed: true,
                                     finding: path.count == 1 ? .isItselfAnchor(store: store.name)
                                                              : .anchoredBy(anchor: "\(anchor.subject)", store: store.name)))
        }
        let result: TrustResult
        if let failure = checks.first(where: { !$0.passed }) {
            result = Self.isFatal(failure.kind) ? .fatalTrustFailure : .recoverableTrustFailure
        } else {
            result = store.userConfirmed ? .proceed : .unspecified
        }
        return ChainValidationResult(result: result, path: path, checks: checks, anchorStore: store.name)
    }

    /// Ordered checks for each certificate of `path`. When `anchorIncluded`, the last element is
    /// the trust anchor: its own signature is not checked (RFC 5280 §6.1.1 d), its validity is.
    /// A leaf that is itself the anchor still gets every end-entity check (key strength, critical
    /// extensions, EKU, keyUsage) — only its signature and the anchor's CA checks are skipped.
    private func linkChecks(path: [X509Certificate], anchorIncluded: Bool) -> [ChainCheck] {
        var checks: [ChainCheck] = []
        let purposeOID: String? = switch purpose {
            case .sslServer: CertificateExtensions.serverAuth
            case .sslClient: CertificateExtensions.clientAuth
            case .basicX509: nil
        }
        for (depth, cert) in path.enumerated() {
            let isAnchor = anchorIncluded && depth == path.count - 1
            let name = cert.subject.description
            func add(_ kind: ChainCheck.Kind, _ passed: Bool, _ finding: ChainCheck.Finding, _ signature: SignatureCheck? = nil) {
                checks.append(ChainCheck(kind: kind, depth: depth, subject: name, passed: passed, finding: finding, signature: signature))
            }
            if !isAnchor, depth + 1 < path.count {
                let issuer = path[depth + 1]
                let sig = SignatureCheck.verify(tbs: cert.tbsDER, signature: cert.signatureValue,
                                                algorithm: cert.signatureAlgorithm, issuerKey: issuer.publicKey)
                let agree = cert.signatureAlgorithmsMatch
                add(.signature, sig.passed && agree,
                    agree ? .signedBy(issuer: issuer.subject.description, algorithm: cert.signatureAlgorithm, outcome: sig.outcome)
                          : .signatureAlgorithmsDiffer, sig)
            }
            // Validity: every certificate, the anchor too (as Apple's trust evaluation and webpki do).
            let validity: ChainCheck.ValidityFailure? = time < cert.notBefore ? .notYetValid : (time > cert.notAfter ? .expired : nil)
            add(.validity, validity == nil, validity == nil ? .withinValidity(anchor: isAnchor)
                : (validity == .notYetValid ? .notYetValid(anchor: isAnchor, notBefore: cert.notBefore, now: time)
                                            : .expired(anchor: isAnchor, notAfter: cert.notAfter, now: time)))
            if isAnchor && depth > 0 {
                // A CA anchor is trusted for its key, its own signature is not checked (RFC 5280 §6.1.1 d),
                // but a weak key or an unusable critical extension still fails the path.
                if rejectWeakAlgorithms, let weak = Self.weakKey(cert) { add(.algorithmStrength, false, .tooWeak(anchor: true, problems: [weak])) }
                let problems = Self.criticalityProblems(cert)
                if !problems.isEmpty { add(.criticalExtensions, false, .criticalityProblems(anchor: true, problems: problems)) }
                let profile = Self.profileProblems(cert, isAnchor: true, isLeaf: false)
                if !profile.isEmpty { add(.profile, false, .profileProblems(anchor: true, problems: profile)) }
            } else {
                // Every non-anchor, and the leaf even when it is itself the anchor (a pinned self-signed
                // certificate): a trusted end entity must still be usable — OpenSSL -partial_chain rejects
                // a weak EE key (error 66) or an unsuitable purpose (26) on a certificate it trusts.
                if rejectWeakAlgorithms {
                    var problems: [ChainCheck.WeakAlgorithm] = []
                    // The anchor's self-signature is not checked, so its digest does not matter.
                    if !isAnchor, let hash = cert.signatureAlgorithm.hash, hash == .sha1 || hash == .md5 { problems.append(.digest(hash)) }
                    if let weak = Self.weakKey(cert) { problems.append(weak) }
                    if depth == 0, let unsupported = Self.unsupportedLeafKey(cert) { problems.append(unsupported) }
                    add(.algorithmStrength, problems.isEmpty,
                        problems.isEmpty ? .strongEnough(signatureAlgorithm: cert.signatureAlgorithm, key: cert.publicKey.kind, keyBits: cert.publicKey.keyBits)
                                         : .tooWeak(anchor: false, problems: problems))
                }
                let problems = Self.criticalityProblems(cert)
                add(.criticalExtensions, problems.isEmpty,
                    problems.isEmpty ? .noUnknownCriticalExtension : .criticalityProblems(anchor: false, problems: problems))
                // Shown only when broken, so that the usual trace stays as short as before.
                let profile = Self.profileProblems(cert, isAnchor: isAnchor, isLeaf: depth == 0)
                if !profile.isEmpty { add(.profile, false, .profileProblems(anchor: false, problems: profile)) }
            }
            if depth > 0 && !(isAnchor && path.count == 1) {
                let bc = cert.extensions.basicConstraints
                add(.caFlag, bc?.isCA == true, bc?.isCA == true ? .isCA : (bc == nil ? .noBasicConstraints : .notCA))
                if cert.subject.attributes.isEmpty { add(.caFlag, false, .caWithEmptySubject) }
                if let ku = cert.extensions.keyUsage {
                    add(.keyCertSign, ku.keyCertSign, ku.keyCertSign ? .hasKeyCertSign : .lacksKeyCertSign(keyUsage: ku))
                }
            }
            if depth > 0, let limit = cert.extensions.basicConstraints?.pathLength, cert.isCA {
                let below = path[1..<depth].filter { !$0.isSelfIssued }.count
                add(.pathLength, below <= limit, .pathLength(limit: limit, intermediatesBelow: below))
            }
            if let purposeOID, !isAnchor || depth == 0, let eku = cert.extensions.extendedKeyUsage {
                let ok = eku.contains(purposeOID) || eku.contains(CertificateExtensions.anyExtendedKeyUsage)
                let wanted: ChainCheck.KeyPurpose = purposeOID == CertificateExtensions.serverAuth ? .serverAuth : .clientAuth
                add(.extendedKeyUsage, ok, ok ? .extendedKeyUsageAllows(purpose: wanted) : .extendedKeyUsageLacks(purpose: wanted, listed: eku))
            }
            if depth == 0, let purposeOID, let ku = cert.extensions.keyUsage {
                // OpenSSL's purpose rule (v3_purp.c, check_purpose_ssl_server/_client): a keyUsage extension
                // must allow a TLS use of the key — sslserver: digitalSignature, keyEncipherment or
                // keyAgreement; sslclient: digitalSignature or keyAgreement. Absent keyUsage allows all.
                let server = purposeOID == CertificateExtensions.serverAuth
                let ok = ku.digitalSignature || ku.keyAgreement || (server && ku.keyEncipherment)
                add(.keyUsage, ok, ok ? .keyUsageAllows(keyUsage: ku, server: server) : .keyUsageUnsuitable(keyUsage: ku, server: server))
            }
            if depth == 0, purposeOID != nil, !(isAnchor && path.count == 1) {
                // RFC 5280 §4.2.1.9/§4.2.1.3: only CAs may have CA:TRUE or keyCertSign; a TLS peer is an end entity
                // (webpki's choice; x509-limbo's rfc5280::ca-as-leaf conflicts with it and is a listed known failure).
                let caTrue = cert.isCA, keyCertSign = cert.extensions.keyUsage?.keyCertSign == true
                add(.endEntity, !caTrue && !keyCertSign, !caTrue && !keyCertSign ? .endEntity : .notEndEntity(caTrue: caTrue, keyCertSign: keyCertSign))
            }
            if depth == 0, case .sslServer(let host?) = purpose {
                let (ok, finding) = HostnameMatcher.finding(cert, host: host)
                add(.name, ok, .name(finding))
            }
        }
        return checks
    }
}
