/// Everything that can go wrong in RSA (RFC 8017) and in reading or writing RSA keys.
/// Bad input always ends here, never in a trap.
public enum RSAError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The key's numbers are inconsistent or out of range (why).
    case invalidKey(String)
    /// DER or PEM that is not an RSA key of the expected kind (why).
    case invalidKeyEncoding(String)
    /// Key generation supports 512 … 4096 bits, even sizes only.
    case unsupportedKeySize(Int)
    /// RFC 8017 §7.2.1 step 1 / §9.2 step 3: the message does not fit the modulus.
    case messageTooLong(maximum: Int, actual: Int)
    /// A ciphertext or signature must be exactly as long as the modulus (RFC 8017 §7.2.2 step 1).
    case wrongLength(expected: Int, actual: Int)
    /// RFC 8017 §5.1.2 / §5.2.2: the representative is not below the modulus.
    case representativeOutOfRange
    /// RFC 8017 §7.2.2 step 4: the decrypted block is not `00 02 PS 00 M` — deliberately one
    /// error, whatever was wrong, so the error itself is no padding oracle.
    case decryptionError
    /// A PKCS#1 v1.5 signature does not open to `00 01 FF…FF 00 DigestInfo` (which step failed).
    case invalidSignatureBlock(RSASignatureBlock.Fault)
    /// RFC 8017 §9.1.1 step 3: the modulus is too small for this hash and salt length.
    case encodingError(String)
    /// Key generation ran out of attempts.
    case keyGenerationFailed(String)
    /// The injected random source returned too few bytes, or only unusable ones (why).
    case randomSourceFailed(String)
    /// The CRT result failed the check with the public exponent (a fault or a bad key).
    case faultDetected

    public var description: String {
        switch self {
        case .invalidKey(let why): return "invalid RSA key: \(why)"
        case .invalidKeyEncoding(let why): return "invalid RSA key encoding: \(why)"
        case .unsupportedKeySize(let bits): return "unsupported RSA key size \(bits) (512…4096, even)"
        case .messageTooLong(let max, let actual): return "message too long: \(actual) bytes, at most \(max)"
        case .wrongLength(let expected, let actual): return "wrong length: \(actual) bytes, expected \(expected)"
        case .representativeOutOfRange: return "representative out of range (not below the modulus)"
        case .decryptionError: return "decryption error"
        case .invalidSignatureBlock(let fault): return "invalid signature block: \(fault)"
        case .encodingError(let why): return "encoding error: \(why)"
        case .keyGenerationFailed(let why): return "RSA key generation failed: \(why)"
        case .randomSourceFailed(let why): return "random source failed: \(why)"
        case .faultDetected: return "RSA private operation failed its public-exponent check"
        }
    }
}
