import TCPSim
import TLSCrypto

/// A problem of a lesson's run that no expectation names: a TCP script step that could not be
/// carried out, or Diffie-Hellman arithmetic that refused the lesson's numbers. The facts hold it
/// typed (`script_errors`, the DH runner's `error`); the command line words it from the catalogue.
public enum RunProblem: Equatable, Sendable, CustomStringConvertible {
    /// A step (`send`, `close`, `abort`, as the file's `do:` names it) by `side` (client or server)
    /// while that side has no connection.
    case noConnection(action: String, side: String)
    /// A TCP user call the simulated stack refused (RFC 9293 §3.10): the step and the error.
    case refusedCall(action: String, TCPUserError)
    /// The finite-field Diffie-Hellman arithmetic refused the numbers.
    case dh(DHError)

    /// A stable, language-neutral form (kind and values), for logs and machine output.
    public var description: String {
        switch self {
        case let .noConnection(action, side): return "noConnection(\(action), \(side))"
        case let .refusedCall(action, error): return "refusedCall(\(action), \(error))"
        case .dh(let error): return "dh(\(Self.kind(error)))"
        }
    }

    static func kind(_ error: DHError) -> String {
        switch error {
        case .peerValueOutOfRange: return "peerValueOutOfRange"
        case .peerValueNotInSubgroup: return "peerValueNotInSubgroup"
        case .peerValueTooLong: return "peerValueTooLong"
        case .invalidPrivateExponent: return "invalidPrivateExponent"
        case .invalidGroup: return "invalidGroup"
        case .arithmetic: return "arithmetic"
        }
    }
}

extension TCPAction.Kind {
    /// The step as the file's `do:` names it.
    var verb: String {
        switch self {
        case .connect: return "connect"
        case .send: return "send"
        case .close: return "close"
        case .abort: return "abort"
        case .oldDuplicateSYN: return "old_duplicate_syn"
        case .synFlood: return "syn_flood"
        case .offPathInjection: return "off_path_injection"
        }
    }
}
