import ArgumentParser
import Foundation
import PKI

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

    func run() throws {
        var first = true
        for file in files {
            guard let data = FileManager.default.contents(atPath: file) else {
                throw CLIError.badInput("cannot read \(file)")
            }
            let reports: [PinReport]
            do {
                reports = try PinReport.reports(for: Array(data), source: file)
            } catch .notACertificate(let source, let detail) {
                throw CLIError.badInput("\(source): not a certificate (\(detail))")
            } catch {
                throw CLIError.badInput("\(file): not a certificate (\(error))")
            }
            for report in reports {
                if !first { print("") }
                first = false
                print(report.text)
            }
        }
    }
}
