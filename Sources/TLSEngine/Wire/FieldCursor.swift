/// Thrown inside the dissector when the bytes cannot be followed further; the field that could
/// not be read has already been recorded with a note.
struct DissectionStop: Error {}

/// The dissector's cursor: reads like `ByteReader`, but records every field it reads (offset,
/// length, name, meaning) and, instead of failing, notes where and why the bytes stop.
final class FieldCursor {
    let bytes: [UInt8]
    private(set) var position: Int
    private let outerEnd: Int
    private var limits: [Int] = []
    private var path: [String] = []
    private var frames: [[DissectedField]] = [[]]

    init(bytes: [UInt8], start: Int = 0, end: Int? = nil) {
        self.bytes = bytes
        self.position = start
        self.outerEnd = min(end ?? bytes.count, bytes.count)
    }

    /// The end of the innermost structure being read.
    var limit: Int { limits.last ?? outerEnd }
    var remaining: Int { limit - position }
    var isAtLimit: Bool { position >= limit }

    /// The fields recorded at the top level.
    var fields: [DissectedField] { frames.first ?? [] }

    func fullName(_ name: String) -> String { (path + [name]).joined(separator: ".") }

    private func append(_ field: DissectedField) {
        if frames.isEmpty { frames = [[]] }
        frames[frames.count - 1].append(field)
    }

    /// Records a leaf of `count` bytes; on truncation records what is there with a note and stops.
    @discardableResult
    func leaf(_ name: String, count: Int, note: String? = nil,
              value: ([UInt8]) -> String) throws(DissectionStop) -> [UInt8] {
        precondition(count >= 0, "a field cannot have a negative length")
        guard count <= remaining else {
            let available = max(remaining, 0)
            let why = limit == outerEnd
                ? "truncated: the bytes stop here (\(name) needs \(count) bytes, \(available) remain)"
                : "overrun: \(name) needs \(count) bytes, its enclosing vector has \(available) left"
            let data = Array(bytes[position ..< position + available])
            append(DissectedField(offset: position, length: available, name: fullName(name),
                                  value: available > 0 ? FieldCursor.opaque(data) : "", note: why))
            position += available
            throw DissectionStop()
        }
        let data = Array(bytes[position ..< position + count])
        append(DissectedField(offset: position, length: count, name: fullName(name), value: value(data), note: note))
        position += count
        return data
    }

    /// Records a big-endian integer of `width` bytes.
    @discardableResult
    func uint(_ name: String, width: Int, note: ((Int) -> String?)? = nil,
              value: (Int) -> String = { String($0) }) throws(DissectionStop) -> Int {
        var number = 0
        if width <= remaining {
            for i in 0 ..< width { number = number << 8 | Int(bytes[position + i]) }
        }
        let n = number
        try leaf(name, count: width, note: note?(n)) { _ in value(n) }
        return n
    }

    /// Records a code point.
    @discardableResult
    func codePoint<T: CodePoint>(_ name: String, _ type: T.Type, note: String? = nil) throws(DissectionStop) -> T {
        let n = try uint(name, width: T.wireSize, note: { _ in note }) { n in
            FieldCursor.describe(T(rawValue: T.RawValue(truncatingIfNeeded: n)))
        }
        return T(rawValue: T.RawValue(truncatingIfNeeded: n))
    }

    /// Records the rest of the current structure as one opaque leaf (nothing if empty).
    @discardableResult
    func rest(_ name: String, note: String? = nil, value: (([UInt8]) -> String)? = nil) throws(DissectionStop) -> [UInt8] {
        guard remaining > 0 else { return [] }
        return try leaf(name, count: remaining, note: note, value: value ?? FieldCursor.opaque)
    }

    /// Runs `body` as a structure named `name`: its fields become children. With `length`, the
    /// structure ends there (bytes left unread are noted as trailing); with `pushPath`, child
    /// names are prefixed with `name.`.
    @discardableResult
    func group<T>(_ name: String, value: String = "", length: Int? = nil, pushPath: Bool = false,
                  _ body: () throws(DissectionStop) -> T) throws(DissectionStop) -> T {
        let start = position
        let displayName = fullName(name)
        frames.append([])
        if let length { limits.append(min(position + length, limit)) }
        if pushPath { path.append(name) }
        defer {
            if pushPath { path.removeLast() }
            if length != nil { limits.removeLast() }
            let children = frames.removeLast()
            let end = max(position, children.last?.end ?? start)
            if let only = children.first, children.count == 1, only.name == displayName,
               only.offset == start, only.end == end {
                append(only)  // a vector holding one opaque field of the same name: no wrapper
            } else if !(children.isEmpty && end == start) {
                append(DissectedField(offset: start, length: end - start, name: displayName, value: value,
                                      children: children))
            }
        }
        let result = try body()
        if length != nil, position < limit {
            let extra = Array(bytes[position ..< limit])
            append(DissectedField(offset: position, length: extra.count, name: fullName("trailing_bytes"),
                                  value: FieldCursor.opaque(extra),
                                  note: "\(extra.count) byte(s) after the end of \(name): a decode_error"))
            position = limit
        }
        return result
    }

    /// Reads a vector: the `name.length` leaf, then `body` inside a structure of that length.
    /// A length outside `<min..max>` or past the available bytes gets a note.
    func vector(_ name: String, lengthBytes: Int, min lo: Int, max hi: Int, elementSize: Int = 1,
                value: String = "", pushPath: Bool = false,
                _ body: () throws(DissectionStop) -> Void) throws(DissectionStop) {
        let available = remaining - lengthBytes
        let length = try uint("\(name).length", width: lengthBytes, note: { n in
            if n > available {
                return "declares \(n) bytes, only \(Swift.max(available, 0)) present"
            }
            if n < lo || n > hi || n % elementSize != 0 {
                return "length \(n) outside <\(lo)..\(hi)>\(elementSize > 1 ? " or not a multiple of \(elementSize)" : ""): a decode_error"
            }
            return nil
        })
        guard length > 0 else { return }
        try group(name, value: value, length: length, pushPath: pushPath, body)
    }

    /// Runs `body`; if it stops, records whatever remains of the current structure as
    /// undissected, so that the leaves still cover every byte.
    func guarded(_ body: () throws(DissectionStop) -> Void) {
        do { try body() } catch {
            if remaining > 0 {
                let data = Array(bytes[position ..< limit])
                append(DissectedField(offset: position, length: data.count, name: fullName("undissected"),
                                      value: FieldCursor.opaque(data), note: "not dissected after the problem above"))
                position = limit
            }
        }
    }

    // MARK: Value formatting

    static func describe<T: CodePoint>(_ value: T) -> String {
        value.name.map { "\($0) (\(value.hex))" } ?? value.description
    }

    /// Hex for short values, a prefix and the size for long ones.
    static func opaque(_ data: [UInt8]) -> String {
        if data.count <= 32 { return Hex.string(data) }
        return Hex.string(data.prefix(16)) + "… (\(data.count) bytes)"
    }
}
