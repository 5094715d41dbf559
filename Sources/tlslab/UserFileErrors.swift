import Foundation
import Languages
import Rendering
import Trace
import UserFiles

/// The catalogue's words for a file the user named that could not be written or read: one
/// sentence naming the path (escaped: a file name may hold terminal controls) and the cause.
extension Explanations {
    func sentence(_ error: OutputFileError) -> String {
        let path = TerminalText.escaped(error.path)
        let key: String, values: [String: String]
        switch error.cause {
        case .isDirectory: (key, values) = ("cli.file.isDirectory", ["path": path])
        case .isSymbolicLink: (key, values) = ("cli.file.isSymbolicLink", ["path": path])
        case .notAFile: (key, values) = ("cli.file.notAFile", ["path": path])
        case .noSuchDirectory: (key, values) = ("cli.file.noSuchDirectory", ["path": path])
        case .notPermitted: (key, values) = ("cli.file.notPermitted", ["path": path])
        case .noSpace: (key, values) = ("cli.file.noSpace", ["path": path])
        case .system(let code): (key, values) = ("cli.file.system", ["path": path, "reason": OutputFileError.systemMessage(code)])
        }
        return self(key, values) ?? key
    }

    func sentence(_ error: InputFileError) -> String {
        let path = TerminalText.escaped(error.path)
        let key: String, values: [String: String]
        switch error.cause {
        case .noSuchFile: (key, values) = ("cli.file.read.noSuchFile", ["path": path])
        case .isDirectory: (key, values) = ("cli.file.read.isDirectory", ["path": path])
        case .notAFile: (key, values) = ("cli.file.read.notAFile", ["path": path])
        case .notPermitted: (key, values) = ("cli.file.read.notPermitted", ["path": path])
        case .tooLarge(let limit): (key, values) = ("cli.file.read.tooLarge", ["path": path, "limit": "\(limit)"])
        case .system(let code): (key, values) = ("cli.file.read.system", ["path": path, "reason": OutputFileError.systemMessage(code)])
        }
        return self(key, values) ?? key
    }

    /// "(replaced the earlier FILE)" after a report line when the write replaced a file.
    func replacedNote(_ outcome: OutputFile.Outcome, _ path: String) -> String {
        guard outcome == .replaced else { return "" }
        return " " + phrase("cli.file.replaced", ["path": TerminalText.escaped(path)])
    }
}

extension CLIError {
    /// A file the user named: bad input (exit 2), worded by the catalogue.
    static func file(_ error: OutputFileError, _ explanations: Explanations) -> CLIError { .badInput(explanations.sentence(error)) }
    static func file(_ error: InputFileError, _ explanations: Explanations) -> CLIError { .badInput(explanations.sentence(error)) }
}

extension Explanations {
    /// The language of the environment, for commands without `--lang` (`connect`, `serve`).
    static var ofEnvironment: Explanations {
        Language.chosen(flag: nil, environment: ProcessInfo.processInfo.environment).explanations
    }
}
