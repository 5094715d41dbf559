import ArgumentParser
import Foundation
import HTTP2
import Rendering
import TLSEngine
import Trace
import UserFiles

/// `tlslab dissect`: annotate raw TLS bytes field by field.
struct DissectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dissect",
        abstract: CLIWords.text("cli.dissectCommand.abstract"),
        discussion: CLIWords.text("cli.dissectCommand.discussion")
    )

    enum Kind: String, ExpressibleByArgument, CaseIterable {
        case auto, records, handshake
    }

    @Argument(help: CLIWords.help("cli.dissectCommand.input"))
    var input: String

    @Option(name: .customLong("as"), help: CLIWords.help("cli.dissectCommand.kind"))
    var kind: Kind = .auto

    @Option(help: CLIWords.help("cli.dissectCommand.suite"))
    var suite: String?

    @Flag(name: .customLong("etm"), help: CLIWords.help("cli.dissectCommand.encryptThenMAC"))
    var encryptThenMAC = false

    @Flag(name: .customLong("tls13"), help: CLIWords.help("cli.dissectCommand.tls13"))
    var tls13 = false

    @Option(help: CLIWords.help("cli.dissectCommand.width"))
    var width: Int?

    @OptionGroup var language: LanguageOption

    func validate() throws {
        // Narrower than 40 columns the layout cannot show a field and its value; 0 or less means nothing.
        if let width, !(40 ... 1_000).contains(width) { throw OptionProblem.takesColumns(option: "--width", range: "40…1000", given: "\(width)").validationError }
    }

    func run() throws {
        let bytes = try readInput()
        var suiteValue: CipherSuite?
        if let suite {
            guard let s = CipherSuite(name: suite) else {
                throw CLIError.input(.unknownDissectSuite(name: suite))
            }
            suiteValue = s
        }
        let dissector = Dissector(context: HandshakeDecodingContext(version: tls13 ? .tls13 : .tls12),
                                  cipherSuite: suiteValue, encryptThenMAC: encryptThenMAC)
        let asRecords: Bool
        switch kind {
        case .records: asRecords = true
        case .handshake: asRecords = false
        case .auto: asRecords = Self.looksLikeRecords(bytes)
        }
        let dissection = asRecords ? dissector.dissectRecords(bytes) : dissector.dissectHandshakeMessages(bytes)
        let words = language.explanations
        let renderer = HexdumpRenderer(width: width ?? Terminal.columns ?? 100, explanations: words)
        print(words.dissectionHeading(byteCount: bytes.count, asRecords: asRecords))
        for line in renderer.render(dissection, input: bytes) { print(line) }
    }

    /// Records start with a content type (20–24) and a major version of 3; an SSLv2-style hello
    /// has the top bit set. Anything else is read as bare handshake messages.
    static func looksLikeRecords(_ bytes: [UInt8]) -> Bool {
        guard let first = bytes.first else { return true }
        if first & 0x80 != 0 { return true }
        return (20...24).contains(first) && bytes.count > 1 && bytes[1] == 3
    }

    /// The most TLS bytes dissected: every byte becomes fields and lines (about 400 bytes of memory
    /// and a line of output per input byte for tiny records), so 1 MiB stays within a few hundred MB
    /// and seconds (issue #38 defect 10). Hex text may be up to four times as long.
    static let maximumInputBytes = 1 << 20
    static let maximumTextBytes = 4 * maximumInputBytes

    func readInput() throws -> [UInt8] {
        let raw: [UInt8]
        let source: DissectSource
        if input == "-" {
            // Read no more than the limit allows (a pipe may never end).
            var collected: [UInt8] = []
            while collected.count <= Self.maximumTextBytes {
                let chunk = FileHandle.standardInput.readData(ofLength: 64 * 1024)
                if chunk.isEmpty { break }
                collected += chunk
            }
            guard collected.count <= Self.maximumTextBytes else { throw Self.tooLarge(.standardInput) }
            raw = collected
            source = .standardInput
        } else if FileManager.default.fileExists(atPath: input) {
            let read: Result<[UInt8], InputFileError> = Result { () throws(InputFileError) in try InputFile.read(input, limit: Self.maximumTextBytes) }
            switch read {
            case .success(let bytes): raw = bytes
            case .failure(let error) where error.cause == .tooLarge(limit: Self.maximumTextBytes): throw Self.tooLarge(.file(input))
            case .failure(let error): throw CLIError.file(error, language.explanations)
            }
            source = .file(input)
        } else {
            raw = Array(input.utf8)
            source = .argument
        }
        // A file or stdin may hold binary TLS bytes; an argument is always hex.
        if source != .argument, !HexInput.looksLikeText(raw) {
            guard !raw.isEmpty else { throw CLIError.input(.emptyInput(source)) }
            guard raw.count <= Self.maximumInputBytes else { throw Self.tooLarge(source) }
            return raw
        }
        let bytes: [UInt8]
        do {
            bytes = try HexInput.parse(String(decoding: raw, as: UTF8.self))
        } catch {
            if source == .argument, input.contains("/") || input.contains(".") {
                throw CLIError.input(.neitherFileNorHex(input: input))
            }
            guard source != .argument else { throw CLIError.input(.notHex(source, error)) }
            // A file or stdin of printable bytes that are not hex (a plaintext request, say) is
            // binary input that happens to be printable: dissect its bytes as they are.
            let words = language.explanations
            let note = words.phrase("cli.input.readingAsBinary", ["source": source.name { words($0, $1) ?? $0 },
                                                           "detail": words.sentence(error), "count": "\(raw.count)"])
            FileHandle.standardError.write(Data((note + "\n").utf8))
            guard raw.count <= Self.maximumInputBytes else { throw Self.tooLarge(source) }
            return raw
        }
        guard bytes.count <= Self.maximumInputBytes else { throw Self.tooLarge(source) }
        return bytes
    }

    static func tooLarge(_ source: DissectSource) -> CLIError {
        .input(.tooLarge(source, bytes: maximumInputBytes, hexBytes: maximumTextBytes))
    }
}
