// ============================================================================================
// STAND-IN — DELETE AT MERGE. This file declares only the subset of the agreed TLSCrypto RSA API
// that PKI uses (HashAlgorithm, RSAError, RSASignatureBlock, RSAPublicKey verification), so PKI
// compiles before the real RSA code lands. PKI code must compile unchanged against TLSCrypto's
// real types once this file is removed. Verification only; implemented over BigInt's modpow and
// swift-crypto hashes. Nothing here is part of the PKI public API.
// ============================================================================================
import BigNum
import Crypto
import SwiftASN1

/// Hash functions used in signatures (RFC 8017 §9.2 note 1 lists their DigestInfo prefixes).
public enum HashAlgorithm: Sendable, Hashable {
    case md5, sha1, sha256, sha384, sha512

    public func digest(_ data: [UInt8]) -> [UInt8] {
        switch self {
        case .md5: return Array(Insecure.MD5.hash(data: data))
        case .sha1: return Array(Insecure.SHA1.hash(data: data))
        case .sha256: return Array(SHA256.hash(data: data))
        case .sha384: return Array(SHA384.hash(data: data))
        case .sha512: return Array(SHA512.hash(data: data))
        }
    }

    public var digestLength: Int {
        switch self {
        case .md5: return 16
        case .sha1: return 20
        case .sha256: return 32
        case .sha384: return 48
        case .sha512: return 64
        }
    }

    /// DER DigestInfo prefix (RFC 8017 §9.2 note 1).
    public var digestInfoPrefix: [UInt8]? {
        switch self {
        case .md5: return nil
        case .sha1: return [0x30, 0x21, 0x30, 0x09, 0x06, 0x05, 0x2b, 0x0e, 0x03, 0x02, 0x1a, 0x05, 0x00, 0x04, 0x14]
        case .sha256: return [0x30, 0x31, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01, 0x05, 0x00, 0x04, 0x20]
        case .sha384: return [0x30, 0x41, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x02, 0x05, 0x00, 0x04, 0x30]
        case .sha512: return [0x30, 0x51, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x03, 0x05, 0x00, 0x04, 0x40]
        }
    }
}

/// RSA failures (stand-in subset).
public enum RSAError: Error, Equatable, Sendable, CustomStringConvertible {
    case invalidKey(String)
    case invalidSignature(String)
    public var description: String {
        switch self {
        case .invalidKey(let s): return "invalid RSA key: \(s)"
        case .invalidSignature(let s): return "invalid RSA signature: \(s)"
        }
    }
}

/// What an RSA public operation recovers from a PKCS#1 v1.5 signature (RFC 8017 §9.2).
public struct RSASignatureBlock: Sendable, Equatable {
    public let encodedMessage: [UInt8]
    public let digestInfo: [UInt8]
    public let hash: HashAlgorithm?
    public let digest: [UInt8]
}

/// An RSA public key (RFC 8017 §3.1), verification subset.
public struct RSAPublicKey: Sendable, Hashable {
    public let modulus: BigInt
    public let publicExponent: BigInt
    public var bitLength: Int { modulus.bitWidth }

    public init(modulus: BigInt, publicExponent: BigInt) throws(RSAError) {
        guard modulus.signum > 0, modulus.isOdd, publicExponent.signum > 0 else { throw .invalidKey("bad n or e") }
        self.modulus = modulus
        self.publicExponent = publicExponent
    }

    /// From SubjectPublicKeyInfo DER (RFC 5280 §4.1.2.7, RFC 8017 A.1.1).
    public init(subjectPublicKeyInfoDER: [UInt8]) throws(RSAError) {
        do {
            let spki = try DER.parse(subjectPublicKeyInfoDER)
            guard case .constructed(let parts) = spki.content else { throw RSAError.invalidKey("SPKI") }
            let nodes = Array(parts)
            guard nodes.count == 2, case .primitive(let bits) = nodes[1].content, bits.first == 0 else {
                throw RSAError.invalidKey("SPKI")
            }
            let inner = try DER.parse(bits.dropFirst())
            guard case .constructed(let ints) = inner.content else { throw RSAError.invalidKey("RSAPublicKey") }
            let values = Array(ints)
            guard values.count == 2, case .primitive(let n) = values[0].content, case .primitive(let e) = values[1].content else {
                throw RSAError.invalidKey("RSAPublicKey")
            }
            try self.init(modulus: BigInt(bigEndian: n), publicExponent: BigInt(bigEndian: e))
        } catch let error as RSAError {
            throw error
        } catch {
            throw .invalidKey("\(error)")
        }
    }

    private func publicOperation(_ signature: [UInt8]) throws(RSAError) -> [UInt8] {
        let k = modulus.byteWidth
        guard signature.count == k else { throw .invalidSignature("length \(signature.count) != \(k)") }
        let s = BigInt(bigEndian: signature)
        guard s < modulus else { throw .invalidSignature("representative out of range") }
        do {
            return try s.power(publicExponent, modulus: modulus).bigEndianBytes(width: k)
        } catch {
            throw .invalidSignature("\(error)")
        }
    }

    /// RSAVP1 then parse EM = 00 01 FF..FF 00 DigestInfo (RFC 8017 §8.2.2, §9.2).
    public func recoverPKCS1v15(signature: [UInt8]) throws(RSAError) -> RSASignatureBlock {
        let em = try publicOperation(signature)
        guard em.count > 11, em[0] == 0, em[1] == 1 else { throw .invalidSignature("not a type 1 block") }
        var index = 2
        while index < em.count, em[index] == 0xFF { index += 1 }
        guard index >= 10, index < em.count, em[index] == 0 else { throw .invalidSignature("bad padding") }
        let digestInfo = Array(em[(index + 1)...])
        let known: [HashAlgorithm] = [.sha1, .sha256, .sha384, .sha512]
        for hash in known {
            if let prefix = hash.digestInfoPrefix, digestInfo.count == prefix.count + hash.digestLength,
               Array(digestInfo.prefix(prefix.count)) == prefix {
                return RSASignatureBlock(encodedMessage: em, digestInfo: digestInfo, hash: hash,
                                         digest: Array(digestInfo.suffix(hash.digestLength)))
            }
        }
        return RSASignatureBlock(encodedMessage: em, digestInfo: digestInfo, hash: nil, digest: [])
    }

    public func verifyPKCS1v15(signature: [UInt8], message: [UInt8], hash: HashAlgorithm) -> Bool {
        guard let block = try? recoverPKCS1v15(signature: signature), block.hash == hash else { return false }
        return block.digest == hash.digest(message)
    }

    /// EMSA-PSS-VERIFY with MGF1 over the same hash (RFC 8017 §9.1.2); nil salt length = any.
    public func verifyPSS(signature: [UInt8], message: [UInt8], hash: HashAlgorithm, saltLength: Int?) -> Bool {
        guard let em = try? publicOperation(signature) else { return false }
        let emBits = modulus.bitWidth - 1
        let emLen = (emBits + 7) / 8
        let hLen = hash.digestLength
        let block = Array(em.suffix(emLen))
        guard em.count - emLen >= 0, em.prefix(em.count - emLen).allSatisfy({ $0 == 0 }),
              emLen >= hLen + 2, block.last == 0xBC else { return false }
        let maskedDB = Array(block.prefix(emLen - hLen - 1))
        let h = Array(block[(emLen - hLen - 1)..<(emLen - 1)])
        let unusedBits = 8 * emLen - emBits
        if unusedBits > 0, let first = maskedDB.first, first >> (8 - unusedBits) != 0 { return false }
        var mask: [UInt8] = []
        var counter: UInt32 = 0
        while mask.count < maskedDB.count {
            let c: [UInt8] = [UInt8(counter >> 24), UInt8((counter >> 16) & 0xFF), UInt8((counter >> 8) & 0xFF), UInt8(counter & 0xFF)]
            mask += hash.digest(h + c)
            counter += 1
        }
        var db = zip(maskedDB, mask).map { $0 ^ $1 }
        if unusedBits > 0, !db.isEmpty { db[0] &= 0xFF >> unusedBits }
        guard let one = db.firstIndex(where: { $0 != 0 }), db[one] == 1 else { return false }
        let salt = Array(db[(one + 1)...])
        if let saltLength, salt.count != saltLength { return false }
        let mPrime = [UInt8](repeating: 0, count: 8) + hash.digest(message) + salt
        return hash.digest(mPrime) == h
    }
}
