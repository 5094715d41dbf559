/// Everything that can go wrong in the RSA code (RFC 8017). Bad input is always one of these, never a trap.
public enum RSAError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The key's numbers are inconsistent or out of range (RFC 8017 §3.1, §3.2).
    case invalidKey(String)
    /// Key generation supports 512 … 4096 bits.
    case unsupportedKeySize(Int)
    /// Key generation did not find suitable primes.
    case keyGenerationFailed(String)
    /// RSAES-PKCS1-v1_5 step 1 / EMSA encodings: "message too long".
    case messageTooLong(length: Int, maximum: Int)
    /// The modulus is too short for the requested encoding ("intended encoded message length too short").
    case modulusTooShort
    /// A ciphertext must be exactly k bytes (RFC 8017 §7.2.2 step 1).
    case invalidCiphertextLength(length: Int, expected: Int)
    /// The ciphertext, as an integer, is not below the modulus (RFC 8017 §5.1.2 step 1).
    case ciphertextOutOfRange
    /// "decryption error" (RFC 8017 §7.2.2 step 4): the padding is malformed. Deliberately says no more.
    case decryptionError
    /// A signature must be exactly k bytes (RFC 8017 §8.2.2 step 1).
    case invalidSignatureLength(length: Int, expected: Int)
    /// The signature, as an integer, is not below the modulus (RFC 8017 §5.2.2 step 1).
    case signatureOutOfRange
    /// The recovered encoded message is not `00 01 FF…FF 00 DigestInfo` (RFC 8017 §9.2).
    case invalidSignatureEncoding(String)
    /// A PSS salt length that cannot fit the modulus, or is negative.
    case invalidSaltLength(Int)
    /// The DER structure is not the expected key format.
    case invalidDER(String)
    /// The PEM text is not a supported key document.
    case invalidPEM(String)
    /// A key whose algorithm is not rsaEncryption (PKCS#8 / SubjectPublicKeyInfo).
    case unsupportedAlgorithm(String)
    /// The CRT private operation produced a value that the public operation does not map back:
    /// a computation fault (RFC 8017 §5.1.2 note; protects against fault attacks).
    case privateOperationFault

    public var description: String {
        switch self {
        case .invalidKey(let why): return "invalid RSA key: \(why)"
        case .unsupportedKeySize(let bits): return "unsupported RSA key size \(bits) (512 … 4096 bits)"
        case .keyGenerationFailed(let why): return "RSA key generation failed: \(why)"
        case .messageTooLong(let length, let maximum): return "message too long: \(length) bytes, at most \(maximum)"
        case .modulusTooShort: return "intended encoded message length too short for this modulus"
        case .invalidCiphertextLength(let length, let expected):
            return "ciphertext is \(length) bytes, expected \(expected)"
        case .ciphertextOutOfRange: return "ciphertext representative out of range"
        case .decryptionError: return "decryption error"
        case .invalidSignatureLength(let length, let expected):
            return "signature is \(length) bytes, expected \(expected)"
        case .signatureOutOfRange: return "signature representative out of range"
        case .invalidSignatureEncoding(let why): return "invalid signature encoding: \(why)"
        case .invalidSaltLength(let length): return "invalid PSS salt length \(length)"
        case .invalidDER(let why): return "invalid key DER: \(why)"
        case .invalidPEM(let why): return "invalid key PEM: \(why)"
        case .unsupportedAlgorithm(let oid): return "unsupported key algorithm \(oid)"
        case .privateOperationFault: return "RSA private operation fault (CRT result did not verify)"
        }
    }
}
