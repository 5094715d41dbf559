import PKI
import TLSEngine

/// The chain validation behind one certificate decision, for the trace.
public struct ChainValidationTrace: Sendable {
    /// Whose certificates were checked (the server's, or the client's in mutual TLS).
    public var peer: TLSRole
    public var result: ChainValidationResult
    /// When an AFNetworking `AFSecurityPolicy` answered the ServerTrust challenge: which release's
    /// behaviour it reproduces (renderers name it, "AFNetworking 2.5.2").
    public var afNetworkingRelease: AFSecurityPolicy.Behaviour?

    public init(peer: TLSRole, result: ChainValidationResult, afNetworkingRelease: AFSecurityPolicy.Behaviour? = nil) {
        self.peer = peer
        self.result = result
        self.afNetworkingRelease = afNetworkingRelease
    }
}
