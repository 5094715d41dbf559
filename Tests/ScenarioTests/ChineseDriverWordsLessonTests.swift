import Foundation
@testable import Rendering
@testable import Scenarios
import Testing
import Trace

/// Every lesson, run and shown in Chinese, carries none of the English the drivers used to write
/// themselves and the catalogue now words: the secrets an attacker learns, how a stripped
/// ClientHello kept its length, the timed public-key operations, a refused user call.
@Suite("Chinese lessons: no English from the drivers' facts")
struct ChineseDriverWordsLessonTests {
    /// The English catalogue's literal fragments (between placeholders) of the driver keys whose
    /// Chinese text differs: two words or more, so identifiers (client_random, RSA) do not count.
    static var englishFragments: [String] {
        let keys = Explanations.englishDrivers.keys.filter { !$0.hasPrefix("cli.") && !$0.hasPrefix("h2.line.") }
            + Explanations.english.text.keys.filter { $0.hasPrefix("secret.") }
        var out: Set<String> = []
        for key in keys {
            guard let english = Explanations.english(key), english != Explanations.chinese(key) else { continue }
            for fragment in english.split(separator: /\{[a-z]+\}/) {
                let text = fragment.trimmingCharacters(in: .whitespaces.union(.punctuationCharacters))
                if text.contains(" "), text.count >= 8 { out.insert(text) }
            }
        }
        return out.sorted()
    }

    @Test func theFragmentsAreTheDriversWords() {
        let fragments = Self.englishFragments
        for expected in ["freed bytes went into a padding extension so the message kept its length", "premaster secret",
                         "RSA private-key decryption", "HTTP request", "on the simulated network"] {
            #expect(fragments.contains(expected), "\(fragments)")
        }
    }

    @Test(arguments: Library.files.filter { $0.contains("/attacks/") || $0.contains("/http/") || $0.contains("/tls/") })
    func lessonInChineseHasNoDriverEnglish(file: String) throws {
        let scenario = try ScenarioParser.parse(contentsOf: file)
        guard let trace = scenario.run().trace else { return }
        let fragments = Self.englishFragments
        for verbosity in TextRenderer.Verbosity.allCases {
            // Quoted labels ("master secret" in the PRF) are values, not sentences.
            let text = TextRenderer(verbosity: verbosity, width: 100_000, color: false, explanations: .chinese).render(trace)
                .joined(separator: "\n").replacing(/"[^"\n]*"/, with: " ")
            for fragment in fragments where text.contains(fragment) {
                Issue.record("\(file) \(verbosity): «\(fragment)» in Chinese")
            }
        }
    }
}
