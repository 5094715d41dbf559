/// One field representation of a header block (RFC 7541 §6).
public enum HPACKRepresentation: Sendable, Hashable {
    /// How a literal treats the dynamic table (§6.2.1–§6.2.3).
    public enum Indexing: Sendable, Hashable {
        case incremental, without, never
    }

    /// An indexed header field (§6.1): the whole field from the table.
    case indexed(Int)
    /// A literal value; the name from the table (`nameIndex`) or literal (`nameIndex` nil).
    case literal(HPACKHeaderField, nameIndex: Int?, indexing: Indexing, huffmanName: Bool, huffmanValue: Bool)
    /// A dynamic table size update (§6.3).
    case sizeUpdate(Int)
}

/// What a header block carried, for the trace: the fields, how each was represented, and its
/// size before and after compression.
public struct HPACKBlockSummary: Sendable, Hashable {
    public var fields: [HPACKHeaderField]
    public var representations: [HPACKRepresentation]
    /// Octets of the names and values as text (what the fields would take uncompressed).
    public var rawSize: Int
    /// Octets of the encoded header block.
    public var encodedSize: Int
    /// The dynamic table's size after the block.
    public var tableSize: Int
    public var tableEntries: Int
    /// The header list's size as SETTINGS_MAX_HEADER_LIST_SIZE counts it (RFC 9113 §6.5.2: each
    /// field's name and value octets plus 32), over the whole block, kept fields or not.
    public var listSize = 0
    /// Set when the list grew past the decoder's limit: from that field on nothing was kept
    /// (`fields` and `representations` hold only those before it); the rest of the block was still
    /// decoded, so the dynamic table stays as the encoder's (RFC 9113 §4.3, §10.5.1).
    public var discardedBeyond: Int?

    /// Fields sent as an index into the static or dynamic table (no literal octets at all).
    public var indexedCount: Int {
        representations.reduce(0) { if case .indexed = $1 { return $0 + 1 } else { return $0 } }
    }
}

/// HPACK's string literal (§5.2): H bit, 7-bit-prefix length, octets.
enum HPACKString {
    static func encode(_ text: String, huffman: Bool?) -> (bytes: [UInt8], huffman: Bool) {
        let raw = Array(text.utf8)
        let useHuffman = huffman ?? (HPACKHuffman.encodedLength(raw) < raw.count)
        let body = useHuffman ? HPACKHuffman.encode(raw) : raw
        return (HPACKInteger.encode(body.count, prefixBits: 7, flags: useHuffman ? 0x80 : 0) + body, useHuffman)
    }

    static func decode(_ bytes: [UInt8], at position: inout Int) throws(HPACKError) -> (String, huffman: Bool) {
        guard position < bytes.count else { throw .truncated }
        let huffman = bytes[position] & 0x80 != 0
        let length = try HPACKInteger.decode(bytes, at: &position, prefixBits: 7)
        guard length <= bytes.count - position else { throw .truncated }
        let body = Array(bytes[position..<(position + length)])
        position += length
        let octets = huffman ? try HPACKHuffman.decode(body) : body
        return (String(decoding: octets, as: UTF8.self), huffman)
    }
}

/// The compressing side of one direction of a connection: its own copy of the dynamic table.
public struct HPACKEncoder: Sendable {
    public enum HuffmanPolicy: Sendable { case never, always, whenShorter }

    public private(set) var table: HPACKDynamicTable
    public var huffman: HuffmanPolicy
    /// Names sent as never-indexed literals (RFC 7541 §7.1.3: secrets an intermediary must not index).
    public var neverIndexed: Set<String>
    var pendingSizeUpdate: Int?

    public init(maxTableSize: Int = 4096, huffman: HuffmanPolicy = .whenShorter, neverIndexed: Set<String> = []) {
        table = HPACKDynamicTable(maxSize: maxTableSize)
        self.huffman = huffman
        self.neverIndexed = neverIndexed
    }

    /// Changes the table's maximum size; the next block starts with the size update (§4.2).
    public mutating func setMaxTableSize(_ size: Int) {
        table.resize(size)
        pendingSizeUpdate = size
    }

    /// Encodes a header list: an exact table match as an index, else a literal with incremental
    /// indexing (the name indexed when the table has it), never-indexed for `neverIndexed` names.
    public mutating func encode(_ fields: [HPACKHeaderField]) -> (block: [UInt8], summary: HPACKBlockSummary) {
        var out: [UInt8] = []
        var representations: [HPACKRepresentation] = []
        if let size = pendingSizeUpdate {
            out += HPACKInteger.encode(size, prefixBits: 5, flags: 0x20)
            representations.append(.sizeUpdate(size))
            pendingSizeUpdate = nil
        }
        let policy: Bool? = huffman == .never ? false : huffman == .always ? true : nil
        for field in fields {
            let never = neverIndexed.contains(field.name)
            let match = HPACKIndex.search(field, dynamic: table)
            if let match, match.exact, !never {
                out += HPACKInteger.encode(match.index, prefixBits: 7, flags: 0x80)
                representations.append(.indexed(match.index))
                continue
            }
            let indexing: HPACKRepresentation.Indexing = never ? .never : .incremental
            let (prefix, flags): (Int, UInt8) = never ? (4, 0x10) : (6, 0x40)
            out += HPACKInteger.encode(match?.index ?? 0, prefixBits: prefix, flags: flags)
            var huffmanName = false
            if match == nil {
                let name = HPACKString.encode(field.name, huffman: policy)
                out += name.bytes
                huffmanName = name.huffman
            }
            let value = HPACKString.encode(field.value, huffman: policy)
            out += value.bytes
            representations.append(.literal(field, nameIndex: match?.index, indexing: indexing,
                                            huffmanName: huffmanName, huffmanValue: value.huffman))
            if indexing == .incremental { table.add(field) }
        }
        var summary = HPACKBlockSummary(fields: fields, representations: representations,
                                        rawSize: fields.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count },
                                        encodedSize: out.count, tableSize: table.size, tableEntries: table.entries.count)
        summary.listSize = fields.reduce(0) { $0 + $1.size }
        return (out, summary)
    }
}

/// The decompressing side of one direction of a connection.
public struct HPACKDecoder: Sendable {
    public private(set) var table: HPACKDynamicTable
    /// The most the peer may set the table to (our SETTINGS_HEADER_TABLE_SIZE).
    public var maxTableSizeLimit: Int

    public init(maxTableSize: Int = 4096) {
        table = HPACKDynamicTable(maxSize: maxTableSize)
        maxTableSizeLimit = maxTableSize
    }

    /// Decodes one complete header block. A malformed block throws and leaves the table as far as
    /// it got (the connection is over anyway: COMPRESSION_ERROR).
    ///
    /// `maxListSize` bounds what is kept, not what is decoded: one octet can name a 4,000-octet
    /// table entry, so a 300 KB block could expand to a gigabyte (RFC 7541 §7.3, RFC 9113 §10.5.1).
    /// Past the limit no field is stored — the sizes are only counted — but every representation
    /// is still processed, since the dynamic table must change as the encoder's did (§4.3). Work is
    /// linear in the block's length and memory bounded by the limit plus the table.
    public mutating func decode(_ block: [UInt8], maxListSize: Int? = nil) throws(HPACKError) -> (fields: [HPACKHeaderField], summary: HPACKBlockSummary) {
        var fields: [HPACKHeaderField] = []
        var representations: [HPACKRepresentation] = []
        var position = 0
        var listSize = 0, rawSize = 0
        var discardedBeyond: Int?
        var sawField = false
        /// Counts a field and keeps it (with how it was sent) while within the limit.
        func take(_ field: HPACKHeaderField, _ representation: HPACKRepresentation) {
            sawField = true
            listSize += field.size
            if discardedBeyond == nil, let limit = maxListSize, listSize > limit { discardedBeyond = limit }
            guard discardedBeyond == nil else { return }
            rawSize += field.name.utf8.count + field.value.utf8.count
            fields.append(field)
            representations.append(representation)
        }
        while position < block.count {
            let b = block[position]
            if b & 0x80 != 0 {
                let index = try HPACKInteger.decode(block, at: &position, prefixBits: 7)
                take(try HPACKIndex.field(index, dynamic: table), .indexed(index))
            } else if b & 0xE0 == 0x20 {
                guard !sawField else { throw .tableSizeUpdateNotAtStart }
                let size = try HPACKInteger.decode(block, at: &position, prefixBits: 5)
                guard size <= maxTableSizeLimit else { throw .tableSizeTooLarge(size, limit: maxTableSizeLimit) }
                table.resize(size)
                representations.append(.sizeUpdate(size))
            } else {
                let indexing: HPACKRepresentation.Indexing
                let prefix: Int
                if b & 0xC0 == 0x40 { indexing = .incremental; prefix = 6 }
                else if b & 0xF0 == 0x10 { indexing = .never; prefix = 4 }
                else { indexing = .without; prefix = 4 }
                let nameIndex = try HPACKInteger.decode(block, at: &position, prefixBits: prefix)
                let name: String
                var huffmanName = false
                if nameIndex == 0 {
                    (name, huffmanName) = try HPACKString.decode(block, at: &position)
                } else {
                    name = try HPACKIndex.field(nameIndex, dynamic: table).name
                }
                let (value, huffmanValue) = try HPACKString.decode(block, at: &position)
                let field = HPACKHeaderField(name, value)
                take(field, .literal(field, nameIndex: nameIndex == 0 ? nil : nameIndex, indexing: indexing,
                                     huffmanName: huffmanName, huffmanValue: huffmanValue))
                if indexing == .incremental { table.add(field) }
            }
        }
        var summary = HPACKBlockSummary(fields: fields, representations: representations, rawSize: rawSize,
                                        encodedSize: block.count, tableSize: table.size, tableEntries: table.entries.count)
        summary.listSize = listSize
        summary.discardedBeyond = discardedBeyond
        return (fields, summary)
    }
}
