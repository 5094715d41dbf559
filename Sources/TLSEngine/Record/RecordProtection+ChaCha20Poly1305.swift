import Crypto
import TLSCrypto

/// ChaCha20-Poly1305 records (RFC 7905 §2, over the AEAD of RFC 8439 §2.8).
///
/// Unlike AES-GCM (RFC 5288 §3: a 4-byte salt from the key block ‖ an 8-byte nonce_explicit sent in
/// every record), nothing of the nonce travels: the key block yields a 12-byte client_write_IV /
/// server_write_IV (fixed_iv_length 12, record_iv_length 0), and each record's nonce is
///
///     nonce = client_write_IV XOR (0x00000000 ‖ 64-bit sequence number, big-endian)
///
/// so the sequence number — which is never sent — makes every nonce unique under the key. The
/// additional data is the usual seq_num ‖ type ‖ version ‖ length (RFC 5246 §6.2.3.3), the length
/// being the plaintext's. The record fragment is ciphertext ‖ 16-byte Poly1305 tag.
extension RecordProtector {
    /// RFC 7905 §2: the Poly1305 tag is 16 bytes.
    static let poly1305TagLength = 16

    /// The per-record nonce of RFC 7905 §2: the sequence number, left-padded with zeros to 12 bytes,
    /// XORed with the fixed IV.
    public static func chaChaNonce(fixedIV: [UInt8], sequenceNumber seq: UInt64) -> [UInt8] {
        var nonce = fixedIV
        for i in 0..<8 where nonce.count == 12 {
            nonce[4 + i] ^= UInt8(truncatingIfNeeded: seq >> UInt64(56 - 8 * i))
        }
        return nonce
    }

    mutating func sealChaCha20Poly1305(seq: UInt64, contentType: UInt8, version: UInt16, plaintext: [UInt8],
                                       explicitNonce: [UInt8]?) throws(RecordProtectionError) -> RecordCryptoDetail {
        if let explicitNonce, !explicitNonce.isEmpty { throw .invalidKeys(.explicitNonceWithChaCha(have: explicitNonce.count)) }
        let nonceBytes = Self.chaChaNonce(fixedIV: keys.fixedIV, sequenceNumber: seq)
        let aad = Self.header(seq: seq, contentType: contentType, version: version, length: plaintext.count)
        let box: ChaChaPoly.SealedBox
        do {
            box = try ChaChaPoly.seal(plaintext, using: SymmetricKey(data: keys.writeKey),
                                      nonce: ChaChaPoly.Nonce(data: nonceBytes), authenticating: aad)
        } catch {
            throw .invalidKeys(.chaChaRefusedKey)
        }
        let tag = Array(box.tag)
        let fragment = Array(box.ciphertext) + tag
        try advanceSequence()
        return RecordCryptoDetail(sequenceNumber: seq, nonceOrIV: nonceBytes, additionalData: aad,
                                  authenticator: tag, padding: [], plaintext: plaintext, fragment: fragment)
    }

    mutating func openChaCha20Poly1305(seq: UInt64, contentType: UInt8, version: UInt16,
                                       fragment: [UInt8]) throws(RecordProtectionError) -> RecordCryptoDetail {
        guard fragment.count >= Self.poly1305TagLength else {
            throw .badRecordMAC(.chaChaRecordTooShort(needed: Self.poly1305TagLength, got: fragment.count))
        }
        let ciphertext = Array(fragment.dropLast(Self.poly1305TagLength))
        let tag = Array(fragment.suffix(Self.poly1305TagLength))
        let nonceBytes = Self.chaChaNonce(fixedIV: keys.fixedIV, sequenceNumber: seq)
        let aad = Self.header(seq: seq, contentType: contentType, version: version, length: ciphertext.count)
        let plaintext: [UInt8]
        do {
            let box = try ChaChaPoly.SealedBox(nonce: ChaChaPoly.Nonce(data: nonceBytes), ciphertext: ciphertext, tag: tag)
            plaintext = Array(try ChaChaPoly.open(box, using: SymmetricKey(data: keys.writeKey), authenticating: aad))
        } catch {
            throw .badRecordMAC(.poly1305TagMismatch)
        }
        try advanceSequence()
        return RecordCryptoDetail(sequenceNumber: seq, nonceOrIV: nonceBytes, additionalData: aad,
                                  authenticator: tag, padding: [], plaintext: plaintext, fragment: fragment)
    }
}
