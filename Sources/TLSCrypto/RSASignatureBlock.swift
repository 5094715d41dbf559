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
