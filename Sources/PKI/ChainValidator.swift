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
            let check = ChainCheck(kind: .pathBuilding, depth: 0, subject: "-", passed: false, detail: "no certificate presented")
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
                                 detail: "no path to a trusted anchor: issuer \(top.issuer) is not in \(anchors.stores.map(\.name).joined(separator: " or "))"))
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

    static func weakKey(_ cert: X509Certificate) -> String? {
        guard cert.publicKey.kind == .rsa || cert.publicKey.kind == .rsaPSS else { return nil }
        if cert.publicKey.keyBits < 2048 { return "RSA-\(cert.publicKey.keyBits) key" }
        if cert.publicKey.keyBits % 8 != 0 { return "RSA modulus of \(cert.publicKey.keyBits) bits (not a whole number of bytes)" }
        return nil
    }

    /// Extension criticality that makes a certificate unusable: an unknown critical extension
    /// (RFC 5280 §4.2), a critical authority/subject key identifier (§4.2.1.1, §4.2.1.2: MUST be
    /// non-critical), or a non-critical subjectAltName on a certificate with an empty subject (§4.2.1.6).
    static func criticalityProblems(_ cert: X509Certificate) -> [String] {
        let ext = cert.extensions
        var problems: [String] = []
        let unhandled = ext.unhandledCritical
        if !unhandled.isEmpty { problems.append("unknown critical extension(s) \(unhandled.joined(separator: ", "))") }
        if ext.all.contains(where: { $0.oid == "2.5.29.35" && $0.critical }) {
            problems.append("authorityKeyIdentifier marked critical (RFC 5280 §4.2.1.1: MUST be non-critical)")
        }
        if ext.all.contains(where: { $0.oid == "2.5.29.14" && $0.critical }) {
            problems.append("subjectKeyIdentifier marked critical (RFC 5280 §4.2.1.2: MUST be non-critical)")
        }
        if cert.subject.attributes.isEmpty, ext.all.contains(where: { $0.oid == "2.5.29.17" && !$0.critical }) {
            problems.append("empty subject with a non-critical subjectAltName (RFC 5280 §4.2.1.6: MUST be critical)")
        }
        return problems
    }

    static func isFatal(_ kind: ChainCheck.Kind) -> Bool { kind == .signature || kind == .criticalExtensions }

    private func evaluate(path: [X509Certificate], store: TrustStore) -> ChainValidationResult {
        var checks = linkChecks(path: path, anchorIncluded: true)
        for (depth, problems) in Self.nameConstraintResults(path: path) {
            checks.append(ChainCheck(kind: .nameConstraints, depth: depth, subject: path[depth].subject.description, passed: problems.isEmpty,
                                     detail: problems.isEmpty ? "every name below satisfies the name constraints"
                                                              : problems.prefix(4).joined(separator: "; ")))
        }
        if let limit = maxIntermediates {
            let counted = path.dropFirst().dropLast().filter { !$0.isSelfIssued }.count
            checks.append(ChainCheck(kind: .chainDepth, depth: max(path.count - 2, 0), subject: path[max(path.count - 2, 0)].subject.description,
                                     passed: counted <= limit, detail: "\(counted) intermediate(s), at most \(limit) allowed"))
        }
        if let anchor = path.last {
            checks.append(ChainCheck(kind: .anchor, depth: path.count - 1, subject: anchor.subject.description, passed: true,
                                     detail: path.count == 1 ? "the certificate itself is a trust anchor in \(store.name)"
                                                             : "anchored by \(anchor.subject) in \(store.name)",
                                     finding: path.count == 1 ? nil : .anchoredBy(anchor: "\(anchor.subject)", store: store.name)))
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
            func add(_ kind: ChainCheck.Kind, _ passed: Bool, _ detail: String, _ signature: SignatureCheck? = nil,
                     validity: ChainCheck.ValidityFailure? = nil, finding: ChainCheck.Finding? = nil) {
                checks.append(ChainCheck(kind: kind, depth: depth, subject: name, passed: passed, detail: detail, signature: signature,
                                         validityFailure: validity, finding: finding))
            }
            if !isAnchor, depth + 1 < path.count {
                let issuer = path[depth + 1]
                let sig = SignatureCheck.verify(tbs: cert.tbsDER, signature: cert.signatureValue,
                                                algorithm: cert.signatureAlgorithm, issuerKey: issuer.publicKey)
                let agree = cert.signatureAlgorithmsMatch
                add(.signature, sig.passed && agree,
                    agree ? "signed by \(issuer.subject) with \(cert.signatureAlgorithm): \(sig.note)"
                          : "outer signatureAlgorithm differs from the TBSCertificate's", sig)
            }
            // Validity: every certificate, the anchor too (as Apple's trust evaluation and webpki do).
            let validity: ChainCheck.ValidityFailure? = time < cert.notBefore ? .notYetValid : (time > cert.notAfter ? .expired : nil)
            let prefix = isAnchor ? "anchor " : ""
            add(.validity, validity == nil, validity == nil ? prefix + "within validity"
                : (validity == .notYetValid ? prefix + "not yet valid (notBefore \(cert.notBefore) > now \(time))"
                                            : prefix + "expired (notAfter \(cert.notAfter) < now \(time))"),
                validity: validity, finding: validity == nil ? .withinValidity(anchor: isAnchor) : nil)
            if isAnchor && depth > 0 {
                // A CA anchor is trusted for its key, its own signature is not checked (RFC 5280 §6.1.1 d),
                // but a weak key or an unusable critical extension still fails the path.
                if rejectWeakAlgorithms, let weak = Self.weakKey(cert) { add(.algorithmStrength, false, "anchor key too weak: \(weak)") }
                let problems = Self.criticalityProblems(cert)
                if !problems.isEmpty { add(.criticalExtensions, false, "anchor: " + problems.joined(separator: "; ")) }
                let profile = Self.profileProblems(cert, isAnchor: true, isLeaf: false)
                if !profile.isEmpty { add(.profile, false, "anchor: " + profile.joined(separator: "; ")) }
            } else {
                // Every non-anchor, and the leaf even when it is itself the anchor (a pinned self-signed
                // certificate): a trusted end entity must still be usable — OpenSSL -partial_chain rejects
                // a weak EE key (error 66) or an unsuitable purpose (26) on a certificate it trusts.
                if rejectWeakAlgorithms {
                    var problems: [String] = []
                    // The anchor's self-signature is not checked, so its digest does not matter.
                    if !isAnchor, let hash = cert.signatureAlgorithm.hash, hash == .sha1 || hash == .md5 { problems.append("\(hash) signature") }
                    if let weak = Self.weakKey(cert) { problems.append(weak) }
                    if depth == 0, let unsupported = Self.unsupportedLeafKey(cert) { problems.append(unsupported) }
                    add(.algorithmStrength, problems.isEmpty,
                        problems.isEmpty ? "\(cert.signatureAlgorithm), \(cert.publicKey.kind) \(cert.publicKey.keyBits) bits"
                                         : "too weak: " + problems.joined(separator: ", "),
                        finding: problems.isEmpty ? .strongEnough(signatureAlgorithm: "\(cert.signatureAlgorithm)", keyKind: "\(cert.publicKey.kind)",
                                                                  keyBits: cert.publicKey.keyBits) : nil)
                }
                let problems = Self.criticalityProblems(cert)
                add(.criticalExtensions, problems.isEmpty, problems.isEmpty ? "no unknown critical extension" : problems.joined(separator: "; "),
                    finding: problems.isEmpty ? .noUnknownCriticalExtension : nil)
                // Shown only when broken, so that the usual trace stays as short as before.
                let profile = Self.profileProblems(cert, isAnchor: isAnchor, isLeaf: depth == 0)
                if !profile.isEmpty { add(.profile, false, profile.joined(separator: "; ")) }
            }
            if depth > 0 && !(isAnchor && path.count == 1) {
                let bc = cert.extensions.basicConstraints
                add(.caFlag, bc?.isCA == true, bc?.isCA == true ? "basicConstraints CA:TRUE"
                    : (bc == nil ? "no basicConstraints: not a CA" : "basicConstraints CA:FALSE: may not issue certificates"),
                    finding: bc?.isCA == true ? .isCA : nil)
                if cert.subject.attributes.isEmpty {
                    add(.caFlag, false, "a CA with an empty subject (RFC 5280 §4.1.2.6: a CA's subject MUST be non-empty)")
                }
                if let ku = cert.extensions.keyUsage {
                    add(.keyCertSign, ku.keyCertSign, ku.keyCertSign ? "keyUsage has keyCertSign" : "keyUsage [\(ku)] lacks keyCertSign",
                        finding: ku.keyCertSign ? .hasKeyCertSign : nil)
                }
            }
            if depth > 0, let limit = cert.extensions.basicConstraints?.pathLength, cert.isCA {
                let below = path[1..<depth].filter { !$0.isSelfIssued }.count
                add(.pathLength, below <= limit, "pathLen \(limit), \(below) intermediate CA(s) below")
            }
            if let purposeOID, !isAnchor || depth == 0, let eku = cert.extensions.extendedKeyUsage {
                let ok = eku.contains(purposeOID) || eku.contains(CertificateExtensions.anyExtendedKeyUsage)
                let wanted = purposeOID == CertificateExtensions.serverAuth ? "serverAuth" : "clientAuth"
                add(.extendedKeyUsage, ok, ok ? "extendedKeyUsage allows \(wanted)" : "extendedKeyUsage [\(eku.joined(separator: ", "))] lacks \(wanted)",
                    finding: ok ? .extendedKeyUsageAllows(purpose: wanted) : nil)
            }
            if depth == 0, let purposeOID, let ku = cert.extensions.keyUsage {
                // OpenSSL's purpose rule (v3_purp.c, check_purpose_ssl_server/_client): a keyUsage extension
                // must allow a TLS use of the key — sslserver: digitalSignature, keyEncipherment or
                // keyAgreement; sslclient: digitalSignature or keyAgreement. Absent keyUsage allows all.
                let server = purposeOID == CertificateExtensions.serverAuth
                let ok = ku.digitalSignature || ku.keyAgreement || (server && ku.keyEncipherment)
                let wanted = server ? "digitalSignature, keyEncipherment or keyAgreement" : "digitalSignature or keyAgreement"
                add(.keyUsage, ok, ok ? "keyUsage [\(ku)] allows TLS \(server ? "server" : "client") use"
                                      : "keyUsage [\(ku)] has none of \(wanted): unsuitable for a TLS \(server ? "server" : "client")",
                    finding: ok ? .keyUsageAllows(keyUsage: "\(ku)", server: server) : nil)
            }
            if depth == 0, purposeOID != nil, !(isAnchor && path.count == 1) {
                // RFC 5280 §4.2.1.9/§4.2.1.3: only CAs may have CA:TRUE or keyCertSign; a TLS peer is an end entity
                // (webpki's choice; x509-limbo's rfc5280::ca-as-leaf conflicts with it and is a listed known failure).
                var problems: [String] = []
                if cert.isCA { problems.append("basicConstraints CA:TRUE") }
                if cert.extensions.keyUsage?.keyCertSign == true { problems.append("keyUsage keyCertSign") }
                add(.endEntity, problems.isEmpty, problems.isEmpty ? "an end-entity certificate" : "not a valid end entity: " + problems.joined(separator: ", "),
                    finding: problems.isEmpty ? .endEntity : nil)
            }
            if depth == 0, case .sslServer(let host?) = purpose {
                let (ok, finding) = HostnameMatcher.finding(cert, host: host)
                add(.name, ok, finding.line, finding: .name(finding))
            }
        }
        return checks
    }
}
