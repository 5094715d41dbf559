/// Thrown inside the dissector when the bytes cannot be followed further; the field that could
/// not be read has already been recorded with a note.
struct DissectionStop: Error {}

/// The dissector's cursor: records fields (offset, length, name, meaning) as the engine's readers
/// (through a ``FieldRecorder``) read them, and the framing the dissector adds around them (records,
/// messages, fragments, protected bytes). It measures positions only: where the bytes stop, where a
/// length points past its bytes. Whether the bytes are acceptable is the engine's
/// verdict, attached by the session (``DissectionNote/refused(_:)``); no bound or alert is written here.
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

    /// Adds `note` to the last field recorded at the current level (or a field under it that
    /// `matches`); false when there is none.
    @discardableResult
    func annotateLast(_ note: DissectionNote, where matches: (DissectedField) -> Bool = { _ in true }) -> Bool {
        guard !frames.isEmpty, let last = frames[frames.count - 1].indices.last else { return false }
        return frames[frames.count - 1][last].annotate(note, where: matches)
    }

    /// Replaces the last field recorded at the current level with `transform` of it (a reading that
    /// only the rest of the message settles, such as what a hello's random is).
    func rewriteLast(_ transform: (DissectedField) -> DissectedField) {
        guard !frames.isEmpty, let last = frames[frames.count - 1].indices.last else { return }
        frames[frames.count - 1][last] = transform(frames[frames.count - 1][last])
    }

    /// Records a leaf of `count` bytes; on truncation records what is there with a note and stops.
    @discardableResult
    func leaf(_ name: String, count: Int, notes: [DissectionNote] = [],
              value: ([UInt8]) -> FieldValue) throws(DissectionStop) -> [UInt8] {
        precondition(count >= 0, "a field cannot have a negative length")
        guard count <= remaining else {
            let available = max(remaining, 0)
            let why: DissectionNote = limit == outerEnd
                ? .truncated(needed: count, available: available)
                : .overrun(needed: count, available: available)
            let data = Array(bytes[position ..< position + available])
            append(DissectedField(offset: position, length: available, name: fullName(name),
                                  value: available > 0 ? .bytes(OpaqueBytes(data)) : .none, notes: [why]))
            position += available
            throw DissectionStop()
        }
        let data = Array(bytes[position ..< position + count])
        append(DissectedField(offset: position, length: count, name: fullName(name), value: value(data), notes: notes))
        position += count
        return data
    }

    /// Records the rest of the current structure as one opaque leaf (nothing if empty).
    @discardableResult
    func rest(_ name: String, notes: [DissectionNote] = [],
              value: (([UInt8]) -> FieldValue)? = nil) throws(DissectionStop) -> [UInt8] {
        guard remaining > 0 else { return [] }
        return try leaf(name, count: remaining, notes: notes, value: value ?? { .bytes(OpaqueBytes($0)) })
    }

    /// Runs `body` as a structure named `name`: its fields become children. With `length`, the
    /// structure ends there (bytes left unread are recorded as trailing); with `pushPath`, child
    /// names are prefixed with `name.`.
    @discardableResult
    func group<T>(_ name: String, value: FieldValue = .none, length: Int? = nil, pushPath: Bool = false,
                  _ body: () throws(DissectionStop) -> T) throws(DissectionStop) -> T {
        open(name, value: value, length: length, pushPath: pushPath)
        defer { close() }
        let result = try body()
        if length != nil, position < limit {
            let extra = Array(bytes[position ..< limit])
            append(DissectedField(offset: position, length: extra.count, name: fullName("trailing_bytes"),
                                  value: .bytes(OpaqueBytes(extra)), notes: [.trailingBytes(count: extra.count, after: name)]))
            position = limit
        }
        return result
    }

    private struct OpenStructure {
        let start: Int
        let displayName: String
        let value: FieldValue
        let hasLength: Bool
        let pushPath: Bool
    }

    private var openStructures: [OpenStructure] = []

    /// Starts a structure named `name` here (see `group`); `close` ends it.
    func open(_ name: String, value: FieldValue = .none, length: Int? = nil, pushPath: Bool = false) {
        openStructures.append(OpenStructure(start: position, displayName: fullName(name), value: value, hasLength: length != nil,
                                  pushPath: pushPath))
        frames.append([])
        if let length { limits.append(min(position + length, limit)) }
        if pushPath { path.append(name) }
    }

    /// Ends the structure `open` started: its fields become its children (a structure holding one
    /// field of its own name and extent is that field; an empty one is left out).
    func close() {
        let s = openStructures.removeLast()
        if s.pushPath { path.removeLast() }
        if s.hasLength { limits.removeLast() }
        let children = frames.removeLast()
        let end = max(position, children.last?.end ?? s.start)
        if let only = children.first, children.count == 1, only.name == s.displayName,
           only.offset == s.start, only.end == end {
            append(only)  // a vector holding one opaque field of the same name: no wrapper
        } else if !(children.isEmpty && end == s.start) {
            append(DissectedField(offset: s.start, length: end - s.start, name: s.displayName, value: s.value,
                                  children: children))
        }
    }

    /// Moves to `offset` (the codec's reader says where its next read starts).
    func seek(_ offset: Int) { position = min(max(offset, 0), bytes.count) }

    /// Records the rest of the current structure as not dissected (after a problem noted above).
    func skipRest(note: DissectionNote = .notDissected) {
        guard remaining > 0 else { return }
        let data = Array(bytes[position ..< limit])
        append(DissectedField(offset: position, length: data.count, name: fullName("undissected"),
                              value: .bytes(OpaqueBytes(data)), notes: [note]))
        position = limit
    }

    /// Runs `body`; if it stops, records whatever remains of the current structure as
    /// undissected, so that the leaves still cover every byte.
    func guarded(_ body: () throws(DissectionStop) -> Void) {
        do { try body() } catch { skipRest() }
    }

    // MARK: Value formatting

    /// A code point as a field's value: its registry name with its number (`x25519 (0x001d)`), or
    /// the number TLSLab has no name for.
    static func describe<T: CodePoint>(_ value: T) -> FieldValue { .codePoint(value) }

    /// A code point naming a structure (a record's type, a handshake message, an extension): its
    /// registry name alone, or the number TLSLab has no name for.
    static func label<T: CodePoint>(_ value: T) -> FieldValue { .codePointLabel(value) }
}
