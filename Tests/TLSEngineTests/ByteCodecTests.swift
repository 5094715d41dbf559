import Testing
@testable import TLSEngine

@Suite("ByteReader and ByteWriter")
struct ByteCodecTests {
    @Test("integers and 1/2/3-byte vectors are big-endian with exact length prefixes")
    func writer() {
        var w = ByteWriter()
        w.writeUInt8(0xab)
        w.writeUInt16(0x0102)
        w.writeUInt24(0x03_0405)
        w.writeUInt32(0x0607_0809)
        w.writeOpaque([0xaa], lengthBytes: 1)
        w.writeOpaque([0xbb, 0xcc], lengthBytes: 2)
        w.writeVector(lengthBytes: 3) { $0.writeOpaque([], lengthBytes: 2) }
        #expect(w.bytes == [0xab, 1, 2, 3, 4, 5, 6, 7, 8, 9, 1, 0xaa, 0, 2, 0xbb, 0xcc, 0, 0, 2, 0, 0])
    }

    @Test("vector bounds, element sizes, truncation and trailing bytes are typed errors")
    func reader() throws {
        var r = ByteReader([0, 3, 1, 2, 3, 9])
        #expect(try r.readOpaque(lengthBytes: 2, min: 1, max: 3, field: "v") == [1, 2, 3])
        #expect(r.remaining == 1)
        #expect(r.isAtEnd == false)
        #expect(decodeError { () throws(DecodeError) in try r.expectEnd(field: "s") } == .trailingBytes(field: "s", count: 1))

        var over = ByteReader([0, 4, 1, 2, 3, 4])
        #expect(decodeError { () throws(DecodeError) in try over.readOpaque(lengthBytes: 2, min: 1, max: 3, field: "v") }
            == .lengthOutOfRange(field: "v", length: 4, min: 1, max: 3))
        var under = ByteReader([0])
        #expect(decodeError { () throws(DecodeError) in try under.readOpaque(lengthBytes: 1, min: 1, max: 3, field: "v") }
            == .lengthOutOfRange(field: "v", length: 0, min: 1, max: 3))
        var short = ByteReader([0, 0, 5, 1, 2])
        #expect(decodeError { () throws(DecodeError) in try short.readOpaque(lengthBytes: 3, min: 0, max: 0xffffff, field: "v") }
            == .truncated(field: "v", needed: 5, available: 2))
        var odd = ByteReader([0, 3, 0, 1, 2])
        #expect(decodeError { () throws(DecodeError) in
            try odd.readList(of: CipherSuite.self, lengthBytes: 2, min: 2, max: 0xfffe, elementSize: 2, field: "cipher_suites")
        }?.alert == .decodeError)
        var empty = ByteReader([])
        #expect(decodeError { () throws(DecodeError) in try empty.readUInt24(field: "n") } == .truncated(field: "n", needed: 3, available: 0))

        // A sub-reader cannot read past its vector even though the buffer goes on.
        var outer = ByteReader([0, 1, 7, 8, 9])
        var inner = try outer.readVector(lengthBytes: 2, min: 0, max: 10, field: "v")
        #expect(try inner.readUInt8(field: "x") == 7)
        #expect(decodeError { () throws(DecodeError) in try inner.readUInt8(field: "y") } == .truncated(field: "y", needed: 1, available: 0))
        #expect(try outer.readUInt16(field: "z") == 0x0809)
    }

    @Test("Hex parses and prints")
    func hex() {
        #expect(Hex.string([0, 0xff, 0x10]) == "00ff10")
        #expect(Hex.bytes("00 FF\n10") == [0, 0xff, 0x10])
        #expect(Hex.bytes("0") == nil && Hex.bytes("zz") == nil)
    }
}
