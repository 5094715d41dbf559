import Foundation
import Testing
import TestSupport
import TLSCrypto
@testable import TLSEngine

/// Fixed bytes for tests that must not depend on a generator.
final class FixedBytes: RandomSource {
    var next: UInt8
    init(start: UInt8) { next = start }
    func bytes(count: Int) -> [UInt8] {
        (0..<count).map { _ in defer { next &+= 1 }; return next }
    }
}

/// A small deterministic generator for test data.
final class XorShiftBytes: RandomSource {
    var state: UInt64
    init(seed: UInt64) { state = seed &* 0x9E37_79B9_7F4A_7C15 | 1 }
    func bytes(count: Int) -> [UInt8] {
        (0..<count).map { _ in
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            return UInt8(truncatingIfNeeded: state >> 32)
        }
    }
}

func hex(_ s: String) -> [UInt8] { Hex.bytes(s) ?? [] }
func hexString(_ bytes: [UInt8]) -> String { Hex.string(bytes) }

/// Field lookup in Tests/Fixtures/tls12-vectors.json by key path.
enum Vectors {
    static func load() throws -> [String: Any] { try Fixtures.vectors() }

    static func string(_ root: [String: Any], _ path: String...) -> String {
        var node: Any? = root
        for key in path { node = (node as? [String: Any])?[key] }
        return node as? String ?? ""
    }
}

@Suite("Record protection")
struct RecordProtectionTests {
    static let tls12: UInt16 = 0x0303

    @Test func gcmClientFinishedMatchesSyntheticVector() throws {
        let v = try Vectors.load()
        let out = "rsa_kx_synthetic"
        let keys = RecordKeys(macKey: [],
                              writeKey: hex(Vectors.string(v, out, "outputs", "client_write_key")),
                              fixedIV: hex(Vectors.string(v, out, "outputs", "client_write_IV(salt,4)")))
        var protector = try RecordProtector(cipher: .aesGCM(keyLength: 16), keys: keys)
        let record = Vectors.string(v, out, "client_finished_record_AES_128_GCM(seq=0, explicit_nonce=seq=0; OpenSSL uses random start +1/record, any unique value is valid)", "record")
        let plaintext = hex("1400000c11952d0b0516e8617d074a3b")
        let detail = try protector.seal(contentType: 22, version: Self.tls12, plaintext: plaintext, random: FixedBytes(start: 0))
        #expect(hexString([22, 3, 3, 0, UInt8(detail.fragment.count)] + detail.fragment) == record)
        #expect(hexString(detail.additionalData) == "00000000000000001603030010")
        #expect(hexString(detail.nonceOrIV) == "e4daf5210000000000000000")
        #expect(protector.sequenceNumber == 1)
    }

    @Test func opensslRecordsOpenWithTheVectorKeys() throws {
        let v = try Vectors.load()
        let r = "rsa_kx_openssl_real"
        func protector(_ side: String) throws -> RecordProtector {
            try RecordProtector(cipher: .aesGCM(keyLength: 16), keys: RecordKeys(
                macKey: [], writeKey: hex(Vectors.string(v, r, "outputs", "\(side)_write_key")),
                fixedIV: hex(Vectors.string(v, r, "outputs", "\(side)_write_IV(salt,4)"))))
        }
        var client = try protector("client")
        let finished = hex(Vectors.string(v, r, "client_encrypted_finished_record"))
        let opened = try client.open(contentType: 22, version: Self.tls12, fragment: Array(finished.dropFirst(5)))
        #expect(hexString(opened.plaintext) == "1400000c" + Vectors.string(v, r, "outputs", "client_verify_data"))
        let app = hex(Vectors.string(v, r, "client_app_data_record(plaintext \"hello oracle\\n\")"))
        let data = try client.open(contentType: 23, version: Self.tls12, fragment: Array(app.dropFirst(5)))
        #expect(String(decoding: data.plaintext, as: UTF8.self) == "hello oracle\n")

        var server = try protector("server")
        let serverFinished = hex(Vectors.string(v, r, "server_encrypted_finished_record"))
        let s = try server.open(contentType: 22, version: Self.tls12, fragment: Array(serverFinished.dropFirst(5)))
        #expect(hexString(s.plaintext) == "1400000c" + Vectors.string(v, r, "outputs", "server_verify_data"))
    }

    static let cbcSuites: [RecordCipher] = [
        .aesCBC(keyLength: 16, mac: .sha1), .aesCBC(keyLength: 16, mac: .sha256), .aesCBC(keyLength: 32, mac: .sha384),
    ]

    @Test(arguments: [RecordCipher.aesGCM(keyLength: 16), .aesGCM(keyLength: 32), .chaCha20Poly1305] + cbcSuites)
    func roundTripAndEveryBitFlipIsRejected(cipher: RecordCipher) throws {
        let rng = XorShiftBytes(seed: 7)
        let keys = RecordKeys(macKey: rng.bytes(count: cipher.macKeyLength), writeKey: rng.bytes(count: cipher.keyLength),
                              fixedIV: cipher.isAEAD ? rng.bytes(count: cipher.fixedIVLength) : [])
        for length in [0, 1, 15, 16, 17, 100] {
            var sender = try RecordProtector(cipher: cipher, keys: keys)
            var receiver = try RecordProtector(cipher: cipher, keys: keys)
            let plaintext = rng.bytes(count: length)
            let sealed = try sender.seal(contentType: 23, version: Self.tls12, plaintext: plaintext, random: rng)
            if !cipher.isAEAD { #expect(sealed.fragment.count % 16 == 0) }
            // Every single flipped bit fails, and the receiver's sequence number does not move.
            for bit in 0..<(sealed.fragment.count * 8) {
                var tampered = sealed.fragment
                tampered[bit / 8] ^= UInt8(1 << (bit % 8))
                #expect(throws: RecordProtectionError.self) {
                    try receiver.open(contentType: 23, version: Self.tls12, fragment: tampered)
                }
            }
            #expect(receiver.sequenceNumber == 0)
            // The wrong content type or sequence number fails too (they are authenticated).
            var other = receiver
            #expect(throws: RecordProtectionError.self) { try other.open(contentType: 22, version: Self.tls12, fragment: sealed.fragment) }
            let opened = try receiver.open(contentType: 23, version: Self.tls12, fragment: sealed.fragment)
            #expect(opened.plaintext == plaintext)
            #expect(throws: RecordProtectionError.self) {  // a replay: seq 1 now
                try receiver.open(contentType: 23, version: Self.tls12, fragment: sealed.fragment)
            }
        }
    }

    @Test func truncatedAndOversizedFragmentsAreRejected() throws {
        for cipher in [RecordCipher.aesGCM(keyLength: 16), .chaCha20Poly1305] + Self.cbcSuites {
            var receiver = try RecordProtector(cipher: cipher, keys: RecordKeys(
                macKey: [UInt8](repeating: 1, count: cipher.macKeyLength),
                writeKey: [UInt8](repeating: 2, count: cipher.keyLength),
                fixedIV: cipher.isAEAD ? [UInt8](repeating: 0, count: cipher.fixedIVLength) : []))
            for n in [0, 1, 8, 16, 23, 31, 32, 47] {
                #expect(throws: RecordProtectionError.self) {
                    try receiver.open(contentType: 23, version: Self.tls12, fragment: [UInt8](repeating: 0, count: n))
                }
            }
            #expect(throws: RecordProtectionError.recordOverflow(length: 18433)) {
                try receiver.open(contentType: 23, version: Self.tls12, fragment: [UInt8](repeating: 0, count: 18433))
            }
        }
    }

    @Test func wrongKeyLengthsAreTypedErrors() {
        #expect(throws: RecordProtectionError.self) {
            try RecordProtector(cipher: .aesGCM(keyLength: 16), keys: RecordKeys(macKey: [], writeKey: [1, 2], fixedIV: [0, 0, 0, 0]))
        }
        #expect(throws: RecordProtectionError.self) {
            try RecordProtector(cipher: .aesCBC(keyLength: 16, mac: .sha1),
                                keys: RecordKeys(macKey: [], writeKey: [UInt8](repeating: 0, count: 16), fixedIV: []))
        }
    }

    /// TLS 1.0 chains the IV: the next record's IV is the previous record's last ciphertext block.
    @Test func tls10ImplicitIVChains() throws {
        let keys = RecordKeys(macKey: [UInt8](repeating: 3, count: 20), writeKey: [UInt8](repeating: 4, count: 16),
                              fixedIV: [UInt8](repeating: 5, count: 16))
        var sender = try RecordProtector(cipher: .aesCBC(keyLength: 16, mac: .sha1), keys: keys, explicitIV: false)
        var receiver = try RecordProtector(cipher: .aesCBC(keyLength: 16, mac: .sha1), keys: keys, explicitIV: false)
        let first = try sender.seal(contentType: 23, version: 0x0301, plaintext: Array("one".utf8), random: FixedBytes(start: 0))
        let second = try sender.seal(contentType: 23, version: 0x0301, plaintext: Array("two".utf8), random: FixedBytes(start: 0))
        #expect(first.nonceOrIV == keys.fixedIV)
        #expect(second.nonceOrIV == Array(first.fragment.suffix(16)))
        #expect(try receiver.open(contentType: 23, version: 0x0301, fragment: first.fragment).plaintext == Array("one".utf8))
        #expect(try receiver.open(contentType: 23, version: 0x0301, fragment: second.fragment).plaintext == Array("two".utf8))
    }

    /// Cross-check: Python's `cryptography` builds the same MAC-then-encrypt record independently.
    @Test(CrossCheckRequirement.trait(pythonWithCryptography != nil,
                                      missing: "python3 with the `cryptography` package is not available"))
    func cbcRecordMatchesPythonCryptography() throws {
        let python = try #require(pythonWithCryptography)
        let macKey = [UInt8](0..<32), key = [UInt8](32..<48), iv = [UInt8](48..<64)
        var sender = try RecordProtector(cipher: .aesCBC(keyLength: 16, mac: .sha256),
                                         keys: RecordKeys(macKey: macKey, writeKey: key, fixedIV: []))
        _ = try sender.seal(contentType: 23, version: Self.tls12, plaintext: [1], random: FixedBytes(start: 0))
        let plaintext = Array("GET / HTTP/1.1\r\nHost: example.com\r\n\r\n".utf8)
        let sealed = try sender.seal(contentType: 23, version: Self.tls12, plaintext: plaintext, random: FixedBytes(start: 48))
        let script = """
        import hmac, hashlib, struct
        from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
        mac_key = bytes(range(0, 32)); key = bytes(range(32, 48)); iv = bytes(range(48, 64))
        pt = bytes.fromhex("\(hexString(plaintext))")
        hdr = struct.pack(">QBHH", 1, 23, 0x0303, len(pt))
        mac = hmac.new(mac_key, hdr + pt, hashlib.sha256).digest()
        body = pt + mac
        pad = 15 - len(body) % 16
        body += bytes([pad]) * (pad + 1)
        enc = Cipher(algorithms.AES(key), modes.CBC(iv)).encryptor()
        print((iv + enc.update(body) + enc.finalize()).hex())
        """
        let output = try run(python, ["-c", script])
        #expect(output.trimmingCharacters(in: .whitespacesAndNewlines) == hexString(sealed.fragment))
        _ = iv
    }
}

func which(_ tool: String) -> String? {
    for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
        let path = "\(dir)/\(tool)"
        if FileManager.default.isExecutableFile(atPath: path) { return path }
    }
    return nil
}

/// python3, when it can import `cryptography`.
let pythonWithCryptography: String? = which("python3").flatMap { pythonHasCryptography($0) ? $0 : nil }

func pythonHasCryptography(_ python: String) -> Bool {
    (try? run(python, ["-c", "import cryptography"])) != nil
}

struct ProcessFailed: Error { let status: Int32; let output: String }

@discardableResult
func run(_ tool: String, _ arguments: [String]) throws -> String {
    let result = try ExternalTool.run(tool, arguments)
    guard result.succeeded else { throw ProcessFailed(status: result.status, output: result.stdoutText + result.stderrText) }
    return result.stdoutText
}