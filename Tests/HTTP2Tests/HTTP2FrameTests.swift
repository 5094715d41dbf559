@testable import HTTP2
import TestSupport
import Testing

/// HTTP/2 frames (RFC 9113 §4, §6): known encodings, round trips and the connection errors of
/// malformed frames.
@Suite("HTTP/2 frames (RFC 9113)")
struct HTTP2FrameTests {
    static func hex(_ s: String) -> [UInt8] { HPACKTests.hex(s) }

    /// Encodings written out by hand from the frame layouts of RFC 9113 §4.1 and §6.
    static let knownAnswers: [(HTTP2Frame, String)] = [
        (HTTP2Frame(streamID: 0, payload: .settings([(0x3, 100), (0x4, 65_535)])),
         "00000c 04 00 00000000  0003 00000064  0004 0000ffff"),
        (HTTP2Frame(streamID: 0, flags: .ack, payload: .settings([])), "000000 04 01 00000000"),
        (HTTP2Frame(streamID: 1, flags: [.endStream, .endHeaders], payload: .headers(block: [0x82, 0x86, 0x84], priority: nil)),
         "000003 01 05 00000001 828684"),
        (HTTP2Frame(streamID: 3, flags: .endStream, payload: .data(Array("hello\n".utf8))), "000006 00 01 00000003 68656c6c6f0a"),
        (HTTP2Frame(streamID: 1, flags: .endHeaders, payload: .pushPromise(promisedStreamID: 2, block: [0x82])),
         "000005 05 04 00000001 00000002 82"),
        (HTTP2Frame(streamID: 0, payload: .ping([1, 2, 3, 4, 5, 6, 7, 8])), "000008 06 00 00000000 0102030405060708"),
        (HTTP2Frame(streamID: 0, payload: .goaway(lastStreamID: 5, errorCode: 0, debug: [])), "000008 07 00 00000000 00000005 00000000"),
        (HTTP2Frame(streamID: 0, payload: .windowUpdate(0x10000)), "000004 08 00 00000000 00010000"),
        (HTTP2Frame(streamID: 7, payload: .rstStream(HTTP2ErrorCode.cancel.rawValue)), "000004 03 00 00000007 00000008"),
    ]

    @Test func knownEncodingsAndRoundTrips() throws {
        for (frame, wire) in Self.knownAnswers {
            #expect(frame.encoded == Self.hex(wire), "\(frame.typeName)")
            let decoded = try #require(try HTTP2Frame.decode(ArraySlice(Self.hex(wire))))
            #expect(decoded.frame == frame && decoded.consumed == Self.hex(wire).count)
        }
        #expect(HTTP2Frame.clientPreface == Self.hex("505249202a20485454502f322e300d0a0d0a534d0d0a0d0a"))
    }

    @Test func framesInAStreamAndIncompleteOnes() throws {
        let all = Self.knownAnswers.flatMap { $0.0.encoded }
        var rest = ArraySlice(all)
        var frames: [HTTP2Frame] = []
        while let (frame, used) = try HTTP2Frame.decode(rest) {
            frames.append(frame)
            rest = rest.dropFirst(used)
        }
        #expect(frames == Self.knownAnswers.map(\.0) && rest.isEmpty)
        for cut in 0..<9 { #expect(try HTTP2Frame.decode(ArraySlice(all.prefix(cut))) == nil) }
        #expect(try HTTP2Frame.decode(ArraySlice(Self.knownAnswers[0].0.encoded.dropLast())) == nil)
    }

    @Test func paddingAndPriorityAreRemoved() throws {
        // DATA, PADDED: pad length 2, "hi", two zero octets.
        let data = try #require(try HTTP2Frame.decode(ArraySlice(Self.hex("000005 00 09 00000001 02 6869 0000"))))
        #expect(data.frame.payload == .data(Array("hi".utf8)))
        // HEADERS with PRIORITY: 5 octets of dependency and weight before the block.
        let headers = try #require(try HTTP2Frame.decode(ArraySlice(Self.hex("000006 01 24 00000003 80000001 0f 82"))))
        #expect(headers.frame.payload == .headers(block: [0x82], priority: [0x80, 0, 0, 1, 0x0f]))
        // Unknown types are kept and ignored.
        let unknown = try #require(try HTTP2Frame.decode(ArraySlice(Self.hex("000001 fa 00 00000000 ff"))))
        #expect(unknown.frame.type == nil && unknown.frame.payload == .unknown(type: 0xfa, payload: [0xff]))
    }

    @Test func malformedFramesAreConnectionErrors() {
        let cases: [(String, HTTP2ErrorCode)] = [
            ("000005 04 00 00000000 0003000000", .frameSizeError),            // SETTINGS not a multiple of 6
            ("000006 04 01 00000000 000300000064", .frameSizeError),         // SETTINGS ACK with a payload
            ("000006 04 00 00000001 000300000064", .protocolError),          // SETTINGS on a stream
            ("000006 04 00 00000000 000200000002", .protocolError),          // ENABLE_PUSH 2
            ("000007 06 00 00000000 01020304050607", .frameSizeError),       // PING of 7
            ("000008 06 00 00000003 0102030405060708", .protocolError),      // PING on a stream
            ("000004 08 00 00000001 00000000", .protocolError),              // WINDOW_UPDATE of 0
            ("000003 08 00 00000000 000001", .frameSizeError),               // WINDOW_UPDATE of 3 octets
            ("000003 01 05 00000000 828684", .protocolError),                // HEADERS on stream 0
            ("000001 00 00 00000000 00", .protocolError),                    // DATA on stream 0
            ("000003 00 08 00000001 05 6869", .protocolError),               // padding longer than the payload
            ("000004 07 00 00000000 00000000", .frameSizeError),             // GOAWAY of 4 octets
            ("000003 03 00 00000001 000000", .frameSizeError),               // RST_STREAM of 3 octets
            ("000004 05 04 00000001 00000000", .protocolError),              // PUSH_PROMISE of stream 0
            ("000004 02 00 00000001 00000000", .frameSizeError),             // PRIORITY of 4 octets
        ]
        for (wire, code) in cases {
            do {
                _ = try HTTP2Frame.decode(ArraySlice(Self.hex(wire)))
                Issue.record("accepted \(wire)")
            } catch {
                #expect(error.code == code, "\(wire): \(error)")
            }
        }
        // Longer than SETTINGS_MAX_FRAME_SIZE, known from the header alone.
        #expect(throws: HTTP2FrameError.self) { try HTTP2Frame.decode(ArraySlice(Self.hex("004001 00 00 00000001"))) }
        #expect((try? HTTP2Frame.decode(ArraySlice(Self.hex("004000 00 00 00000001"))).map { _ in 1 } ?? 0) == 0, "16384 is allowed: just incomplete, no error")
        #expect(throws: Never.self) { try HTTP2Frame.decode(ArraySlice(Self.hex("004000 00 00 00000001"))) }
    }

    @Test(arguments: [UInt64(11), 12, 13])
    func randomFramesRoundTrip(seed: UInt64) throws {
        var rng = SplitMix64(state: seed)
        func bytes(_ n: Int) -> [UInt8] { (0..<n).map { _ in UInt8.random(in: 0...255, using: &rng) } }
        for _ in 0..<300 {
            let stream = UInt32.random(in: 1...0x7fff_ffff, using: &rng)
            let frame: HTTP2Frame
            switch Int.random(in: 0..<8, using: &rng) {
            case 0: frame = HTTP2Frame(streamID: stream, flags: .endStream, payload: .data(bytes(Int.random(in: 0...300, using: &rng))))
            case 1: frame = HTTP2Frame(streamID: stream, flags: .endHeaders, payload: .headers(block: bytes(Int.random(in: 0...100, using: &rng)), priority: nil))
            case 2: frame = HTTP2Frame(streamID: 0, payload: .settings((0..<Int.random(in: 0...6, using: &rng)).map { _ in (UInt16(0x3), UInt32.random(in: 0...UInt32.max, using: &rng)) }))
            case 3: frame = HTTP2Frame(streamID: stream, flags: .endHeaders, payload: .pushPromise(promisedStreamID: UInt32.random(in: 1...0x7fff_ffff, using: &rng), block: bytes(9)))
            case 4: frame = HTTP2Frame(streamID: 0, payload: .ping(bytes(8)))
            case 5: frame = HTTP2Frame(streamID: 0, payload: .goaway(lastStreamID: stream, errorCode: UInt32.random(in: 0...13, using: &rng), debug: bytes(Int.random(in: 0...20, using: &rng))))
            case 6: frame = HTTP2Frame(streamID: stream, payload: .windowUpdate(UInt32.random(in: 1...0x7fff_ffff, using: &rng)))
            default: frame = HTTP2Frame(streamID: stream, payload: .rstStream(UInt32.random(in: 0...13, using: &rng)))
            }
            let decoded = try #require(try HTTP2Frame.decode(ArraySlice(frame.encoded)))
            #expect(decoded.frame == frame && decoded.consumed == frame.encoded.count)
        }
    }
}
