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
        for m in list.matches(of: /<li data-name="([a-z]+)" data-hex="([0-9a-f]+)">([^<]*)<\/li>/) {
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
}
