import Foundation
@testable import Rendering
import Simulation
import Testing
import Trace

/// The page for people who do not see the drawing or use no mouse: every ladder row has a text
/// alternative, a message's arrow is a focusable button, the controls are buttons, and every text
/// colour of the stylesheet has WCAG AA contrast (4.5:1, WCAG 2.2 §1.4.3) on every background it is
/// drawn on. The browser test checks Tab and Enter in Chromium.
@Suite("HTML page: text alternatives, keyboard, contrast")
struct HTMLAccessibilityTests {
    static func page(_ run: BuiltInRun) throws -> String {
        HTMLRenderer().page(name: run.rawValue, trace: Simulation(try run.setup(seed: 1)).run())
    }

    @Test(arguments: [BuiltInRun.rsa, .lossy, .mitm])
    func everyRowHasATextAlternative(run: BuiltInRun) throws {
        let html = try Self.page(run)
        let rows = html.matches(of: /<g class="row[^"]*" id="row-(\d+)" data-step="\d+"(?: data-event="\d+")? role="(img|button)"( tabindex="0")?>\n<title>([^<]+)<\/title>/)
        #expect(rows.count == html.matches(of: /<g class="row/).count, "\(run): every row opens with its role and <title>")
        for row in rows {
            let title = String(row.output.4)
            #expect(title.hasPrefix("Step \(row.output.1)"), "\(run): \(title)")
            #expect(title.count > "Step 10: ".count, "\(run): the alternative says what happens: \(title)")
            // A message's arrow opens its bytes: a button in the tab order; the rest are pictures.
            #expect((row.output.2 == "button") == (row.output.3 != nil), "\(run): \(title)")
        }
        #expect(html.contains("role=\"button\" tabindex=\"0\">\n<title>Step "), "\(run): some arrow opens bytes")
        #expect(html.contains("<svg xmlns=\"http://www.w3.org/2000/svg\" id=\"ladder\" role=\"group\" aria-labelledby=\"ladder-title\""))
        #expect(html.contains("<button type=\"button\" id=\"back\">") && html.contains("<button type=\"button\" id=\"next\">"))
        #expect(html.contains("<a class=\"skip\" href=\"#panel\">"), "a skip link to the step")
        #expect(html.contains("<span id=\"position\" role=\"status\""), "the position is announced")
    }

    /// The stylesheet's colours (its `:root` variables) against the backgrounds text sits on.
    @Test func textColoursMeetWCAGAAContrast() throws {
        let css = HTMLStyleSheet.css
        var colour: [String: String] = [:]
        for match in css.matches(of: /--([a-z0-9]+):(#[0-9a-fA-F]{3,6})/) { colour[String(match.output.1)] = String(match.output.2) }
        let texts = ["ink", "muted", "tcp", "tls", "alert", "plain", "accent"]
        // The page, the phase bands, the current step's highlight; and the literal backgrounds of the
        // values list, the bytes table's groups and the no-script note.
        var backgrounds = ["paper", "band0", "band1", "current"].compactMap { colour[$0] }
        for literal in [".facts{list-style:none;padding:.4rem .6rem;margin:.4rem 0;background:", ".noscript{background:"] {
            let found = try #require(css.range(of: literal), "\(literal) is in the stylesheet")
            backgrounds.append(String(css[found.upperBound...].prefix(7)))
        }
        #expect(backgrounds.count == 6)
        for text in texts {
            let foreground = try #require(colour[text], "--\(text)")
            for background in backgrounds {
                let ratio = Self.contrast(foreground, background)
                #expect(ratio >= 4.5, "--\(text) \(foreground) on \(background): \(ratio)")
            }
        }
        // White button text on the accent and on a disabled button's grey.
        let disabled = try #require(css.firstMatch(of: /button:disabled\{background:(#[0-9a-fA-F]{6})/)).output.1
        for background in [try #require(colour["accent"]), String(disabled)] {
            #expect(Self.contrast("#fff", background) >= 4.5, "white on \(background)")
        }
        // And the check can fail: a light grey on white does not pass.
        #expect(Self.contrast("#999", "#fff") < 4.5)
    }

    /// The contrast ratio of two sRGB colours (WCAG 2.2, "contrast ratio" and "relative luminance").
    static func contrast(_ a: String, _ b: String) -> Double {
        let (x, y) = (luminance(a), luminance(b))
        return (max(x, y) + 0.05) / (min(x, y) + 0.05)
    }

    static func luminance(_ hex: String) -> Double {
        var digits = Array(hex.dropFirst())
        if digits.count == 3 { digits = digits.flatMap { [$0, $0] } }
        let channels = stride(from: 0, to: 6, by: 2).map { i -> Double in
            let c = Double(Int(String(digits[i...i + 1]), radix: 16) ?? 0) / 255
            return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * channels[0] + 0.7152 * channels[1] + 0.0722 * channels[2]
    }
}
