import Foundation
import Testing
import TestSupport
@testable import TLSEngine

/// Issue #32 item 4: the dissector reads a message with the engine's own codec, so the error it shows
/// for malformed bytes — and the alert it names — is the one the engine throws and sends. Here the engine
/// is asked separately (its reassembler and codec for a handshake message, its record reader and content
/// checks for a record), and the two answers are compared, over messages of the committed fuzz corpus
/// with bytes changed and over hand-made malformed messages and records.
@Suite("the dissector's verdict is the engine's")
struct DissectorVerdictTests {
    /// What a receiver does with one whole handshake message (RFC 5246 §7.4): reassemble, then decode
    /// with the context the hellos fixed.
    static func engineVerdict(message: [UInt8], context: HandshakeDecodingContext) -> TLSError? {
        var reassembler = HandshakeReassembler()
        reassembler.append(message)
        do {
            guard let raw = try reassembler.next() else { return nil }
            _ = try raw.decode(context: context)
            return nil
        } catch {
            return .invalidMessage(error)
        }
    }

    /// What a receiver does with one record in the clear: its record reader, then the content checks.
    static func engineVerdict(record: [UInt8]) -> TLSError? {
        var reader = RecordReader()
        reader.append(record)
        do throws(TLSError) {
            let parsed: TLSRecord?
            do { parsed = try reader.next() } catch { throw .invalidMessage(error) }
            guard let parsed else { return nil }
            switch parsed.contentType {
            case .changeCipherSpec: try IncomingContent.checkChangeCipherSpec(parsed.fragment)
            case .alert: _ = try IncomingContent.decodeAlert(parsed.fragment)
            default: break
            }
            return nil
        } catch {
            return error
        }
    }

    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fuzz/Corpus/handshake")

    /// The corpus's handshake flights, split into messages.
    static func corpusMessages() throws -> [[[UInt8]]] {
        let files = try FileManager.default.contentsOfDirectory(atPath: corpus.path).sorted()
        #expect(!files.isEmpty, "no corpus at \(corpus.path)")
        return try files.map { name in
            var reassembler = HandshakeReassembler()
            reassembler.append(Array(try Data(contentsOf: corpus.appendingPathComponent(name))))
            return try reassembler.drain().map(\.bytes)
        }
    }

    @Test("corpus messages with bytes changed, added or removed: the same refusal, the same alert")
    func mutatedCorpus() throws {
        var compared = 0, refused = 0
        for flight in try Self.corpusMessages() {
            var context = HandshakeDecodingContext()
            for message in flight {
                for seed in UInt64(1) ... 80 {
                    var rng = SplitMix64(seed: seed &* 7919 &+ UInt64(message.count))
                    var body = Array(message.dropFirst(HandshakeMessage.headerLength))
                    switch rng.int(0 ... 3) {
                    case 0 where !body.isEmpty: body.remove(at: rng.int(0 ... body.count - 1))
                    case 1: body.insert(rng.u8(), at: rng.int(0 ... body.count))
                    default:
                        for _ in 0 ..< rng.int(1 ... 3) where !body.isEmpty { body[rng.int(0 ... body.count - 1)] = rng.u8() }
                    }
                    // The header announces the body as it now is: a whole message, judged by the engine.
                    let mutated = [message[0], UInt8(body.count >> 16), UInt8(body.count >> 8 & 0xff), UInt8(body.count & 0xff)] + body
                    let engine = Self.engineVerdict(message: mutated, context: context)
                    let dissection = Dissector(context: context).dissectHandshakeMessages(mutated)
                    #expect(dissection.refusals == (engine.map { [$0] } ?? []), "\(HandshakeType(rawValue: message[0])) seed \(seed): dissector \(dissection.refusals), engine \(String(describing: engine))")
                    #expect(dissection.refusals.map(\.alert) == (engine.map { [$0.alert] } ?? []))
                    #expect(leavesCoverExactly(dissection.leaves, count: mutated.count), "seed \(seed)")
                    compared += 1
                    if engine != nil { refused += 1 }
                }
                // The next messages are read as the engine reads them once this one is in.
                if case .serverHello(let hello)? = try? HandshakeMessage(decoding: message, context: context) {
                    context = HandshakeDecodingContext(negotiated: hello.cipherSuite, version: hello.serverVersion)
                }
            }
        }
        #expect(compared > 500 && refused > 100, "\(compared) compared, \(refused) refused")
    }

    /// Hand-made malformed handshake messages, one per kind of refusal.
    static let handshakeCases: [(name: String, hex: String, suite: CipherSuite?)] = [
        ("empty ClientHello body", "01000000", nil),
        ("ClientHello cipher_suites of odd length", "0100002a0303" + String(repeating: "00", count: 32) + "000003002f000100", nil),
        ("duplicate server_name", "010000330303" + String(repeating: "00", count: 32) + "000002002f010000080000000000000000", nil),
        ("server_name of name_type 1", "010000340303" + String(repeating: "00", count: 32) + "000002002f01000009000000050003010000", nil),
        ("ServerHello with two ALPN names", "020000340303" + String(repeating: "11", count: 32) + "00c02f00000c001000080006026832026833", nil),
        ("Finished of 5 bytes", "140000050102030405", .TLS_RSA_WITH_AES_128_GCM_SHA256),
        ("ServerHelloDone with a body", "0e00000100", nil),
        ("ServerKeyExchange with an explicit_prime curve", "0c00001801011701010102010301050101040401020304010002aabb",
         .TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256),
        ("ServerKeyExchange before the key exchange is known", "0c0000050001020304", nil),
        ("ClientKeyExchange with a short point", "10000003050102", .TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256),
        ("Certificate with an empty certificate", "0b000006000003000000", nil),
    ]

    @Test("hand-made malformed messages: the dissector refuses with the engine's error and alert")
    func handMadeMessages() throws {
        for (name, hex, suite) in Self.handshakeCases {
            let bytes = try #require(Hex.bytes(hex), "\(name)")
            let context = suite.map { HandshakeDecodingContext(negotiated: $0) } ?? HandshakeDecodingContext()
            let engine = try #require(Self.engineVerdict(message: bytes, context: context), "\(name): the engine accepts it")
            let dissection = Dissector(context: context).dissectHandshakeMessages(bytes)
            #expect(dissection.refusals == [engine], "\(name): dissector \(dissection.refusals), engine \(engine)")
            #expect(dissection.refusals.first?.alert == engine.alert, "\(name)")
            #expect(leavesCoverExactly(dissection.leaves, count: bytes.count), "\(name)")
        }
    }

    @Test("hand-made malformed records: ChangeCipherSpec and alerts are refused as the receiver refuses them")
    func handMadeRecords() throws {
        let cases: [(String, String, AlertDescription)] = [
            ("ChangeCipherSpec of two bytes", "140303000201 01", .unexpectedMessage),
            ("ChangeCipherSpec of value 2", "1403030001 02", .unexpectedMessage),
            ("alert of one byte", "1503030001 02", .decodeError),
            ("alert of three bytes", "1503030003 02 28 00", .decodeError),
            ("alert of level 3", "1503030002 03 28", .illegalParameter),
        ]
        for (name, hex, alert) in cases {
            let bytes = try #require(Hex.bytes(hex.replacingOccurrences(of: " ", with: "")), "\(name)")
            let engine = try #require(Self.engineVerdict(record: bytes), "\(name): the engine accepts it")
            let dissection = Dissector().dissectRecords(bytes)
            #expect(dissection.refusals == [engine], "\(name): dissector \(dissection.refusals), engine \(engine)")
            #expect(engine.alert == alert, "\(name): the engine sends \(engine.alert)")
            #expect(leavesCoverExactly(dissection.leaves, count: bytes.count), "\(name)")
        }
    }

    /// The recorder sees the reads the engine makes: a well-formed ClientHello's fields come from the
    /// codec, under the names its reads give them.
    @Test("a recorded read is the codec's read: names, offsets and lengths of a ClientHello")
    func recordedReads() throws {
        let hello = ClientHello(random: Random([UInt8](repeating: 7, count: 32)), cipherSuites: [.TLS_RSA_WITH_AES_128_GCM_SHA256],
                                extensions: [.serverName([ServerName(hostName: "example.com")]), .extendedMasterSecret])
        let bytes = HandshakeMessage.clientHello(hello).encoded
        let d = Dissector().dissectHandshakeMessages(bytes)
        #expect(d.leaves.map(\.name) == [
            "msg_type", "length", "client_version", "random.gmt_unix_time", "random.random_bytes", "session_id.length",
            "cipher_suites.length", "cipher_suites[0]", "compression_methods.length", "compression_methods[0]",
            "extensions.length", "extensions[0].extension_type", "extensions[0].extension_data.length",
            "extensions[0].server_name_list.length", "extensions[0].server_name_list[0].name_type",
            "extensions[0].server_name_list[0].host_name.length", "extensions[0].server_name_list[0].host_name",
            "extensions[1].extension_type", "extensions[1].extension_data.length",
        ])
        #expect(d.leaves.first { $0.name.hasSuffix("host_name") }?.value == "\"example.com\"")
        #expect(leavesCoverExactly(d.leaves, count: bytes.count))
        #expect(d.notes.isEmpty)
    }
}
