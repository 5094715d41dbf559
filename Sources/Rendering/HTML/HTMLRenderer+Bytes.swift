import TLSEngine

/// A message's bytes field by field, as `tlslab dissect` reads them: offset, field, value and hex
/// in a table (nested fields indented), and the whole message in hex (drawn by the script), where
/// the bytes of the field under the pointer or the keyboard focus light up.
extension HTMLRenderer {
    /// Bytes of a field shown in its table cell before the middle is elided (as the hexdump does).
    static let bytesPerCell = 32

    func bytes(_ message: Walkthrough.MessageBytes, step: Int) -> String {
        bytes(message, id: "bytes-\(step)", summary: say("html.bytes.summary", ["count": "\(message.bytes.count)"]))
    }

    /// A bytes panel: `summary` names what the bytes are; `about` (HTML) says why they are there.
    func bytes(_ message: Walkthrough.MessageBytes, id: String, summary: String, about: String = "",
               dump: String? = nil) -> String {
        let hex = Hex.string(message.bytes)
        var out = "<details class=\"bytes\" id=\"\(id)\" data-hex=\"\(hex)\">\n"
        out += "<summary>\(summary)</summary>\n"
        out += about
        out += "<p class=\"hint\">\(say("html.bytes.hint"))</p>\n"
        out += "<div class=\"fields-scroll\"><table class=\"fields\">\n<thead><tr>"
        out += "<th scope=\"col\">\(say("html.bytes.offset"))</th><th scope=\"col\">\(say("html.bytes.field"))</th>"
        out += "<th scope=\"col\">\(say("html.bytes.value"))</th><th scope=\"col\">\(say("html.bytes.hex"))</th></tr></thead>\n"
        // The rows travel as one attribute (a line per field, tab-separated cells, each cell already
        // HTML), and the script builds them when the step is shown: a run of thousands of segments
        // keeps a page a browser opens and a machine writes in seconds.
        var rows = ""
        for field in message.dissection.fields { fieldRows(field, depth: 0, input: message.bytes, into: &rows) }
        out += "<tbody data-rows=\"\(HTMLText.escaped(rows))\"></tbody>\n</table></div>\n"
        // The script fills the dump from data-hex when the bytes are first opened (16 a line, one
        // element per byte): the page stays small, and the table above already holds every byte.
        out += "<div class=\"dump\"><h4>\(dump ?? say("html.bytes.dump"))</h4>\n<pre class=\"hexdump\" aria-hidden=\"true\"></pre></div>\n"
        return out + "</details>\n"
    }

    /// A message whose bytes an earlier step already showed: a pointer to that step's table, which
    /// the script copies in when these bytes are opened (the page holds each table once).
    func sharedBytes(_ message: Walkthrough.MessageBytes, step: Int, sameAs first: Int) -> String {
        var out = "<details class=\"bytes\" id=\"bytes-\(step)\" data-same=\"bytes-\(first)\">\n"
        out += "<summary>\(say("html.bytes.summary", ["count": "\(message.bytes.count)"]))</summary>\n"
        out += "<p class=\"same\"><a href=\"#step-\(first)\">\(say("html.bytes.same", ["step": "\(first)"]))</a></p>\n"
        return out + "</details>\n"
    }

    /// A field and the fields inside it, one line each: depth, offset, length, leaf (1) or group (0),
    /// then the field's name, value and hex, and a cell per note, as HTML (the script places them with innerHTML).
    func fieldRows(_ field: DissectedField, depth: Int, input: [UInt8], into rows: inout String) {
        var hexCell: String
        if field.isLeaf, field.length > 0, field.end <= input.count {
            let bytes = input[field.offset..<field.end]
            if bytes.count <= Self.bytesPerCell {
                hexCell = Hex.string(Array(bytes))
            } else {
                let half = Self.bytesPerCell / 2
                hexCell = Hex.string(Array(bytes.prefix(half))) + " " + explanations.phrase("html.bytes.elided", ["count": "\(bytes.count)"])
                    + " " + Hex.string(Array(bytes.suffix(half)))
            }
        } else {
            hexCell = explanations.phrase("html.bytes.length", ["count": "\(field.length)"])
        }
        rows += "\(depth)\t\(field.offset)\t\(field.length)\t\(field.isLeaf ? 1 : 0)\t"
        rows += Self.cell(field.name) + "\t" + Self.cell(explanations.fieldValue(field.value)) + "\t" + Self.cell(hexCell)
        for note in field.notes { rows += "\t" + Self.cell(explanations.dissectionNote(note)) }
        rows += "\n"
        for child in field.children { fieldRows(child, depth: depth + 1, input: input, into: &rows) }
    }

    /// A cell's text as HTML with no tab or line break of its own (those separate cells and rows).
    static func cell(_ text: String) -> String {
        let html = HTMLText.escaped(text)
        guard html.contains(where: { $0 == "\t" || $0 == "\n" }) else { return html }
        return html.replacing("\t", with: "&#9;").replacing("\n", with: "&#10;")
    }
}
