import BigNum
import Crypto

/// Why an ECDSA key or signature was refused.
public enum ECDSAError: Error, Equatable, Sendable, CustomStringConvertible {
    case invalidKey(String)
    case unsupportedCurve(String)
    case signingFailed(String)

    public var description: String {
        switch self {
        case .invalidKey(let why): return "not a usable ECDSA key: \(why)"
        case .unsupportedCurve(let curve): return "unsupported ECDSA curve \(curve) (P-256, P-384 and P-521 are)"
        case .signingFailed(let why): return "ECDSA signing failed: \(why)"
        }
    }
}

/// An ECDSA public key on P-256, P-384 or P-521: the uncompressed point 0x04 ‖ x ‖ y (SEC 1 §2.3.3).
/// Verification is swift-crypto's (BoringSSL), independent of the signing code below.
public struct ECDSAPublicKey: Sendable, Hashable {
    public let curve: ECDSACurve.Name
    /// 0x04 ‖ x ‖ y.
    public let x963: [UInt8]

    public init(curve: ECDSACurve.Name, x963 bytes: [UInt8]) throws(ECDSAError) {
        switch curve {
        case .p256: guard (try? P256.Signing.PublicKey(x963Representation: bytes)) != nil else { throw .invalidKey("not a P-256 point") }
        case .p384: guard (try? P384.Signing.PublicKey(x963Representation: bytes)) != nil else { throw .invalidKey("not a P-384 point") }
        case .p521: guard (try? P521.Signing.PublicKey(x963Representation: bytes)) != nil else { throw .invalidKey("not a P-521 point") }
        }
        self.curve = curve
        x963 = bytes
    }

    /// From a SubjectPublicKeyInfo (RFC 5480 §2): id-ecPublicKey with namedCurve P-256, P-384 or P-521.
    public init(subjectPublicKeyInfoDER der: [UInt8]) throws(ECDSAError) {
        if let key = try? P256.Signing.PublicKey(derRepresentation: der) {
            self.curve = .p256
            x963 = Array(key.x963Representation)
        } else if let key = try? P384.Signing.PublicKey(derRepresentation: der) {
            self.curve = .p384
            x963 = Array(key.x963Representation)
        } else if let key = try? P521.Signing.PublicKey(derRepresentation: der) {
            self.curve = .p521
            x963 = Array(key.x963Representation)
        } else {
            throw .unsupportedCurve("in this SubjectPublicKeyInfo")
        }
    }

    /// The SubjectPublicKeyInfo DER (what a public-key pin hashes).
    public var subjectPublicKeyInfoDER: [UInt8] {
        switch curve {
        case .p256: return (try? P256.Signing.PublicKey(x963Representation: x963)).map { Array($0.derRepresentation) } ?? []
        case .p384: return (try? P384.Signing.PublicKey(x963Representation: x963)).map { Array($0.derRepresentation) } ?? []
        case .p521: return (try? P521.Signing.PublicKey(x963Representation: x963)).map { Array($0.derRepresentation) } ?? []
        }
    }

    /// Checks a DER Ecdsa-Sig-Value (RFC 3279 §2.2.3) over `hash(message)`.
    public func verify(signature: [UInt8], message: [UInt8], hash: HashAlgorithm) -> Bool {
        switch curve {
        case .p256:
            guard let key = try? P256.Signing.PublicKey(x963Representation: x963),
                  let sig = try? P256.Signing.ECDSASignature(derRepresentation: signature) else { return false }
            return Self.withDigest(hash, message) { key.isValidSignature(sig, for: $0) }
        case .p384:
            guard let key = try? P384.Signing.PublicKey(x963Representation: x963),
                  let sig = try? P384.Signing.ECDSASignature(derRepresentation: signature) else { return false }
            return Self.withDigest(hash, message) { key.isValidSignature(sig, for: $0) }
        case .p521:
            guard let key = try? P521.Signing.PublicKey(x963Representation: x963),
                  let sig = try? P521.Signing.ECDSASignature(derRepresentation: signature) else { return false }
            return Self.withDigest(hash, message) { key.isValidSignature(sig, for: $0) }
        }
    }

    private static func withDigest(_ hash: HashAlgorithm, _ message: [UInt8], _ check: (any Digest) -> Bool) -> Bool {
        switch hash {
        case .sha256: return check(SHA256.hash(data: message))
        case .sha384: return check(SHA384.hash(data: message))
        case .sha512: return check(SHA512.hash(data: message))
        case .sha1: return check(Insecure.SHA1.hash(data: message))
        case .md5: return false
        }
    }
}

/// An ECDSA private key d on P-256, P-384 or P-521 (FIPS 186-5 §6.2). Signing follows FIPS 186-5 §6.4.1
/// with the per-message secret k drawn from the caller's ``RandomSource``, so a seeded generator
/// reproduces every signature of a simulated run.
public struct ECDSAPrivateKey: Sendable {
    public let curve: ECDSACurve
    /// d, in 1 ..< n.
    public let scalar: BigInt
    public let publicKey: ECDSAPublicKey

    /// The key for scalar bytes d (big-endian, the curve's length).
    public init(curve name: ECDSACurve.Name, scalar bytes: [UInt8]) throws(ECDSAError) {
        let curve = ECDSACurve.named(name)
        guard bytes.count == curve.byteLength else { throw .invalidKey("a \(name.rawValue) scalar has \(curve.byteLength) bytes") }
        let d = BigInt(bigEndian: bytes)
        guard d.signum > 0, d < curve.n else { throw .invalidKey("d is not in 1 ..< n") }
        guard let point = curve.multiply(d, curve.generator),
              let x = try? point.x.bigEndianBytes(width: curve.byteLength),
              let y = try? point.y.bigEndianBytes(width: curve.byteLength) else { throw .invalidKey("d·G failed") }
        self.curve = curve
        scalar = d
        publicKey = try ECDSAPublicKey(curve: name, x963: [0x04] + x + y)
    }

    /// A SEC 1 `EC PRIVATE KEY` (RFC 5915) or PKCS #8 `PRIVATE KEY` (RFC 5208) PEM on P-256, P-384 or P-521.
    public init(pem text: String) throws(ECDSAError) {
        if let key = try? P256.Signing.PrivateKey(pemRepresentation: text) {
            try self.init(curve: .p256, scalar: Array(key.rawRepresentation))
        } else if let key = try? P384.Signing.PrivateKey(pemRepresentation: text) {
            try self.init(curve: .p384, scalar: Array(key.rawRepresentation))
        } else if let key = try? P521.Signing.PrivateKey(pemRepresentation: text) {
            try self.init(curve: .p521, scalar: Array(key.rawRepresentation))
        } else {
            throw .invalidKey("no P-256, P-384 or P-521 key in SEC 1 or PKCS #8 PEM")
        }
    }

    /// A fresh key: d uniform in 1 ..< n from `random`.
    public static func generate(curve name: ECDSACurve.Name, using random: RandomSource) throws(ECDSAError) -> ECDSAPrivateKey {
        let curve = ECDSACurve.named(name)
        guard let d = try? BigInt.random(in: .one, curve.n - .one, using: random),
              let bytes = try? d.bigEndianBytes(width: curve.byteLength) else { throw .signingFailed("the random source failed") }
        return try ECDSAPrivateKey(curve: name, scalar: bytes)
    }

    /// PKCS #8 PEM of the key.
    public var pem: String {
        guard let bytes = try? scalar.bigEndianBytes(width: curve.byteLength) else { return "" }
        switch curve.name {
        case .p256: return (try? P256.Signing.PrivateKey(rawRepresentation: bytes))?.pemRepresentation ?? ""
        case .p384: return (try? P384.Signing.PrivateKey(rawRepresentation: bytes))?.pemRepresentation ?? ""
        case .p521: return (try? P521.Signing.PrivateKey(rawRepresentation: bytes))?.pemRepresentation ?? ""
        }
    }

    /// FIPS 186-5 §6.4.1: e = the leftmost bits of Hash(M) as long as n; k uniform in 1 ..< n;
    /// (x₁, y₁) = k·G, r = x₁ mod n, s = k⁻¹(e + r·d) mod n (again if r or s is 0). Returns r and s.
    public func signIntegers(message: [UInt8], hash: HashAlgorithm, using random: RandomSource) throws(ECDSAError) -> (r: BigInt, s: BigInt) {
        let n = curve.n
        var digest = BigInt(bigEndian: hash.digest(message))
        let excess = hash.digestLength * 8 - n.bitWidth
        if excess > 0 { digest = digest >> excess }
        for _ in 0..<16 {
            guard let k = try? BigInt.random(in: .one, n - .one, using: random) else { throw .signingFailed("the random source failed") }
            guard let point = curve.multiply(k, curve.generator), let r = try? point.x.modulo(n), !r.isZero,
                  let kInverse = try? k.inverse(modulus: n), let s = try? (kInverse * (digest + r * scalar)).modulo(n), !s.isZero
            else { continue }
            return (r, s)
        }
        throw .signingFailed("no usable k in 16 draws")
    }

    /// The signature as DER Ecdsa-Sig-Value ::= SEQUENCE { r INTEGER, s INTEGER } (RFC 3279 §2.2.3),
    /// the form TLS (RFC 8422 §5.4) and X.509 carry.
    public func sign(message: [UInt8], hash: HashAlgorithm, using random: RandomSource) throws(ECDSAError) -> [UInt8] {
        let (r, s) = try signIntegers(message: message, hash: hash, using: random)
        return Self.derSignature(r: r, s: s)
    }

    static func derInteger(_ value: BigInt) -> [UInt8] {
        var bytes = value.bigEndianBytes
        if bytes.isEmpty { bytes = [0] }
        if bytes[0] & 0x80 != 0 { bytes.insert(0, at: 0) }
        return [0x02] + derLength(bytes.count) + bytes
    }

    static func derLength(_ count: Int) -> [UInt8] {
        count < 0x80 ? [UInt8(count)] : [0x81, UInt8(count)]
    }

    /// DER of (r, s): P-256 and P-384 integers fit a short length (at most 49 bytes each); P-521's (up to
    /// 67 bytes each) make a SEQUENCE longer than 127 bytes, which takes the long form 0x81 n.
    public static func derSignature(r: BigInt, s: BigInt) -> [UInt8] {
        let body = derInteger(r) + derInteger(s)
        return [0x30] + derLength(body.count) + body
    }
}
