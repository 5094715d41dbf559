import TLSEngine

/// How a run (one connection's summary) ended, classified once: the text's outcome line, the JSON
/// summary's `outcome` word and a lesson's `handshake` fact are all read from this.
public enum RunOutcome: Sendable, Hashable {
    /// A fatal alert ended it; `afterHandshake`: both sides had finished the handshake before it.
    case alert(RunSummary.Failure, afterHandshake: Bool)
    /// Plain HTTP (no TLS message at all): whether a response arrived; a real peer's exchange may
    /// also have failed.
    case plainHTTP(responded: Bool, exchangeFailure: ExchangeFailure?)
    /// A real peer's trace (`connect`, `serve`): only `side` is traced and it finished the
    /// handshake; the exchange after it may have failed.
    case oneSided(Actor, exchangeFailure: ExchangeFailure?)
    /// A real peer's exchange failed before its side finished the handshake.
    case exchangeFailed(ExchangeFailure)
    /// Both sides finished the handshake and no fatal alert followed.
    case handshakeCompleted
    /// Neither an alert nor a completed handshake: the run stopped before (lost segments, a closed connection).
    case incomplete

    /// The JSON summary's `outcome`: `success`, the alert's name, `failed` (a real peer's exchange) or `incomplete`.
    public var word: String {
        switch self {
        case .alert(let failure, _): return failure.alert.nameOrHex
        case let .plainHTTP(responded, failure): return failure != nil ? "failed" : responded ? "success" : "incomplete"
        case .oneSided(_, let failure): return failure != nil ? "failed" : "success"
        case .exchangeFailed: return "failed"
        case .handshakeCompleted: return "success"
        case .incomplete: return "incomplete"
        }
    }

    /// Both sides finished the handshake (a later fatal alert, e.g. for a replayed record, does not undo it).
    public var handshakeCompleted: Bool {
        switch self {
        case .handshakeCompleted: return true
        case .alert(_, let afterHandshake): return afterHandshake
        case .plainHTTP, .oneSided, .exchangeFailed, .incomplete: return false
        }
    }
}

extension RunSummary {
    /// The run's outcome. A fatal alert decides first; then plain HTTP; then a one-sided trace (a
    /// real peer, no attacker traced) whose side finished; then a real peer's failed exchange; then
    /// both sides' Finished.
    public var runOutcome: RunOutcome {
        if let failure { return .alert(failure, afterHandshake: clientCompleted && serverCompleted) }
        if !usedTLS { return .plainHTTP(responded: responsesReceived > 0, exchangeFailure: exchangeFailure) }
        if clientTraced != serverTraced, !othersTraced, clientTraced ? clientCompleted : serverCompleted {
            return .oneSided(clientTraced ? .client : .server, exchangeFailure: exchangeFailure)
        }
        if let exchangeFailure { return .exchangeFailed(exchangeFailure) }
        return clientCompleted && serverCompleted ? .handshakeCompleted : .incomplete
    }

    /// ``runOutcome``'s word (the JSON summary's `outcome`).
    public var outcome: String { runOutcome.word }
}
