import Crypto

/// The hash a TLS 1.3 cipher suite names (RFC 8446 §B.4: SHA-256 for TLS_AES_128_GCM_SHA256 and
/// TLS_CHACHA20_POLY1305_SHA256, SHA-384 for TLS_AES_256_GCM_SHA384). It is HKDF's hash, the
/// transcript's hash and the Finished HMAC's hash.
public enum TLS13Hash: String, Sendable, Hashable, CaseIterable {
    case sha256
    case sha384

    /// Hash.length (RFC 8446 §7.1).
    public var length: Int { self == .sha256 ? 32 : 48 }

    /// The digest of `data`.
    public func digest(_ data: [UInt8]) -> [UInt8] {
        switch self {
        case .sha256: return Array(SHA256.hash(data: data))
        case .sha384: return Array(SHA384.hash(data: data))
        }
    }

    /// HMAC-Hash(key, data) (RFC 2104).
    public func hmac(key: [UInt8], _ data: [UInt8]) -> [UInt8] {
        let key = SymmetricKey(data: key)
        switch self {
        case .sha256: return Array(HMAC<SHA256>.authenticationCode(for: data, using: key))
        case .sha384: return Array(HMAC<SHA384>.authenticationCode(for: data, using: key))
        }
    }

    /// HKDF-Extract(salt, IKM) = HMAC-Hash(salt, IKM) (RFC 5869 §2.2). TLS 1.3 passes a string of
    /// Hash.length zero bytes for an absent salt or IKM (RFC 8446 §7.1).
    public func extract(salt: [UInt8], ikm: [UInt8]) -> [UInt8] {
        hmac(key: salt, ikm)
    }

    /// HKDF-Expand(PRK, info, L) (RFC 5869 §2.3): T(1) ‖ T(2) ‖ … truncated to `length`, with
    /// T(i) = HMAC-Hash(PRK, T(i-1) ‖ info ‖ i). At most 255 blocks.
    public func expand(prk: [UInt8], info: [UInt8], length: Int) -> [UInt8] {
        precondition(length >= 0 && length <= 255 * self.length, "HKDF-Expand: L is at most 255 · Hash.length")
        var out: [UInt8] = []
        out.reserveCapacity(length + self.length)
        var block: [UInt8] = []
        var counter: UInt8 = 1
        while out.count < length {
            block = hmac(key: prk, block + info + [counter])
            out += block
            counter &+= 1
        }
        return Array(out.prefix(length))
    }
}

/// The `HkdfLabel` structure TLS 1.3 expands every secret with (RFC 8446 §7.1):
///
///     struct {
///         uint16 length = Length;
///         opaque label<7..255> = "tls13 " + Label;
///         opaque context<0..255> = Context;
///     } HkdfLabel;
///
/// The "tls13 " prefix keeps TLS 1.3's labels apart from any other protocol's use of HKDF with
/// the same secret; the length inside the label binds the output's size into its derivation.
public struct HKDFLabel: Sendable, Hashable {
    /// The prefix of every TLS 1.3 label.
    public static let prefix = "tls13 "

    public var length: Int
    /// The label without the "tls13 " prefix.
    public var label: String
    public var context: [UInt8]

    public init(length: Int, label: String, context: [UInt8]) {
        self.length = length
        self.label = label
        self.context = context
    }

    /// The encoded structure: HKDF-Expand's `info`.
    public var bytes: [UInt8] {
        let fullLabel = Array((Self.prefix + label).utf8)
        precondition(length <= 0xffff && fullLabel.count <= 255 && context.count <= 255, "HkdfLabel fields out of range")
        return [UInt8(length >> 8), UInt8(length & 0xff), UInt8(fullLabel.count)] + fullLabel
            + [UInt8(context.count)] + context
    }
}

extension TLS13Hash {
    /// HKDF-Expand-Label(Secret, Label, Context, Length) = HKDF-Expand(Secret, HkdfLabel, Length)
    /// (RFC 8446 §7.1).
    public func expandLabel(secret: [UInt8], label: String, context: [UInt8], length: Int) -> [UInt8] {
        expand(prk: secret, info: HKDFLabel(length: length, label: label, context: context).bytes, length: length)
    }

    /// Derive-Secret(Secret, Label, Messages) = HKDF-Expand-Label(Secret, Label,
    /// Transcript-Hash(Messages), Hash.length) (RFC 8446 §7.1), given the transcript hash.
    public func deriveSecret(secret: [UInt8], label: String, transcriptHash: [UInt8]) -> [UInt8] {
        expandLabel(secret: secret, label: label, context: transcriptHash, length: length)
    }
}
