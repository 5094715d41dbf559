/// Why an ECDH operation refused its input.
public enum ECDHError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A private key of the wrong length, or a P-256 scalar that is 0 or ≥ n.
    case invalidPrivateKey
    /// The random source gave no valid P-256 scalar in many attempts (a broken source).
    case randomSourceExhausted
    /// The peer's public key has the wrong length for the curve.
    case invalidPeerKeyLength(have: Int, need: Int)
    /// A P-256 point that is not in uncompressed form (RFC 8422 §5.1.2: TLS 1.2 peers send 0x04 ‖ x ‖ y).
    case unsupportedPointFormat(UInt8)
    /// The peer's P-256 point is not on the curve (or is otherwise rejected by the curve arithmetic).
    case peerKeyNotOnCurve
    /// The X25519 result is all zeros: the peer sent a low-order point (RFC 7748 §6.1, RFC 8422 §5.11).
    case lowOrderPeerKey

    public var description: String {
        switch self {
        case .invalidPrivateKey: return "not a valid private key for the curve"
        case .randomSourceExhausted: return "the random source gave no valid scalar"
        case .invalidPeerKeyLength(let have, let need): return "peer public key has \(have) bytes, the curve needs \(need)"
        case .unsupportedPointFormat(let byte):
            let hex = String(byte, radix: 16)
            return "point format 0x\(byte < 16 ? "0" : "")\(hex) is not uncompressed (0x04)"
        case .peerKeyNotOnCurve: return "peer public key is not a point on the curve"
        case .lowOrderPeerKey: return "peer X25519 key has low order (all-zero shared secret)"
        }
    }
}
