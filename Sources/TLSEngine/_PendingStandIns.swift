// THROWAWAY STAND-INS — delete this file once the RSA branch (TLSCrypto.RSAPublicKey,
// RSAPrivateKey, HashAlgorithm) is merged. Only the subset of the agreed API the engine uses.
import Crypto
import TLSCrypto

public enum StandInHash: Sendable, Hashable {
    case md5, sha1, sha256, sha384, sha512
    func digest(_ m: [UInt8]) -> [UInt8] {
        switch self {
        case .md5: return Array(Insecure.MD5.hash(data: m))
        case .sha1: return Array(Insecure.SHA1.hash(data: m))
        case .sha256: return Array(SHA256.hash(data: m))
        case .sha384: return Array(SHA384.hash(data: m))
        case .sha512: return Array(SHA512.hash(data: m))
        }
    }
    var prefix: [UInt8] {
        switch self {
        case .md5: return []
        case .sha1: return [0x30, 0x21, 0x30, 0x09, 0x06, 0x05, 0x2b, 0x0e, 0x03, 0x02, 0x1a, 0x05, 0x00, 0x04, 0x14]
        case .sha256: return [0x30, 0x31, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01, 0x05, 0x00, 0x04, 0x20]
        case .sha384: return [0x30, 0x41, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x02, 0x05, 0x00, 0x04, 0x30]
        case .sha512: return [0x30, 0x51, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x03, 0x05, 0x00, 0x04, 0x40]
        }
    }
}

public enum StandInRSAError: Error, Equatable, Sendable { case failed }

public struct RSAPublicKey: Sendable, Hashable {
    public let modulus: BigInt
    public let publicExponent: BigInt
    public var bitLength: Int { modulus.bitWidth }
    public init(modulus: BigInt, publicExponent: BigInt) throws(StandInRSAError) {
        self.modulus = modulus
        self.publicExponent = publicExponent
    }
    public func verifyPKCS1v15(signature: [UInt8], message: [UInt8], hash: StandInHash) -> Bool {
        let k = modulus.byteWidth
        guard signature.count == k else { return false }
        let s = BigInt(bigEndian: signature)
        guard s < modulus, let m = try? s.power(publicExponent, modulus: modulus),
              let em = try? m.bigEndianBytes(width: k) else { return false }
        let t = hash.prefix + hash.digest(message)
        return em == [0, 1] + [UInt8](repeating: 0xff, count: k - 3 - t.count) + [0] + t
    }
    public func verifyPSS(signature: [UInt8], message: [UInt8], hash: StandInHash, saltLength: Int?) -> Bool { false }
}

public struct RSAPrivateKey: Sendable {
    public let publicKey: RSAPublicKey
    let d: BigInt
    public static func generate(bits: Int, using source: RandomSource) throws(StandInRSAError) -> RSAPrivateKey {
        let e = BigInt(65537)
        do {
            let p = try BigInt.randomPrime(bits: bits / 2, coprimeTo: e, using: source)
            let q = try BigInt.randomPrime(bits: bits / 2, coprimeTo: e, using: source)
            let phi = (p - .one) * (q - .one)
            return RSAPrivateKey(publicKey: try RSAPublicKey(modulus: p * q, publicExponent: e),
                                 d: try e.inverse(modulus: phi))
        } catch { throw .failed }
    }
    private func raw(_ c: [UInt8]) throws(StandInRSAError) -> [UInt8] {
        let n = publicKey.modulus
        let x = BigInt(bigEndian: c)
        guard x < n, let m = try? x.power(d, modulus: n), let out = try? m.bigEndianBytes(width: n.byteWidth) else { throw .failed }
        return out
    }
    public func decryptPKCS1v15(_ ciphertext: [UInt8]) throws(StandInRSAError) -> [UInt8] {
        guard ciphertext.count == publicKey.modulus.byteWidth else { throw .failed }
        let em = try raw(ciphertext)
        guard em.count > 11, em[0] == 0, em[1] == 2, let zero = em[2...].firstIndex(of: 0), zero >= 10 else { throw .failed }
        return Array(em[(zero + 1)...])
    }
    public func signPKCS1v15(message: [UInt8], hash: StandInHash) throws(StandInRSAError) -> [UInt8] {
        let k = publicKey.modulus.byteWidth
        let t = hash.prefix + hash.digest(message)
        return try raw([0, 1] + [UInt8](repeating: 0xff, count: k - 3 - t.count) + [0] + t)
    }
    public func signPSS(message: [UInt8], hash: StandInHash, saltLength: Int, using source: RandomSource) throws(StandInRSAError) -> [UInt8] {
        throw .failed
    }
}
