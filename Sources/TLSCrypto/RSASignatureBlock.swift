/// What the RSA public operation recovers from a PKCS#1 v1.5 signature (RFC 8017 §9.2):
/// shown to learners to explain what "verifying a signature" means.
public struct RSASignatureBlock: Sendable, Equatable {
    /// EM = 00 01 FF…FF 00 DigestInfo, as long as the modulus.
    public let encodedMessage: [UInt8]
    /// The DER `DigestInfo` after the zero separator.
    public let digestInfo: [UInt8]
    /// The hash named by the DigestInfo's algorithm identifier, when it is one we know.
    public let hash: HashAlgorithm?
    /// The digest inside the DigestInfo.
    public let digest: [UInt8]

    public init(encodedMessage: [UInt8], digestInfo: [UInt8], hash: HashAlgorithm?, digest: [UInt8]) {
        self.encodedMessage = encodedMessage
        self.digestInfo = digestInfo
        self.hash = hash
        self.digest = digest
    }
}

extension RSASignatureBlock {
    /// Why a PKCS#1 v1.5 signature does not open to `00 01 FF…FF 00 DigestInfo`, as data (the step of
    /// RFC 8017 §8.2.2 and §9.2 that failed); the renderers word it.
    public enum Fault: Sendable, Hashable {
        /// §8.2.2 step 1: the signature is `bytes` long, not the modulus's `modulusBytes`.
        case signatureLength(bytes: Int, modulusBytes: Int)
        /// §5.2.2 step 1: the signature representative is not below the modulus.
        case representativeOutOfRange
        /// §9.2 step 5: EM does not start with the bytes 00 01.
        case notBlockType1
        /// §9.2 step 5: the FF padding is not followed by a 00 byte.
        case noZeroSeparator
        /// §9.2 step 4: PS, the FF padding, is at least eight bytes long; here it is `count`.
        case shortPadding(count: Int)
        /// §9.2 step 2: T, what follows the 00 byte, is not a DER DigestInfo.
        case malformedDigestInfo
    }
}
