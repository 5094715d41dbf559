import Testing
@testable import TLSEngine

@Suite("Dissector")
struct DissectorTests {
    @Test("the OpenSSL handshake messages: every field named, every byte covered exactly once")
    func opensslMessages() throws {
        let v = try Fixtures.opensslHandshake()
        let stream = v.messages.flatMap { $0 } + [20, 0, 0, 12] + v.clientVerifyData
        let d = Dissector().dissectHandshakeMessages(stream)
        #expect(d.fields.count == 6)
        #expect(leavesCoverExactly(d.leaves, count: stream.count))
        #expect(d.leaves.allSatisfy { !$0.name.isEmpty && !$0.name.contains("undissected") })
        #expect(d.notes.isEmpty, "\(d.notes)")

        func value(_ name: String) -> String? { d.leaves.first { $0.name == name }?.value.text }
        #expect(value("client_version") == "TLS 1.2 (0x0303)")
        #expect(value("random.gmt_unix_time")?.hasPrefix("\(UInt32(0x79ee60ba)) ") == true)
        #expect(value("random.random_bytes") == Hex.string(v.clientRandom.dropFirst(4)))
        #expect(value("cipher_suites[0]") == "TLS_RSA_WITH_AES_128_GCM_SHA256 (0x009c)")
        #expect(value("cipher_suites[1]") == "TLS_EMPTY_RENEGOTIATION_INFO_SCSV (0x00ff)")
        #expect(value("extensions[0].extension_type") == "server_name (0x0000)")
        #expect(value("extensions[0].server_name_list[0].host_name") == "\"localhost\"")
        #expect(value("extensions[2].supported_signature_algorithms[15]") == "rsa_pkcs1_sha224 (0x0301)")
        #expect(value("extensions[2].supported_signature_algorithms[19]") == "dsa_sha512 (0x0602)")
        #expect(value("cipher_suite") == "TLS_RSA_WITH_AES_128_GCM_SHA256 (0x009c)")
        #expect(value("extensions[0].renegotiated_connection.length") == "0")
        #expect(value("certificate_list[1].length") == "828")
        #expect(value("encrypted_pre_master_secret.length") == "256")
        #expect(value("verify_data") == Hex.string(v.clientVerifyData))
        // Field offsets are absolute: the ClientHello's client_version is right after its header.
        #expect(d.leaves.first { $0.name == "client_version" }?.offset == 4)
        // The message groups say what they are.
        #expect(d.fields.map(\.value.text) == ["client_hello", "server_hello", "certificate", "server_hello_done",
                                          "client_key_exchange", "finished"])
    }

    /// The OpenSSL messages as records of 100 bytes (so messages span records), then
    /// ChangeCipherSpec and the real encrypted Finished record.
    static func recordStream() throws -> [UInt8] {
        let v = try Fixtures.opensslHandshake()
        let handshake = v.messages.flatMap { $0 }
        let records = TLSRecord.fragment(handshake, contentType: .handshake, maxFragmentLength: 100)
        return records.flatMap(\.encoded) + TLSRecord(contentType: .changeCipherSpec, fragment: [1]).encoded
            + v.clientFinishedRecord
    }

    @Test("records: fragments, reassembly, and ciphertext after ChangeCipherSpec")
    func records() throws {
        let wire = try Self.recordStream()
        let d = Dissector().dissectRecords(wire)
        #expect(leavesCoverExactly(d.leaves, count: wire.count))
        #expect(d.leaves.allSatisfy { $0.notes.isEmpty || ["handshake_fragment", "aead_ciphertext"].contains($0.name) }, "\(d)")
        #expect(d.refusals.isEmpty, "\(d.refusals)")
        let names = Set(d.leaves.map(\.name))
        // The ServerHello (85 bytes) fits in one record and is dissected in place.
        #expect(names.isSuperset(of: ["type", "version", "length", "server_version", "cipher_suite",
                                      "handshake_fragment", "nonce_explicit", "aead_ciphertext"]))
        #expect(d.reassembled.first?.leaves.first { $0.name == "client_version" }?.value == "TLS 1.2 (0x0303)")
        // Every byte of a fragment says which message it continues or starts.
        #expect(d.leaves.filter { $0.name == "handshake_fragment" }.allSatisfy { f in
            f.notes.contains { [.continuesMessage, .messageStarts, .headerStarts].contains($0.kind) } })
        // The Certificate (1704 bytes) spans records; it comes back whole in `reassembled`.
        let types = d.reassembled.compactMap(\.value.text)
        #expect(types.contains("certificate") && types.contains("client_hello"))
        for message in d.reassembled {
            guard case .reassembled(let from) = message.notes.first else { Issue.record("\(message.notes)"); continue }
            #expect(!from.isEmpty && from == from.sorted())
            #expect(!message.leaves.contains { $0.name == "undissected" || $0.notes.contains { $0.kind == .truncated } })
        }
        // The last record is opaque ciphertext: an 8-byte explicit nonce and 32 bytes (Finished + tag).
        let last = try #require(d.fields.last)
        #expect(last.value == "handshake")
        #expect(last.leaves.map(\.name) == ["type", "version", "length", "nonce_explicit", "aead_ciphertext"])
        #expect(last.leaves.map(\.length) == [1, 2, 2, 8, 32])
    }

    @Test("every truncation still covers each byte once and says where the bytes stop")
    func truncations() throws {
        let v = try Fixtures.opensslHandshake()
        let messages = v.messages.flatMap { $0 }
        let records = TLSRecord.fragment(messages, contentType: .handshake).flatMap(\.encoded)
        // A cut between two whole messages is a valid (shorter) input.
        var boundaries: Set<Int> = [0]
        var end = 0
        for m in v.messages { end += m.count; boundaries.insert(end) }
        // Records of 100 bytes, so that messages span records; a cut between records is valid.
        let small = try Self.recordStream()
        var recordEnds: Set<Int> = [0]
        var reader = ByteReader(small)
        while !reader.isAtEnd {
            _ = try TLSRecord(from: &reader)
            recordEnds.insert(reader.position)
        }
        for (input, valid, dissect) in [
            (messages, boundaries, { (b: [UInt8]) in Dissector().dissectHandshakeMessages(b) }),
            (records, [0], { (b: [UInt8]) in Dissector().dissectRecords(b) }),
            (small, recordEnds, { (b: [UInt8]) in Dissector().dissectRecords(b) }),
        ] {
            var cuts = Array(0 ..< 400)
            cuts += Array(stride(from: 400, to: input.count, by: 13))
            for cut in cuts {
                let prefix = Array(input[..<cut])
                let d = dissect(prefix)
                #expect(leavesCoverExactly(d.leaves, count: cut), "cut \(cut)")
                if !valid.contains(cut) {
                    #expect(d.notes.contains { [.truncated, .declaresMore].contains($0.note.kind) }, "cut \(cut)")
                }
            }
        }
    }

    @Test("garbage never crashes and is still covered exactly (500 seeds)")
    func garbage() {
        for seed in UInt64(1) ... 500 {
            var gen = MessageGenerator(seed: seed)
            let (message, ctx) = gen.message(kind: gen.rng.int(0 ... MessageGenerator.kindCount - 1))
            var bytes = message.encoded
            for _ in 0 ..< gen.rng.int(0 ... 4) {
                let i = gen.rng.int(0 ... bytes.count - 1)
                bytes[i] = gen.rng.u8()
            }
            let d1 = Dissector(context: ctx).dissectHandshakeMessages(bytes)
            #expect(leavesCoverExactly(d1.leaves, count: bytes.count), "seed \(seed)")
            let wire = [22, 3, 3] + bytes.prefix(2) + bytes
            let d2 = Dissector(context: ctx).dissectRecords(wire)
            #expect(leavesCoverExactly(d2.leaves, count: wire.count), "seed \(seed)")
            let random = gen.rng.bytes(0 ... 200)
            #expect(leavesCoverExactly(Dissector().dissectRecords(random).leaves, count: random.count))
            #expect(leavesCoverExactly(Dissector().dissectHandshakeMessages(random).leaves, count: random.count))
        }
    }

    @Test("a well-formed generated message is dissected without notes, for every kind")
    func generated() {
        for seed in UInt64(1) ... 200 {
            var gen = MessageGenerator(seed: seed)
            for kind in 0 ..< MessageGenerator.kindCount {
                let (message, ctx) = gen.message(kind: kind)
                let bytes = message.encoded
                let d = Dissector(context: ctx).dissectHandshakeMessages(bytes)
                #expect(leavesCoverExactly(d.leaves, count: bytes.count))
                let expectNotes = { if case .other = message { return true } else { return false } }()
                if !expectNotes {
                    #expect(d.notes.isEmpty, "seed \(seed) kind \(kind): \(d.notes)")
                }
            }
        }
    }

    @Test("ServerKeyExchange fields for DHE and ECDHE, with the signed params")
    func serverKeyExchange() {
        let ecdhe = HandshakeMessage.serverKeyExchange(ServerKeyExchange(
            params: .ecdhe(ServerECDHParams(namedGroup: .x25519, point: [UInt8](repeating: 9, count: 32))),
            signedParams: DigitallySigned(algorithm: .rsaPSSRSAESHA256, signature: [1, 2, 3])))
        let d = Dissector(cipherSuite: .TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256).dissectHandshakeMessages(ecdhe.encoded)
        #expect(d.leaves.map(\.name) == ["msg_type", "length", "params.curve_params.curve_type", "params.curve_params.namedcurve",
                                         "params.public.point.length", "params.public.point", "signed_params.algorithm",
                                         "signed_params.signature.length", "signed_params.signature"])
        #expect(d.leaves.first { $0.name == "params.curve_params.namedcurve" }?.value == "x25519 (0x001d)")
        let dhe = HandshakeMessage.serverKeyExchange(ServerKeyExchange(
            params: .dhe(ServerDHParams(p: [0xff, 0xff], g: [2], ys: [5, 6])),
            signedParams: DigitallySigned(algorithm: .rsaPKCS1SHA256, signature: [7])))
        let d2 = Dissector(context: HandshakeDecodingContext(keyExchange: .dheRSA)).dissectHandshakeMessages(dhe.encoded)
        #expect(d2.leaves.map(\.name).contains("params.dh_Ys"))
        #expect(d2.leaves.first { $0.name == "signed_params.algorithm" }?.value == "rsa_pkcs1_sha256 (0x0401)")
        // Without a ServerHello the body is shown opaque, with a note.
        let unknown = Dissector().dissectHandshakeMessages(dhe.encoded)
        #expect(unknown.refusals == [.invalidMessage(.needsKeyExchange(.serverKeyExchange, reason: .notKnownYet))], "\(unknown)")
        #expect(unknown.refusals.first?.alert == .unexpectedMessage)
    }
}
