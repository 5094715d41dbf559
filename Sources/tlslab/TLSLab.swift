import ArgumentParser
import Foundation

@main
struct TLSLab: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tlslab",
        abstract: "A TLS 1.2 handshake simulator and teaching engine.",
        version: "0.1.0",
        subcommands: [RunCommand.self, ListCommand.self, DissectCommand.self, PinCommand.self, BenchCommand.self, SelfTestCommand.self,
                      ConnectCommand.self, ServeCommand.self]
    )

    /// Runs the command line with TLSLab's exit codes: 0 success, 1 a failure the user asked to
    /// check, 2 bad input (one line on standard error naming it).
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch let error as CLIError {
            FileHandle.standardError.write(Data("tlslab: \(error)\n".utf8))
            Foundation.exit(error.exitCode.rawValue)
        } catch {
            let code = exitCode(for: error)
            if code == .validationFailure {
                FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
                Foundation.exit(2)
            }
            exit(withError: error)
        }
    }

    @OptionGroup var options: RenderOptions

    /// With no subcommand: the default walkthrough — RSA key exchange, one-way authentication,
    /// over simulated TCP, printed as a whole trace.
    func run() throws {
        try options.runAndPrint(.rsa)
    }
}
