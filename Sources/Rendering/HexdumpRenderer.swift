import TLSEngine

/// Renders a field-level dissection as an annotated hexdump: one line per field, with its offset,
/// its bytes, its RFC name and what the bytes mean — a byte-by-byte illustrated message.
///
/// Pure: a dissection and a width in, lines out.
public struct HexdumpRenderer: Sendable {
    /// Total line width to fit (the terminal's columns).
    public var width: Int
    /// How many bytes of a long field to show before eliding the middle.
    public var maxBytesPerField: Int
    /// The catalogue that words the values and notes (and, unless given, the two lines below).
    public var explanations: Explanations
    /// The line above the messages reassembled from several records (`hexdump.reassembled`).
    public var reassembledHeading: String
    /// A length in bytes, `{count}` the number (`hexdump.length`: "({count} bytes)").
    public var lengthTemplate: String
    /// Every byte of every field (`--full`): no field's bytes are elided, and a value the dissector
    /// shortened (opaque bytes) keeps only its words, since the bytes follow in full.
    public var fullValues: Bool

    public init(width: Int = 100, maxBytesPerField: Int = 32, explanations: Explanations = .english,
                reassembledHeading: String? = nil, lengthTemplate: String? = nil,
                fullValues: Bool = false) {
        self.width = max(width, 40)
        self.maxBytesPerField = max(maxBytesPerField, 4)
        self.fullValues = fullValues
        self.explanations = explanations
        self.reassembledHeading = reassembledHeading ?? explanations.phrase("hexdump.reassembled")
        self.lengthTemplate = lengthTemplate ?? explanations.phrase("hexdump.length")
    }

    func length(_ count: Int) -> String { lengthTemplate.replacing("{count}", with: "\(count)") }

    public func render(_ dissection: Dissection, input: [UInt8]) -> [String] {
        var lines: [String] = []
        for field in dissection.fields { render(field, input: input, depth: 0, into: &lines) }
        if !dissection.reassembled.isEmpty {
            lines.append("")
            lines.append(reassembledHeading)
            for field in dissection.reassembled { render(field, input: nil, depth: 0, into: &lines) }
        }
        return lines
    }

    /// `input` is nil for reassembled messages, whose offsets are not into the input.
    private func render(_ field: DissectedField, input: [UInt8]?, depth: Int, into lines: inout [String]) {
        let indent = String(repeating: "  ", count: depth)
        let offset = pad(String(field.offset, radix: 10), to: 6)
        var text = "\(offset)  \(indent)\(field.name)"
        // A long opaque field shortened by the dissector: in full, its words only (the bytes follow).
        let shortened = field.value.opaque.map { !$0.isWhole } ?? false
        let value = explanations.fieldValue(field.value, withBytes: !(fullValues && field.isLeaf && shortened))
        if !value.isEmpty { text += " = \(value)" }
        if field.isLeaf, let input, field.length > 0, field.end <= input.count {
            let bytes = Array(input[field.offset..<field.end])
            text += "  [\(hexPreview(bytes))]"
        } else if !field.isLeaf {
            text += "  " + length(field.length)
        }
        lines.append(contentsOf: wrap(text, continuationIndent: 8 + indent.count + 2))
        for note in field.notes {
            lines.append(contentsOf: wrap("        \(indent)! \(explanations.dissectionNote(note))", continuationIndent: 10 + indent.count))
        }
        for child in field.children { render(child, input: input, depth: depth + 1, into: &lines) }
    }

    func hexPreview(_ bytes: [UInt8]) -> String {
        if fullValues || bytes.count <= maxBytesPerField { return spaced(bytes) }
        let half = maxBytesPerField / 2
        return spaced(Array(bytes.prefix(half))) + " … " + spaced(Array(bytes.suffix(half))) + " " + length(bytes.count)
    }

    private func spaced(_ bytes: [UInt8]) -> String {
        bytes.map { Hex.string([$0]) }.joined(separator: " ")
    }

    private func pad(_ s: String, to n: Int) -> String {
        s.count >= n ? s : String(repeating: " ", count: n - s.count) + s
    }

    /// Breaks a line at the last space that fits `width` display columns (spacing inside the line is
    /// kept), or between two Chinese characters where no space is (``DisplayWidth/canBreak(between:and:)``),
    /// indenting continuation lines.
    func wrap(_ line: String, continuationIndent: Int) -> [String] {
        // A character takes at most two columns and at least one UTF-8 byte per column: a line of
        // no more bytes than columns fits as it is.
        if line.utf8.count <= width { return [line] }
        let prefix = Array(String(repeating: " ", count: min(continuationIndent, width / 2)))
        var out: [String] = []
        let characters = Array(line)
        // The line being cut is `lead` + characters[start...]; each round looks only at a window
        // of it long enough to decide where it breaks, so the work is linear in the text's length
        // (a 200 KB lesson description took 41 s when every round measured and copied the rest).
        var start = 0
        var lead: [Character] = []
        // Never break inside the leading indentation and first word.
        var protected = characters.prefix { $0 == " " }.count
        while start < characters.count || !lead.isEmpty {
            let restCount = lead.count + characters.count - start
            var windowEnd = min(characters.count, start + 2 * width + 16)
            var rest = lead + characters[start..<windowEnd]
            var fit = DisplayWidth.fittingCount(rest, width)
            // Zero-width characters can make more than the window fit: widen it until it decides.
            while fit == rest.count, windowEnd < characters.count {
                windowEnd = min(characters.count, windowEnd + 2 * width + 16)
                rest = lead + characters[start..<windowEnd]
                fit = DisplayWidth.fittingCount(rest, width)
            }
            guard fit < restCount, protected < fit else { break }
            // Not at a space that holds a reference together ("RFC 5246 §7.4.1").
            var breakAt = rest[protected..<fit].indices.last { rest[$0] == " " && !DisplayWidth.joinsReference(rest, at: $0) }
            // A break between CJK characters, when it comes after the last space.
            var i = fit
            while i > max(protected + 1, (breakAt ?? 0) + 1) {
                if DisplayWidth.canBreak(between: rest[i - 1], and: rest[i]) { breakAt = i; break }
                i -= 1
            }
            // No break opportunity: a hard cut, kept off closing and opening punctuation (避头尾).
            let at = breakAt ?? max(protected + 1, DisplayWidth.cutAvoidingPunctuation(rest, at: fit))
            out.append(String(rest[..<at]).replacingTrailingSpaces())
            var next = start + (at - lead.count)
            while next < characters.count, characters[next] == " " { next += 1 }
            start = next
            lead = prefix
            protected = prefix.count + 1
            if protected >= width { break }
        }
        out.append(String(lead + characters[start...]))
        return out
    }
}

extension String {
    fileprivate func replacingTrailingSpaces() -> String {
        var s = self
        while s.hasSuffix(" ") { s.removeLast() }
        return s
    }
}
