/// A public-key operation the simulation charges virtual CPU time for (``VirtualCPU``); the
/// renderers name it in the reader's language.
public enum ComputeOperation: Sendable, Hashable {
    /// The client encrypts the premaster secret to the server's RSA key (RFC 5246 §7.4.7.1).
    case rsaPublicKeyEncryption
    /// The server decrypts the premaster secret with its RSA private key.
    case rsaPrivateKeyDecryption
    /// A finite-field Diffie-Hellman agreement (RFC 5246 §8.1.2).
    case dhAgreement
    /// An elliptic-curve Diffie-Hellman agreement (RFC 8422 §5.10).
    case ecdhAgreement
    case rsaSignature
    case rsaSignatureCheck
    case ecdsaSignature
    case ecdsaSignatureCheck
    /// Checking the signatures of a received certificate chain: one per certificate.
    case certificateSignatureChecks(count: Int)

    /// Its identifier: JSON Lines' `operation_ids`, and the catalogue key `compute.<identifier>`
    /// that names it (`count` is the one placeholder).
    public var identifier: String {
        switch self {
        case .rsaPublicKeyEncryption: return "rsaPublicKeyEncryption"
        case .rsaPrivateKeyDecryption: return "rsaPrivateKeyDecryption"
        case .dhAgreement: return "dhAgreement"
        case .ecdhAgreement: return "ecdhAgreement"
        case .rsaSignature: return "rsaSignature"
        case .rsaSignatureCheck: return "rsaSignatureCheck"
        case .ecdsaSignature: return "ecdsaSignature"
        case .ecdsaSignatureCheck: return "ecdsaSignatureCheck"
        case .certificateSignatureChecks: return "certificateSignatureChecks"
        }
    }

    /// The catalogue key that names it, one literal per operation.
    public var key: String {
        switch self {
        case .rsaPublicKeyEncryption: return "compute.rsaPublicKeyEncryption"
        case .rsaPrivateKeyDecryption: return "compute.rsaPrivateKeyDecryption"
        case .dhAgreement: return "compute.dhAgreement"
        case .ecdhAgreement: return "compute.ecdhAgreement"
        case .rsaSignature: return "compute.rsaSignature"
        case .rsaSignatureCheck: return "compute.rsaSignatureCheck"
        case .ecdsaSignature: return "compute.ecdsaSignature"
        case .ecdsaSignatureCheck: return "compute.ecdsaSignatureCheck"
        case .certificateSignatureChecks: return "compute.certificateSignatureChecks"
        }
    }
}
