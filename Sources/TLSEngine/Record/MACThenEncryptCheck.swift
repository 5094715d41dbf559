import Crypto

/// The receiver's check of a MAC-then-encrypt CBC record (RFC 5246 §6.2.3.2) after decryption: the
/// padding and the MAC, with one answer for both and the same work whatever the padding says.
///
/// Lucky 13 (AlFardan and Paterson, 2013): the receiver MACs a plaintext whose length depends on the
/// padding it just removed, so the number of hash compression-function calls — and the time — tells
/// the padding length, and through it plaintext bytes. RFC 5246 §6.2.3.2 already asks that a bad
/// padding be MACed as if it were empty ("compute the MAC as if there were a zero-length pad") and
/// answered like a bad MAC. Here, besides: the padding bytes are compared over a fixed span (the last
/// 256 bytes, or the whole record when shorter) whatever the padding length, and after the HMAC
/// the check runs single-block dummy compressions up to the count the longest possible plaintext
/// (padding length 0) would have cost — s2n's countermeasure, with the count made explicit. Public
/// facts only decide the total: the record's length and the MAC. (Memory access at the padding-
/// dependent MAC offset is not hidden; the time of one compression in a fresh hash is close to, not
/// equal to, one inside the HMAC.) Encrypt-then-MAC (RFC 7366) needs none of this.
struct MACThenEncryptCheck {
    /// What the check found.
    struct Outcome: Equatable {
        /// Padding well-formed and MAC verified; only then may the plaintext be used.
        var valid: Bool
        /// The plaintext's end in the decrypted bytes (padding taken as empty when malformed).
        var contentEnd: Int
        /// The padding bytes removed (with padding_length), or 1 when the padding was malformed.
        var removed: Int
        /// The MAC found in the record, at `contentEnd`.
        var receivedMAC: [UInt8]
        /// The MAC input header (seq ‖ type ‖ version ‖ plaintext length).
        var macHeader: [UInt8]
        /// Hash compression-function calls of the check: the HMAC's (counted by ``HashWork``) plus
        /// the dummy ones run. The same for every padding of a record of one length.
        var compressions: Int
        /// Bytes the padding comparison looked at: the same for every padding length.
        var paddingBytesExamined: Int
    }

    let mac: RecordMAC
    let key: [UInt8]

    /// The padding and MAC of `decrypted` (IV removed, padding in place), at least `mac.length + 1`
    /// bytes long.
    func check(_ decrypted: [UInt8], seq: UInt64, contentType: UInt8, version: UInt16) -> Outcome {
        let count = decrypted.count
        let padLength = Int(decrypted[count - 1])
        // 1 when the claimed padding fits beside the MAC, else 0.
        let fits = UInt8(truncatingIfNeeded: (count - mac.length - 1 - padLength) >> (Int.bitWidth - 1) &+ 1)
        // Every byte of the span is looked at; those within the padding must equal padding_length.
        var bad: UInt8 = 0
        var examined = 0
        let span = min(256, count)
        for i in 0 ..< span {
            examined += 1
            let byte = decrypted[count - 1 - i]
            let inPadding = UInt8(truncatingIfNeeded: (padLength - i) >> (Int.bitWidth - 1) &+ 1)  // 1 when i ≤ padLength
            bad |= (byte ^ UInt8(truncatingIfNeeded: padLength)) & (0 &- inPadding)
        }
        let paddingOK = fits & (bad == 0 ? 1 : 0)
        // RFC 5246 §6.2.3.2: a malformed padding is MACed as if empty (padding_length byte only).
        let removed = paddingOK == 1 ? padLength + 1 : 1
        let contentEnd = count - removed - mac.length
        let header = RecordProtector.header(seq: seq, contentType: contentType, version: version, length: contentEnd)
        let expected = mac.authenticate(header + decrypted[0 ..< contentEnd], key: key)
        let received = Array(decrypted[contentEnd ..< contentEnd + mac.length])
        // The longest plaintext (no padding) sets the work every padding length pays.
        let work = HashWork(mac)
        let done = work.hmacCompressions(messageLength: header.count + contentEnd)
        let most = work.hmacCompressions(messageLength: header.count + count - 1 - mac.length)
        let dummies = work.runDummyCompressions(most - done)
        var diff: UInt8 = 0
        for (a, b) in zip(expected, received) { diff |= a ^ b }
        return Outcome(valid: paddingOK == 1 && diff == 0, contentEnd: contentEnd, removed: removed,
                       receivedMAC: received, macHeader: header, compressions: done + dummies,
                       paddingBytesExamined: examined)
    }
}

/// How many compression-function calls a hash makes (FIPS 180-4 §5.1: the message, one 1 bit, zero
/// bits, and the length field fill whole blocks; SHA-1 and SHA-256 have 64-byte blocks and an 8-byte
/// length, SHA-384 128-byte blocks and a 16-byte length), and a way to run some for nothing.
struct HashWork {
    let mac: RecordMAC

    init(_ mac: RecordMAC) { self.mac = mac }

    var blockLength: Int { mac == .sha384 ? 128 : 64 }
    var lengthFieldLength: Int { mac == .sha384 ? 16 : 8 }

    /// Compressions to hash `length` bytes from the start.
    func compressions(hashing length: Int) -> Int {
        (length + 1 + lengthFieldLength + blockLength - 1) / blockLength
    }

    /// Compressions of an HMAC over `messageLength` bytes (RFC 2104, a key no longer than a block):
    /// the inner hash over key⊕ipad (one block) and the message, the outer over key⊕opad and the
    /// inner digest.
    func hmacCompressions(messageLength: Int) -> Int {
        compressions(hashing: blockLength + messageLength) + compressions(hashing: blockLength + mac.length)
    }

    /// Runs `count` compressions whose result is thrown away: each a hash of the longest message
    /// that fits one block. Returns how many ran.
    func runDummyCompressions(_ count: Int) -> Int {
        guard count > 0 else { return 0 }
        let filler = [UInt8](repeating: 0, count: blockLength - 1 - lengthFieldLength)
        var ran = 0
        for _ in 0 ..< count {
            switch mac {
            case .sha1: _ = Insecure.SHA1.hash(data: filler)
            case .sha256: _ = SHA256.hash(data: filler)
            case .sha384: _ = SHA384.hash(data: filler)
            }
            ran += 1
        }
        return ran
    }
}
