import PKI
import TLSEngine

/// The chain validation behind one certificate decision, for the trace.
public struct ChainValidationTrace: Sendable {
    /// Whose certificates were checked (the server's, or the client's in mutual TLS).
    public var peer: TLSRole
    public var result: ChainValidationResult

    public init(peer: TLSRole, result: ChainValidationResult) {
        self.peer = peer
        self.result = result
    }
}
