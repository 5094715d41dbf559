import Testing
@testable import TLSEngine

@Suite("Codec properties over generated messages")
struct CodecPropertyTests {
    static let seeds: ClosedRange<UInt64> = 1 ... 500

    @Test("decode(encode(m)) == m and encode(decode(b)) == b, for every kind, 500 seeds")
    func roundTrip() throws {
        var count = 0
        for seed in Self.seeds {
            var gen = MessageGenerator(seed: seed)
            for kind in 0 ..< MessageGenerator.kindCount {
                let (message, ctx) = gen.message(kind: kind)
                let bytes = message.encoded
                let decoded = try HandshakeMessage(decoding: bytes, context: ctx)
                #expect(decoded == message, "seed \(seed) kind \(kind)")
                #expect(decoded.encoded == bytes, "seed \(seed) kind \(kind)")
                // The raw form keeps the same bytes and decodes to the same value.
                let raw = RawHandshakeMessage(type: message.type, body: message.body)
                #expect(raw.bytes == bytes)
                #expect(try raw.decode(context: ctx) == message)
                count += 1
            }
        }
        #expect(count == 500 * MessageGenerator.kindCount)
    }

    @Test("every truncation and every appended byte is a decode_error")
    func truncationAndTrailing() {
        for seed in Self.seeds {
            var gen = MessageGenerator(seed: seed)
            for kind in 0 ..< MessageGenerator.kindCount {
                let (message, ctx) = gen.message(kind: kind)
                let bytes = message.encoded
                for cut in 0 ..< bytes.count {
                    let error = decodeError { () throws(DecodeError) in
                        try HandshakeMessage(decoding: Array(bytes[..<cut]), context: ctx)
                    }
                    #expect(error?.alert == .decodeError, "seed \(seed) kind \(kind) cut \(cut): \(String(describing: error))")
                }
                let extra = decodeError { () throws(DecodeError) in
                    try HandshakeMessage(decoding: bytes + [gen.rng.u8()], context: ctx)
                }
                #expect(extra == .trailingBytes(field: "handshake", count: 1), "seed \(seed) kind \(kind)")
            }
        }
    }

    /// The header-level check above catches any cut by the uint24 length. This one rewrites the
    /// length to match the cut, so only the body's own vectors can catch it: the only cut that
    /// may still decode is the one that drops a whole extensions block (RFC 5246 §7.4.1.2 lets it
    /// be absent); bodies of types TLSLab does not model are opaque.
    @Test("every truncation of a body, re-headered, is caught by the body's own lengths")
    func bodyTruncation() {
        for seed in Self.seeds {
            var gen = MessageGenerator(seed: seed)
            for kind in 0 ..< MessageGenerator.kindCount {
                let (message, ctx) = gen.message(kind: kind)
                if case .other = message { continue }
                let body = message.body
                var extensionsStart: Int?
                switch message {
                case let .clientHello(m) where m.extensions != nil:
                    var c = m; c.extensions = nil; extensionsStart = c.encoded.count
                case let .serverHello(m) where m.extensions != nil:
                    var c = m; c.extensions = nil; extensionsStart = c.encoded.count
                default: break
                }
                for cut in 0 ..< body.count {
                    let raw = RawHandshakeMessage(type: message.type, body: Array(body[..<cut]))
                    let error = decodeError { () throws(DecodeError) in try raw.decode(context: ctx) }
                    if cut == extensionsStart {
                        #expect(error == nil, "seed \(seed) kind \(kind): dropping the whole block is valid")
                    } else {
                        #expect(error?.alert == .decodeError, "seed \(seed) kind \(kind) cut \(cut)/\(body.count): \(String(describing: error))")
                    }
                }
            }
        }
    }

    @Test("mutated bytes either fail with a typed error or re-encode to exactly themselves")
    func mutations() {
        var decodedMutants = 0
        var rejected = 0
        for seed in Self.seeds {
            var gen = MessageGenerator(seed: seed)
            for kind in 0 ..< MessageGenerator.kindCount {
                let (message, ctx) = gen.message(kind: kind)
                for _ in 0 ..< 4 {
                    var bytes = message.encoded
                    let flips = gen.rng.int(1 ... 3)
                    for _ in 0 ..< flips {
                        let i = gen.rng.int(0 ... bytes.count - 1)
                        bytes[i] ^= UInt8(1) << UInt8(gen.rng.int(0 ... 7))
                    }
                    do {
                        let decoded = try HandshakeMessage(decoding: bytes, context: ctx)
                        #expect(decoded.encoded == bytes, "seed \(seed) kind \(kind)")
                        decodedMutants += 1
                    } catch {
                        #expect([.decodeError, .illegalParameter, .unexpectedMessage].contains(error.alert), "\(error)")
                        rejected += 1
                    }
                }
            }
        }
        // Both outcomes must actually occur, or the property says nothing.
        #expect(decodedMutants > 1000)
        #expect(rejected > 1000)
    }

    @Test("duplicate extensions are rejected with illegal_parameter")
    func duplicateExtensions() {
        var gen = MessageGenerator(seed: 7)
        var hello = gen.clientHello()
        hello.extensions = [.extendedMasterSecret, .serverName([ServerName(hostName: "a.example")]), .extendedMasterSecret]
        let error = decodeError { () throws(DecodeError) in try ClientHello(decoding: hello.encoded) }
        #expect(error == .duplicateExtension(.extendedMasterSecret))
        #expect(error?.alert == .illegalParameter)
    }

    @Test("RFC vector bounds: empty cipher_suites, odd lengths, oversized session_id, explicit curves")
    func bounds() {
        var gen = MessageGenerator(seed: 3)
        var hello = gen.clientHello()
        hello.extensions = nil
        hello.sessionID = []
        let good = hello.encoded
        // cipher_suites length at offset 2 + 32 + 1.
        var empty = Array(good[..<35]) + [0, 0] + [1, 0]
        #expect(decodeError { () throws(DecodeError) in try ClientHello(decoding: empty) }
            == .lengthOutOfRange(field: "cipher_suites", length: 0, min: 2, max: 0xfffe))
        empty = Array(good[..<35]) + [0, 3, 0, 0x2f, 0] + [1, 0]
        #expect(decodeError { () throws(DecodeError) in try ClientHello(decoding: empty) }?.alert == .decodeError)
        var longID = good
        longID[34] = 33
        #expect(decodeError { () throws(DecodeError) in try ClientHello(decoding: longID) }?.alert == .decodeError)
        // compression_methods<1..2^8-1>: an empty list is a decode_error.
        let noCompression = Array(good[..<35]) + [0, 2, 0, 0x2f] + [0]
        #expect(decodeError { () throws(DecodeError) in try ClientHello(decoding: noCompression) }
            == .lengthOutOfRange(field: "compression_methods", length: 0, min: 1, max: 255))
        // explicit_prime curves are an illegal_parameter (RFC 8422 §5.4).
        let explicit: [UInt8] = [1, 0, 23, 1, 4, 0, 0]
        let ctx = HandshakeDecodingContext(keyExchange: .ecdheRSA)
        let error = decodeError { () throws(DecodeError) in
            try HandshakeMessage(decoding: [12, 0, 0, UInt8(explicit.count)] + explicit, context: ctx)
        }
        #expect(error?.alert == .illegalParameter)
        // A ServerKeyExchange cannot be read before the key exchange is known.
        let early = decodeError { () throws(DecodeError) in
            try HandshakeMessage(decoding: [12, 0, 0, 1, 0], context: HandshakeDecodingContext())
        }
        #expect(early?.alert == .unexpectedMessage)
        // ServerHelloDone has an empty body.
        #expect(decodeError { () throws(DecodeError) in
            try HandshakeMessage(decoding: [14, 0, 0, 1, 0], context: HandshakeDecodingContext())
        } == .trailingBytes(field: "server_hello_done", count: 1))
    }
}
