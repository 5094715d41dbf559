import Crypto

/// The hash of the handshake messages (RFC 5246 §7.4.9: "all of the data from all messages in this
/// handshake (not including any HelloRequest messages) up to, but not including, this message",
/// each with its 4-byte handshake header, without record headers).
///
/// The hash is not known until the ServerHello fixes the cipher suite (and so the PRF), so the
/// transcript buffers the bytes and hashes them when asked. Keeping the bytes (a few kilobytes per
/// handshake) keeps the value `Sendable` (swift-crypto's running hash states are not) and lets a
/// trace show exactly what was hashed.
public struct TranscriptHash: Sendable, Hashable {
    /// Every handshake byte added so far, in order.
    public private(set) var bytes: [UInt8] = []
    /// The PRF whose hash is in use, or `nil` until ``select(_:)``.
    public private(set) var prf: TLSPRF?

    public init() {}

    /// Adds one handshake message (header included).
    public mutating func append(_ message: [UInt8]) {
        bytes += message
    }

    /// Fixes the hash from the negotiated PRF; it cannot change afterwards.
    public mutating func select(_ prf: TLSPRF) throws(KeyScheduleError) {
        guard self.prf == nil else { throw .transcriptHashAlreadySelected }
        self.prf = prf
    }

    /// Hash(handshake_messages) so far: SHA-256 or SHA-384 in TLS 1.2, MD5 ‖ SHA-1 (36 bytes) in
    /// TLS 1.0/1.1 (RFC 2246 §7.4.9).
    public func current() throws(KeyScheduleError) -> [UInt8] {
        guard let prf else { throw .transcriptHashNotSelected }
        return Self.hash(bytes, prf: prf)
    }

    /// The transcript hash of `messages` under `prf`.
    public static func hash(of messages: [[UInt8]], prf: TLSPRF) -> [UInt8] {
        hash(messages.flatMap { $0 }, prf: prf)
    }

    private static func hash(_ data: [UInt8], prf: TLSPRF) -> [UInt8] {
        switch prf {
        case .sha256: return Array(SHA256.hash(data: data))
        case .sha384: return Array(SHA384.hash(data: data))
        case .tls10: return Array(Insecure.MD5.hash(data: data)) + Array(Insecure.SHA1.hash(data: data))
        }
    }
}
