import BigNum

/// One side's ephemeral finite-field Diffie-Hellman key: a private exponent `x` and the public value
/// `y = g^x mod p` (RFC 5246 §8.1.2; sent as dh_Ys in ServerKeyExchange or dh_Yc in ClientKeyExchange,
/// §7.4.3 and §7.4.7.2, as minimal big-endian bytes).
public struct DHKeyPair: Sendable, Hashable {
    /// How large a private exponent to draw.
    public enum ExponentSize: Sendable, Hashable {
        /// The group's ``DHGroup/shortExponentBits`` (RFC 7919 §5.2 short exponents; what OpenSSL does).
        case short
        /// Uniform in 2 ... p-2: as strong as the group allows, about eight times slower at 2048 bits.
        case full
        /// Exactly this many random bits (top bit not forced), at least 2, at most |p| - 1.
        case bits(Int)
    }

    /// How much to check a peer's public value.
    public enum PeerValidation: Sendable, Hashable {
        /// Reject y ≤ 1 and y ≥ p-1 (RFC 7919 §5.1). The least for real groups.
        case range
        /// The range check, then, when the group's prime-order subgroup is known (a named safe-prime
        /// group, q = (p-1)/2), y^q mod p = 1 (NIST SP 800-56A Rev. 3 §5.6.2.3.1 full public-key
        /// validation, one exponentiation by a |p|-bit q). OpenSSL 3 does this to every peer value of
        /// a group it recognises; so does the TLS engine. For other groups it is the range check.
        case subgroup
        /// Only 0 ≤ y < p: for the teaching groups, to show what the range check prevents. Ignored
        /// for real groups (``DHGroup/isTeachingOnly`` false), which are always range-checked.
        case none
    }

    public let group: DHGroup
    /// The private exponent x.
    public let privateExponent: BigInt
    /// The public value y = g^x mod p.
    public let publicValue: BigInt

    /// A fresh key pair with its exponent drawn from `random`.
    public init(group: DHGroup, exponentSize: ExponentSize = .short, using random: RandomSource) throws(DHError) {
        try Self.checkGroup(group)
        let x: BigInt
        switch exponentSize {
        case .full:
            do {
                x = try BigInt.random(in: BigInt(2), group.p - BigInt(2), using: random)
            } catch {
                throw .arithmetic(error)
            }
        case .short:
            x = try Self.randomExponent(bits: group.shortExponentBits, group: group, using: random)
        case .bits(let bits):
            x = try Self.randomExponent(bits: bits, group: group, using: random)
        }
        try self.init(group: group, privateExponent: x)
    }

    /// The key pair for a given private exponent, e.g. from a test vector: 1 ≤ x ≤ p-2 for real
    /// groups; any x ≥ 1 for teaching groups, whose lessons show that exponents wrap modulo p-1
    /// (the seed example uses x = 5 with p = 5).
    public init(group: DHGroup, privateExponent x: BigInt) throws(DHError) {
        try Self.checkGroup(group)
        guard x.signum > 0, group.isTeachingOnly || x < group.p - .one else { throw .invalidPrivateExponent }
        self.group = group
        self.privateExponent = x
        do {
            self.publicValue = try group.g.power(x, modulus: group.p)
        } catch {
            throw .arithmetic(error)
        }
    }

    /// The public value as minimal big-endian bytes, as TLS 1.2 sends dh_Ys / dh_Yc.
    public var publicValueBytes: [UInt8] { publicValue.bigEndianBytes }

    /// Checks a peer's public value (RFC 7919 §5.1): 1 < y < p-1; with `.subgroup`, also y^q mod p = 1
    /// when the group's subgroup order q is known.
    public static func validatePeer(_ y: BigInt, in group: DHGroup, validation: PeerValidation = .range) throws(DHError) {
        guard y > .one, y < group.p - .one else { throw .peerValueOutOfRange }
        guard validation == .subgroup, let q = group.subgroupOrder else { return }
        let r: BigInt
        do {
            r = try y.power(q, modulus: group.p)
        } catch {
            throw .arithmetic(error)
        }
        guard r == .one else { throw .peerValueNotInSubgroup }
    }

    /// Z = y_peer^x mod p as an integer, after validating the peer's value.
    public func sharedSecret(peerPublicValue y: BigInt, validation: PeerValidation = .range) throws(DHError) -> BigInt {
        if validation == .none && group.isTeachingOnly {
            guard !y.isNegative, y < group.p else { throw .peerValueOutOfRange }
        } else {
            try Self.validatePeer(y, in: group, validation: validation == .subgroup ? .subgroup : .range)
        }
        do {
            return try y.power(privateExponent, modulus: group.p)
        } catch {
            throw .arithmetic(error)
        }
    }

    /// Z from the peer's wire bytes (big-endian, leading zeros allowed), left-padded to |p| bytes:
    /// the form most libraries return (Python's `cryptography` `exchange()`, OpenSSL's `DH_compute_key_padded`).
    public func sharedSecretPadded(peerPublicValue bytes: [UInt8], validation: PeerValidation = .range) throws(DHError) -> [UInt8] {
        let z = try sharedSecret(peerPublicValue: try Self.peerValue(bytes, in: group), validation: validation)
        do {
            return try z.bigEndianBytes(width: group.byteWidth)
        } catch {
            throw .arithmetic(error)
        }
    }

    /// The TLS 1.2 premaster secret (RFC 5246 §8.1.2): "The negotiated key (Z) is used as the
    /// pre_master_secret … Leading bytes of Z that contain all zero bits are stripped before it is
    /// used as the pre_master_secret." So its length varies: about 1 handshake in 256 it is one byte
    /// shorter than p.
    public func preMasterSecret(peerPublicValue bytes: [UInt8], validation: PeerValidation = .range) throws(DHError) -> [UInt8] {
        let z = try sharedSecret(peerPublicValue: try Self.peerValue(bytes, in: group), validation: validation)
        return z.bigEndianBytes
    }

    /// Strips leading zero bytes from a padded Z (RFC 5246 §8.1.2).
    public static func stripLeadingZeros(_ z: [UInt8]) -> [UInt8] {
        Array(z.drop { $0 == 0 })
    }

    // MARK: - Private

    private static func peerValue(_ bytes: [UInt8], in group: DHGroup) throws(DHError) -> BigInt {
        let significant = stripLeadingZeros(bytes)
        guard significant.count <= group.byteWidth else {
            throw .peerValueTooLong(byteCount: bytes.count, limit: group.byteWidth)
        }
        return BigInt(bigEndian: significant)
    }

    private static func checkGroup(_ group: DHGroup) throws(DHError) {
        guard group.p >= BigInt(5) else { throw .invalidGroup("p must be at least 5") }
        guard group.g.signum > 0 else { throw .invalidGroup("g must be positive") }
        let reduced: BigInt
        do {
            reduced = try group.g.modulo(group.p)
        } catch {
            throw .arithmetic(error)
        }
        guard reduced > .one, reduced < group.p - .one else {
            throw .invalidGroup("g must not be 0, 1 or -1 modulo p")
        }
    }

    /// A random exponent of at most `bits` bits, redrawn until it is in 2 ... p-2.
    private static func randomExponent(bits: Int, group: DHGroup, using random: RandomSource) throws(DHError) -> BigInt {
        guard bits >= 2, bits < group.bitWidth else { throw .invalidPrivateExponent }
        let upper: BigInt
        do {
            upper = try (BigInt.one << bits) - .one
        } catch {
            throw .arithmetic(error)
        }
        let limit = group.p - BigInt(2)
        for _ in 0..<1_000 {
            let x: BigInt
            do {
                x = try BigInt.random(in: BigInt(2), upper, using: random)
            } catch {
                throw .arithmetic(error)
            }
            if x <= limit { return x }
        }
        throw .invalidPrivateExponent
    }
}
