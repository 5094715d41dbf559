import PKI

/// What a certificate decision rests on, as facts for the trace: renderers word it from their
/// catalogue. ``description`` is the English line of the JSON Lines contract's `detail`.
public enum CertificateAccount: Sendable, Equatable, Hashable, CustomStringConvertible {
    /// Every check passed: `checks` checks along a path of `pathLength` certificates up to `anchor`.
    case chainValidated(checks: Int, pathLength: Int, anchor: String)
    /// The validation's first failing check.
    case checkFailed(ChainCheck)
    /// The chain is not trusted and no check says why: the validation's result.
    case chainNotTrusted(TrustResult)
    /// Accepted with no check at all (the "trust everything" client, a MITM's own client).
    case acceptedWithoutChecks
    /// A tool's `policy none`: the leaf's key is used, nothing is checked.
    case notChecked(subject: String)
    /// The peer (`sentBy`) sent an empty Certificate message.
    case noCertificate(sentBy: TLSRole)
    /// A client certificate is required and the client sent none (RFC 5246 §7.4.6).
    case clientCertificateRequired
    /// The certificate at `index` (0: the leaf) does not parse; `error` is the parser's account.
    case unparsable(index: Int, error: PKIError)
    /// The leaf's key (`key`: its kind) is not one TLSLab's suites can use (RSA, EC P-256/P-384).
    case unsupportedKey(key: String)
    /// The suite authenticates with ECDSA and the key is RSA, or the reverse (RFC 8422 §5.3, RFC 5246 §7.4.2).
    case keyDoesNotFitSuite(CipherSuite, needsEC: Bool, key: String)
    /// The server asked for a client certificate without an evaluator for it.
    case noEvaluator
    /// A policy's decision step by step: an app's ATS rules and ServerTrust challenge answer (with the
    /// URL loading system's disposition), or a server's mutual-TLS policy; with the deciding evaluation's
    /// first failing check when the chain was refused.
    case decidedBy([TrustReason], firstFailure: ChainCheck?)

    public var description: String {
        switch self {
        case let .chainValidated(checks, pathLength, anchor):
            return "\(checks) checks passed along a path of \(pathLength) up to the anchor \(anchor)"
        case .checkFailed(let check):
            return "\(check.kind.rawValue) check failed at depth \(check.depth) (\(check.subject)): \(check.detail)"
        case .chainNotTrusted(let result): return "the chain is not trusted (\(result.rawValue))"
        case .acceptedWithoutChecks: return "accepted without any check"
        case .notChecked(let subject): return "policy none: the chain was NOT checked (\(subject))"
        case .noCertificate(let role): return "the \(role.rawValue) sent no certificate"
        case .clientCertificateRequired: return "a client certificate is required"
        case let .unparsable(index, error): return "certificate \(index) does not parse: \(error)"
        case .unsupportedKey(let key): return "the leaf key is \(key), but TLSLab's suites need RSA or EC P-256/P-384"
        case let .keyDoesNotFitSuite(suite, needsEC, key):
            return "\(suite) needs \(needsEC ? "an EC" : "an RSA") certificate key, the server's is \(key)"
        case .noEvaluator: return "no evaluator for client certificates"
        case let .decidedBy(reasons, failure):
            // The steps themselves are worded by the renderers' catalogue (Explanations.trustReason).
            return "decided by the policy in \(reasons.count) step(s)"
                + (failure.map { "; first failing check: \($0.kind.rawValue) at depth \($0.depth): \($0.detail)" } ?? "")
        }
    }
}

extension CertificateAccount {
    /// Hashes the English line (a chain check's signature record is Equatable only).
    public func hash(into hasher: inout Hasher) { hasher.combine(description) }
}
