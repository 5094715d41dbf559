import Foundation
import RealPeer
import TLSEngine
import Testing
import TestSupport

/// The dissector's reading of encrypt-then-MAC records (RFC 7366 §3: IV ‖ ciphertext ‖ MAC, the MAC
/// over the ciphertext and outside it) checked against tshark's decryption of a real capture:
/// `tlslab connect` to `openssl s_server` on a CBC suite, with connect's key log. tshark decrypts each
/// record on its own; `tlslab dissect` splits the same bytes, from the capture, into IV, ciphertext
/// and MAC without any key. Record by record, the ciphertext the dissector names must hold tshark's
/// plaintext plus 1 to 16 bytes of CBC padding and nothing else — under MAC-then-encrypt it would hold
/// the 20-byte MAC too, which the control run without ETM shows.
@Suite("RealPeer: tshark cross-checks dissect's encrypt-then-MAC reading", .serialized,
       CrossCheckRequirement.trait(Tools.openssl != nil, missing: "openssl is not on the PATH"))
struct EncryptThenMACTsharkTests {
    static let suite = "TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA"
    static let macLength = 20  // HMAC-SHA1

    /// One protected record as `tlslab dissect` splits it.
    struct DissectedRecord: Equatable {
        var ivLength: Int
        var ciphertextLength: Int
        /// nil when the dissector named no MAC in the clear (MAC-then-encrypt).
        var macLength: Int?
    }

    struct Capture {
        var port: UInt16
        var file: URL
        var keylog: URL
        var pki: TestPKI
    }

    /// `tlslab connect` (ETM offered unless `noETM`) to s_server on `suite`, captured on loopback.
    static func capture(noETM: Bool) throws -> Capture {
        let pki = try TestPKI.require()
        let tlslab = try Tools.need(Tools.tlslab, "the tlslab executable is not next to the test bundle")
        _ = try Tools.need(Tools.tshark, "tshark is not on the PATH")
        let (server, port) = try startSServer(["-cert", "chain.pem", "-key", "leaf.key", "-www"], pki: pki)
        defer { server.stop() }
        let keylog = pki.dir.appendingPathComponent("etm-keylog-\(UUID().uuidString).txt")
        let file = try KeyLogCaptureTests.capture(port: port, pki: pki) {
            let r = try runTool(tlslab, ["connect", "127.0.0.1:\(port)", "--servername", "localhost", "--ca", "root.pem",
                                         "--suite", suite, "--keylog", keylog.path, "--format", "json", "--timeout", "5"]
                                        + (noETM ? ["--no-etm"] : []), in: pki.dir)
            #expect(r.status == 0, "\(r.output.suffix(1000))")
        }
        return Capture(port: port, file: file, keylog: keylog, pki: pki)
    }

    static func tshark(_ capture: Capture, _ arguments: [String], keys: Bool = true) throws -> String {
        let tshark = try #require(Tools.tshark)
        let keyOption = keys ? ["-o", "tls.keylog_file:\(capture.keylog.path)"] : []
        return try runTool(tshark, ["-r", capture.file.path, "-d", "tcp.port==\(capture.port),tls"] + keyOption + arguments,
                           in: capture.pki.dir).output
    }

    /// The TCP payload each way, from tshark's raw stream (the server's lines start with a tab).
    static func streams(_ capture: Capture) throws -> (client: String, server: String) {
        let text = try tshark(capture, ["-q", "-z", "follow,tcp,raw,0"], keys: false)
        var client = "", server = ""
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            let hex = line.trimmingCharacters(in: .whitespaces)
            guard !hex.isEmpty, hex.allSatisfy(\.isHexDigit) else { continue }
            if line.hasPrefix("\t") { server += hex } else { client += hex }
        }
        return (client, server)
    }

    /// The plaintext length of each record tshark decrypted in one direction, in order.
    static func decryptedLengths(_ capture: Capture, fromServer: Bool) throws -> [Int] {
        let filter = fromServer ? "tcp.srcport==\(capture.port)" : "tcp.dstport==\(capture.port)"
        let text = try tshark(capture, ["-Y", filter, "-x"])
        return text.split(separator: "\n").compactMap { line -> Int? in
            guard let range = line.range(of: #"^Decrypted TLS \(([0-9]+) bytes\):"#, options: .regularExpression) else { return nil }
            return Int(line[range].dropFirst("Decrypted TLS (".count).prefix { $0.isNumber })
        }
    }

    /// `tlslab dissect` of one direction's bytes, and the protected records it split.
    static func dissect(_ hex: String, extra: [String] = []) throws -> (output: String, records: [DissectedRecord]) {
        let tlslab = try Tools.need(Tools.tlslab, "the tlslab executable is not next to the test bundle")
        let r = try runTool(tlslab, ["dissect", "--width", "1000"] + extra + [hex], in: FileManager.default.temporaryDirectory)
        #expect(r.status == 0, "\(r.output.prefix(500))")
        // Field lines begin with the field's offset: a record's own line with its size present,
        // then IV, ciphertext and MAC — or IV and block_ciphered when the MAC is inside (MAC-then-encrypt).
        var records: [DissectedRecord] = []
        var recordEnd = 0, iv: Int?, ciphertext: Int?, mac: Int?
        func close() {
            if let iv, let ciphertext {
                records.append(DissectedRecord(ivLength: ciphertext - iv, ciphertextLength: (mac ?? recordEnd) - ciphertext,
                                               macLength: mac.map { recordEnd - $0 }))
            }
            iv = nil; ciphertext = nil; mac = nil
        }
        let pattern = #"^\s*([0-9]+)\s+(record\[[0-9]+\]|IV|ciphertext|block_ciphered|MAC) = "#
        for line in r.output.split(separator: "\n") {
            guard let range = line.range(of: pattern, options: .regularExpression) else { continue }
            let head = line[range].trimmingCharacters(in: .whitespaces)
            let offset = Int(head.prefix { $0.isNumber }) ?? 0
            let name = head.drop { $0.isNumber }.trimmingCharacters(in: .whitespaces)
            if name.hasPrefix("record[") {
                close()
                // "record[3] = application_data  (100 bytes)": the record's bytes present.
                let size = line.range(of: #"\(([0-9]+) bytes\)"#, options: .regularExpression)
                    .flatMap { Int(line[$0].dropFirst().prefix { $0.isNumber }) } ?? 0
                recordEnd = offset + size
            } else if name.hasPrefix("IV") { iv = offset }
            else if name.hasPrefix("ciphertext") || name.hasPrefix("block_ciphered") { ciphertext = offset }
            else if name.hasPrefix("MAC") { mac = offset }
        }
        close()
        return (r.output, records)
    }

    @Test("ETM on a CBC suite: tshark sees the extension both ways and decrypts; dissect's IV ‖ ciphertext ‖ MAC fits tshark's plaintext record by record")
    func encryptThenMAC() throws {
        let capture = try Self.capture(noETM: false)
        // Both hellos carry encrypt_then_mac (type 22) as tshark reads them: ClientHello (1), ServerHello (2).
        let hellos = try Self.tshark(capture, ["-Y", "tls.handshake.extension.type==22", "-T", "fields", "-e", "tls.handshake.type"], keys: false)
        let types = hellos.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { $0.first?.isNumber == true }
        #expect(types.contains { $0.hasPrefix("1") } && types.contains { $0.hasPrefix("2") }, "\(hellos)")
        let seen = try KeyLogCaptureTests.decrypted(capture.file, port: capture.port, keylog: capture.keylog, pki: capture.pki)
        #expect(seen.contains("GET") && seen.contains("200"), "tshark: \(seen)")

        let (client, server) = try Self.streams(capture)
        // The server's bytes hold its ServerHello: the dissector learns ETM from it. The client's do
        // not, so it is told (--suite, --etm), as its --help says.
        let fromServer = try Self.dissect(server)
        let fromClient = try Self.dissect(client, extra: ["--suite", Self.suite, "--etm"])
        #expect(fromServer.output.contains("encrypt_then_mac"), "\(fromServer.output.prefix(3000))")
        #expect(fromServer.output.contains("not encrypted (RFC 7366 §3)"), "\(fromServer.output.suffix(2000))")
        for (name, dissected, fromServerSide) in [("server", fromServer.records, true), ("client", fromClient.records, false)] {
            let plaintexts = try Self.decryptedLengths(capture, fromServer: fromServerSide)
            // Finished, the HTTP message(s), close_notify: at least three protected records each way.
            #expect(dissected.count >= 3 && dissected.count == plaintexts.count, "\(name): dissect \(dissected), tshark \(plaintexts)")
            for (record, plaintext) in zip(dissected, plaintexts) {
                #expect(record.ivLength == 16 && record.macLength == Self.macLength, "\(name): \(record)")
                #expect(record.ciphertextLength % 16 == 0, "\(name): \(record)")
                // RFC 5246 §6.2.3.2 without the MAC inside: content ‖ padding ‖ padding_length.
                let padding = record.ciphertextLength - plaintext - 1
                #expect((0 ... 15).contains(padding), "\(name): ciphertext \(record.ciphertextLength) for \(plaintext) plaintext bytes")
            }
        }
    }

    @Test("the control, --no-etm: no extension, no MAC in the clear, and the ciphertext holds the MAC as tshark's plaintext shows")
    func macThenEncrypt() throws {
        let capture = try Self.capture(noETM: true)
        let hellos = try Self.tshark(capture, ["-Y", "tls.handshake.extension.type==22", "-T", "fields", "-e", "tls.handshake.type"], keys: false)
        #expect(!hellos.split(separator: "\n").contains { $0.trimmingCharacters(in: .whitespaces).hasPrefix("2") }, "\(hellos)")
        let (_, server) = try Self.streams(capture)
        let fromServer = try Self.dissect(server)
        #expect(!fromServer.output.contains("not encrypted (RFC 7366 §3)"), "\(fromServer.output.suffix(2000))")
        #expect(fromServer.records.allSatisfy { $0.macLength == nil }, "\(fromServer.records)")
        let plaintexts = try Self.decryptedLengths(capture, fromServer: true)
        #expect(fromServer.records.count == plaintexts.count && !plaintexts.isEmpty, "\(fromServer.records) \(plaintexts)")
        for (record, plaintext) in zip(fromServer.records, plaintexts) {
            // MAC-then-encrypt: content ‖ MAC ‖ padding ‖ padding_length inside the ciphertext.
            let padding = record.ciphertextLength - plaintext - Self.macLength - 1
            #expect((0 ... 15).contains(padding), "ciphertext \(record.ciphertextLength) for \(plaintext) plaintext bytes")
        }
    }
}
