import Foundation
import TestSupport
import Testing
@testable import TCPSim

@Suite("TCPSegment: flags, lengths and the wire format (RFC 9293 §3.1)")
struct TCPSegmentWireTests {
    let src = IPv4Address(192, 168, 1, 10)
    let dst = IPv4Address(192, 168, 1, 20)

    @Test func flagNotations() {
        let cases: [(TCPFlags, String, String)] = [
            (.syn, "S", "S"), ([.syn, .ack], "S.", "SA"), (.ack, ".", "A"), ([.psh, .ack], "P.", "PA"),
            ([.fin, .ack], "F.", "FA"), ([.fin, .psh, .ack], "FP.", "FPA"), (.rst, "R", "R"),
            ([.rst, .ack], "R.", "RA"), ([], "none", ""),
        ]
        for (flags, tcpdump, compact) in cases {
            #expect(flags.tcpdumpNotation == tcpdump)
            #expect(flags.compact == compact)
            #expect(TCPFlags(compact: compact) == flags)
        }
        #expect(TCPFlags(compact: "SX") == nil)
        #expect(TCPFlags(compact: "SS") == nil)
    }

    @Test func segmentLengthCountsSYNAndFIN() {
        #expect(seg("S", seq: 1).segmentLength == 1)
        #expect(seg("FA", seq: 1, ack: 1).segmentLength == 1)
        #expect(seg("PA", seq: 1, ack: 1, payload: bytes(50)).segmentLength == 50)
        #expect(seg("FPA", seq: 1, ack: 1, payload: bytes(50)).segmentLength == 51)
        #expect(seg("A", seq: 1, ack: 1).segmentLength == 0)
        #expect(seg("FPA", seq: UInt32.max, ack: 1, payload: bytes(3)).endSeq == SeqNumber(3))
    }

    @Test func ackFieldFollowsTheACKBit() {
        var s = seg("S", seq: 9)
        #expect(s.ack == nil && !s.flags.contains(.ack))
        s.setAck(SeqNumber(4))
        #expect(s.flags == [.syn, .ack])
        s.setAck(nil)
        #expect(s.flags == .syn)
    }

    @Test func roundTripWithMSSAndPayload() throws {
        let s = TCPSegment(sourcePort: 49152, destinationPort: 443, seq: SeqNumber(0xDEAD_BEEF), ack: SeqNumber(7),
                           flags: [.syn], window: 29200, mss: 1460, payload: [])
        let wire = s.encoded(source: src, destination: dst)
        #expect(wire.count == 24)
        #expect(wire[12] == 0x60)  // data offset 6 words
        #expect(Array(wire[20 ..< 24]) == [2, 4, 0x05, 0xB4])
        #expect(try TCPSegment.decode(wire, source: src, destination: dst) == s)

        let d = seg("FPA", seq: 1, ack: 2, payload: bytes(51))  // odd length: checksum pads a zero octet
        #expect(try TCPSegment.decode(d.encoded(source: src, destination: dst), source: src, destination: dst) == d)
    }

    /// Fixed vectors, worked by hand (RFC 1071 one's complement sum over the RFC 9293 §3.1 pseudo-header
    /// and the segment), independent of Python and tshark.
    @Test func checksumKnownVectors() throws {
        let a = IPv4Address(10, 0, 0, 1), b = IPv4Address(10, 0, 0, 2)
        // SYN 49152 → 80, seq 100, window 65535, no options. 16-bit words:
        //   pseudo-header 0A00 0001 0A00 0002 0006 0014 = 141D
        //   header C000 0050 0000 0064 0000 0000 5002 FFFF 0000 0000 = 210B5
        //   141D + 210B5 = 224D2 → fold 24D2 + 2 = 24D4 → complement DB2B.
        let syn = TCPSegment(sourcePort: 49152, destinationPort: 80, seq: SeqNumber(100), ack: nil, flags: .syn,
                             window: 65535)
        let synWire = syn.encoded(source: a, destination: b)
        #expect(synWire == [0xC0, 0x00, 0x00, 0x50, 0, 0, 0, 0x64, 0, 0, 0, 0, 0x50, 0x02, 0xFF, 0xFF,
                            0xDB, 0x2B, 0, 0])
        // PSH+ACK 1000 → 80, seq 101, ack 301, payload "hi!" (odd: padded with a zero octet for the sum).
        //   pseudo-header 0A00 0001 0A00 0002 0006 0017 = 1420
        //   header 03E8 0050 0000 0065 0000 012D 5018 FFFF 0000 0000 = 155E1; payload 6869 2100 = 8969
        //   1420 + 155E1 + 8969 = 1F36A → fold F36A + 1 = F36B → complement 0C94.
        let data = TCPSegment(sourcePort: 1000, destinationPort: 80, seq: SeqNumber(101), ack: SeqNumber(301),
                              flags: .psh, window: 65535, payload: Array("hi!".utf8))
        let dataWire = data.encoded(source: a, destination: b)
        #expect(dataWire == [0x03, 0xE8, 0x00, 0x50, 0, 0, 0, 0x65, 0, 0, 0x01, 0x2D, 0x50, 0x18, 0xFF, 0xFF,
                             0x0C, 0x94, 0, 0, 0x68, 0x69, 0x21])
        #expect(try TCPSegment.decode(dataWire, source: a, destination: b) == data)
        // One flipped bit in the checksum is caught.
        var bad = dataWire
        bad[17] ^= 1
        #expect(throws: TCPWireError.self) { try TCPSegment.decode(bad, source: a, destination: b) }
    }

    @Test func checksumOfWholeSegmentSumsToZero() {
        // Property of the one's complement sum: including the checksum, the total is 0xFFFF.
        let wire = seg("PA", seq: 1000, ack: 2000, payload: bytes(33)).encoded(source: src, destination: dst)
        #expect(TCPSegment.checksum(wire, source: src, destination: dst) == 0)
    }

    @Test func decodeRejectsMalformedBytes() {
        let good = seg("PA", seq: 1, ack: 1, payload: bytes(10)).encoded(source: src, destination: dst)
        #expect(throws: TCPWireError.truncated(needed: 20, available: 10)) {
            try TCPSegment.decode(Array(good.prefix(10)), source: src, destination: dst)
        }
        var badOffset = good
        badOffset[12] = 0x40
        #expect(throws: TCPWireError.badDataOffset(4)) {
            try TCPSegment.decode(badOffset, source: src, destination: dst, verifyChecksum: false)
        }
        var longOffset = good
        longOffset[12] = 0xF0
        #expect(throws: TCPWireError.truncated(needed: 60, available: 30)) {
            try TCPSegment.decode(longOffset, source: src, destination: dst, verifyChecksum: false)
        }
        var flipped = good
        flipped[25] ^= 0x01
        #expect(throws: (any Error).self) { try TCPSegment.decode(flipped, source: src, destination: dst) }
        // The checksum also covers the pseudo-header: the wrong destination fails.
        #expect(throws: (any Error).self) { try TCPSegment.decode(good, source: src, destination: src) }

        var opt = TCPSegment(sourcePort: 1, destinationPort: 2, seq: SeqNumber(1), flags: .syn, mss: 536)
            .encoded(source: src, destination: dst)
        opt[21] = 9  // MSS option length runs past the header
        #expect(throws: TCPWireError.malformedOption(kind: 2)) {
            try TCPSegment.decode(opt, source: src, destination: dst, verifyChecksum: false)
        }
        opt[21] = 3
        #expect(throws: TCPWireError.badMSSOptionLength(3)) {
            try TCPSegment.decode(opt, source: src, destination: dst, verifyChecksum: false)
        }
        opt[21] = 1
        #expect(throws: TCPWireError.malformedOption(kind: 2)) {
            try TCPSegment.decode(opt, source: src, destination: dst, verifyChecksum: false)
        }
    }

    @Test func decodeNeverTrapsOnRandomBytes() {
        let rng = TCPSeededRandom(seed: 42)
        for _ in 0 ..< 2000 {
            let n = Int(rng.next32() % 64)
            var b = (0 ..< n).map { _ in UInt8(truncatingIfNeeded: rng.next32()) }
            if n > 12 && rng.next32() % 2 == 0 { b[12] = 0x50 | (b[12] & 0x0F) }
            _ = try? TCPSegment.decode(b, source: src, destination: dst, verifyChecksum: rng.next32() % 2 == 0)
        }
    }

    /// Cross-check with an independent implementation: Python's `struct` and a plain one's complement
    /// sum over the pseudo-header (RFC 9293 §3.1) computed from the raw bytes.
    @Test func checksumAgreesWithPython() throws {
        guard let python = findTool("python3") else {
            print("SKIP checksumAgreesWithPython: python3 not found on PATH")
            return
        }
        var segments: [[UInt8]] = []
        let rng = TCPSeededRandom(seed: 7)
        for i in 0 ..< 20 {
            let payload = (0 ..< Int(rng.next32() % 200)).map { _ in UInt8(truncatingIfNeeded: rng.next32()) }
            let s = TCPSegment(sourcePort: UInt16(truncatingIfNeeded: rng.next32()), destinationPort: 443,
                               seq: SeqNumber(rng.next32()), ack: i % 3 == 0 ? nil : SeqNumber(rng.next32()),
                               flags: i % 5 == 0 ? .syn : .psh, window: UInt16(truncatingIfNeeded: rng.next32()),
                               mss: i % 5 == 0 ? 1460 : nil, payload: payload)
            segments.append(s.encoded(source: src, destination: dst))
        }
        let script = """
        import struct, sys
        src = bytes([192,168,1,10]); dst = bytes([192,168,1,20])
        for line in sys.stdin:
            seg = bytearray.fromhex(line.strip())
            found = struct.unpack('!H', seg[16:18])[0]
            seg[16:18] = b'\\x00\\x00'
            data = src + dst + struct.pack('!BBH', 0, 6, len(seg)) + bytes(seg)
            if len(data) % 2: data += b'\\x00'
            s = sum(struct.unpack('!%dH' % (len(data) // 2), data))
            while s >> 16: s = (s & 0xffff) + (s >> 16)
            print('%04x %04x' % (found, ~s & 0xffff))
        """
        let input = segments.map { $0.map { String(format: "%02x", $0) }.joined() }.joined(separator: "\n") + "\n"
        let output = try run(python, ["-c", script], input: input)
        let lines = output.split(separator: "\n")
        #expect(lines.count == segments.count)
        for line in lines {
            let parts = line.split(separator: " ")
            #expect(parts.count == 2 && parts[0] == parts[1], "ours vs python: \(line)")
        }
    }
}

func findTool(_ name: String) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    for dir in path.split(separator: ":") {
        let candidate = "\(dir)/\(name)"
        if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return nil
}

func run(_ tool: String, _ args: [String], input: String) throws -> String {
    try ExternalTool.run(tool, args, stdin: Data(input.utf8)).stdoutText
}