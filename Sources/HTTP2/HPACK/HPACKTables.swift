/// The static table (RFC 7541 Appendix A): indices 1…61.
public enum HPACKStaticTable {
    public static let entries: [HPACKHeaderField] = [
        (":authority", ""), (":method", "GET"), (":method", "POST"), (":path", "/"), (":path", "/index.html"),
        (":scheme", "http"), (":scheme", "https"), (":status", "200"), (":status", "204"), (":status", "206"),
        (":status", "304"), (":status", "400"), (":status", "404"), (":status", "500"), ("accept-charset", ""),
        ("accept-encoding", "gzip, deflate"), ("accept-language", ""), ("accept-ranges", ""), ("accept", ""),
        ("access-control-allow-origin", ""), ("age", ""), ("allow", ""), ("authorization", ""), ("cache-control", ""),
        ("content-disposition", ""), ("content-encoding", ""), ("content-language", ""), ("content-length", ""),
        ("content-location", ""), ("content-range", ""), ("content-type", ""), ("cookie", ""), ("date", ""),
        ("etag", ""), ("expect", ""), ("expires", ""), ("from", ""), ("host", ""), ("if-match", ""),
        ("if-modified-since", ""), ("if-none-match", ""), ("if-range", ""), ("if-unmodified-since", ""),
        ("last-modified", ""), ("link", ""), ("location", ""), ("max-forwards", ""), ("proxy-authenticate", ""),
        ("proxy-authorization", ""), ("range", ""), ("referer", ""), ("refresh", ""), ("retry-after", ""),
        ("server", ""), ("set-cookie", ""), ("strict-transport-security", ""), ("transfer-encoding", ""),
        ("user-agent", ""), ("vary", ""), ("via", ""), ("www-authenticate", ""),
    ].map { HPACKHeaderField($0.0, $0.1) }

    public static var count: Int { entries.count }
}

/// The dynamic table (RFC 7541 §2.3.2, §4): newest entry first (index 62 is the newest), sizes
/// counted as name + value + 32, oldest entries evicted to stay within `maxSize`.
public struct HPACKDynamicTable: Sendable, Hashable {
    public private(set) var entries: [HPACKHeaderField] = []
    public private(set) var size = 0
    public private(set) var maxSize: Int

    public init(maxSize: Int = 4096) { self.maxSize = maxSize }

    /// Adds an entry at the front, evicting from the end first (§4.4); an entry larger than the
    /// whole table empties it and is not added.
    public mutating func add(_ field: HPACKHeaderField) {
        while !entries.isEmpty, size + field.size > maxSize { evictOldest() }
        guard field.size <= maxSize else { return }
        entries.insert(field, at: 0)
        size += field.size
    }

    /// A new maximum size (a dynamic table size update, §4.3): evicts until the table fits.
    public mutating func resize(_ newMax: Int) {
        maxSize = newMax
        while size > maxSize { evictOldest() }
    }

    mutating func evictOldest() {
        guard let last = entries.popLast() else { return }
        size -= last.size
    }
}

/// The header table as indices see it: 1…61 static, 62… dynamic (RFC 7541 §2.3.3).
enum HPACKIndex {
    static func field(_ index: Int, dynamic: HPACKDynamicTable) throws(HPACKError) -> HPACKHeaderField {
        if index >= 1, index <= HPACKStaticTable.count { return HPACKStaticTable.entries[index - 1] }
        let d = index - HPACKStaticTable.count - 1
        guard index > 0, d < dynamic.entries.count else { throw .badIndex(index) }
        return dynamic.entries[d]
    }

    /// The best index for `field`: an exact match (name and value), else a name match (static
    /// entries first, then dynamic, lowest index wins).
    static func search(_ field: HPACKHeaderField, dynamic: HPACKDynamicTable) -> (index: Int, exact: Bool)? {
        var nameOnly: Int?
        for (i, e) in HPACKStaticTable.entries.enumerated() where e.name == field.name {
            if e.value == field.value { return (i + 1, true) }
            nameOnly = nameOnly ?? i + 1
        }
        for (i, e) in dynamic.entries.enumerated() where e.name == field.name {
            if e.value == field.value { return (i + HPACKStaticTable.count + 1, true) }
            nameOnly = nameOnly ?? i + HPACKStaticTable.count + 1
        }
        return nameOnly.map { ($0, false) }
    }
}
