import Crypto
import _CryptoExtras
import TLSCrypto

/// How an encrypt-then-MAC record's fragment divides (RFC 7366 §3): `IV ‖ ciphertext ‖ MAC`, the MAC
/// sent in the clear. The record layer's one definition of the layout and of the record that is too
/// short: the protector opens records by it and the dissector draws their fields by it.
public struct EncryptThenMACLayout: Sendable, Hashable {
    /// The explicit IV (a block; none in TLS 1.0, whose IV is the previous record's last block).
    public let ivLength: Int
    /// ENC(content ‖ padding ‖ padding_length): a whole number of blocks, at least one.
    public let ciphertextLength: Int
    /// The MAC over seq_num ‖ type ‖ version ‖ length ‖ IV ‖ ciphertext.
    public let mac: RecordMAC

    /// The division of a fragment of `fragmentLength` bytes; a fragment that cannot hold the IV, a
    /// whole number of blocks (at least one) and the MAC is refused with bad_record_mac (RFC 7366 §3).
    public init(fragmentLength: Int, explicitIV: Bool, blockLength: Int = 16, mac: RecordMAC) throws(RecordProtectionError) {
        let ivLength = explicitIV ? blockLength : 0
        let sent = fragmentLength - mac.length
        guard sent >= ivLength + blockLength, (sent - ivLength) % blockLength == 0 else {
            throw .badRecordMAC(.encryptThenMACRecordTooShort(length: fragmentLength, mac: mac.name))
        }
        self.ivLength = ivLength
        self.ciphertextLength = sent - ivLength
        self.mac = mac
    }

    /// The bytes the MAC covers: IV and ciphertext (the `length` of its pseudo-header).
    public var authenticatedLength: Int { ivLength + ciphertextLength }
}

/// RFC 7366 §3: with encrypt-then-MAC a CBC record is
/// `IV ‖ ENC(content ‖ padding ‖ padding_length) ‖ MAC`, where
/// `MAC = HMAC(MAC_write_key, seq_num ‖ type ‖ version ‖ length ‖ IV ‖ ENC(…))` and `length` counts
/// the IV and the ciphertext. The receiver checks the MAC first and decrypts only a record that
/// verifies, so padding errors cannot be told apart from forgeries (no padding oracle, no Lucky 13).
extension RecordProtector {
    mutating func sealEncryptThenMAC(mac: RecordMAC, seq: UInt64, contentType: UInt8, version: UInt16, plaintext: [UInt8],
                                     random: RandomSource, explicitNonce: [UInt8]?) throws(RecordProtectionError) -> RecordCryptoDetail {
        let padLength = (Self.blockSize - (plaintext.count + 1) % Self.blockSize) % Self.blockSize
        let padding = [UInt8](repeating: UInt8(padLength), count: padLength + 1)
        let iv = try nextIV(random: random, explicitNonce: explicitNonce)
        let encrypted: [UInt8]
        do {
            encrypted = Array(try AES._CBC.encrypt(plaintext + padding, using: SymmetricKey(data: keys.writeKey),
                                                   iv: AES._CBC.IV(ivBytes: iv), noPadding: true))
        } catch {
            throw .invalidKeys(.cipherRefusedKey(aead: false))
        }
        chain(encrypted)
        let sent = (explicitIV ? iv : []) + encrypted
        let macHeader = Self.header(seq: seq, contentType: contentType, version: version, length: sent.count)
        let tag = mac.authenticate(macHeader + sent, key: keys.macKey)
        try advanceSequence()
        return RecordCryptoDetail(sequenceNumber: seq, nonceOrIV: iv, additionalData: macHeader, authenticator: tag,
                                  padding: padding, plaintext: plaintext, fragment: sent + tag)
    }

    mutating func openEncryptThenMAC(mac: RecordMAC, seq: UInt64, contentType: UInt8, version: UInt16,
                                     fragment: [UInt8]) throws(RecordProtectionError) -> RecordCryptoDetail {
        let layout = try EncryptThenMACLayout(fragmentLength: fragment.count, explicitIV: explicitIV, blockLength: Self.blockSize, mac: mac)
        let ivLength = layout.ivLength
        let sentCount = layout.authenticatedLength
        let sent = Array(fragment.prefix(sentCount))
        let receivedMAC = Array(fragment.suffix(mac.length))
        let macHeader = Self.header(seq: seq, contentType: contentType, version: version, length: sentCount)
        let expectedMAC = mac.authenticate(macHeader + sent, key: keys.macKey)
        var diff: UInt8 = 0
        for (a, b) in zip(expectedMAC, receivedMAC) { diff |= a ^ b }
        guard diff == 0 else { throw .badRecordMAC(.encryptThenMACMismatch(mac: mac.name)) }
        let iv = explicitIV ? Array(sent.prefix(ivLength)) : chainedIV
        let body = Array(sent.dropFirst(ivLength))
        let decrypted = try cbcDecrypt(body, iv: iv)
        // The MAC verified, so the sender built this padding: a bad one is still bad_record_mac (RFC 7366 §3).
        let padLength = Int(decrypted[decrypted.count - 1])
        guard padLength + 1 <= decrypted.count, decrypted.suffix(padLength + 1).allSatisfy({ Int($0) == padLength }) else {
            throw .badRecordMAC(.encryptThenMACPaddingMalformed)
        }
        chain(body)
        try advanceSequence()
        return RecordCryptoDetail(sequenceNumber: seq, nonceOrIV: iv, additionalData: macHeader, authenticator: receivedMAC,
                                  padding: Array(decrypted.suffix(padLength + 1)),
                                  plaintext: Array(decrypted.prefix(decrypted.count - padLength - 1)), fragment: fragment)
    }
}
