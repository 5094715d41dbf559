import Testing
@testable import TLSEngine

@Suite("Record layer")
struct RecordLayerTests {
    @Test("random flights survive fragmentation, records and arbitrary chunking (500 seeds)")
    func fragmentationProperty() throws {
        for seed in UInt64(1) ... 500 {
            var gen = MessageGenerator(seed: seed)
            var flight: [(HandshakeMessage, HandshakeDecodingContext)] = []
            for _ in 0 ..< gen.rng.int(1 ... 6) {
                flight.append(gen.message(kind: gen.rng.int(0 ... MessageGenerator.kindCount - 1)))
            }
            let stream = flight.flatMap { $0.0.encoded }
            let maxFragment = gen.rng.bool() ? gen.rng.int(1 ... 40) : gen.rng.int(1 ... TLSRecord.maxPlaintextLength)
            let records = TLSRecord.fragment(stream, contentType: .handshake, maxFragmentLength: maxFragment)
            #expect(records.allSatisfy { !$0.fragment.isEmpty && $0.fragment.count <= maxFragment })
            let wire = records.flatMap(\.encoded)

            var reader = RecordReader()
            var reassembler = HandshakeReassembler()
            var gotRecords: [TLSRecord] = []
            var gotMessages: [RawHandshakeMessage] = []
            var offset = 0
            while offset < wire.count {
                let n = min(gen.rng.int(1 ... 300), wire.count - offset)
                reader.append(wire[offset ..< offset + n])
                offset += n
                while let record = try reader.next() {
                    gotRecords.append(record)
                    reassembler.append(record.fragment)
                    while let message = try reassembler.next() { gotMessages.append(message) }
                }
            }
            #expect(gotRecords == records, "seed \(seed)")
            #expect(gotMessages.count == flight.count, "seed \(seed)")
            for (raw, (message, ctx)) in zip(gotMessages, flight) {
                #expect(raw.bytes == message.encoded)
                #expect(try raw.decode(context: ctx) == message, "seed \(seed)")
            }
        }
    }

    @Test("a message larger than 2^14 spans records at the 2^14 limit")
    func largeMessage() throws {
        var rng = SeededGenerator(seed: 9)
        let cert = CertificateMessage(certificateList: [rng.bytes(20_000), rng.bytes(15_000)])
        let message = HandshakeMessage.certificate(cert)
        let records = TLSRecord.fragment(message.encoded, contentType: .handshake)
        #expect(records.map(\.fragment.count) == [16_384, 16_384, message.encoded.count - 32_768])
        var reassembler = HandshakeReassembler()
        for record in records.dropLast() {
            reassembler.append(record.fragment)
            #expect(try reassembler.next() == nil)
            #expect(reassembler.hasPartialMessage)
        }
        reassembler.append(records.last?.fragment ?? [])
        let raw = try #require(try reassembler.next())
        #expect(try raw.decode(context: .init()) == message)
    }

    @Test("oversized records are record_overflow; protected records may be 2^14 + 2048")
    func overflow() throws {
        var reader = RecordReader()
        reader.append([22, 3, 3, 0x40, 0x01])  // 16385 bytes announced
        #expect(decodeError { () throws(DecodeError) in try reader.next() } == .recordOverflow(length: 16385, limit: 16384))
        #expect(decodeError { () throws(DecodeError) in try reader.next() }?.alert == .recordOverflow)  // sticky

        var protected = RecordReader()
        protected.isProtected = true
        protected.append([23, 3, 3, 0x48, 0x00] + [UInt8](repeating: 0xab, count: 18432))
        #expect(try protected.next()?.fragment.count == 18432)
        protected.append([23, 3, 3, 0x48, 0x01])
        #expect(decodeError { () throws(DecodeError) in try protected.next() }?.alert == .recordOverflow)

        let big = decodeError { () throws(DecodeError) in
            try TLSRecord(decoding: [23, 3, 3, 0x48, 0x01] + [UInt8](repeating: 0, count: 18433))
        }
        #expect(big == .recordOverflow(length: 18433, limit: 18432))
    }

    @Test("bad content types are unexpected_message, SSLv2 hellos are named, other garbage is decode_error")
    func badHeaders() {
        for type: UInt8 in [0, 19, 24, 25, 0x7f] {
            var reader = RecordReader()
            reader.append([type])  // refused from the first byte
            #expect(decodeError { () throws(DecodeError) in try reader.next() } == .unexpectedContentType(type))
        }
        // An SSL 2.0-compatible CLIENT-HELLO (RFC 5246 Appendix E.2): length 0x2e, msg_type 1, version 3.1.
        var v2 = RecordReader()
        v2.append([0x80, 0x2e, 0x01, 0x03, 0x01, 0x00, 0x15])
        let error = decodeError { () throws(DecodeError) in try v2.next() }
        #expect(error == .sslv2ClientHello)
        #expect(error?.alert == .unexpectedMessage)
        #expect(error?.description.contains("SSL 2.0") == true)
        // HTTP sent to a TLS port.
        var http = RecordReader()
        http.append(Array("GET / HTTP/1.1\r\n".utf8))
        #expect(decodeError { () throws(DecodeError) in try http.next() } == .unexpectedContentType(UInt8(ascii: "G")))
        // Major version 2.
        var v = RecordReader()
        v.append([22, 2, 0, 0, 1, 1])
        #expect(decodeError { () throws(DecodeError) in try v.next() }?.alert == .decodeError)
        // Zero-length handshake fragment (RFC 5246 §6.2.1).
        var empty = RecordReader()
        empty.append([22, 3, 3, 0, 0])
        #expect(decodeError { () throws(DecodeError) in try empty.next() }?.alert == .decodeError)
        // Zero-length application data is allowed.
        var app = RecordReader()
        app.append([23, 3, 3, 0, 0])
        #expect((try? app.next())??.fragment == [])
    }

    @Test("a partial header waits for more bytes")
    func partial() throws {
        var reader = RecordReader()
        for byte: UInt8 in [21, 3, 3, 0] {
            reader.append([byte])
            #expect(try reader.next() == nil)
        }
        reader.append([2, 2])
        #expect(try reader.next() == nil)
        reader.append([40])
        let record = try #require(try reader.next())
        #expect(try Alert(decoding: record.fragment) == .fatal(.handshakeFailure))
    }

    @Test("the reassembler refuses absurd lengths")
    func tooLarge() {
        var reassembler = HandshakeReassembler(maxMessageLength: 1000)
        reassembler.append([11, 0x01, 0x00, 0x00])
        #expect(decodeError { () throws(DecodeError) in try reassembler.next() } == .handshakeMessageTooLarge(length: 65536, limit: 1000))
    }

    @Test("ChangeCipherSpec and Alert codecs")
    func ccsAndAlert() throws {
        #expect(ChangeCipherSpec().encoded == [1])
        #expect(try ChangeCipherSpec(decoding: [1]) == ChangeCipherSpec())
        #expect(decodeError { () throws(DecodeError) in try ChangeCipherSpec(decoding: [2]) }?.alert == .decodeError)
        #expect(decodeError { () throws(DecodeError) in try ChangeCipherSpec(decoding: [1, 1]) }?.alert == .decodeError)
        #expect(Alert.closeNotify.encoded == [1, 0])
        #expect(Alert.fatal(.decodeError).encoded == [2, 50])
        #expect(try Alert(decoding: [2, 20]).description == "fatal bad_record_mac")
        #expect(try Alert(decoding: [9, 99]).description == "unknown(0x09) unknown(0x63)")
        #expect(decodeError { () throws(DecodeError) in try Alert(decoding: [2]) }?.alert == .decodeError)
    }
}
