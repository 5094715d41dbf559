/// What the RSA public operation recovers from a PKCS#1 v1.5 signature (RFC 8017 §8.2.2 steps 2–3 and
/// §9.2): `EM = 0x00 || 0x01 || PS (0xFF…) || 0x00 || T`, where `T` is the DER `DigestInfo`.
/// Shown to learners so they can see what a signature "contains".
public struct RSASignatureBlock: Sendable, Equatable {
    /// EM = 00 01 FF..FF 00 DigestInfo, k bytes.
    public let encodedMessage: [UInt8]
    /// T, the DER `DigestInfo`.
    public let digestInfo: [UInt8]
    /// Recognised from the DigestInfo's algorithm OID (nil when the OID is not one we know).
    public let hash: HashAlgorithm?
    /// The OCTET STRING inside the DigestInfo.
    public let digest: [UInt8]

    public init(encodedMessage: [UInt8], digestInfo: [UInt8], hash: HashAlgorithm?, digest: [UInt8]) {
        self.encodedMessage = encodedMessage
        self.digestInfo = digestInfo
        self.hash = hash
        self.digest = digest
    }
}
