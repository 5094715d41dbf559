import TLSEngine

/// The words of a dissection (`tlslab dissect`, the `x` bytes of the walkthrough, the HTML byte
/// tables): the dissector's typed notes and values, worded from the catalogue (`dissect.*`). Field
/// names stay as the RFCs spell them; registry names, numbers and hex are the same in every language.
extension Explanations {
    /// A note on a dissected field, in this catalogue's language.
    public func dissectionNote(_ note: DissectionNote) -> String {
        switch note {
        case let .truncated(needed, available):
            return say("dissect.note.truncated", ["needed": "\(needed)", "available": "\(available)"])
        case let .overrun(needed, available):
            return say("dissect.note.overrun", ["needed": "\(needed)", "available": "\(available)"])
        case let .declaresMore(declared, present):
            return say("dissect.note.declaresMore", ["declared": "\(declared)", "present": "\(present)"])
        case let .trailingBytes(count, after):
            return say(count == 1 ? "dissect.note.trailingBytes.one" : "dissect.note.trailingBytes", ["count": "\(count)", "after": after])
        case .notDissected:
            return say("dissect.note.notDissected")
        case .notReadAfterRefusal:
            return say("dissect.note.notReadAfterRefusal")
        case .refused(let error):
            // The reason without the alert: the note names the alert once.
            let reason: String
            switch error {
            case .invalidMessage(let decode): reason = decodeError(decode)
            case .recordProtection(.badRecordMAC(let why)): reason = badRecordMAC(why)
            case .peerMisbehaved(let why): reason = misbehaved(why)
            case .peerIncompatible(let why): reason = incompatible(why)
            case let .inappropriateMessage(expected, got): reason = inappropriateMessage(expected: expected, got: got)
            default: reason = failure(error)
            }
            return say("dissect.note.refused", ["reason": reason, "alert": error.alert.map { "\($0)" } ?? "-"])
        case .refusedInTLS13(let failure):
            return say("dissect.note.refusedInTLS13", ["reason": tls13Failure(failure), "alert": "\(failure.alert)"])
        case .continuesMessage(let first):
            return say("dissect.note.continuesMessage", ["record": "\(first)"])
        case let .messageStarts(type, present, total):
            return say("dissect.note.messageStarts", ["type": messageName(type), "present": "\(present)", "total": "\(total)"])
        case .headerStarts(let type):
            return say("dissect.note.headerStarts", ["type": messageName(type)])
        case .reassembled(let records):
            let named = records.count <= 4
                ? records.map { "record[\($0)]" }.joined(separator: say("list.separator"))
                : say("dissect.records.range", ["first": "\(records.first ?? 0)", "last": "\(records.last ?? 0)", "count": "\(records.count)"])
            return say("dissect.note.reassembled", ["records": named])
        case .notModelled(let type):
            return say("dissect.note.notModelled", ["type": messageName(type)])
        case .encrypted(let type):
            return say("dissect.note.encrypted", ["type": codePointName(type)])
        case .gcmCiphertext: return say("dissect.note.gcmCiphertext")
        case .chaChaCiphertext: return say("dissect.note.chaChaCiphertext")
        case .blockCiphered: return say("dissect.note.blockCiphered")
        case .encryptThenMACCiphertext: return say("dissect.note.encryptThenMACCiphertext")
        case .encryptThenMACTag(let mac): return say("dissect.note.encryptThenMACTag", ["mac": mac])
        case .tls13EncryptedRecord: return say("dissect.note.tls13EncryptedRecord")
        case .compatibilityChangeCipherSpec: return say("dissect.note.compatibilityChangeCipherSpec")
        case .tls13Random: return say("dissect.note.tls13Random")
        case .helloRetryRequestRandom: return say("dissect.note.helloRetryRequestRandom")
        }
    }

    /// A dissected field's value, in this catalogue's language. `withBytes: false` leaves out the hex
    /// of opaque bytes (a hexdump that prints every byte beside the value).
    public func fieldValue(_ value: FieldValue, withBytes: Bool = true) -> String {
        func size(_ count: Int) -> String {
            count == 1 ? say("dissect.value.count.one") : say("dissect.value.count", ["count": "\(count)"])
        }
        func hex(_ b: OpaqueBytes) -> String {
            b.isWhole ? b.hex : say("dissect.value.elided", ["hex": Hex.string(b.shown), "size": size(b.count)])
        }
        func described(_ words: String, _ b: OpaqueBytes) -> String {
            withBytes ? say("dissect.value.withBytes", ["words": words, "hex": hex(b)]) : words
        }
        switch value {
        case .none: return ""
        case .text(let text): return text
        case .bytes(let b): return withBytes ? hex(b) : ""
        case .sizedBytes(let b): return described(size(b.count), b)
        case .certificate(let b): return described(say("dissect.value.certificate", ["size": size(b.count)]), b)
        case .ticket(let b): return described(say("dissect.value.ticket", ["size": size(b.count)]), b)
        case .fragment(let length): return size(length)
        case .lifetimeHint(let seconds):
            return seconds == 0 ? say("dissect.value.lifetimeHint.unspecified") : say("dissect.value.lifetimeHint", ["seconds": "\(seconds)"])
        case .lengthInWords(let words): return say("dissect.value.lengthInWords", ["words": "\(words)", "size": size(words * 4)])
        case .unnamed(let number): return unnamedNumber(number)
        }
    }

    /// A number TLSLab has no name for: TLSLab names only the values it knows, so it cannot say
    /// whether IANA assigned or reserved it, except for RFC 8701's GREASE values.
    public func unnamedNumber(_ number: UnnamedNumber) -> String {
        say(number.isGREASE ? "dissect.value.unnamed.grease" : "dissect.value.unnamed", ["number": number.shown])
    }

    /// A code point's registry name, or the words for a number TLSLab has no name for.
    public func codePointName<T: CodePoint>(_ value: T) -> String {
        value.name ?? unnamedNumber(UnnamedNumber(value))
    }

    /// A handshake message's name (`ClientHello`), or the words for a msg_type TLSLab has no name for.
    public func messageName(_ type: HandshakeType) -> String {
        type.isKnown ? type.messageName : unnamedNumber(UnnamedNumber(type))
    }

    /// The line above a dissection: how many bytes, read as what.
    public func dissectionHeading(byteCount: Int, asRecords: Bool) -> String {
        say(asRecords ? "dissect.heading.records" : "dissect.heading.handshake", ["count": "\(byteCount)"])
    }

    private func say(_ key: String, _ values: [String: String] = [:]) -> String { self(key, values) ?? key }

    /// Each sentence says why the bytes are where they are, with the RFC section that puts them there.
    static let englishDissect: [String: String] = [
        "dissect.heading.records": "{count} bytes, read as TLS records:",
        "dissect.heading.handshake": "{count} bytes, read as handshake messages:",
        "dissect.note.truncated": "truncated: the input stops here, inside this field — it needs {needed} bytes and {available} remain (RFC 5246 §4: each field is as long as its type or its length prefix says)",
        "dissect.note.overrun": "overrun: this field needs {needed} bytes, but the vector or structure holding it has {available} left (RFC 5246 §4.3: a length prefix counts the bytes of what it holds)",
        "dissect.note.declaresMore": "declares {declared} bytes, only {present} present: the length prefix counts bytes the input does not have (RFC 5246 §4.3)",
        "dissect.note.trailingBytes": "{count} bytes after the end of {after}: its length prefix ends it before them, so they belong to no field of it (RFC 5246 §4.3)",
        "dissect.note.trailingBytes.one": "1 byte after the end of {after}: its length prefix ends it before it, so it belongs to no field of it (RFC 5246 §4.3)",
        "dissect.note.notDissected": "not dissected after the problem above: without a length to trust, where the next field starts cannot be known (RFC 5246 §4.3)",
        "dissect.note.notReadAfterRefusal": "not read: the receiver refuses the message at the fault above and reads no further, it sends the alert and closes the connection (RFC 5246 §7.2.2)",
        "dissect.note.refused": "{reason}: {alert} — a TLSLab receiver refuses these bytes with this alert; its codec and record checks read them here (RFC 5246 §7.2.2 gives the alert for each kind of fault)",
        "dissect.note.continuesMessage": "continues the handshake message begun in record[{record}]: a handshake message may be cut across several records (RFC 5246 §6.2.1)",
        "dissect.note.messageStarts": "the first {present} of the {total} bytes of a {type} message; it continues in the next record (RFC 5246 §6.2.1: a handshake message may be cut across records)",
        "dissect.note.headerStarts": "the start of a {type} message's 4-byte header; it continues in the next record (RFC 5246 §6.2.1)",
        "dissect.note.reassembled": "reassembled from {records}; offsets are relative to this message (RFC 5246 §6.2.1: a receiver joins a message's fragments before reading it)",
        "dissect.records.range": "record[{first}] … record[{last}] ({count} records)",
        "dissect.note.notModelled": "{type}: TLSLab does not read this message type, so its body is shown as it is (RFC 5246 §7.4: the body's layout depends on msg_type)",
        "dissect.note.encrypted": "encrypted: opaque without the keys — a {type} record protected since ChangeCipherSpec (RFC 5246 §6.2.3); without the cipher suite its layout cannot be split",
        "dissect.note.gcmCiphertext": "encrypted: opaque without the keys (ciphertext ‖ 16-byte GCM tag; the nonce is the key block's 4-byte salt ‖ the nonce_explicit before it, RFC 5288 §3)",
        "dissect.note.chaChaCiphertext": "encrypted: opaque without the keys (ciphertext ‖ 16-byte Poly1305 tag; the nonce is the sequence number XOR the key block's IV, RFC 7905 §2)",
        "dissect.note.blockCiphered": "encrypted: opaque without the keys (content ‖ MAC ‖ padding ‖ padding_length, MAC-then-encrypt, RFC 5246 §6.2.3.2)",
        "dissect.note.encryptThenMACCiphertext": "encrypted: opaque without the keys (content ‖ padding ‖ padding_length), encrypt-then-MAC (RFC 7366 §3)",
        "dissect.note.encryptThenMACTag": "{mac} over seq_num ‖ type ‖ version ‖ length ‖ IV ‖ ciphertext, not encrypted (RFC 7366 §3): the receiver checks it before it decrypts",
        "dissect.note.refusedInTLS13": "{reason}: {alert} — a TLSLab TLS 1.3 peer refuses these bytes with this alert: they decode, but break this rule of RFC 8446 (§6.2 gives the alert for each kind of fault)",
        "dissect.note.tls13EncryptedRecord": "encrypted: opaque without the keys — in TLS 1.3 every application_data record after the ServerHello is protected; encrypted_record is the AEAD ciphertext of the content, its real content type and any zero padding, followed by the tag (RFC 8446 §5.2)",
        "dissect.note.tls13Random": "in TLS 1.3 the random is 32 bytes from a secure random number generator, with no time in it: TLS 1.2's gmt_unix_time is gone (RFC 8446 §4.1.2, §4.1.3)",
        "dissect.note.helloRetryRequestRandom": "the fixed value SHA-256(\"HelloRetryRequest\"), which marks this ServerHello as a HelloRetryRequest: neither a time nor a random value (RFC 8446 §4.1.3)",
        "dissect.note.compatibilityChangeCipherSpec": "in TLS 1.3 this ChangeCipherSpec changes no keys: it is sent only so that middleboxes see an exchange that looks like TLS 1.2, and the receiver drops it (RFC 8446 §5, Appendix D.4)",
        "dissect.value.count": "{count} bytes",
        "dissect.value.count.one": "1 byte",
        "dissect.value.elided": "{hex}… ({size})",
        "dissect.value.withBytes": "{words}: {hex}",
        "dissect.value.certificate": "DER certificate, {size}",
        "dissect.value.ticket": "{size}, opaque to the client",
        "dissect.value.lifetimeHint": "{seconds} seconds",
        "dissect.value.lengthInWords": "{words} ({size})",
        "dissect.value.lifetimeHint.unspecified": "0 (lifetime unspecified, RFC 5077 §3.3)",
        "dissect.value.unnamed": "not a value TLSLab knows ({number})",
        "dissect.value.unnamed.grease": "a value RFC 8701 reserves for GREASE ({number})",
    ]
}
