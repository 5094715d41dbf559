import Foundation
@testable import Rendering
import Simulation
import Testing
import TestSupport
import TLSEngine
import Trace

/// The page shows every record a run sends (RFC 5246 §6.2): its header and fragment, and for a
/// protected record the values it was sealed with, whole, so that a reader can redo the decryption —
/// which Python's `cryptography` does here from the page alone.
@Suite("HTML page: every record's bytes, and a protected record decrypted from the page")
struct HTMLRecordBytesTests {
    /// The `data-hex` of every record panel on the page (`record-STEP-N`, not the decrypted copies).
    static func recordPanels(_ html: String) -> [String] {
        html.matches(of: /<details class="bytes" id="record-\d+-\d+" data-hex="([0-9a-f]*)">/).map { String($0.output.1) }
    }

    @Test(arguments: [BuiltInRun.rsa, .ecdhe, .h2, .chacha20])
    func everyRecordSentHasItsHeaderAndBytesOnThePage(_ run: BuiltInRun) throws {
        let trace = Simulation(try run.setup(seed: 1)).run()
        let html = HTMLRenderer().page(name: run.rawValue, trace: trace)
        let panels = Self.recordPanels(html)
        var expected: [String] = []
        for event in trace.events {
            guard case .tls(.recordSent(let record)) = event.kind else { continue }
            // A handshake record in the clear shows its header; the messages it carries are the step's own table.
            if record.crypto == nil, record.contentType == .handshake {
                expected.append(Hex.string(Array(record.wire.prefix(5))))
                // Its fragment is whole handshake messages (header: type, 3-byte length), each with its own table.
                var rest = Array(record.wire.dropFirst(5))[...]
                while rest.count >= 4 {
                    let length = 4 + (Int(rest[rest.startIndex + 1]) << 16 | Int(rest[rest.startIndex + 2]) << 8 | Int(rest[rest.startIndex + 3]))
                    guard rest.count >= length else { break }
                    #expect(html.contains("data-hex=\"\(Hex.string(Array(rest.prefix(length))))\""), "\(run): a message the record carries has its table")
                    rest = rest.dropFirst(length)
                }
            } else {
                expected.append(Hex.string(record.wire))
            }
        }
        #expect(!expected.isEmpty)
        #expect(panels.sorted() == expected.sorted(), "\(run): one panel per record sent, with its bytes")
        // Each panel's table names the header's three fields (its rows travel in data-rows, a line a field).
        #expect(html.contains("\trecord[0].type\t") || html.contains("\ttype\t"))
    }

    @Test func theFirstProtectedRecordDecryptsFromWhatThePageShows() throws {
        let trace = Simulation(try BuiltInRun.rsa.setup(seed: 1)).run()
        let html = HTMLRenderer().page(name: "rsa", trace: trace)
        // The first panel with a calculation: a protected record, the client's Finished.
        let calc = try #require(html.firstMatch(of: /<details class="bytes" id="(record-\d+-\d+)" data-hex="([0-9a-f]+)">((?:(?!<\/details>).|\n)*?)<ul class="calc">((?:(?!<\/ul>).|\n)*)<\/ul>/))
        let id = String(calc.output.1), wire = String(calc.output.2), list = String(calc.output.4)
        var value: [String: String] = [:]
        for m in list.matches(of: /<li data-name="([a-z]+)" data-hex="([0-9a-f]+)">([^<]*) <button type="button" class="copy" hidden [^>]*>[^<]*<\/button><\/li>/) {
            let hex = String(m.output.2)
            value[String(m.output.1)] = hex
            // What a copy button reads is what the sentence shows.
            if m.output.1 != "seq" { #expect(m.output.3.contains(hex), "\(m.output.1) is shown whole") }
        }
        let key = try #require(value["key"]), nonce = try #require(value["nonce"]), aad = try #require(value["aad"])
        let tag = try #require(value["tag"]), ciphertext = try #require(value["ciphertext"])
        #expect(nonce.count == 24 && aad.count == 26 && tag.count == 32)
        // The wire record is header ‖ explicit nonce ‖ ciphertext ‖ tag, as the page says.
        #expect(wire == String(wire.prefix(10)) + String(nonce.suffix(16)) + ciphertext + tag)
        let plain = try #require(html.firstMatch(of: try Regex("id=\"\(id)-plain\" data-hex=\"([0-9a-f]+)\"")))
        let plaintext = String(try #require(plain.output[1].substring))
        let script = """
        import sys
        from cryptography.hazmat.primitives.ciphers.aead import AESGCM
        key, nonce, aad, ct, tag = (bytes.fromhex(a) for a in sys.argv[1:6])
        sys.stdout.write(AESGCM(key).decrypt(nonce, ct + tag, aad).hex())
        """
        let result = try ExternalTool.run(try #require(ExternalTool.find("python3")), ["-c", script, key, nonce, aad, ciphertext, tag], timeout: 60)
        #expect(result.succeeded, "\(result.stderrText)")
        // TLSPlaintext = type ‖ version ‖ length ‖ content: the content is what Python decrypted.
        #expect(String(plaintext.dropFirst(10)) == result.stdoutText)
        // The additional data's length is the plaintext's (RFC 5246 §6.2.3.3).
        #expect(Int(aad.suffix(4), radix: 16) == result.stdoutText.count / 2)
    }

    /// TLS 1.3 (RFC 8446 §5.2): every record a side seals has its panel, beside the step that sent
    /// its content, on every TLS 1.3 built-in run.
    @Test(arguments: [BuiltInRun.tls13, .tls13HRR, .tls13Resumption, .tls13ClientAuth, .tls13ZeroRTT, .tls13MITM])
    func everyTLS13RecordSealedHasItsPanel(_ run: BuiltInRun) throws {
        let trace = Simulation(try run.setup(seed: 1)).run()
        let html = HTMLRenderer().page(name: run.rawValue, trace: trace)
        var sealed: [String] = []
        for event in trace.events {
            if case .tls(.tls13(.recordSealed(let detail))) = event.kind { sealed.append(Hex.string(detail.record)) }
        }
        #expect(!sealed.isEmpty)
        let panels = Self.recordPanels(html)
        #expect(panels.sorted() == sealed.sorted(), "\(run): one panel per sealed record (\(panels.count) panels, \(sealed.count) records)")
        #expect(html.contains("opaque_type") && html.contains("TLSInnerPlaintext"))
        // No TLS 1.2 rule is given for a TLS 1.3 record.
        #expect(!html.contains("RFC 5288 §3") && !html.contains("cut from the key block"), "\(run): a TLS 1.2 sentence on a 1.3 page")
    }

    /// The first TLS 1.3 protected record (the server's EncryptedExtensions) decrypts from what the
    /// page shows: the nonce is the write IV XOR the padded sequence number (§5.3), the additional
    /// data is the record's header (§5.2), and AES-GCM with the write key gives the TLSInnerPlaintext.
    @Test func theFirstTLS13RecordDecryptsFromWhatThePageShows() throws {
        let trace = Simulation(try BuiltInRun.tls13.setup(seed: 1)).run()
        let html = HTMLRenderer().page(name: "tls13", trace: trace)
        let calc = try #require(html.firstMatch(of: /<details class="bytes" id="(record-\d+-\d+)" data-hex="([0-9a-f]+)">((?:(?!<\/details>).|\n)*?)<ul class="calc">((?:(?!<\/ul>).|\n)*)<\/ul>/))
        let id = String(calc.output.1), wire = String(calc.output.2), list = String(calc.output.4)
        var value: [String: String] = [:]
        for m in list.matches(of: /<li data-name="([a-z]+)" data-hex="([0-9a-f]+)">([^<]*) <button type="button" class="copy" hidden [^>]*>[^<]*<\/button><\/li>/) {
            value[String(m.output.1)] = String(m.output.2)
            if m.output.1 != "seq" { #expect(m.output.3.contains(m.output.2), "\(m.output.1) is shown whole") }
        }
        let key = try #require(value["key"]), iv = try #require(value["iv"]), nonce = try #require(value["nonce"])
        let aad = try #require(value["aad"]), tag = try #require(value["tag"]), ciphertext = try #require(value["ciphertext"])
        let seq = try #require(value["seq"])
        #expect(wire.hasPrefix("170303") && wire == aad + ciphertext + tag, "header ‖ ciphertext ‖ tag")
        #expect(Int(aad.suffix(4), radix: 16) == (ciphertext.count + tag.count) / 2, "the header's length is the encrypted record's")
        // Nonce = write IV XOR the sequence number left-padded to 12 bytes.
        let ivBytes = try #require(Hex.bytes(iv)), seqBytes = try #require(Hex.bytes(seq))
        let padded = [UInt8](repeating: 0, count: ivBytes.count - seqBytes.count) + seqBytes
        #expect(Hex.string(zip(ivBytes, padded).map { $0 ^ $1 }) == nonce)
        let plain = try #require(html.firstMatch(of: try Regex("id=\"\(id)-plain\" data-hex=\"([0-9a-f]+)\"")))
        let inner = String(try #require(plain.output[1].substring))
        let script = """
        import sys
        from cryptography.hazmat.primitives.ciphers.aead import AESGCM, ChaCha20Poly1305
        key, nonce, aad, ct, tag = (bytes.fromhex(a) for a in sys.argv[1:6])
        for aead in (AESGCM, ChaCha20Poly1305):
            try:
                sys.stdout.write(aead(key).decrypt(nonce, ct + tag, aad).hex()); break
            except Exception:
                continue
        """
        let result = try ExternalTool.run(try #require(ExternalTool.find("python3")), ["-c", script, key, nonce, aad, ciphertext, tag], timeout: 60)
        #expect(result.succeeded && !result.stdoutText.isEmpty, "\(result.stderrText)")
        #expect(inner == result.stdoutText, "the page's TLSInnerPlaintext is what the record decrypts to")
        // The key and IV are the page's traffic secret expanded (RFC 8446 §7.1, §7.3): redone from its whole value on the page.
        let keyItem = try #require(list.firstMatch(of: /data-name="key"[^>]*>[^<]*HKDF-Expand-Label\(([a-z_]+),/))
        let secretName = String(keyItem.output.1)
        #expect(secretName == "server_handshake_traffic_secret")
        let secretLine = try #require(html.firstMatch(of: try Regex("server: \(secretName) = Derive-Secret\\([^)]*\\) = ([0-9a-f]{64})")))
        let secret = String(try #require(secretLine.output[1].substring))
        let expand = """
        import sys
        from cryptography.hazmat.primitives import hashes
        from cryptography.hazmat.primitives.kdf.hkdf import HKDFExpand
        secret = bytes.fromhex(sys.argv[1])
        def label(name, n):
            full = b"tls13 " + name
            info = n.to_bytes(2, "big") + bytes([len(full)]) + full + b"\\x00"
            return HKDFExpand(hashes.SHA256(), n, info).derive(secret).hex()
        sys.stdout.write(label(b"key", int(sys.argv[2])) + " " + label(b"iv", 12))
        """
        let expanded = try ExternalTool.run(try #require(ExternalTool.find("python3")), ["-c", expand, secret, "\(key.count / 2)"], timeout: 60)
        #expect(expanded.succeeded && expanded.stdoutText == key + " " + iv, "\(expanded.stderrText) \(expanded.stdoutText)")
        // content ‖ type: the first protected record carries a handshake message (22) and no padding here.
        #expect(inner.hasSuffix("16"))
    }
}
