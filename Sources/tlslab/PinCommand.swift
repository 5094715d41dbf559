import ArgumentParser
import Foundation
import PKI
import Rendering

/// `tlslab pin`: the certificate pin and the public-key pin of every certificate in PEM/DER files —
/// the same base64(SHA-256(…)) strings the `openssl dgst -sha256 -binary | openssl enc -base64`
/// recipes print, ready for AFSecurityPolicy pinned certificates or ATS NSPinnedDomains.
struct PinCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pin",
        abstract: CLIWords.text("cli.pinCommand.abstract"),
        discussion: CLIWords.text("cli.pinCommand.discussion")
    )

    @Argument(help: CLIWords.help("cli.pinCommand.files"))
    var files: [String]

    func validate() throws {
        if files.isEmpty { throw OptionProblem.noCertificateFile.validationError }
    }

    @OptionGroup var language: LanguageOption

    func run() throws {
        let explanations = language.explanations
        func say(_ key: String, _ values: [String: String] = [:]) -> String {
            explanations(key, values) ?? Explanations.english(key, values) ?? key
        }
        var first = true
        for file in files {
            guard let data = FileManager.default.contents(atPath: file) else {
                throw CLIError.badInput(say("cli.pin.cannotRead", ["file": file]))
            }
            let reports: [PinReport]
            do {
                reports = try PinReport.reports(for: Array(data), source: file)
            } catch .notACertificate(let source, let reason) {
                throw CLIError.badInput(say("cli.pin.notACertificate", ["file": source, "detail": explanations.notACertificate(reason)]))
            } catch {
                throw CLIError.badInput(say("cli.pin.notACertificate", ["file": file, "detail": explanations.pkiError(error)]))
            }
            for report in reports {
                if !first { print("") }
                first = false
                print(Self.text(report, say))
            }
        }
    }

    /// One certificate's group: "FILE [i]", then subject, issuer and the two pins, each after its label
    /// (the catalogue's `cli.pin.*`) padded to one column of 16 display columns.
    static func text(_ report: PinReport, _ say: (String, [String: String]) -> String) -> String {
        let rows = [("cli.pin.subject", report.subject), ("cli.pin.issuer", report.issuer),
                    ("cli.pin.certificatePin", report.certificatePin), ("cli.pin.publicKeyPin", report.publicKeyPin)]
        let labels = rows.map { say($0.0, [:]) }
        let width = max(16, labels.map(DisplayWidth.columns).max() ?? 0)
        let lines = zip(labels, rows).map { label, row in
            "  " + label + String(repeating: " ", count: width - DisplayWidth.columns(label) + 2) + row.1
        }
        return (["\(report.source) [\(report.index)]"] + lines).joined(separator: "\n")
    }
}
