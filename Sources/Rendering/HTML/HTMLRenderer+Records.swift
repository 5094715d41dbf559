import TLSEngine

/// The TLS records that carry a step's content (RFC 5246 §6.2): each record's header and fragment
/// field by field, and for a protected record the values its protection used (sequence number,
/// write key, nonce, additional data, tag) in full, then what it decrypts to — enough to redo the
/// decryption by hand.
extension HTMLRenderer {
    func records(_ records: [RunDocument.RecordBytes], step: Int) -> String {
        var out = ""
        for (i, record) in records.enumerated() {
            let wire = record.wire.bytes
            guard wire.count >= 5 else { continue }
            let type = explanations.codePointName(ContentType(rawValue: wire[0]))
            let fragment = Int(wire[3]) << 8 | Int(wire[4])
            let values = ["type": type, "fragment": "\(fragment)", "total": "\(fragment + 5)",
                          "index": "\(i + 1)", "count": "\(records.count)"]
            let summary = record.headerOnly ? say("html.record.headerOnly", values)
                : say(records.count == 1 ? "html.record.summary" : "html.record.summaryOf", values)
            guard let p = record.protection else {
                // A TLS 1.3 protected record whose keys the trace does not hold: said protected, not read.
                let tls13 = record.wire.dissection.fields.first?.name == "TLSCiphertext"
                let about = "<p class=\"why\">\(say(tls13 ? "html.record.protected.tls13" : "html.record.clear"))</p>\n"
                out += bytes(record.wire, id: "record-\(step)-\(i + 1)", summary: summary, about: about,
                             dump: say("html.record.dump"))
                continue
            }
            let kind = p.tls13 ? "html.record.protected.tls13" : protectionKey(p.cipher, encryptThenMAC: isEncryptThenMAC(record.wire.dissection))
            var about = "<p class=\"why\">\(say(kind))</p>\n"
            about += p.tls13 ? tls13Calculation(p, wire: wire) : calculation(p, wire: wire)
            out += bytes(record.wire, id: "record-\(step)-\(i + 1)", summary: summary, about: about,
                         dump: say("html.record.dump"))
            out += bytes(p.plaintext, id: "record-\(step)-\(i + 1)-plain",
                         summary: say(p.tls13 ? "html.record.tls13Inner" : "html.record.plaintext", ["count": "\(p.plaintext.bytes.count)"]),
                         about: "<p class=\"why\">\(say(p.tls13 ? "html.record.tls13Inner.why" : "html.record.plaintext.why"))</p>\n",
                         dump: say("html.record.plaintext.dump"))
        }
        return out
    }

    private func isEncryptThenMAC(_ dissection: Dissection) -> Bool {
        dissection.leaves.contains { $0.name.hasSuffix(".MAC") || $0.name == "MAC" }
    }

    private func protectionKey(_ cipher: BulkCipher, encryptThenMAC: Bool) -> String {
        switch cipher {
        case .aes128GCM, .aes256GCM: "html.record.protected.gcm"
        case .chaCha20Poly1305: "html.record.protected.chacha"
        default: encryptThenMAC ? "html.record.protected.etm" : "html.record.protected.cbc"
        }
    }

    /// The values a protected record was sealed with, each whole (copyable), with the rule that made it.
    private func calculation(_ p: RunDocument.RecordBytes.Protection, wire: [UInt8]) -> String {
        func spaced(_ bytes: ArraySlice<UInt8>) -> String { bytes.map { Hex.string([$0]) }.joined() }
        var items: [String] = []
        /// `value`: the item's whole value in hex, also as `data-hex` (a copy button or a test reads it).
        func item(_ key: String, _ values: [String: String], name: String? = nil, value: [UInt8]? = nil) {
            let data = name.map { n in " data-name=\"\(n)\"" + (value.map { " data-hex=\"\(Hex.string($0))\"" } ?? "") } ?? ""
            items.append("<li\(data)>\(say(key, values.mapValues(HTMLText.escaped)))\(name.map { copyButton(name: $0) } ?? "")</li>")
        }
        let seq = (0..<8).reversed().map { UInt8(truncatingIfNeeded: p.sequenceNumber >> ($0 * 8)) }
        item("html.record.calc.seq", ["seq": "\(p.sequenceNumber)", "seqHex": Hex.string(seq)], name: "seq", value: seq)
        if let key = p.writeKey, !key.isEmpty { item("html.record.calc.key", ["key": Hex.string(key), "bytes": "\(key.count)"], name: "key", value: key) }
        let aad = p.additionalData
        let gcm = p.cipher == .aes128GCM || p.cipher == .aes256GCM
        switch p.cipher {
        case _ where gcm && p.nonceOrIV.count == 12:
            item("html.record.calc.gcmNonce", ["salt": Hex.string(Array(p.nonceOrIV.prefix(4))),
                                               "explicit": Hex.string(Array(p.nonceOrIV.suffix(8))), "nonce": Hex.string(p.nonceOrIV)],
                 name: "nonce", value: p.nonceOrIV)
        case .chaCha20Poly1305 where p.nonceOrIV.count == 12 && aad.count == 13:
            item("html.record.calc.chachaNonce", ["paddedSeq": "00000000" + spaced(aad[0..<8]), "nonce": Hex.string(p.nonceOrIV)],
                 name: "nonce", value: p.nonceOrIV)
        default:
            item("html.record.calc.iv", ["iv": Hex.string(p.nonceOrIV)], name: "iv", value: p.nonceOrIV)
        }
        if aad.count == 13 {
            let values = ["seqHex": spaced(aad[0..<8]), "type": spaced(aad[8..<9]), "version": spaced(aad[9..<11]),
                          "length": spaced(aad[11..<13]), "lengthValue": "\(Int(aad[11]) << 8 | Int(aad[12]))", "aad": Hex.string(aad)]
            item(p.cipher.isAEAD ? "html.record.calc.aad" : "html.record.calc.macHeader", values, name: "aad", value: aad)
        }
        item(p.cipher.isAEAD ? "html.record.calc.tag" : "html.record.calc.mac", ["tag": Hex.string(p.authenticator)],
             name: "tag", value: p.authenticator)
        if p.cipher.isAEAD {
            // The AEAD input as sent: the fragment after any explicit nonce, tag excluded.
            let skip = p.cipher == .chaCha20Poly1305 ? 0 : 8
            let body = Array(wire.dropFirst(5 + skip))
            if body.count >= p.authenticator.count {
                let ciphertext = Array(body.dropLast(p.authenticator.count))
                item("html.record.calc.ciphertext", ["ciphertext": Hex.string(ciphertext), "bytes": "\(ciphertext.count)"],
                     name: "ciphertext", value: ciphertext)
            }
        }
        return "<h4>\(say("html.record.calc.heading"))</h4>\n<ul class=\"calc\">\n" + items.joined(separator: "\n") + "\n</ul>\n"
    }

    /// A TLS 1.3 record's values (RFC 8446 §5.2–§5.3, §7.3), each whole, as `calculation` gives a TLS 1.2 record's.
    private func tls13Calculation(_ p: RunDocument.RecordBytes.Protection, wire: [UInt8]) -> String {
        var items: [String] = []
        func item(_ key: String, _ values: [String: String], name: String, value: [UInt8]) {
            items.append("<li data-name=\"\(name)\" data-hex=\"\(Hex.string(value))\">\(say(key, values.mapValues(HTMLText.escaped)))\(copyButton(name: name))</li>")
        }
        let seq = (0..<8).reversed().map { UInt8(truncatingIfNeeded: p.sequenceNumber >> ($0 * 8)) }
        item("html.record.calc.tls13Seq", ["seq": "\(p.sequenceNumber)", "seqHex": Hex.string(seq)], name: "seq", value: seq)
        let secret = p.trafficSecret ?? "traffic_secret"
        if let key = p.writeKey {
            item("html.record.calc.tls13Key", ["key": Hex.string(key), "bytes": "\(key.count)", "secret": secret], name: "key", value: key)
        }
        if let iv = p.writeIV {
            item("html.record.calc.tls13IV", ["iv": Hex.string(iv), "bytes": "\(iv.count)", "secret": secret], name: "iv", value: iv)
            let padded = [UInt8](repeating: 0, count: max(0, iv.count - 8)) + seq
            item("html.record.calc.tls13Nonce", ["iv": Hex.string(iv), "paddedSeq": Hex.string(padded), "nonce": Hex.string(p.nonceOrIV)],
                 name: "nonce", value: p.nonceOrIV)
        }
        let aad = p.additionalData
        if aad.count == 5 {
            item("html.record.calc.tls13Aad", ["type": Hex.string(Array(aad[0..<1])), "version": Hex.string(Array(aad[1..<3])),
                                               "length": Hex.string(Array(aad[3..<5])), "lengthValue": "\(Int(aad[3]) << 8 | Int(aad[4]))",
                                               "aad": Hex.string(aad)], name: "aad", value: aad)
        }
        item("html.record.calc.tls13Tag", ["tag": Hex.string(p.authenticator)], name: "tag", value: p.authenticator)
        let body = Array(wire.dropFirst(5))
        if body.count >= p.authenticator.count {
            let ciphertext = Array(body.dropLast(p.authenticator.count))
            item("html.record.calc.tls13Ciphertext", ["ciphertext": Hex.string(ciphertext), "bytes": "\(ciphertext.count)"],
                 name: "ciphertext", value: ciphertext)
        }
        return "<h4>\(say("html.record.calc.heading"))</h4>\n<ul class=\"calc\">\n" + items.joined(separator: "\n") + "\n</ul>\n"
    }
}
