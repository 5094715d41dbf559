import Testing
import Trace
@testable import Rendering

/// A peer's text (a certificate's subject, a header) with C1 controls, bidirectional overrides and
/// marks, and Unicode line separators: escaped in terminal text and in JSON, never written raw.
@Suite("Peer text: C1, bidirectional and separator controls are escaped in text and JSON")
struct PeerTextEscapeTests {
    static let hostile: [Unicode.Scalar] = ["\u{85}", "\u{9B}", "\u{202E}", "\u{2066}", "\u{2069}", "\u{200E}", "\u{200F}", "\u{2028}", "\u{2029}"]

    @Test("Each control in a certificate CN is escaped by the terminal text as \\u{NNNN}", arguments: hostile)
    func terminal(scalar: Unicode.Scalar) {
        let name = "CN=evil" + String(Character(scalar)) + "moc.example"
        let shown = TerminalText.escaped(name)
        #expect(!shown.unicodeScalars.contains(scalar))
        #expect(shown.contains("\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"))
    }

    @Test("Each control in a certificate CN is written as \\uNNNN in JSON", arguments: hostile)
    func json(scalar: Unicode.Scalar) {
        let name = "CN=evil" + String(Character(scalar)) + "moc.example"
        let quoted = JSONObject.quote(name)
        #expect(!quoted.unicodeScalars.contains(scalar))
        let hex = String(scalar.value, radix: 16)
        #expect(quoted.contains("\\u" + String(repeating: "0", count: 4 - hex.count) + hex))
        #expect(JSONObject.quote("CN=例え.example") == "\"CN=例え.example\"")
    }
}
