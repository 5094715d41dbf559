/// Why a header block could not be decoded (RFC 7541 §2.1 and §5–6). Every one is a connection
/// error of type COMPRESSION_ERROR in HTTP/2 (RFC 9113 §4.3).
public enum HPACKError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The block ended inside an integer, a string or a representation.
    case truncated
    /// An integer too large for this decoder (more continuation octets than a 32-bit value needs).
    case integerOverflow
    /// An index that names no entry of the static or the dynamic table (0 is never valid).
    case badIndex(Int)
    /// A Huffman string that decodes the EOS symbol (RFC 7541 §5.2).
    case huffmanEOS
    /// Huffman padding longer than 7 bits, or not the most significant bits of EOS (all ones).
    case huffmanPadding
    /// A dynamic table size update above the limit the decoder's side allows (§6.3).
    case tableSizeTooLarge(Int, limit: Int)
    /// A dynamic table size update after the first field representation of a block (§4.2).
    case tableSizeUpdateNotAtStart

    /// The HTTP/2 error this is (always COMPRESSION_ERROR).
    public var http2ErrorCode: HTTP2ErrorCode { .compressionError }

    public var description: String {
        switch self {
        case .truncated: return "the header block ends inside a representation"
        case .integerOverflow: return "an integer overflows"
        case .badIndex(let i): return "index \(i) names no table entry"
        case .huffmanEOS: return "a Huffman string contains EOS"
        case .huffmanPadding: return "bad Huffman padding (longer than 7 bits or not all ones)"
        case .tableSizeTooLarge(let size, let limit): return "dynamic table size update to \(size) exceeds \(limit)"
        case .tableSizeUpdateNotAtStart: return "a dynamic table size update after a header field"
        }
    }
}

/// One header field: a name and a value (names are lowercase in HTTP/2).
public struct HPACKHeaderField: Sendable, Hashable, CustomStringConvertible {
    public var name: String
    public var value: String

    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }

    /// The entry's size in a dynamic table: name and value octets plus 32 (RFC 7541 §4.1).
    public var size: Int { name.utf8.count + value.utf8.count + 32 }

    public var description: String { "\(name): \(value)" }
}
