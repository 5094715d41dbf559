import ArgumentParser
import Foundation
import Rendering

/// `--color auto|always|never`: colour by kind (TCP, TLS, alert, attacker) in `run`'s ladder and
/// the walkthrough, and a bold current row in the walkthrough.
enum ColorChoice: String, ExpressibleByArgument, CaseIterable, Sendable {
    case auto, always, never
}

struct ColorOption: ParsableArguments {
    @Option(help: ArgumentHelp(CLIWords.text("cli.help.color"), valueName: "when"))
    var color: ColorChoice = .auto

    /// Whether to write colour codes now (stdout and the environment as they are).
    var enabled: Bool { Terminal.useColor(color) }
}

extension Terminal {
    /// `auto`: only on a terminal that supports colour — stdout is a terminal, TERM is set and not
    /// `dumb` — and never when NO_COLOR is set to anything (https://no-color.org). `always` and
    /// `never` are the user's explicit word and win over both.
    static func useColor(_ choice: ColorChoice, environment: [String: String] = ProcessInfo.processInfo.environment,
                         isTerminal: Bool = Terminal.stdoutIsTerminal) -> Bool {
        switch choice {
        case .never: return false
        case .always: return true
        case .auto:
            guard isTerminal, (environment["NO_COLOR"] ?? "").isEmpty else { return false }
            guard let term = environment["TERM"], !term.isEmpty, term != "dumb" else { return false }
            return true
        }
    }
}
