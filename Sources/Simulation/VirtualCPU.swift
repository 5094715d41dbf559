/// Virtual CPU time charged for public-key work before a side can send what it computed (default
/// zero, so traces do not change unless a run asks for it). The time is added on the virtual
/// clock: the side's answer leaves that much later.
public struct VirtualCPU: Sendable, Hashable {
    /// One RSA private-key operation (decrypting the premaster, signing).
    public var rsaPrivate: Int64
    /// One RSA public-key operation (encrypting the premaster, verifying a signature).
    public var rsaPublic: Int64
    /// One finite-field DH agreement (key generation and the shared secret).
    public var dh: Int64
    /// One elliptic-curve DH agreement.
    public var ecdh: Int64

    public init(rsaPrivate: Int64 = 0, rsaPublic: Int64 = 0, dh: Int64 = 0, ecdh: Int64 = 0) {
        self.rsaPrivate = rsaPrivate
        self.rsaPublic = rsaPublic
        self.dh = dh
        self.ecdh = ecdh
    }

    public static let free = VirtualCPU()
    /// Roughly what this project measured for RSA-2048 and ffdhe2048 over GMP (µs): a private RSA
    /// operation ≈ 830, a public one ≈ 26, a DH agreement ≈ 800 (two exponentiations), X25519 ≈ 100.
    public static let measured = VirtualCPU(rsaPrivate: 830, rsaPublic: 26, dh: 800, ecdh: 100)
}
