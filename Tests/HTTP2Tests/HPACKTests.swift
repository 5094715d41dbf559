@testable import HTTP2
import TestSupport
import Testing

/// HPACK (RFC 7541): known answers from Appendix C, Huffman codes from Appendix B, decoder errors,
/// and a seeded encode/decode round trip with shared dynamic tables.
@Suite("HPACK (RFC 7541)")
struct HPACKTests {
    static func hex(_ s: String) -> [UInt8] {
        let digits = Array(s.filter { !$0.isWhitespace })
        return stride(from: 0, to: digits.count, by: 2).map { UInt8(String(digits[$0...$0 + 1]), radix: 16)! }
    }

    static func fields(_ pairs: [(String, String)]) -> [HPACKHeaderField] { pairs.map { HPACKHeaderField($0.0, $0.1) } }

    // MARK: Appendix C.1: integers

    @Test func integerExamplesC1() throws {
        #expect(HPACKInteger.encode(10, prefixBits: 5) == [0x0a])                     // C.1.1
        #expect(HPACKInteger.encode(1337, prefixBits: 5) == [0x1f, 0x9a, 0x0a])       // C.1.2
        #expect(HPACKInteger.encode(42, prefixBits: 8) == [0x2a])                     // C.1.3
        for (bytes, n, value) in [([UInt8(0xea)], 5, 10), ([0xff, 0x9a, 0x0a], 5, 1337), ([0x2a], 8, 42)] {
            var p = 0
            #expect(try HPACKInteger.decode(bytes, at: &p, prefixBits: n) == value)
            #expect(p == bytes.count)
        }
        // A prefix exactly full needs a zero continuation octet.
        #expect(HPACKInteger.encode(31, prefixBits: 5) == [0x1f, 0x00])
    }

    @Test func integerErrors() {
        var p = 0
        #expect(throws: HPACKError.truncated) { try HPACKInteger.decode([0x1f, 0x9a], at: &p, prefixBits: 5) }
        p = 0
        let huge: [UInt8] = [0x1f] + [UInt8](repeating: 0xff, count: 10) + [0x01]
        #expect(throws: HPACKError.integerOverflow) { try HPACKInteger.decode(huge, at: &p, prefixBits: 5) }
        p = 0
        // 2^32 + 30: past the 32-bit limit in five continuation octets.
        #expect(throws: HPACKError.integerOverflow) { try HPACKInteger.decode([0x1f, 0xff, 0xff, 0xff, 0xff, 0x10], at: &p, prefixBits: 5) }
    }

    // MARK: Appendix B: the Huffman code

    @Test func huffmanCodesMatchAppendixB() {
        // (symbol, code as hex aligned to LSB, length) rows of RFC 7541 Appendix B.
        let rows: [(Int, UInt32, Int)] = [
            (0, 0x1ff8, 13), (1, 0x7fffd8, 23), (9, 0xffffea, 24), (10, 0x3ffffffc, 30), (22, 0x3ffffffe, 30),
            (32, 0x14, 6), (34, 0x3f9, 10), (39, 0x7fa, 11), (48, 0x0, 5), (58, 0x5c, 7), (60, 0x7ffc, 15),
            (92, 0x7fff0, 19), (94, 0x3ffc, 14), (97, 0x3, 5), (123, 0x7ffe, 15), (126, 0x1ffd, 13),
            (127, 0xffffffc, 28), (128, 0xfffe6, 20), (129, 0x3fffd2, 22), (153, 0x1fffdc, 21), (171, 0xfffff0, 24),
            (192, 0x3ffffe0, 26), (195, 0x7fff1, 19), (199, 0x1ffffec, 25), (203, 0x7ffffde, 27), (220, 0xffffffd, 28),
            (224, 0xfffec, 20), (249, 0xffffffe, 28), (254, 0x7fffff0, 27), (255, 0x3ffffee, 26), (256, 0x3fffffff, 30),
        ]
        for (symbol, code, length) in rows {
            let c = HPACKHuffman.code(of: symbol)
            #expect(c.code == code && c.length == length, "symbol \(symbol): \(String(c.code, radix: 16))/\(c.length)")
        }
        // A complete prefix code: Kraft's sum is exactly 1.
        let kraft = HPACKHuffman.lengths.reduce(0.0) { $0 + 1.0 / Double(1 << Int($1)) }
        #expect(kraft == 1.0)
    }

    @Test func huffmanStringsFromAppendixC() throws {
        let vectors = [
            ("www.example.com", "f1e3 c2e5 f23a 6ba0 ab90 f4ff"), ("no-cache", "a8eb 1064 9cbf"),
            ("custom-key", "25a8 49e9 5ba9 7d7f"), ("custom-value", "25a8 49e9 5bb8 e8b4 bf"), ("302", "6402"),
            ("private", "aec3 771a 4b"), ("Mon, 21 Oct 2013 20:13:21 GMT", "d07a be94 1054 d444 a820 0595 040b 8166 e082 a62d 1bff"),
            ("https://www.example.com", "9d29 ad17 1863 c78f 0b97 c8e9 ae82 ae43 d3"), ("gzip", "9bd9 ab"),
            ("foo=ASDJKHQKBZXOQWEOPIUAXQWEOIU; max-age=3600; version=1",
             "94e7 821d d7f2 e6c7 b335 dfdf cd5b 3960 d5af 2708 7f36 72c1 ab27 0fb5 291f 9587 3160 65c0 03ed 4ee5 b106 3d50 07"),
        ]
        for (text, code) in vectors {
            #expect(HPACKHuffman.encode(Array(text.utf8)) == Self.hex(code), "\(text)")
            #expect(try HPACKHuffman.decode(Self.hex(code)) == Array(text.utf8))
        }
        // Every octet round-trips.
        let all = (0...255).map { UInt8($0) }
        #expect(try HPACKHuffman.decode(HPACKHuffman.encode(all)) == all)
    }

    @Test func huffmanPaddingAndEOSAreErrors() {
        // 'a' is 00011: padded with ones is 0x1f; with zeros (0x18) the padding is wrong.
        #expect((try? HPACKHuffman.decode([0x1f])) == Array("a".utf8))
        #expect(throws: HPACKError.huffmanPadding) { try HPACKHuffman.decode([0x18]) }
        // A whole octet of padding (8 ones) is too long.
        #expect(throws: HPACKError.huffmanPadding) { try HPACKHuffman.decode([0x1f, 0xff]) }
        // EOS (30 ones) inside a string.
        #expect(throws: HPACKError.huffmanEOS) { try HPACKHuffman.decode([0xff, 0xff, 0xff, 0xfc]) }
    }

    // MARK: Appendix C.3 and C.4: requests, with and without Huffman

    static let requests: [[HPACKHeaderField]] = [
        fields([(":method", "GET"), (":scheme", "http"), (":path", "/"), (":authority", "www.example.com")]),
        fields([(":method", "GET"), (":scheme", "http"), (":path", "/"), (":authority", "www.example.com"), ("cache-control", "no-cache")]),
        fields([(":method", "GET"), (":scheme", "https"), (":path", "/index.html"), (":authority", "www.example.com"), ("custom-key", "custom-value")]),
    ]

    /// The dynamic table after each request (newest first) and its size (Appendix C.3/C.4).
    static let tables: [([(String, String)], Int)] = [
        ([(":authority", "www.example.com")], 57),
        ([("cache-control", "no-cache"), (":authority", "www.example.com")], 110),
        ([("custom-key", "custom-value"), ("cache-control", "no-cache"), (":authority", "www.example.com")], 164),
    ]

    func checkRequests(huffman: HPACKEncoder.HuffmanPolicy, blocks: [String]) throws {
        var encoder = HPACKEncoder(huffman: huffman)
        var decoder = HPACKDecoder()
        for (i, request) in Self.requests.enumerated() {
            let (block, summary) = encoder.encode(request)
            #expect(block == Self.hex(blocks[i]), "request \(i + 1)")
            #expect(summary.encodedSize == block.count)
            let (decoded, _) = try decoder.decode(Self.hex(blocks[i]))
            #expect(decoded == request)
            let want = Self.fields(Self.tables[i].0)
            #expect(encoder.table.entries == want && encoder.table.size == Self.tables[i].1)
            #expect(decoder.table.entries == want && decoder.table.size == Self.tables[i].1)
        }
    }

    @Test func requestsWithoutHuffmanC3() throws {
        try checkRequests(huffman: .never, blocks: [
            "8286 8441 0f77 7777 2e65 7861 6d70 6c65 2e63 6f6d",
            "8286 84be 5808 6e6f 2d63 6163 6865",
            "8287 85bf 400a 6375 7374 6f6d 2d6b 6579 0c63 7573 746f 6d2d 7661 6c75 65",
        ])
    }

    @Test func requestsWithHuffmanC4() throws {
        try checkRequests(huffman: .whenShorter, blocks: [
            "8286 8441 8cf1 e3c2 e5f2 3a6b a0ab 90f4 ff",
            "8286 84be 5886 a8eb 1064 9cbf",
            "8287 85bf 4088 25a8 49e9 5ba9 7d7f 8925 a849 e95b b8e8 b4bf",
        ])
    }

    /// C.5: responses with a 256-octet table, so entries are evicted.
    @Test func responsesWithEvictionC5() throws {
        let responses: [[HPACKHeaderField]] = [
            Self.fields([(":status", "302"), ("cache-control", "private"), ("date", "Mon, 21 Oct 2013 20:13:21 GMT"), ("location", "https://www.example.com")]),
            Self.fields([(":status", "307"), ("cache-control", "private"), ("date", "Mon, 21 Oct 2013 20:13:21 GMT"), ("location", "https://www.example.com")]),
        ]
        let blocks = [
            "4803 3330 3258 0770 7269 7661 7465 611d 4d6f 6e2c 2032 3120 4f63 7420 3230 3133 2032 303a 3133 3a32 3120 474d 546e 1768 7474 7073 3a2f 2f77 7777 2e65 7861 6d70 6c65 2e63 6f6d",
            "4803 3330 37c1 c0bf",
        ]
        var encoder = HPACKEncoder(maxTableSize: 256, huffman: .never)
        var decoder = HPACKDecoder(maxTableSize: 256)
        for (i, response) in responses.enumerated() {
            let (block, _) = encoder.encode(response)
            #expect(block == Self.hex(blocks[i]))
            #expect(try decoder.decode(block).fields == response)
        }
        #expect(decoder.table.size == 222 && decoder.table.entries.first == HPACKHeaderField(":status", "307"))
        #expect(!decoder.table.entries.contains(HPACKHeaderField(":status", "302")), "the oldest entry was evicted")
    }

    // MARK: Representations and errors

    @Test func literalKindsAndSizeUpdate() throws {
        var encoder = HPACKEncoder(huffman: .never, neverIndexed: ["cookie"])
        let (block, summary) = encoder.encode(Self.fields([("cookie", "session=42"), ("password", "secret")]))
        // cookie: never indexed (0001), name index 32; password: a literal name, incremental.
        #expect(block.first == 0x1f && block[1] == 0x11)
        #expect(encoder.table.entries == Self.fields([("password", "secret")]))
        guard case .literal(_, nameIndex: 32, indexing: .never, huffmanName: false, huffmanValue: false) = summary.representations[0] else { Issue.record("\(summary.representations)"); return }
        // Literal without indexing (0000): decoded but never added.
        var decoder = HPACKDecoder()
        let without: [UInt8] = [0x04, 0x01, 0x2f]      // :path (index 4) "/" without indexing
        #expect(try decoder.decode(without).fields == Self.fields([(":path", "/")]))
        #expect(decoder.table.entries.isEmpty)
        // A size update to 0 empties the table; then the next block must start with it.
        _ = try decoder.decode(block)
        #expect(decoder.table.entries.count == 1)
        _ = try decoder.decode([0x20])
        #expect(decoder.table.entries.isEmpty && decoder.table.maxSize == 0)
        encoder.setMaxTableSize(100)
        let (next, _) = encoder.encode(Self.fields([(":method", "GET")]))
        #expect(next == [0x3f, 0x45, 0x82])
    }

    @Test func decoderErrorsAreCompressionErrors() {
        var decoder = HPACKDecoder()
        let cases: [([UInt8], HPACKError)] = [
            ([0x80], .badIndex(0)),                          // index 0
            ([0xbe], .badIndex(62)),                         // an empty dynamic table
            ([0xff, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01], .integerOverflow),
            ([0x41, 0x05, 0x61], .truncated),                // value longer than the block
            ([0x41, 0x81, 0x18], .huffmanPadding),
            ([0x3f, 0xe2, 0x1f], .tableSizeTooLarge(4097, limit: 4096)),   // 31 + 98 + 31·128
            ([0x82, 0x20], .tableSizeUpdateNotAtStart),
        ]
        for (block, error) in cases {
            #expect(throws: error) { try decoder.decode(block) }
            #expect(error.http2ErrorCode == .compressionError)
        }
        #expect(throws: HPACKError.tableSizeTooLarge(5000, limit: 4096)) { try decoder.decode(HPACKInteger.encode(5000, prefixBits: 5, flags: 0x20)) }
    }

    // MARK: Property: round trips over random header lists with shared tables

    @Test(arguments: [UInt64(1), 2, 3, 4, 5, 6, 7, 8])
    func roundTripOverRandomHeaderLists(seed: UInt64) throws {
        var rng = SplitMix64(state: seed)
        let names = HPACKStaticTable.entries.map(\.name) + ["x-a", "x-request-id", "cookie", "x-\(seed)"]
        let policies: [HPACKEncoder.HuffmanPolicy] = [.never, .always, .whenShorter]
        var encoder = HPACKEncoder(maxTableSize: [4096, 256, 64, 0][Int(seed % 4)], huffman: policies[Int(seed % 3)],
                                   neverIndexed: seed % 2 == 0 ? ["cookie"] : [])
        var decoder = HPACKDecoder(maxTableSize: encoder.table.maxSize)
        var pool: [HPACKHeaderField] = []
        for _ in 0..<200 {
            var list: [HPACKHeaderField] = []
            for _ in 0..<Int.random(in: 0...12, using: &rng) {
                if !pool.isEmpty, Bool.random(using: &rng) {
                    list.append(pool.randomElement(using: &rng)!)
                } else {
                    let length = Int.random(in: 0...(Bool.random(using: &rng) ? 8 : 300), using: &rng)
                    let value = String(decoding: (0..<length).map { _ in UInt8.random(in: 32...126, using: &rng) }, as: UTF8.self)
                    let field = HPACKHeaderField(names.randomElement(using: &rng)!, value)
                    list.append(field)
                    pool.append(field)
                }
            }
            if Int.random(in: 0..<50, using: &rng) == 0 {
                let size = Int.random(in: 0...4096, using: &rng)
                encoder.setMaxTableSize(size)
                decoder.maxTableSizeLimit = 4096
            }
            let (block, summary) = encoder.encode(list)
            let (decoded, decodedSummary) = try decoder.decode(block)
            #expect(decoded == list)
            #expect(decodedSummary.representations == summary.representations)
            #expect(decoder.table == encoder.table)
            #expect(encoder.table.size <= encoder.table.maxSize)
            #expect(encoder.table.size == encoder.table.entries.reduce(0) { $0 + $1.size })
        }
    }

    /// Truncating or flipping any octet of a valid block never crashes the decoder: it decodes
    /// something or throws a typed error.
    @Test func damagedBlocksNeverCrash() {
        var encoder = HPACKEncoder()
        let (block, _) = encoder.encode(Self.requests[2])
        for cut in 0..<block.count {
            var decoder = HPACKDecoder()
            _ = try? decoder.decode(Array(block.prefix(cut)))
        }
        for i in 0..<block.count {
            for bit in 0..<8 {
                var damaged = block
                damaged[i] ^= UInt8(1 << bit)
                var decoder = HPACKDecoder()
                do { _ = try decoder.decode(damaged) } catch { #expect(error.http2ErrorCode == .compressionError) }
            }
        }
    }
}
