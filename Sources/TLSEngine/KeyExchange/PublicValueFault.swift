import TLSCrypto

/// Why a peer's finite-field DH public value was refused (illegal_parameter). RFC 7919 §5.1: the
/// peer's value must satisfy 1 < y < p−1; NIST SP 800-56A Rev. 3 §5.6.2.3.1 full validation adds
/// y^q mod p = 1 for the prime-order subgroup q.
public enum DHPublicValueFault: Sendable, Hashable {
    /// y is 0 or 1: the shared secret would be 0 or 1, whatever the private exponent.
    case atMostOne
    /// y is p−1 (the shared secret ±1) or not below p at all.
    case atLeastPMinusOne
    /// The value has more bytes than p (RFC 5246 §7.4.3: dh_Ys is at most |p|).
    case longerThanPrime(bytes: Int, limit: Int)
    /// y is in range but outside the prime-order subgroup: it would leak the private exponent's
    /// parity (small-subgroup confinement, Lim and Lee 1997).
    case notInPrimeOrderSubgroup
}

/// Why a peer's ECDH public key was refused (illegal_parameter, RFC 8422 §5.11: "each party MUST
/// validate the public key sent by its peer").
public enum ECDHPublicKeyFault: Sendable, Hashable {
    /// Not the curve's public-key length (RFC 8422 §5.4.1: 65 bytes for secp256r1 uncompressed,
    /// 97 for secp384r1, 32 for X25519).
    case wrongLength(have: Int, need: Int)
    /// A NIST-curve point not in uncompressed form 0x04 ‖ x ‖ y (RFC 8422 §5.1.2).
    case notUncompressed(formatByte: UInt8)
    /// The point is not on the curve (RFC 8422 §5.11: check the curve equation; an invalid-curve
    /// attack recovers the private key otherwise).
    case notOnCurve
    /// An X25519 key of low order: the shared secret is all zeros (RFC 7748 §6.1, RFC 8422 §5.11).
    case lowOrder
}

extension DHPublicValueFault {
    /// The peer's fault behind a DH error, or nil when the error is this side's own.
    static func from(_ error: DHError, peerValue: [UInt8]) -> DHPublicValueFault? {
        switch error {
        case .peerValueOutOfRange:
            return BigInt(bigEndian: peerValue) <= .one ? .atMostOne : .atLeastPMinusOne
        case .peerValueNotInSubgroup: return .notInPrimeOrderSubgroup
        case let .peerValueTooLong(bytes, limit): return .longerThanPrime(bytes: bytes, limit: limit)
        case .invalidPrivateExponent, .invalidGroup, .arithmetic: return nil
        }
    }
}

extension ECDHPublicKeyFault {
    /// The peer's fault behind an ECDH error, or nil when the error is this side's own.
    init?(_ error: ECDHError) {
        switch error {
        case let .invalidPeerKeyLength(have, need): self = .wrongLength(have: have, need: need)
        case .unsupportedPointFormat(let byte): self = .notUncompressed(formatByte: byte)
        case .peerKeyNotOnCurve: self = .notOnCurve
        case .lowOrderPeerKey: self = .lowOrder
        case .invalidPrivateKey, .randomSourceExhausted: return nil
        }
    }
}

/// Why the server replaced an RSA-decrypted premaster secret with a random one (RFC 5246 §7.4.7.1,
/// the countermeasure against Bleichenbacher's attack).
public enum PremasterDecryptionFault: Sendable, Hashable {
    /// The ciphertext does not decrypt to a PKCS #1 v1.5 block (RFC 8017 §7.2.2).
    case notPKCS1Block
    /// The decrypted premaster is not 48 bytes.
    case wrongLength(Int)
    /// Its first two bytes are not ClientHello.client_version (the version-rollback check).
    case versionMismatch(found: ProtocolVersion, offered: ProtocolVersion)
}
