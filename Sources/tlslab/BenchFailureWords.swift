import Benchmarks
import Foundation
import Rendering
import Trace
#if canImport(Glibc)
import Glibc
#endif

/// A benchmark's failure worded by the catalogue (`cli.bench.failure.*`, issue #34): the Benchmarks
/// module throws typed data, this words it in the reader's language. What a child or `openssl`
/// printed is quoted escaped; an errno is described by the C library (strerror(3)).
extension BenchWords {
    /// `error` in words, or nil when it is not one of the benchmarks' failures.
    func failure(_ error: Error) -> String? {
        switch error {
        case let failure as BenchFailure: return self.failure(failure)
        case let failure as HandshakeBench.Failure: return self.failure(failure)
        case let failure as OpenSSLLoopback.Failure: return self.failure(failure)
        case let failure as OpenSSLSpeed.Failure: return self.failure(failure)
        case let failure as ChildProcess.Failure: return self.failure(failure)
        case let failure as PseudoTerminalLaunch.Failure: return self.failure(failure)
        case let failure as TCPBulkTransfer.Failure: return self.failure(failure)
        case let failure as TCPFloodResult.Failure: return self.failure(failure)
        case let failure as BuiltInRunSetupFailure:
            return ResolvedRun.failure(failure.cause, run: failure.run, explanations: explanations)
        default: return nil
        }
    }

    func failure(_ failure: BenchFailure) -> String {
        switch failure {
        case .ownSignatureNotVerified: return say("cli.bench.failure.ownSignatureNotVerified", [:])
        case .verificationsFailed(let count): return say("cli.bench.failure.verificationsFailed", ["count": Self.count(count)])
        case let .handshakeChildExited(variant, status):
            return say("cli.bench.failure.handshakeChildExited", ["variant": variant.label, "status": "\(status)"])
        case let .handshakeChildOutputUnreadable(variant, excerpt):
            return say("cli.bench.failure.handshakeChildOutputUnreadable", ["variant": variant.label, "excerpt": Self.quoted(excerpt)])
        }
    }

    func failure(_ failure: HandshakeBench.Failure) -> String {
        switch failure {
        case let .notSuccessful(variant, outcome):
            return say("cli.bench.failure.handshakeNotSuccessful", ["variant": variant.label, "outcome": outcomeWord(outcome)])
        }
    }

    func failure(_ failure: OpenSSLLoopback.Failure) -> String {
        switch failure {
        case let .setup(directory, code?):
            return say("cli.bench.failure.openSSLSetup.reason", ["directory": Self.quoted(directory), "reason": Self.reason(code)])
        case .setup(let directory, nil): return say("cli.bench.failure.openSSLSetup", ["directory": Self.quoted(directory)])
        case .noPort: return say("cli.bench.failure.noPort", [:])
        case .serverDidNotStart(let kind): return say("cli.bench.failure.serverDidNotStart", ["kind": kind.rawValue])
        case .unparsable(let excerpt): return say("cli.bench.failure.sTimeUnparsable", ["excerpt": Self.quoted(excerpt)])
        }
    }

    func failure(_ failure: OpenSSLSpeed.Failure) -> String {
        switch failure {
        case let .unknownFormat(row, why, excerpt):
            let reason = switch why {
            case .noRow: say("cli.bench.failure.speedNoRow", ["row": row])
            case .valuesNotNumbers(let words): say("cli.bench.failure.speedValuesNotNumbers", ["values": Self.quoted(words.joined(separator: " "))])
            case .noHeader(let columns): say("cli.bench.failure.speedNoHeader", ["columns": "\(columns)"])
            }
            return say("cli.bench.failure.speedUnknownFormat", ["row": row, "why": reason, "excerpt": Self.quoted(excerpt, lines: true)])
        case let .missingColumn(row, column, header):
            return say("cli.bench.failure.speedMissingColumn", ["row": row, "column": column,
                                                                "header": Self.quoted(header.joined(separator: " "))])
        }
    }

    func failure(_ failure: ChildProcess.Failure) -> String {
        switch failure {
        case let .spawn(path, code): return say("cli.bench.failure.spawn", ["path": Self.quoted(path), "reason": Self.reason(code)])
        case .pipe(let code): return say("cli.bench.failure.pipe", ["reason": Self.reason(code)])
        }
    }

    func failure(_ failure: PseudoTerminalLaunch.Failure) -> String {
        switch failure {
        case .noPTYFunctions: return say("cli.bench.failure.noPTYFunctions", [:])
        case let .pty(call, code): return say("cli.bench.failure.pty", ["call": call, "reason": Self.reason(code)])
        case .spawn(let code): return say("cli.bench.failure.ptySpawn", ["reason": Self.reason(code)])
        case .noScreen(let bytes): return say("cli.bench.failure.noScreen", ["bytes": Self.count(bytes)])
        }
    }

    func failure(_ failure: TCPBulkTransfer.Failure) -> String {
        switch failure {
        case let .incomplete(received, expected):
            return say("cli.bench.failure.bulkIncomplete", ["received": Self.count(received), "expected": Self.count(expected)])
        }
    }

    func failure(_ failure: TCPFloodResult.Failure) -> String {
        switch failure {
        case .childExited(let status): return say("cli.bench.failure.floodChildExited", ["status": "\(status)"])
        case .childOutputUnreadable(let excerpt): return say("cli.bench.failure.floodChildOutputUnreadable", ["excerpt": Self.quoted(excerpt)])
        case let .notAllHalfOpen(halfOpen, connections):
            return say("cli.bench.failure.floodNotAllHalfOpen", ["halfOpen": Self.count(halfOpen), "connections": Self.count(connections)])
        }
    }

    /// A run summary's outcome word (`failed`, `incomplete`) in the reader's language; an alert's name as it is.
    func outcomeWord(_ outcome: String) -> String {
        switch outcome {
        case "success": return say("outcome.word.success", [:])
        case "failed": return say("outcome.word.failed", [:])
        case "incomplete": return say("outcome.word.incomplete", [:])
        default: return outcome
        }
    }

    /// An errno as the C library describes it.
    static func reason(_ code: Int32) -> String { String(cString: strerror(code)) }

    /// Text another program wrote (or a path), with terminal controls escaped; `lines` keeps its line breaks.
    static func quoted(_ text: String, lines: Bool = false) -> String { TerminalText.escaped(text, keepingLineBreaks: lines) }
}
