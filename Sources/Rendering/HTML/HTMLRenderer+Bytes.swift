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
        out += "<th scope=\"col\">\(say("html.bytes.value"))</th><th scope=\"col\">\(say("html.bytes.hex"))</th></tr></thead>\n<tbody>\n"
        for field in message.dissection.fields { out += fieldRows(field, depth: 0, input: message.bytes) }
        out += "</tbody>\n</table></div>\n"
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

    func fieldRows(_ field: DissectedField, depth: Int, input: [UInt8]) -> String {
        var hexCell: String
        if field.isLeaf, field.length > 0, field.end <= input.count {
            let bytes = Array(input[field.offset..<field.end])
            if bytes.count <= Self.bytesPerCell {
                hexCell = Hex.string(bytes)
            } else {
                let half = Self.bytesPerCell / 2
                hexCell = Hex.string(Array(bytes.prefix(half))) + " " + (explanations("html.bytes.elided", ["count": "\(bytes.count)"]) ?? "…")
                    + " " + Hex.string(Array(bytes.suffix(half)))
            }
        } else {
            hexCell = explanations("html.bytes.length", ["count": "\(field.length)"]) ?? "\(field.length)"
        }
        // The depth's indent is a class (d0…d9, in the stylesheet); deeper fields say it inline.
        let indent = depth <= 9 ? "" : " style=\"padding-left:\(HTMLText.number(0.4 + Double(depth) * 1.1))em\""
        var out = "<tr class=\"\(field.isLeaf ? "leaf" : "group") d\(min(depth, 9))\" tabindex=\"0\" data-o=\"\(field.offset)\" data-l=\"\(field.length)\">"
        out += "<td class=\"o\">\(field.offset)</td>"
        out += "<td class=\"f\"\(indent)>\(HTMLText.escaped(field.name))</td>"
        var value = HTMLText.escaped(explanations.fieldValue(field.value))
        for note in field.notes { value += "<span class=\"note\">! \(HTMLText.escaped(explanations.dissectionNote(note)))</span>" }
        out += "<td class=\"v\">\(value)</td><td class=\"x\">\(HTMLText.escaped(hexCell))</td></tr>\n"
        for child in field.children { out += fieldRows(child, depth: depth + 1, input: input) }
        return out
    }
}
