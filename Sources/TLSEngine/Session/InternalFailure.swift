import TLSCrypto

/// Why this side could not go on for a reason of its own — its configuration, its keys or a local
/// computation — not the peer's: answered with internal_error, "an internal error unrelated to the
/// peer or the correctness of the protocol" (RFC 5246 §7.2.2), through ``TLSAlertTable``.
public enum InternalFailure: Sendable, Hashable {
    // The configuration.
    /// The client's version range is empty or below TLS 1.0 (RFC 5246 §7.4.1.2: client_version is
    /// the highest version offered).
    case versionRangeUnusable(minimum: ProtocolVersion, maximum: ProtocolVersion)
    /// An ALPN offer that cannot be encoded: RFC 7301 §3.1 ProtocolName<1..2^8-1> in a
    /// ProtocolNameList<2..2^16-1>.
    case applicationProtocolOfferUnencodable

    // This side's keys.
    /// RSA key transport without the server's RSA key (RFC 5246 §7.4.7.1 encrypts to it).
    case rsaKeyTransportWithoutRSAKey
    /// A signature scheme that does not fit the key (an RSA scheme with an ECDSA key …).
    case schemeDoesNotFitKey(SignatureScheme, keyIsECDSA: Bool)
    /// An RSA modulus too short for the 36-byte MD5 ‖ SHA-1 block plus 11 bytes of PKCS #1 v1.5
    /// padding (RFC 4346 §4.7).
    case rsaModulusTooSmallForMD5SHA1(modulusBytes: Int, neededBytes: Int)

    // Local computations.
    /// Signing failed (nil: the TLS 1.0/1.1 MD5 ‖ SHA-1 signature).
    case signingFailed(SignatureScheme?)
    /// The ephemeral key pair could not be made (a broken random source or group).
    case ephemeralKeyGenerationFailed(KeyExchangeAlgorithm)
    /// The agreement with a peer value that passed validation failed in this side's own arithmetic.
    case keyAgreementFailed(KeyExchangeAlgorithm)
    /// RSA encryption of the premaster secret failed.
    case rsaEncryptionFailed
    /// AES-CBC refused the session-ticket key or IV (RFC 5077 §4).
    case sessionTicketEncryptionFailed
    /// A key-schedule step refused its input (RFC 5246 §6.3, §7.4.9, §8.1).
    case keySchedule(KeyScheduleError)

    // The engine's own order.
    /// Application data asked to be sent before the handshake completed (RFC 5246 §10).
    case applicationDataBeforeHandshake
}
