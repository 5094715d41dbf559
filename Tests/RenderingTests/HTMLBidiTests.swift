@testable import Rendering
import Testing

/// Issue #38 defect 9 on the page: a bidirectional override would show "report\u{202E}gnp.exe" as
/// "reportexe.png"; the page shows each bidi control as its code point instead.
@Suite("HTML: bidirectional controls are shown, not obeyed")
struct HTMLBidiTests {
    @Test(arguments: [0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069, 0x200E, 0x200F, 0x061C])
    func shownAsCodePoints(_ value: UInt32) throws {
        let scalar = try #require(Unicode.Scalar(value))
        let page = HTMLText.escaped("report" + String(Character(scalar)) + "gnp.exe")
        #expect(!page.unicodeScalars.contains(scalar))
        #expect(page == "report\\u{" + String(value, radix: 16, uppercase: true) + "}gnp.exe")
    }

    @Test func otherTextUnchanged() {
        #expect(HTMLText.escaped("中文 <b> & \"x\"") == "中文 &lt;b&gt; &amp; &quot;x&quot;")
    }
}
