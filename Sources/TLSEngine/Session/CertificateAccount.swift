import PKI

/// What a certificate decision rests on, as facts for the trace: renderers word it from their
/// catalogue (the JSON Lines contract's `detail` is the catalogue's English).
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

    /// A debugging identifier (the case's name and values); the catalogue words the account (en and zh).
    public var description: String {
        switch self {
        case let .chainValidated(checks, pathLength, anchor): return "chainValidated(checks: \(checks), pathLength: \(pathLength), anchor: \(anchor))"
        case .checkFailed(let check): return "checkFailed(\(check))"
        case .chainNotTrusted(let result): return "chainNotTrusted(\(result.rawValue))"
        case .acceptedWithoutChecks: return "acceptedWithoutChecks"
        case .notChecked(let subject): return "notChecked(subject: \(subject))"
        case .noCertificate(let role): return "noCertificate(sentBy: \(role.rawValue))"
        case .clientCertificateRequired: return "clientCertificateRequired"
        case let .unparsable(index, error): return "unparsable(index: \(index), error: \(error))"
        case .unsupportedKey(let key): return "unsupportedKey(key: \(key))"
        case let .keyDoesNotFitSuite(suite, needsEC, key): return "keyDoesNotFitSuite(\(suite), needsEC: \(needsEC), key: \(key))"
        case .noEvaluator: return "noEvaluator"
        case let .decidedBy(reasons, failure): return "decidedBy(\(reasons.count) steps, firstFailure: \(failure.map { "\($0)" } ?? "none"))"
        }
    }
}

extension CertificateAccount {
    /// Hashes the debugging identifier (a chain check's signature record is Equatable only).
    public func hash(into hasher: inout Hasher) { hasher.combine(description) }
}
