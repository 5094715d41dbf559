import Foundation
import Rendering
import Simulation
import Testing
import TLSEngine
import Trace

/// The dissector's notes and values are typed facts; every one has words in English and Chinese
/// (`dissect.*`), and `tlslab dissect` in Chinese reads as the golden file shows.
@Suite("dissect: notes and values in every language")
struct DissectWordsTests {
    /// One note of each kind, with typed values.
    static func sample(_ kind: DissectionNote.Kind) -> DissectionNote {
        switch kind {
        case .truncated: return .truncated(needed: 32, available: 5)
        case .overrun: return .overrun(needed: 2, available: 1)
        case .declaresMore: return .declaresMore(declared: 47, present: 6)
        case .trailingBytes: return .trailingBytes(count: 3, after: "extension_data")
        case .notDissected: return .notDissected
        case .notReadAfterRefusal: return .notReadAfterRefusal
        case .refused: return .refused(.invalidMessage(.lengthOutOfRange(field: "cipher_suites", length: 3, min: 2, max: 0xfffe)))
        case .continuesMessage: return .continuesMessage(fromRecord: 2)
        case .messageStarts: return .messageStarts(.certificate, present: 95, total: 1708)
        case .headerStarts: return .headerStarts(.serverHelloDone)
        case .reassembled: return .reassembled(records: [1, 2, 3])
        case .notModelled: return .notModelled(HandshakeType(rawValue: 22))
        case .encrypted: return .encrypted(.handshake)
        case .gcmCiphertext: return .gcmCiphertext
        case .chaChaCiphertext: return .chaChaCiphertext
        case .blockCiphered: return .blockCiphered
        case .encryptThenMACCiphertext: return .encryptThenMACCiphertext
        case .encryptThenMACTag: return .encryptThenMACTag(mac: "HMAC-SHA256")
        case .refusedInTLS13: return .refusedInTLS13(.illegalParameter(.extensionNotAllowedInEncryptedExtensions))
        case .tls13EncryptedRecord: return .tls13EncryptedRecord
        case .compatibilityChangeCipherSpec: return .compatibilityChangeCipherSpec
        case .tls13Random: return .tls13Random
        case .helloRetryRequestRandom: return .helloRetryRequestRandom
        }
    }

    static func isCJK(_ s: Unicode.Scalar) -> Bool { (0x4E00...0x9FFF).contains(s.value) }

    @Test("every note kind has English and Chinese words, each with its RFC section", arguments: DissectionNote.Kind.allCases)
    func everyNoteKind(kind: DissectionNote.Kind) {
        let note = Self.sample(kind)
        #expect(note.kind == kind)
        let english = Explanations.english.dissectionNote(note)
        let chinese = Explanations.chinese.dissectionNote(note)
        for text in [english, chinese] {
            #expect(!text.hasPrefix("dissect.") && !text.contains("{") && !text.contains("dissect.note"), "\(kind): \(text)")
            #expect(text.contains("RFC "), "\(kind) names no RFC section: \(text)")
        }
        #expect(chinese.unicodeScalars.contains(where: Self.isCJK), "\(kind): \(chinese)")
        #expect(!english.unicodeScalars.contains(where: Self.isCJK), "\(kind): \(english)")
    }

    @Test("the engine's alert is named in the note, the engine's way: a bad ChangeCipherSpec is unexpected_message")
    func refusalNamesTheEnginesAlert() {
        let d = Dissector().dissectRecords([20, 3, 3, 0, 1, 2])
        #expect(d.refusals == [.peerMisbehaved(.malformedChangeCipherSpec(.value(2)))], "\(d)")
        let note = d.notes.first { $0.field == "type" && $0.note.kind == .refused }
        for words in [Explanations.english, .chinese] {
            #expect(note.map { words.dissectionNote($0.note).contains("unexpected_message") } == true)
        }
    }

    @Test("every value is worded in both languages; only registry names, numbers and hex stay as they are")
    func values() {
        let long = OpaqueBytes([UInt8](repeating: 0xab, count: 40))
        let values: [FieldValue] = [.bytes(long), .sizedBytes(OpaqueBytes([1])), .sizedBytes(long), .certificate(long), .ticket(long),
                                    .fragment(length: 1), .fragment(length: 300), .lifetimeHint(0), .lifetimeHint(7200)]
        for value in values {
            let english = Explanations.english.fieldValue(value)
            let chinese = Explanations.chinese.fieldValue(value)
            #expect(!english.contains("{") && !chinese.contains("{") && !english.hasPrefix("dissect."), "\(value)")
            if value.opaque?.isWhole == false || value.opaque == nil {
                #expect(chinese.unicodeScalars.contains(where: Self.isCJK) || chinese.allSatisfy { $0.isHexDigit || $0 == "…" }, "\(value): \(chinese)")
            }
        }
        #expect(Explanations.english.fieldValue(.sizedBytes(OpaqueBytes([0x17]))) == "1 byte: 17")
        #expect(Explanations.chinese.fieldValue(.certificate(long)) == "DER 证书，40 字节：" + String(repeating: "ab", count: 16) + "…（40 字节）")
        // In full (the bytes are printed beside it), a long value keeps its words only.
        #expect(Explanations.chinese.fieldValue(.certificate(long), withBytes: false) == "DER 证书，40 字节")
    }

    /// A built-in run's ClientHello in a record, whole and cut short, then a ChangeCipherSpec the engine
    /// refuses, dissected in Chinese.
    @Test("golden: a ClientHello dissected in Chinese (whole, then cut after 60 bytes), and a refused ChangeCipherSpec")
    func chineseClientHelloGolden() throws {
        let trace = try GoldenTests.trace(.rsa, seed: 1)
        let hello = try #require(trace.events.lazy.compactMap { event -> [UInt8]? in
            if case .tls(.handshakeSent(.clientHello, let wire)) = event.kind { return wire }
            return nil
        }.first)
        let record = TLSRecord(contentType: .handshake, fragment: hello).encoded
        let dump = HexdumpRenderer(width: 100, explanations: .chinese)
        var lines: [String] = []
        for bytes in [record, Array(record.prefix(60)), [20, 3, 3, 0, 1, 2]] {
            lines.append(Explanations.chinese.dissectionHeading(byteCount: bytes.count, asRecords: true))
            lines += dump.render(Dissector().dissectRecords(bytes), input: bytes)
        }
        let text = lines.joined(separator: "\n") + "\n"
        // Field names stay as the RFC spells them; no English sentence is left.
        #expect(text.contains("cipher_suites[0]") && text.contains("client_version"))
        for english in [" bytes", "declares", "truncated:", "present", "read as"] { #expect(!text.contains(english), "\(english)") }
        #expect(text.contains("声明了") && text.contains("unexpected_message"))
        // Columns are display columns: a Chinese character takes two.
        #expect(lines.allSatisfy { DisplayWidth.columns($0) <= 100 }, "\(lines.filter { DisplayWidth.columns($0) > 100 })")
        try GoldenTests.check(text, named: "dissect-clienthello-zh.txt")
    }

    /// A built-in TLS 1.3 run's server flight as records (its ServerHello selects TLS 1.3): the
    /// compatibility ChangeCipherSpec and the protected records are explained in Chinese, and the
    /// TLS 1.3 rule an EncryptedExtensions breaks names its alert.
    @Test("a TLS 1.3 server flight and a refused EncryptedExtensions, dissected in Chinese")
    func chineseTLS13Flight() throws {
        let trace = try GoldenTests.trace(.tls13, seed: 1)
        let serverHello = try #require(trace.sentHandshakeMessages().first { $0.actor == .server && $0.type == .serverHello }?.bytes)
        // The flight as the server's records carry it: ServerHello, ChangeCipherSpec, then application_data.
        let records = TLSRecord(contentType: .handshake, fragment: serverHello).encoded + [20, 3, 3, 0, 1, 1]
            + TLSRecord(contentType: .applicationData, fragment: Array(repeating: 0x5a, count: 40)).encoded
        let dump = HexdumpRenderer(width: 400, explanations: .chinese)  // one line a note
        let flight = Dissector().dissectRecords(records)
        #expect(flight.refusals.isEmpty, "\(flight)")
        var text = dump.render(flight, input: records).joined(separator: "\n")
        let encryptedExtensions: [UInt8] = [8, 0, 0, 10, 0, 8, 0, 0x33, 0, 4, 0, 0x1d, 0, 0]
        text += "\n" + dump.render(Dissector(context: HandshakeDecodingContext(version: .tls13)).dissectHandshakeMessages(encryptedExtensions),
                                   input: encryptedExtensions).joined(separator: "\n")
        #expect(text.contains("selected_version") && text.contains("TLS 1.3 (0x0304)") && text.contains("server_share"))
        for chinese in ["不切换任何密钥", "ServerHello 之后的每条 application_data 记录都受保护", "TLS 1.3 对端会以这个告警拒绝"] {
            #expect(text.contains(chinese), "\(chinese)")
        }
        #expect(text.contains("illegal_parameter"))
        for english in ["changes no keys", "is protected", "refuses these bytes", " bytes", "encrypted:"] {
            #expect(!text.contains(english), "\(english)")
        }
    }
}
