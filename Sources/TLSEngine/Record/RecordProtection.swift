import Crypto
import _CryptoExtras
import Foundation
import TLSCrypto

/// How a cipher suite protects records once ChangeCipherSpec has switched keys.
///
/// RFC 5246 §6.2.3: GenericBlockCipher (MAC-then-encrypt with an explicit IV in TLS 1.1+) and
/// GenericAEADCipher; RFC 5288 §3 for AES-GCM's nonce (4-byte implicit salt from the key block
/// followed by an 8-byte explicit part carried in the record); RFC 7905 §2 for ChaCha20-Poly1305's
/// (a 12-byte IV from the key block XORed with the sequence number, nothing carried in the record).
public enum RecordCipher: Sendable, Hashable {
    /// AES-GCM with a 16- or 32-byte key; 4-byte salt, 8-byte explicit nonce, 16-byte tag.
    case aesGCM(keyLength: Int)
    /// ChaCha20-Poly1305 (RFC 8439) as RFC 7905 uses it: 32-byte key, 12-byte fixed IV, no explicit
    /// nonce, 16-byte tag.
    case chaCha20Poly1305
    /// AES-CBC with HMAC (MAC-then-encrypt, TLS padding).
    case aesCBC(keyLength: Int, mac: RecordMAC)

    public var keyLength: Int {
        switch self {
        case .aesGCM(let k), .aesCBC(let k, _): return k
        case .chaCha20Poly1305: return 32
        }
    }

    public var macKeyLength: Int {
        switch self {
        case .aesGCM, .chaCha20Poly1305: return 0
        case .aesCBC(_, let mac): return mac.length
        }
    }

    /// The part of the IV that comes from the key block (GCM salt; ChaCha20-Poly1305's whole IV;
    /// CBC's TLS 1.0 initial IV).
    public var fixedIVLength: Int {
        switch self {
        case .aesGCM: return 4
        case .chaCha20Poly1305: return 12
        case .aesCBC: return 16
        }
    }

    public var isAEAD: Bool {
        if case .aesCBC = self { return false }
        return true
    }
}

/// The HMAC of a CBC suite (RFC 5246 §6.2.3.1, RFC 2104).
public enum RecordMAC: Sendable, Hashable {
    case sha1, sha256, sha384

    public var length: Int {
        switch self {
        case .sha1: return 20
        case .sha256: return 32
        case .sha384: return 48
        }
    }

    public var name: String {
        switch self {
        case .sha1: return "HMAC-SHA1"
        case .sha256: return "HMAC-SHA256"
        case .sha384: return "HMAC-SHA384"
        }
    }

    func authenticate(_ data: [UInt8], key: [UInt8]) -> [UInt8] {
        let k = SymmetricKey(data: key)
        switch self {
        case .sha1: return Array(HMAC<Insecure.SHA1>.authenticationCode(for: data, using: k))
        case .sha256: return Array(HMAC<SHA256>.authenticationCode(for: data, using: k))
        case .sha384: return Array(HMAC<SHA384>.authenticationCode(for: data, using: k))
        }
    }
}

/// One direction's keys, as split from the key block.
public struct RecordKeys: Sendable, Hashable {
    public var macKey: [UInt8]
    public var writeKey: [UInt8]
    public var fixedIV: [UInt8]

    public init(macKey: [UInt8], writeKey: [UInt8], fixedIV: [UInt8]) {
        self.macKey = macKey
        self.writeKey = writeKey
        self.fixedIV = fixedIV
    }
}

/// Why a protected record was refused. Every case maps to the `bad_record_mac` alert except
/// `recordOverflow` (RFC 5246 §7.2.2) — deliberately one answer for padding and MAC failures.
public enum RecordProtectionError: Error, Hashable, Sendable, CustomStringConvertible {
    case badRecordMAC(BadRecordMACReason)
    case recordOverflow(length: Int)
    case sequenceNumberExhausted
    case invalidKeys(RecordKeysFault)

    public var description: String {
        switch self {
        case .badRecordMAC(let why): return "bad_record_mac: \(why)"
        case .recordOverflow(let n): return "record_overflow: \(n) bytes"
        case .sequenceNumberExhausted: return "the 64-bit record sequence number would wrap"
        case .invalidKeys(let why): return "invalid record keys: \(why)"
        }
    }
}

/// What happened to one record, for the teaching trace: every input of the protection.
public struct RecordCryptoDetail: Sendable, Hashable {
    public var sequenceNumber: UInt64
    /// GCM: salt‖explicit nonce. ChaCha20-Poly1305: the fixed IV XOR the padded sequence number. CBC: the IV.
    public var nonceOrIV: [UInt8]
    /// GCM: the additional data. CBC: the MAC input header (seq‖type‖version‖length).
    public var additionalData: [UInt8]
    /// GCM: the tag. CBC: the HMAC.
    public var authenticator: [UInt8]
    /// CBC: the padding bytes including the padding_length byte; empty for GCM.
    public var padding: [UInt8]
    public var plaintext: [UInt8]
    /// The record fragment as it travels (what follows the 5-byte record header).
    public var fragment: [UInt8]
}

/// One direction of record protection: the keys, the cipher and the sequence number.
///
/// RFC 5246 §6.1: each direction keeps its own 64-bit sequence number, set to zero by
/// ChangeCipherSpec and incremented after every record.
public struct RecordProtector: Sendable {
    public let cipher: RecordCipher
    public let keys: RecordKeys
    /// TLS 1.0 (RFC 2246) chains CBC IVs across records instead of sending one per record.
    public let explicitIV: Bool
    /// RFC 7366 encrypt-then-MAC (CBC only): the MAC covers the IV and the ciphertext and follows
    /// them, so a receiver checks it before decrypting — no padding oracle.
    public let encryptThenMAC: Bool
    public private(set) var sequenceNumber: UInt64 = 0
    private(set) var chainedIV: [UInt8]

    static let gcmExplicitNonceLength = 8
    static let gcmTagLength = 16
    static let blockSize = 16
    /// RFC 5246 §6.2.3: TLSCiphertext.length must not exceed 2^14 + 2048.
    public static let maxCiphertextLength = (1 << 14) + 2048

    public init(cipher: RecordCipher, keys: RecordKeys, explicitIV: Bool = true,
                encryptThenMAC: Bool = false) throws(RecordProtectionError) {
        guard keys.writeKey.count == cipher.keyLength else {
            throw .invalidKeys(.writeKeyLength(have: keys.writeKey.count, need: cipher.keyLength))
        }
        guard keys.macKey.count == cipher.macKeyLength else {
            throw .invalidKeys(.macKeyLength(have: keys.macKey.count, need: cipher.macKeyLength))
        }
        // GCM: a 4-byte salt. CBC in TLS 1.1+: no IV from the key block (each record carries one).
        // CBC in TLS 1.0: the key block's 16-byte IV starts the chain.
        let ivOK: Bool
        switch (cipher.isAEAD, explicitIV) {
        case (true, _) where cipher == .chaCha20Poly1305:
            guard keys.fixedIV.count == 12 else { throw .invalidKeys(.chaChaIVLength(have: keys.fixedIV.count)) }
            ivOK = true
        case (true, _): ivOK = keys.fixedIV.count == 4
        case (false, true): ivOK = keys.fixedIV.isEmpty || keys.fixedIV.count == 16
        case (false, false): ivOK = keys.fixedIV.count == 16
        }
        guard ivOK else { throw .invalidKeys(.fixedIVLength(have: keys.fixedIV.count, aead: cipher.isAEAD)) }
        self.cipher = cipher
        self.keys = keys
        self.explicitIV = explicitIV
        self.encryptThenMAC = encryptThenMAC && !cipher.isAEAD
        self.chainedIV = keys.fixedIV
    }

    /// seq_num(8) ‖ type(1) ‖ version(2) ‖ length(2): the AEAD additional data and the MAC header.
    static func header(seq: UInt64, contentType: UInt8, version: UInt16, length: Int) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(13)
        for shift in stride(from: 56, through: 0, by: -8) { out.append(UInt8(truncatingIfNeeded: seq >> UInt64(shift))) }
        out.append(contentType)
        out.append(UInt8(version >> 8)); out.append(UInt8(version & 0xff))
        out.append(UInt8((length >> 8) & 0xff)); out.append(UInt8(length & 0xff))
        return out
    }

    private mutating func advance() throws(RecordProtectionError) {
        guard sequenceNumber < UInt64.max else { throw .sequenceNumberExhausted }
        sequenceNumber += 1
    }

    /// Protects one record's plaintext; returns the fragment and every value used.
    /// CBC draws its explicit IV from `random`; GCM uses the sequence number as the explicit nonce
    /// (RFC 5288 allows any value that never repeats under one key).
    ///
    /// `explicitNonce` replaces that choice, to reproduce a recorded record byte for byte (OpenSSL
    /// starts GCM's nonce_explicit at a random value): the 8-byte GCM nonce_explicit, or the 16-byte
    /// CBC IV (TLS 1.1+). A value of another length, or one for TLS 1.0's chained CBC IV, is refused.
    public mutating func seal(contentType: UInt8, version: UInt16, plaintext: [UInt8],
                              random: RandomSource, explicitNonce: [UInt8]? = nil) throws(RecordProtectionError) -> RecordCryptoDetail {
        let seq = sequenceNumber
        switch cipher {
        case .aesGCM:
            if let explicitNonce, explicitNonce.count != Self.gcmExplicitNonceLength {
                throw .invalidKeys(.gcmExplicitNonceLength(have: explicitNonce.count, need: Self.gcmExplicitNonceLength))
            }
            let explicit = explicitNonce ?? Array(Self.header(seq: seq, contentType: 0, version: 0, length: 0).prefix(8))
            let nonceBytes = keys.fixedIV + explicit
            let aad = Self.header(seq: seq, contentType: contentType, version: version, length: plaintext.count)
            do {
                let box = try AES.GCM.seal(plaintext, using: SymmetricKey(data: keys.writeKey),
                                           nonce: AES.GCM.Nonce(data: nonceBytes), authenticating: aad)
                let tag = Array(box.tag)
                let fragment = explicit + Array(box.ciphertext) + tag
                try advance()
                return RecordCryptoDetail(sequenceNumber: seq, nonceOrIV: nonceBytes, additionalData: aad,
                                          authenticator: tag, padding: [], plaintext: plaintext, fragment: fragment)
            } catch let error as RecordProtectionError {
                throw error
            } catch {
                throw .invalidKeys(.cipherRefusedKey(aead: true))
            }
        case .chaCha20Poly1305:
            return try sealChaCha20Poly1305(seq: seq, contentType: contentType, version: version, plaintext: plaintext,
                                             explicitNonce: explicitNonce)
        case .aesCBC(_, let mac) where encryptThenMAC:
            return try sealEncryptThenMAC(mac: mac, seq: seq, contentType: contentType, version: version,
                                          plaintext: plaintext, random: random, explicitNonce: explicitNonce)
        case .aesCBC(_, let mac):
            let macHeader = Self.header(seq: seq, contentType: contentType, version: version, length: plaintext.count)
            let tag = mac.authenticate(macHeader + plaintext, key: keys.macKey)
            let unpadded = plaintext.count + tag.count + 1
            let padLength = (Self.blockSize - unpadded % Self.blockSize) % Self.blockSize
            let padding = [UInt8](repeating: UInt8(padLength), count: padLength + 1)
            if let explicitNonce, !explicitIV || explicitNonce.count != Self.blockSize {
                throw .invalidKeys(explicitIV ? .cbcExplicitIVLength(have: explicitNonce.count, need: Self.blockSize) : .explicitIVInTLS10)
            }
            let iv = explicitIV ? explicitNonce ?? random.bytes(count: Self.blockSize) : chainedIV
            let body = plaintext + tag + padding
            let encrypted: [UInt8]
            do {
                encrypted = Array(try AES._CBC.encrypt(body, using: SymmetricKey(data: keys.writeKey),
                                                       iv: AES._CBC.IV(ivBytes: iv), noPadding: true))
            } catch {
                throw .invalidKeys(.cipherRefusedKey(aead: false))
            }
            if !explicitIV { chainedIV = Array(encrypted.suffix(Self.blockSize)) }
            try advance()
            return RecordCryptoDetail(sequenceNumber: seq, nonceOrIV: iv, additionalData: macHeader,
                                      authenticator: tag, padding: padding, plaintext: plaintext,
                                      fragment: (explicitIV ? iv : []) + encrypted)
        }
    }

    /// The CBC IV for the next record: a random explicit one (TLS 1.1+) or the chained one (TLS 1.0).
    func nextIV(random: RandomSource, explicitNonce: [UInt8]?) throws(RecordProtectionError) -> [UInt8] {
        if let explicitNonce, !explicitIV || explicitNonce.count != Self.blockSize {
            throw .invalidKeys(explicitIV ? .cbcExplicitIVLength(have: explicitNonce.count, need: Self.blockSize) : .explicitIVInTLS10)
        }
        return explicitIV ? explicitNonce ?? random.bytes(count: Self.blockSize) : chainedIV
    }

    /// AES-CBC decryption of whole blocks, padding left in place (both MAC orders check it themselves).
    func cbcDecrypt(_ body: [UInt8], iv: [UInt8]) throws(RecordProtectionError) -> [UInt8] {
        do {
            return Array(try AES._CBC.decrypt(body, using: SymmetricKey(data: keys.writeKey),
                                              iv: AES._CBC.IV(ivBytes: iv), noPadding: true))
        } catch {
            throw .badRecordMAC(.cbcDecryptionFailed)
        }
    }

    mutating func chain(_ encrypted: [UInt8]) { if !explicitIV { chainedIV = Array(encrypted.suffix(Self.blockSize)) } }

    mutating func advanceSequence() throws(RecordProtectionError) { try advance() }

    /// Removes protection from one record fragment. Any failure is `bad_record_mac`.
    public mutating func open(contentType: UInt8, version: UInt16,
                              fragment: [UInt8]) throws(RecordProtectionError) -> RecordCryptoDetail {
        guard fragment.count <= Self.maxCiphertextLength else { throw .recordOverflow(length: fragment.count) }
        let seq = sequenceNumber
        switch cipher {
        case .aesGCM:
            let overhead = Self.gcmExplicitNonceLength + Self.gcmTagLength
            guard fragment.count >= overhead else {
                throw .badRecordMAC(.gcmRecordTooShort(needed: overhead, got: fragment.count))
            }
            let explicit = Array(fragment[0..<8])
            let ciphertext = Array(fragment[8..<(fragment.count - 16)])
            let tag = Array(fragment.suffix(16))
            let nonceBytes = keys.fixedIV + explicit
            let aad = Self.header(seq: seq, contentType: contentType, version: version, length: ciphertext.count)
            let plaintext: [UInt8]
            do {
                let box = try AES.GCM.SealedBox(nonce: AES.GCM.Nonce(data: nonceBytes), ciphertext: ciphertext, tag: tag)
                plaintext = Array(try AES.GCM.open(box, using: SymmetricKey(data: keys.writeKey), authenticating: aad))
            } catch {
                throw .badRecordMAC(.gcmTagMismatch)
            }
            try advance()
            return RecordCryptoDetail(sequenceNumber: seq, nonceOrIV: nonceBytes, additionalData: aad,
                                      authenticator: tag, padding: [], plaintext: plaintext, fragment: fragment)
        case .chaCha20Poly1305:
            return try openChaCha20Poly1305(seq: seq, contentType: contentType, version: version, fragment: fragment)
        case .aesCBC(_, let mac) where encryptThenMAC:
            return try openEncryptThenMAC(mac: mac, seq: seq, contentType: contentType, version: version, fragment: fragment)
        case .aesCBC(_, let mac):
            let ivLength = explicitIV ? Self.blockSize : 0
            let body = Array(fragment.dropFirst(ivLength))
            let minimum = ((mac.length + 1 + Self.blockSize - 1) / Self.blockSize) * Self.blockSize
            guard fragment.count >= ivLength + minimum, body.count % Self.blockSize == 0 else {
                throw .badRecordMAC(.cbcRecordTooShort(length: fragment.count))
            }
            let iv = explicitIV ? Array(fragment.prefix(ivLength)) : chainedIV
            let decrypted = try cbcDecrypt(body, iv: iv)
            // Padding and MAC checked together with the same work for every padding, so both failures
            // look the same (RFC 5246 §6.2.3.2) and take the same number of hash compressions (Lucky 13).
            let checked = MACThenEncryptCheck(mac: mac, key: keys.macKey)
                .check(decrypted, seq: seq, contentType: contentType, version: version)
            guard checked.valid else {
                throw .badRecordMAC(.cbcPaddingOrMACMismatch(mac: mac.name))
            }
            if !explicitIV { chainedIV = Array(body.suffix(Self.blockSize)) }
            try advance()
            return RecordCryptoDetail(sequenceNumber: seq, nonceOrIV: iv, additionalData: checked.macHeader,
                                      authenticator: checked.receivedMAC, padding: Array(decrypted.suffix(checked.removed)),
                                      plaintext: Array(decrypted[0 ..< checked.contentEnd]), fragment: fragment)
        }
    }
}
