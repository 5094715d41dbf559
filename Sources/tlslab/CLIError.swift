import ArgumentParser

/// Errors the command line reports in one line, with the documented exit codes:
/// 1 for an expectation or handshake failure the user asked to check, 2 for bad input.
enum CLIError: Error, CustomStringConvertible {
    case badInput(String)
    case failed(String)

    var description: String {
        switch self {
        case .badInput(let s), .failed(let s): return s
        }
    }

    var exitCode: ExitCode {
        switch self {
        case .badInput: return ExitCode(2)
        case .failed: return ExitCode(1)
        }
    }
}
