import Crypto
import _CryptoExtras
import Testing
import TLSCrypto
@testable import TLSEngine

/// Lucky 13 (AlFardan and Paterson, 2013) on the MAC-then-encrypt CBC receive path: every malformed
/// padding and every wrong MAC gets the same error and the same alert (bad_record_mac, RFC 5246
/// §6.2.3.2, §7.2.2), and the check the receiver runs — ``MACThenEncryptCheck``, the one
/// ``RecordProtector/open(contentType:version:fragment:)`` calls — does the same number of hash
/// compression-function calls and looks at the same padding bytes for every padding length 0…255.
/// (No timing is measured here: counts, not clocks.)
@Suite("Lucky 13: one answer and the same work for every CBC padding")
struct Lucky13Tests {
    static let macs: [RecordMAC] = [.sha1, .sha256, .sha384]
    static let header = RecordProtector.header(seq: 0, contentType: 23, version: 0x0303, length: 0).count  // 13

    static func key(_ mac: RecordMAC) -> [UInt8] { (0 ..< mac.length).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 1) } }

    /// Decrypted record bytes of `count` with padding length `pad`: plaintext, its MAC, then pad+1
    /// bytes of `pad`; nil when that padding cannot fit beside the MAC.
    static func body(_ mac: RecordMAC, count: Int, pad: Int) -> [UInt8]? {
        let plaintextLength = count - mac.length - 1 - pad
        guard plaintextLength >= 0 else { return nil }
        let plaintext = (0 ..< plaintextLength).map { UInt8(truncatingIfNeeded: $0 &* 13) }
        let macHeader = RecordProtector.header(seq: 0, contentType: 23, version: 0x0303, length: plaintextLength)
        return plaintext + mac.authenticate(macHeader + plaintext, key: key(mac)) + [UInt8](repeating: UInt8(pad), count: pad + 1)
    }

    @Test("compression counts follow FIPS 180-4's padding (known answers)")
    func compressionCounts() {
        let sha256 = HashWork(.sha256), sha1 = HashWork(.sha1), sha384 = HashWork(.sha384)
        // One block holds at most 55 message bytes (SHA-1, SHA-256) or 111 (SHA-384).
        #expect([0, 55, 56, 119, 120].map(sha256.compressions(hashing:)) == [1, 1, 2, 2, 3])
        #expect([55, 56].map(sha1.compressions(hashing:)) == [1, 2])
        #expect([0, 111, 112, 239, 240].map(sha384.compressions(hashing:)) == [1, 1, 2, 2, 3])
        // HMAC over a short message: two compressions inside, two outside.
        #expect(sha256.hmacCompressions(messageLength: 13) == 4)
        #expect(sha384.hmacCompressions(messageLength: 13) == 4)
        // 13 + 43 = 56 bytes of message: the inner hash needs a third block.
        #expect(sha256.hmacCompressions(messageLength: 56) == 5)
    }

    @Test("every padding length, good or bad, with a good or bad MAC: the same compressions and padding bytes examined", arguments: macs)
    func sameWork(mac: RecordMAC) throws {
        let check = MACThenEncryptCheck(mac: mac, key: Self.key(mac))
        let work = HashWork(mac)
        for count in [64, 80, 160, 272, 320, 1_024] where count > mac.length {
            let expected = work.hmacCompressions(messageLength: Self.header + count - 1 - mac.length)
            var hmacOnly: Set<Int> = []
            var outcomes: [(String, MACThenEncryptCheck.Outcome)] = []
            for pad in 0 ... 255 {
                guard var good = Self.body(mac, count: count, pad: pad) else {
                    // The padding claims more bytes than the record holds.
                    var long = [UInt8](repeating: UInt8(pad), count: count)
                    long[0] = 0x41
                    outcomes.append(("pad \(pad) too long", check.check(long, seq: 0, contentType: 23, version: 0x0303)))
                    continue
                }
                let ok = check.check(good, seq: 0, contentType: 23, version: 0x0303)
                #expect(ok.valid && ok.contentEnd == count - mac.length - 1 - pad && ok.removed == pad + 1, "count \(count) pad \(pad)")
                hmacOnly.insert(work.hmacCompressions(messageLength: Self.header + ok.contentEnd))
                outcomes.append(("pad \(pad) good", ok))
                var badMAC = good
                badMAC[count - pad - 2] ^= 0x01
                outcomes.append(("pad \(pad) bad MAC", check.check(badMAC, seq: 0, contentType: 23, version: 0x0303)))
                if pad > 0 {
                    good[count - pad - 1] ^= 0x80  // the first padding byte
                    outcomes.append(("pad \(pad) bad padding", check.check(good, seq: 0, contentType: 23, version: 0x0303)))
                }
            }
            for (name, outcome) in outcomes where !name.hasSuffix("good") {
                #expect(!outcome.valid, "count \(count), \(name)")
            }
            let compressions = Set(outcomes.map(\.1.compressions))
            #expect(compressions == [expected], "count \(count): \(compressions.sorted())")
            #expect(Set(outcomes.map(\.1.paddingBytesExamined)) == [min(256, count)], "count \(count)")
            // Without the dummy compressions the HMAC alone would differ by padding (the oracle).
            if count >= 272 { #expect(hmacOnly.count > 1, "count \(count): \(hmacOnly.sorted())") }
        }
    }

    @Test("through RecordProtector.open: every bad padding and bad MAC is the same error and bad_record_mac", arguments: macs)
    func oneAnswer(mac: RecordMAC) throws {
        let writeKey = [UInt8](repeating: 0x2a, count: 16)
        let iv = [UInt8](repeating: 0x11, count: 16)
        func open(_ decrypted: [UInt8]) throws -> Result<RecordCryptoDetail, RecordProtectionError> {
            var protector = try RecordProtector(cipher: .aesCBC(keyLength: 16, mac: mac),
                                                keys: RecordKeys(macKey: Self.key(mac), writeKey: writeKey, fixedIV: []))
            let encrypted = Array(try AES._CBC.encrypt(decrypted, using: SymmetricKey(data: writeKey), iv: AES._CBC.IV(ivBytes: iv), noPadding: true))
            do { return .success(try protector.open(contentType: 23, version: 0x0303, fragment: iv + encrypted)) } catch {
                return .failure(error)
            }
        }
        let count = 160
        var failures: [String: RecordProtectionError] = [:]
        for pad in 0 ... 255 {
            guard let good = Self.body(mac, count: count, pad: pad) else {
                var long = [UInt8](repeating: UInt8(pad), count: count)
                long[0] = 0x41
                if case .failure(let e) = try open(long) { failures["pad \(pad) too long"] = e } else { Issue.record("pad \(pad) too long opened") }
                continue
            }
            let opened = try open(good)
            #expect((try? opened.get())?.plaintext.count == count - mac.length - 1 - pad, "pad \(pad)")
            var badMAC = good
            badMAC[0] ^= 0x01  // the plaintext changed: its MAC no longer verifies
            if case .failure(let e) = try open(badMAC) { failures["pad \(pad) bad MAC"] = e } else { Issue.record("pad \(pad) bad MAC opened") }
            if pad > 0 {
                var badPadding = good
                badPadding[count - 2] ^= 0x01  // a padding byte differs from padding_length
                if case .failure(let e) = try open(badPadding) { failures["pad \(pad) bad padding"] = e } else { Issue.record("pad \(pad) bad padding opened") }
            }
        }
        // Paddings that fit: a bad MAC each, a bad padding byte each but padding length 0; the rest too long.
        let fitting = count - mac.length
        #expect(failures.count == fitting + (fitting - 1) + (256 - fitting))
        let expected = RecordProtectionError.badRecordMAC(.cbcPaddingOrMACMismatch(mac: mac.name))
        for (name, error) in failures { #expect(error == expected, "\(name): \(error)") }
        #expect(TLSError.recordProtection(expected).alert == .badRecordMAC)
    }
}
