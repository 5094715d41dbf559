import HTTP2
import TLSCrypto
import Testing

/// Issue #38 defect 7: a header block whose list expands far beyond SETTINGS_MAX_HEADER_LIST_SIZE
/// (one literal of 4,000 octets added to the dynamic table, then named again with one-octet indexed
/// representations) is decoded in linear time without being kept (RFC 7541 §7.3, RFC 9113 §10.5.1).
@Suite("HPACK header bomb: the limit applies while decoding")
struct HeaderBombTests {
    /// `:method GET`, `:scheme https`, `:path /` (static 2, 7, 4), a 4,000-octet literal added to the
    /// table (RFC 7541 §6.2.1), then `refs` times index 62 — the newest dynamic entry (§2.3.3).
    static func bomb(refs: Int, entry: Int = 4_000) -> [UInt8] {
        var block: [UInt8] = [0x82, 0x87, 0x84, 0x40]
        for string in [Array("x-bomb".utf8), [UInt8](repeating: 0x61, count: entry)] {
            block += HPACKInteger.encode(string.count, prefixBits: 7, flags: 0)
            block += string
        }
        return block + [UInt8](repeating: 0xBE, count: refs)
    }

    static let bombField = HPACKHeaderField("x-bomb", String(repeating: "a", count: 4_000))

    @Test("a 324 KB block of references to a 4,000-octet field: nothing past the limit kept, every size counted, the table in step")
    func decoderKeepsNothingPastTheLimit() throws {
        let refs = 80_000
        var decoder = HPACKDecoder()
        let (fields, summary) = try decoder.decode(Self.bomb(refs: refs), maxListSize: 16_384)
        // Kept: the three pseudo-headers, the literal and the references that still fit.
        let each = Self.bombField.size  // 4,038
        let pseudo = [HPACKHeaderField(":method", "GET"), HPACKHeaderField(":scheme", "https"), HPACKHeaderField(":path", "/")]
        let kept = 3 + (16_384 - pseudo.reduce(0) { $0 + $1.size }) / each
        #expect(fields.count == kept)
        #expect(fields.count == summary.fields.count && summary.representations.count == kept)
        #expect(summary.discardedBeyond == 16_384)
        #expect(summary.listSize == pseudo.reduce(0) { $0 + $1.size } + (refs + 1) * each, "every field counted, none kept")
        #expect(summary.encodedSize == Self.bomb(refs: refs).count)
        // The dynamic table changed as the encoder's did: the next block can name the entry.
        #expect(decoder.table.entries.count == 1 && decoder.table.size == each)
        let next = try decoder.decode([0xBE], maxListSize: 16_384)
        #expect(next.fields == [Self.bombField] && next.summary.discardedBeyond == nil)
    }

    @Test("within the limit the bounded decoder gives exactly what the unbounded one gives", arguments: 0 ..< 40)
    func boundedEqualsUnboundedWithinTheLimit(seed: Int) throws {
        // The project's one seeded generator (HMAC-DRBG), one small number at a time.
        let drbg = HMACDRBG(seed: UInt64(seed))
        func next() -> UInt64 { drbg.bytes(count: 8).reduce(0) { $0 << 8 | UInt64($1) } }
        var encoder = HPACKEncoder(), bounded = HPACKDecoder(), unbounded = HPACKDecoder()
        for _ in 0 ..< 8 {
            let fields = (0 ..< Int(next() % 12) + 1).map { _ in
                HPACKHeaderField("x-\(next() % 5)", String(repeating: "v", count: Int(next() % 300)))
            }
            let block = encoder.encode(fields).block
            let limit = fields.reduce(0) { $0 + $1.size }
            let a = try bounded.decode(block, maxListSize: limit)
            let b = try unbounded.decode(block)
            #expect(a.fields == fields && b.fields == fields)
            #expect(a.summary == b.summary)
            #expect(a.summary.discardedBeyond == nil && a.summary.listSize == limit)
        }
    }

    @Test("one octet past the limit: the list is discarded, the table still in step")
    func oneOctetPastTheLimit() throws {
        let fields = [HPACKHeaderField("x-a", "1"), HPACKHeaderField("x-b", "2")]
        var encoder = HPACKEncoder()
        let block = encoder.encode(fields).block
        var decoder = HPACKDecoder()
        let limit = fields.reduce(0) { $0 + $1.size } - 1
        let result = try decoder.decode(block, maxListSize: limit)
        #expect(result.fields == [fields[0]] && result.summary.discardedBeyond == limit)
        #expect(decoder.table.entries.count == 2, "both literals were added, as the encoder added them")
        let again = try decoder.decode(encoder.encode(fields).block)
        #expect(again.fields == fields)
    }

    static func frames(_ stream: UInt32, _ block: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        var chunks = stride(from: 0, to: block.count, by: 16_384).map { Array(block[$0 ..< min($0 + 16_384, block.count)]) }
        if chunks.isEmpty { chunks = [[]] }
        for (i, chunk) in chunks.enumerated() {
            let last: HTTP2Flags = i == chunks.count - 1 ? .endHeaders : []
            out += HTTP2Frame(streamID: stream, flags: i == 0 ? last.union(.endStream) : last,
                              payload: i == 0 ? .headers(block: chunk, priority: nil) : .continuation(chunk)).encoded
        }
        return out
    }

    static func statuses(_ out: HTTP2Connection.Output) -> [String] {
        out.messages.compactMap { if case .responseSent(let t) = $0 { t.components(separatedBy: "\r\n")[0] } else { nil } }
    }

    @Test("server: a bomb is answered 431 and the next request 200; the fifth bomb ends the connection with ENHANCE_YOUR_CALM")
    func serverAnswers431ThenCalms() throws {
        var server = H2.server { $0.maxHeaderListSize = 16_384; $0.goAwayWhenAnswered = false }
        let bomb = Self.bomb(refs: 320_000)
        let first = server.receive(HTTP2Frame.clientPreface + H2.settings + Self.frames(1, bomb))
        #expect(Self.statuses(first) == [":status: 431"])
        #expect(server.error == nil)
        // The bomb's table entry is the server decoder's too: a request naming it decodes.
        var encoder = HPACKEncoder()
        let ordinary = server.receive(H2.request("/", stream: 3, encoder: &encoder))
        #expect(Self.statuses(ordinary) == [":status: 200"])
        for stream in stride(from: UInt32(5), through: 9, by: 2) {
            #expect(Self.statuses(server.receive(Self.frames(stream, bomb))) == [":status: 431"])
        }
        #expect(server.error == nil, "four oversize lists are answered: \(String(describing: server.errorReason))")
        let fifth = server.receive(Self.frames(11, bomb))
        #expect(server.error == .enhanceYourCalm)
        #expect(server.errorReason == .repeatedOversizeHeaderLists(count: 5, limit: 16_384))
        #expect(try H2.frames(fifth.bytes).contains { if case .goaway(_, let code, _) = $0.payload { code == HTTP2ErrorCode.enhanceYourCalm.rawValue } else { false } })
    }

    @Test("client: a response header list past its limit ends the connection (ENHANCE_YOUR_CALM) without being kept")
    func clientRefusesAnOversizeResponse() throws {
        var configuration = HTTP2Connection.Configuration()
        configuration.maxResponseHeaderListSize = 16_384
        var client = HTTP2Connection(client: configuration, requests: [.init(fields: H2.fields("/"))])
        _ = client.start()
        var block: [UInt8] = [0x88]  // :status 200
        block += Array(Self.bomb(refs: 1_000).dropFirst(3))
        let out = client.receive(H2.settings + Self.frames(1, block).map { $0 })
        #expect(client.error == .enhanceYourCalm, "\(out.events)")
        #expect(client.errorReason == .responseHeaderListTooLarge(limit: 16_384))
    }
}
