import ArgumentParser
import Foundation
import HTTP2
import Rendering
import Simulation
import Trace

@main
struct TLSLab: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tlslab",
        abstract: CLIWords.text("cli.tLSLab.abstract"),
        discussion: CLIWords.text("cli.help.examples"),
        version: "0.1.0",
        subcommands: [RunCommand.self, WalkthroughCommand.self, ExportCommand.self, ListCommand.self, LessonsCommand.self, CheckCommand.self,
                      CompareCommand.self, ConnectCommand.self, ServeCommand.self, DissectCommand.self, PinCommand.self, BenchCommand.self, SelfTestCommand.self]
    )

    /// Runs the command line with TLSLab's exit codes: 0 success, 1 a failure the user asked to
    /// check, 2 bad input (one line on standard error naming it).
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch let error as CLIError {
            // Messages can quote a peer (an alert cause, a server's words): escaped for the terminal.
            FileHandle.standardError.write(Data("tlslab: \(TerminalText.escaped("\(error)"))\n".utf8))
            Foundation.exit(error.exitCode.rawValue)
        } catch {
            let words = CLIWords.explanations
            // A benchmark's failure (typed in the Benchmarks module): one line in the chosen language, exit 1.
            if let text = BenchWords(words).failure(error) {
                FileHandle.standardError.write(Data("tlslab: \(text)\n".utf8))
                Foundation.exit(1)
            }
            let code = exitCode(for: error)
            if code == .validationFailure {
                FileHandle.standardError.write(Data((ParserWords.worded(validationMessage(for: error), in: words) + "\n").utf8))
                Foundation.exit(2)
            }
            guard words.language != .en else { exit(withError: error) }
            // Help, version and the parser's other messages, in the chosen language (the parser's own
            // `exit(withError:)` prints them in English).
            let arguments = Array(CommandLine.arguments.dropFirst())
            let text = code == .success && ParserWords.asksForHelp(arguments)
                ? ParserWords.help(for: ParserWords.command(named: arguments, in: TLSLab.self), in: words)
                : ParserWords.worded(fullMessage(for: error), in: words)
            if code == .success {
                if !text.isEmpty { Swift.print(text) }
            } else if !text.isEmpty {
                FileHandle.standardError.write(Data((text + "\n").utf8))
            }
            Foundation.exit(code.rawValue)
        }
    }

    /// A bad option's message with the usage of the subcommand it was given to: the root shares
    /// `run`'s options, so the parser's own message would show the root's usage line.
    static func validationMessage(for error: Error, arguments: [String] = Array(CommandLine.arguments.dropFirst())) -> String {
        guard let name = arguments.first,
              let sub = configuration.subcommands.first(where: { $0.configuration.commandName == name }) else {
            return fullMessage(for: error)
        }
        return "Error: \(message(for: error))\nUsage: \(usageString(for: sub))\n  See 'tlslab \(name) --help' for more information."
    }

    @OptionGroup var options: RenderOptions

    /// With no subcommand: the default walkthrough — RSA key exchange, one-way authentication,
    /// over simulated TCP. Interactive on a terminal; printed whole when stdin or stdout is not one.
    func run() throws {
        if Terminal.stdinIsTerminal && Terminal.stdoutIsTerminal && options.format == .text {
            try WalkthroughCommand.walk(BuiltInRun.rsa.rawValue, seed: try options.seedChoice(), language: options.language.language,
                                        color: options.colorOption.enabled)
        } else {
            try options.runAndPrint(BuiltInRun.rsa.rawValue)
        }
    }
}
