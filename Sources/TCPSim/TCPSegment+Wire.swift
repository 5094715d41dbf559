/// Encoding and decoding of the TCP header (RFC 9293 §3.1) with the checksum over the IPv4
/// pseudo-header (source address, destination address, zero, protocol 6, TCP length).
extension TCPSegment {
    /// The IP protocol number of TCP (RFC 9293 §3.1, pseudo-header "PTCL").
    public static let ipProtocolNumber: UInt8 = 6
    /// The fixed part of the header, in octets.
    public static let minimumHeaderLength = 20

    /// The header with options and the payload, checksum filled in, as it would sit in an IPv4
    /// datagram from `source` to `destination`.
    public func encoded(source: IPv4Address, destination: IPv4Address) -> [UInt8] {
        var options: [UInt8] = []
        if let mss {  // RFC 9293 §3.2: kind 2, length 4, two octets of MSS
            options += [2, 4, UInt8(mss >> 8), UInt8(truncatingIfNeeded: mss)]
        }
        while options.count % 4 != 0 { options.append(0) }  // End of Option List padding
        let headerLength = Self.minimumHeaderLength + options.count
        precondition(headerLength + payload.count <= Int(UInt16.max), "segment longer than an IPv4 datagram")
        var b: [UInt8] = []
        b.reserveCapacity(headerLength + payload.count)
        b.appendBigEndian(sourcePort)
        b.appendBigEndian(destinationPort)
        b.appendBigEndian(seq.rawValue)
        b.appendBigEndian(ack?.rawValue ?? 0)
        b.append(UInt8(headerLength / 4) << 4)  // Data Offset, Rsrvd
        b.append(flags.rawValue)
        b.appendBigEndian(window)
        b.appendBigEndian(UInt16(0))  // checksum placeholder
        b.appendBigEndian(urgentPointer)
        b += options
        b += payload
        let sum = Self.checksum(b, source: source, destination: destination)
        b[16] = UInt8(sum >> 8)
        b[17] = UInt8(truncatingIfNeeded: sum)
        return b
    }

    /// Decodes a segment, verifying the checksum when `verifyChecksum` is true. Unknown options are
    /// skipped; the MSS option is kept. Never traps on malformed input.
    public static func decode(
        _ bytes: [UInt8], source: IPv4Address, destination: IPv4Address, verifyChecksum: Bool = true
    ) throws(TCPWireError) -> TCPSegment {
        guard bytes.count >= minimumHeaderLength else {
            throw .truncated(needed: minimumHeaderLength, available: bytes.count)
        }
        guard bytes.count <= Int(UInt16.max) else { throw .tooLong(bytes.count) }
        let dataOffset = Int(bytes[12] >> 4)
        guard dataOffset >= 5 else { throw .badDataOffset(dataOffset) }
        let headerLength = dataOffset * 4
        guard bytes.count >= headerLength else { throw .truncated(needed: headerLength, available: bytes.count) }
        if verifyChecksum {
            let found = UInt16(bytes[16]) << 8 | UInt16(bytes[17])
            var zeroed = bytes
            zeroed[16] = 0
            zeroed[17] = 0
            let expected = checksum(zeroed, source: source, destination: destination)
            guard found == expected else { throw .badChecksum(found: found, expected: expected) }
        }
        var mss: UInt16?
        var i = minimumHeaderLength
        while i < headerLength {
            let kind = bytes[i]
            if kind == 0 { break }  // End of Option List
            if kind == 1 { i += 1; continue }  // No-Operation
            guard i + 1 < headerLength else { throw .malformedOption(kind: kind) }
            let length = Int(bytes[i + 1])
            guard length >= 2, i + length <= headerLength else { throw .malformedOption(kind: kind) }
            if kind == 2 {
                guard length == 4 else { throw .badMSSOptionLength(length) }
                mss = UInt16(bytes[i + 2]) << 8 | UInt16(bytes[i + 3])
            }
            i += length
        }
        let flags = TCPFlags(rawValue: bytes[13] & 0x3F)
        let ackRaw = bytes.readUInt32(at: 8)
        return TCPSegment(
            sourcePort: bytes.readUInt16(at: 0), destinationPort: bytes.readUInt16(at: 2),
            seq: SeqNumber(bytes.readUInt32(at: 4)),
            ack: flags.contains(.ack) ? SeqNumber(ackRaw) : nil,
            flags: flags, window: bytes.readUInt16(at: 14), mss: mss,
            urgentPointer: bytes.readUInt16(at: 18), payload: Array(bytes[headerLength...]))
    }

    /// RFC 9293 §3.1 Checksum: the 16-bit one's complement of the one's complement sum of the
    /// pseudo-header and the segment (an odd final octet padded with zero). `segment` must carry zero
    /// in its checksum field.
    public static func checksum(_ segment: [UInt8], source: IPv4Address, destination: IPv4Address) -> UInt16 {
        var sum: UInt32 = 0
        for word in [source.rawValue >> 16, source.rawValue & 0xFFFF,
                     destination.rawValue >> 16, destination.rawValue & 0xFFFF,
                     UInt32(ipProtocolNumber), UInt32(segment.count)] {
            sum &+= word
        }
        var i = 0
        while i + 1 < segment.count {
            sum &+= UInt32(segment[i]) << 8 | UInt32(segment[i + 1])
            i += 2
        }
        if i < segment.count { sum &+= UInt32(segment[i]) << 8 }
        while sum > 0xFFFF { sum = (sum & 0xFFFF) + (sum >> 16) }
        return ~UInt16(sum)
    }
}

extension Array where Element == UInt8 {
    fileprivate mutating func appendBigEndian(_ v: UInt16) {
        append(UInt8(v >> 8))
        append(UInt8(truncatingIfNeeded: v))
    }
    fileprivate mutating func appendBigEndian(_ v: UInt32) {
        appendBigEndian(UInt16(v >> 16))
        appendBigEndian(UInt16(truncatingIfNeeded: v))
    }
    /// Callers have checked `at + 2 <= count`.
    fileprivate func readUInt16(at i: Int) -> UInt16 { UInt16(self[i]) << 8 | UInt16(self[i + 1]) }
    fileprivate func readUInt32(at i: Int) -> UInt32 { UInt32(readUInt16(at: i)) << 16 | UInt32(readUInt16(at: i + 2)) }
}
