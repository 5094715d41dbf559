import Rendering
import RealPeer
import Trace

/// Where `dissect` read its bytes from, named in its errors in the command line's language.
enum DissectSource: Equatable {
    case standardInput
    case file(String)
    case argument
}

/// Input the command line refuses (exit 2) after the options parsed: a typed case with its values,
/// worded by the catalogue (`cli.input.*`) in the command line's language (issue #34). Paths and
/// names the user gave are escaped: they may hold terminal controls.
enum InputProblem {
    /// `--suite` names no suite TLSLab implements (connect, serve).
    case unknownSuite(name: String, known: String)
    /// `dissect --suite` names no suite.
    case unknownDissectSuite(name: String)
    /// `connect` TARGET without a colon.
    case notHostPort(target: String)
    /// `connect` TARGET whose port is not 1…65535.
    case portOutOfRange(target: String)
    /// `--session-in FILE` that is not a session file.
    case sessionFile(path: String, SessionFile.FormatError)
    /// A certificate or key file (`--cert`, `--key`, `--ca`, `--pin`, `--bundle`, `--client-ca`).
    case peerFile(PeerFileError)
    /// `--seed x`.
    case seedNotANumber(given: String)
    /// `LESSON#HANDLER` on a lesson without handlers.
    case noHandlers(name: String, lesson: String)
    /// `LESSON#HANDLER` naming no handler of the lesson.
    case noSuchHandler(name: String, handler: String, lesson: String, handlers: [String])
    /// A path that does not exist, and no library to look the name up in.
    case noSuchFileNoLibrary(name: String)
    /// `--seed random` with a scenario file.
    case randomSeedForScenarioFile(path: String)
    /// `lessons` without a lesson library.
    case noLessonLibrary
    /// `export --all` without a lesson library.
    case exportAllNeedsLibrary
    /// `lessons WORDS` matching nothing.
    case noLessonMatches(words: String)
    /// `export --pki DIR` for a run that uses no certificates.
    case noCertificatesToExport(name: String, pki: String)
    /// `export --pki FILE`.
    case pkiIsAFile(path: String)
    /// `dissect` of an empty file or standard input.
    case emptyInput(DissectSource)
    /// `dissect ARG` where ARG looks like a path but is neither a file nor hex.
    case neitherFileNorHex(input: String)
    /// `dissect` text that is not hex.
    case notHex(DissectSource, HexInput.Failure)
    /// `dissect` input over the limit.
    case tooLarge(DissectSource, bytes: Int, hexBytes: Int)

    /// The sentence, in `words`' language.
    func sentence(_ words: Explanations) -> String {
        func say(_ key: String, _ values: [String: String] = [:]) -> String {
            words(key, values) ?? Explanations.english(key, values) ?? key
        }
        let e: (String) -> String = { TerminalText.escaped($0) }
        switch self {
        case let .unknownSuite(name, known): return say("cli.input.unknownSuite", ["name": e(name), "known": known])
        case .unknownDissectSuite(let name): return say("cli.input.unknownDissectSuite", ["name": e(name)])
        case .notHostPort(let target): return say("cli.input.notHostPort", ["target": e(target)])
        case .portOutOfRange(let target): return say("cli.input.portOutOfRange", ["target": e(target)])
        case let .sessionFile(path, error): return say("cli.input.sessionFile", ["path": e(path), "detail": words.sentence(error)])
        case .peerFile(let error): return words.sentence(error)
        case .seedNotANumber(let given): return say("cli.input.seedNotANumber", ["given": e(given)])
        case let .noHandlers(name, lesson): return say("cli.input.noHandlers", ["name": e(name), "lesson": lesson])
        case let .noSuchHandler(name, handler, lesson, handlers):
            return say("cli.input.noSuchHandler", ["name": e(name), "handler": e(handler), "lesson": lesson,
                                                   "handlers": handlers.joined(separator: say("cli.input.listSeparator"))])
        case .noSuchFileNoLibrary(let name):
            return say("cli.input.noSuchFileNoLibrary", ["name": e(name), "searched": LessonLibrary.searchDescription])
        case .randomSeedForScenarioFile(let path): return say("cli.input.randomSeedForScenarioFile", ["path": e(path)])
        case .noLessonLibrary: return say("cli.input.noLessonLibrary", ["searched": LessonLibrary.searchDescription])
        case .exportAllNeedsLibrary: return say("cli.input.exportAllNeedsLibrary", ["searched": LessonLibrary.searchDescription])
        case .noLessonMatches(let text): return say("cli.input.noLessonMatches", ["words": e(text)])
        case let .noCertificatesToExport(name, pki): return say("cli.input.noCertificatesToExport", ["name": e(name), "pki": e(pki)])
        case .pkiIsAFile(let path): return say("cli.input.pkiIsAFile", ["path": e(path)])
        case .emptyInput(let source): return say("cli.input.emptyInput", ["source": source.name(say)])
        case .neitherFileNorHex(let input): return say("cli.input.neitherFileNorHex", ["input": e(input)])
        case let .notHex(source, failure): return say("cli.input.notHex", ["source": source.name(say), "detail": words.sentence(failure)])
        case let .tooLarge(source, bytes, hexBytes):
            return say("cli.input.tooLarge", ["source": source.name(say), "bytes": "\(bytes)", "hexBytes": "\(hexBytes)"])
        }
    }
}

extension DissectSource {
    func name(_ say: (String, [String: String]) -> String) -> String {
        switch self {
        case .standardInput: return say("cli.input.source.standardInput", [:])
        case .argument: return say("cli.input.source.argument", [:])
        case .file(let path): return TerminalText.escaped(path)
        }
    }
}

extension CLIError {
    /// Bad input (exit 2), worded in the command line's language.
    static func input(_ problem: InputProblem) -> CLIError { .badInput(problem.sentence(CLIWords.explanations)) }
}

extension Explanations {
    /// A certificate or key file that could not be used, in one sentence naming it.
    func sentence(_ error: PeerFileError) -> String {
        func say(_ key: String, _ values: [String: String]) -> String { self(key, values) ?? Explanations.english(key, values) ?? key }
        let e: (String) -> String = { TerminalText.escaped($0) }
        switch error {
        case .cannotRead(let path): return say("cli.peerFile.cannotRead", ["path": e(path)])
        case let .certificates(path, pki): return say("cli.peerFile.certificates", ["path": e(path), "detail": pkiError(pki)])
        case .noCertificate(let path): return say("cli.peerFile.noCertificate", ["path": e(path)])
        case let .privateKey(path, problem): return say("cli.peerFile.privateKey", ["path": e(path), "detail": sentence(problem)])
        case .unsupportedLeafKey(let path): return say("cli.peerFile.unsupportedLeafKey", ["path": e(path)])
        case let .keyDoesNotMatch(key, certificate): return say("cli.peerFile.keyDoesNotMatch", ["key": e(key), "certificate": e(certificate)])
        case .atsNotAURL(let url): return say("cli.peerFile.atsNotAURL", ["url": e(url)])
        case .atsNoForwardSecretSuite(let host): return say("cli.peerFile.atsNoForwardSecretSuite", ["host": e(host)])
        }
    }

    /// Why a key file holds no private key TLSLab can use.
    func sentence(_ problem: PrivateKeyProblem) -> String {
        func say(_ key: String, _ values: [String: String] = [:]) -> String { self(key, values) ?? Explanations.english(key, values) ?? key }
        switch problem {
        case .noPEM: return say("cli.peerFile.privateKey.noPEM")
        case .encrypted: return say("cli.peerFile.privateKey.encrypted")
        case .notAPrivateKey(let labels):
            return say("cli.peerFile.privateKey.notAPrivateKey", ["labels": labels.map { TerminalText.escaped($0) }.joined(separator: say("list.separator"))])
        case .unsupportedCurve: return say("cli.peerFile.privateKey.unsupportedCurve")
        case .malformed(let label): return say("cli.peerFile.privateKey.malformed", ["label": label])
        }
    }

    /// What makes a file not a `--session-in` session file.
    func sentence(_ error: SessionFile.FormatError) -> String {
        func say(_ key: String, _ values: [String: String] = [:]) -> String { self(key, values) ?? Explanations.english(key, values) ?? key }
        switch error {
        case .notASessionFile: return say("cli.sessionFile.notASessionFile")
        case .notNameValue(let line): return say("cli.sessionFile.notNameValue", ["line": "\(line)"])
        case let .givenTwice(line, name): return say("cli.sessionFile.givenTwice", ["line": "\(line)", "name": TerminalText.escaped(name)])
        case .missing(let name): return say("cli.sessionFile.missing", ["name": name])
        case let .hexExpected(name, lengths):
            return say("cli.sessionFile.hexExpected", ["name": name, "lowest": "\(lengths.lowerBound)", "highest": "\(lengths.upperBound)"])
        case .booleanExpected(let name): return say("cli.sessionFile.booleanExpected", ["name": name])
        case .numberExpected(let name): return say("cli.sessionFile.numberExpected", ["name": name])
        case .unknownField(let name): return say("cli.sessionFile.unknownField", ["name": TerminalText.escaped(name)])
        case .nothingToResumeBy: return say("cli.sessionFile.nothingToResumeBy")
        case .notUTF8: return say("cli.sessionFile.notUTF8")
        }
    }
}
