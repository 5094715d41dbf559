import Trace

/// `tlslab compare NAME NAME --html FILE`: the comparison as one self-contained page — the table,
/// why each row comes out as it does, who knows which secret in each run, and both ladders side by
/// side, a row of the page per phase so that the phases face each other. Built from the same
/// ``RunComparison`` and the same rows and ladder blocks as the text (``ComparisonPrinter``), never
/// from its printed output. No script, no style or font from anywhere.
public struct ComparisonPage: Sendable {
    public var explanations: Explanations
    /// The width, in columns, each ladder is laid out for.
    public var ladderWidth: Int

    public init(explanations: Explanations = .english, ladderWidth: Int = 72) {
        self.explanations = explanations
        self.ladderWidth = ladderWidth
    }

    func say(_ key: String, _ values: [String: String] = [:]) -> String {
        HTMLText.escaped(explanations(key, values) ?? key)
    }

    public func render(_ comparison: RunComparison, _ first: Trace, _ second: Trace) -> String {
        let printer = ComparisonPrinter(width: ladderWidth * 2 + 3, explanations: explanations)
        let names = (HTMLText.escaped(comparison.first.name), HTMLText.escaped(comparison.second.name))
        let title = say("compare.title", ["first": comparison.first.name, "second": comparison.second.name])
        var html = "<!DOCTYPE html>\n<html lang=\"\(explanations.language.tag)\">\n<head>\n<meta charset=\"utf-8\">\n"
        html += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        html += "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\n"
        html += "<title>\(title)</title>\n<style>\n\(HTMLStyleSheet.css)\(Self.css)</style>\n</head>\n<body class=\"compare\">\n"
        html += "<header class=\"top\"><h1>\(title)</h1></header>\n<main>\n"
        // The table: a row per question, a column per run.
        html += "<table class=\"comparison\">\n<thead><tr><th></th><th scope=\"col\">\(names.0)</th><th scope=\"col\">\(names.1)</th></tr></thead>\n<tbody>\n"
        for row in printer.rows(comparison) {
            html += "<tr><th scope=\"row\">\(HTMLText.escaped(row.question))</th><td>\(HTMLText.escaped(row.first))</td><td>\(HTMLText.escaped(row.second))</td></tr>\n"
        }
        html += "</tbody>\n</table>\n"
        html += "<h2>\(say("compare.why.heading"))</h2>\n"
        for key in ComparisonPrinter.whyKeys { html += "<p>\(say(key))</p>\n" }
        // Who knows which secret, each run's panel as the terminal draws it.
        let ladder = LadderPrinter(width: ladderWidth, color: false, explanations: explanations, layout: LadderLayout(), ladderStyle: .printed)
        html += "<div class=\"pair\">\n"
        for side in [comparison.first, comparison.second] {
            html += "<section><h3>\(say("compare.knowledge.run", ["name": side.name]))</h3>\n<pre>"
            html += HTMLText.escaped(ladder.knowledgePanel(side.knowledge, moment: "knowledge.atTheEnd", remarks: false).joined(separator: "\n"))
            html += "</pre></section>\n"
        }
        html += "</div>\n<h2>\(say("compare.ladders.heading"))</h2>\n<div class=\"ladders\">\n"
        // The ladders, phase beside phase: each pair of blocks is one row of the grid.
        let left = printer.blocks(first, name: comparison.first.name, width: ladderWidth)
        let right = printer.blocks(second, name: comparison.second.name, width: ladderWidth)
        for (a, b) in printer.facing(left, right) {
            let phase = HTMLText.escaped(a?.key ?? b?.key ?? "")
            for block in [a, b] {
                html += "<pre class=\"phase\" data-phase=\"\(phase)\">\(HTMLText.escaped(block?.lines.joined(separator: "\n") ?? ""))</pre>\n"
            }
        }
        html += "</div>\n</main>\n<footer><p>\(say("html.footer"))</p></footer>\n</body>\n</html>\n"
        return html
    }

    /// The page's own rules, after the shared sheet: the table, as wide as the page, its long values
    /// (a suite name) broken anywhere so that it fits a phone; two columns that scroll sideways on a
    /// narrow screen rather than wrap a ladder's rails (a column may be narrower than its ladder).
    static let css = """
        table.comparison { border-collapse: collapse; margin: 1em 0; width: 100%; table-layout: fixed; }
        table.comparison th, table.comparison td { overflow-wrap: anywhere; }
        .pair > section { min-width: 0; }
        table.comparison th, table.comparison td { border: 1px solid #ccc; padding: 0.3em 0.6em; text-align: left; vertical-align: top; }
        .pair, .ladders { display: grid; grid-template-columns: 1fr 1fr; gap: 0 1.5em; }
        .pair pre, .ladders pre { overflow-x: auto; margin: 0; font-size: 0.8em; }
        .ladders pre.phase { border-top: 1px solid #ddd; padding: 0.4em 0; }

        """
}
