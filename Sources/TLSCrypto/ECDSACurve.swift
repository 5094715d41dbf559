import BigNum

/// A NIST prime curve y² = x³ − 3x + b over GF(p) with base point G of prime order n, as ECDSA
/// signing uses it (FIPS 186-5 §6.4.1; parameters from SP 800-186 §3.2.1.3, §3.2.1.4 and §3.2.1.5).
/// The arithmetic is affine over GMP: readable, not constant-time — signatures made here are for
/// the simulation (a seeded generator reproduces them) and the teaching server.
public struct ECDSACurve: Sendable, Hashable {
    public enum Name: String, Sendable, Hashable, CaseIterable {
        /// secp256r1 (P-256), OID 1.2.840.10045.3.1.7.
        case p256 = "P-256"
        /// secp384r1 (P-384), OID 1.3.132.0.34.
        case p384 = "P-384"
        /// secp521r1 (P-521), OID 1.3.132.0.35.
        case p521 = "P-521"
    }

    public let name: Name
    public let p: BigInt
    public let b: BigInt
    public let n: BigInt
    public let gx: BigInt
    public let gy: BigInt
    /// Bytes of a field element or scalar (32 for P-256, 48 for P-384, 66 for P-521's 521 bits).
    public let byteLength: Int

    public static let p256 = ECDSACurve(
        name: .p256, byteLength: 32,
        p: "ffffffff00000001000000000000000000000000ffffffffffffffffffffffff",
        b: "5ac635d8aa3a93e7b3ebbd55769886bc651d06b0cc53b0f63bce3c3e27d2604b",
        n: "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551",
        gx: "6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296",
        gy: "4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5")

    public static let p384 = ECDSACurve(
        name: .p384, byteLength: 48,
        p: "fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffeffffffff0000000000000000ffffffff",
        b: "b3312fa7e23ee7e4988e056be3f82d19181d9c6efe8141120314088f5013875ac656398d8a2ed19d2a85c8edd3ec2aef",
        n: "ffffffffffffffffffffffffffffffffffffffffffffffffc7634d81f4372ddf581a0db248b0a77aecec196accc52973",
        gx: "aa87ca22be8b05378eb1c71ef320ad746e1d3b628ba79b9859f741e082542a385502f25dbf55296c3a545e3872760ab7",
        gy: "3617de4a96262c6f5d9e98bf9292dc29f8f41dbd289a147ce9da3113b5f0b8c00a60b1ce1d7e819d7a431d7c90ea0e5f")

    /// P-521: p = 2^521 − 1 (SP 800-186 §3.2.1.5).
    public static let p521 = ECDSACurve(
        name: .p521, byteLength: 66,
        p: "01ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
        b: "0051953eb9618e1c9a1f929a21a0b68540eea2da725b99b315f3b8b489918ef109e156193951ec7e937b1652c0bd3bb1bf073573df883d2c34f1ef451fd46b503f00",
        n: "01fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffa51868783bf2f966b7fcc0148f709a5d03bb5c9b8899c47aebb6fb71e91386409",
        gx: "00c6858e06b70404e9cd9e3ecb662395b4429c648139053fb521f828af606b4d3dbaa14b5e77efe75928fe1dc127a2ffa8de3348b3c1856a429bf97e7e31c2e5bd66",
        gy: "011839296a789a3bc0045c8a5fb42c7d1bd998f54449579b446817afbd17273e662c97ee72995ef42640c550b9013fad0761353c7086a272c24088be94769fd16650")

    public static func named(_ name: Name) -> ECDSACurve {
        switch name {
        case .p256: return .p256
        case .p384: return .p384
        case .p521: return .p521
        }
    }

    private init(name: Name, byteLength: Int, p: String, b: String, n: String, gx: String, gy: String) {
        func big(_ hex: String) -> BigInt { (try? BigInt(hex, radix: 16)) ?? .zero }
        self.name = name
        self.byteLength = byteLength
        self.p = big(p)
        self.b = big(b)
        self.n = big(n)
        self.gx = big(gx)
        self.gy = big(gy)
    }

    /// An affine point; nil coordinates stand for the point at infinity.
    public struct Point: Sendable, Hashable {
        public let x: BigInt
        public let y: BigInt
    }

    private func mod(_ a: BigInt, _ m: BigInt) -> BigInt { (try? a.modulo(m)) ?? .zero }
    private func inverse(_ a: BigInt) -> BigInt? { try? mod(a, p).inverse(modulus: p) }

    /// P + Q (nil is the point at infinity).
    func add(_ P: Point?, _ Q: Point?) -> Point? {
        guard let P else { return Q }
        guard let Q else { return P }
        let lambda: BigInt
        if P.x == Q.x {
            guard mod(P.y + Q.y, p) != .zero else { return nil }
            // Doubling: λ = (3x² − 3) / 2y (a = −3).
            guard let inv = inverse(BigInt(2) * P.y) else { return nil }
            lambda = mod((BigInt(3) * P.x * P.x - BigInt(3)) * inv, p)
        } else {
            guard let inv = inverse(Q.x - P.x) else { return nil }
            lambda = mod((Q.y - P.y) * inv, p)
        }
        let x3 = mod(lambda * lambda - P.x - Q.x, p)
        let y3 = mod(lambda * (P.x - x3) - P.y, p)
        return Point(x: x3, y: y3)
    }

    /// k·P by a Montgomery ladder (the same sequence of additions and doublings for every k of a
    /// given length; GMP itself is not constant-time).
    func multiply(_ k: BigInt, _ P: Point) -> Point? {
        var r0: Point? = nil
        var r1: Point? = P
        for bit in stride(from: k.bitWidth - 1, through: 0, by: -1) {
            if k.testBit(bit) {
                r0 = add(r0, r1)
                r1 = add(r1, r1)
            } else {
                r1 = add(r0, r1)
                r0 = add(r0, r0)
            }
        }
        return r0
    }

    public var generator: Point { Point(x: gx, y: gy) }

    /// Whether (x, y) satisfies the curve equation.
    public func contains(_ point: Point) -> Bool {
        guard point.x < p, point.y < p, !point.x.isNegative, !point.y.isNegative else { return false }
        return mod(point.y * point.y, p) == mod(point.x * point.x * point.x - BigInt(3) * point.x + b, p)
    }
}
