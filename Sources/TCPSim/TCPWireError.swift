/// Why bytes could not be decoded as a TCP segment (RFC 9293 §3.1 header format).
public enum TCPWireError: Error, Hashable, Sendable {
    /// Fewer bytes than the fixed 20-octet header or than the Data Offset says.
    case truncated(needed: Int, available: Int)
    /// Data Offset below 5 words (the minimum header).
    case badDataOffset(Int)
    /// The checksum over the pseudo-header, header and data does not verify.
    case badChecksum(found: UInt16, expected: UInt16)
    /// An option's length byte is missing, below 2, or runs past the header.
    case malformedOption(kind: UInt8)
    /// The MSS option (kind 2) must have length 4.
    case badMSSOptionLength(Int)
    /// More than 65,535 − 20 octets cannot be described by the pseudo-header length.
    case tooLong(Int)
}
