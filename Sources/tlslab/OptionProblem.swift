import ArgumentParser

/// What is wrong with a command's options, found by its `validate()` (issue #34): a typed case with
/// its values, worded by the catalogue (`cli.option.*`) in the command line's language. The parser
/// prints it after its "Error: " (worded too, by ``ParserWords``).
enum OptionProblem: Error {
    /// `--runs must be 1…200`.
    case mustBe(option: String, range: String)
    /// `--port takes 0…65535`.
    case takes(option: String, range: String)
    /// `--timeout takes 1…3600 seconds`.
    case takesSeconds(option: String, range: String)
    /// `--ticket-lifetime takes 1…604800 seconds (up to a week)`.
    case takesSecondsUpToAWeek(option: String, range: String)
    /// `--connections takes sizes 1…1000000` (a list of sizes).
    case takesSizes(option: String, range: String)
    /// `--width takes 40…1000 columns, got 20`.
    case takesColumns(option: String, range: String, given: String)
    /// `--max-connections takes a positive number`.
    case positive(option: String)
    /// `--autoplay takes a number of seconds from 0.1 to 3600, not 0.05`.
    case secondsBetween(option: String, lowest: String, highest: String, given: String)
    /// `--client-auth require needs --client-ca`.
    case needs(option: String, other: String)
    /// `--policy af-public-key needs at least one --pin`.
    case needsAPin(policy: String)
    /// `--policy bundled-anchor needs at least one --bundle certificate`.
    case needsABundledCertificate(policy: String)
    /// `--bundle goes with --policy bundled-anchor`.
    case goesWith(option: String, other: String)
    /// `--pin goes with --policy af-public-key or af-certificate`.
    case goesWithEither(option: String, first: String, second: String)
    /// `--no-validates-domain-name goes with an af-… policy`.
    case goesWithAFPolicy(option: String)
    /// `--allow-invalid-certificates goes with an af-… policy or image-downloader`.
    case goesWithAFPolicyOrImageDownloader(option: String)
    /// `--cert and --key go together`.
    case goTogether(first: String, second: String)
    /// `--seed` on a command that talks to real peers.
    case seedDoesNotApply
    /// `--suite` naming only TLS 1.3 suites with `--tls 1.2`, or only TLS 1.2 suites with `--tls 1.3`.
    case suitesOfAnotherVersion(suites: [String], tls: String, suitesVersion: String)
    /// `connect --early-data FILE` with h2 in `--alpn`: the file goes as HTTP/1.1 in 0-RTT data.
    case earlyDataWithHTTP2
    /// `--alpn` that is not a list of protocol names.
    case alpnList
    /// `bench startup --only x`.
    case unknownBenchmark(name: String, known: [String])
    /// `self-test x`.
    case unknownSelfTest(name: String)
    /// `pin` without a file.
    case noCertificateFile
    /// `export --all` without `--html DIR`.
    case exportAllNeedsHTML
    /// `export --all` with a name or another output.
    case exportAllTakesNothingElse
    /// `export` without a name.
    case exportNeedsName
    /// `export NAME` with no output.
    case exportNeedsOutput
    /// `--keylog` or `--pki` without `--pcap`.
    case exportKeylogNeedsPcap
    /// `--slides` without `--html`.
    case exportSlidesNeedHTML

    /// The catalogue key and its values: one literal per case.
    var words: (key: String, values: [String: String]) {
        switch self {
        case let .mustBe(o, r): return ("cli.option.mustBe", ["option": o, "range": r])
        case let .takes(o, r): return ("cli.option.takes", ["option": o, "range": r])
        case let .takesSeconds(o, r): return ("cli.option.takesSeconds", ["option": o, "range": r])
        case let .takesSecondsUpToAWeek(o, r): return ("cli.option.takesSecondsUpToAWeek", ["option": o, "range": r])
        case let .takesSizes(o, r): return ("cli.option.takesSizes", ["option": o, "range": r])
        case let .positive(o): return ("cli.option.positive", ["option": o])
        case let .secondsBetween(o, low, high, given):
            return ("cli.option.secondsBetween", ["option": o, "lowest": low, "highest": high, "given": given])
        case let .needs(o, other): return ("cli.option.needs", ["option": o, "other": other])
        case let .needsAPin(p): return ("cli.option.needsAPin", ["policy": p])
        case let .needsABundledCertificate(p): return ("cli.option.needsABundledCertificate", ["policy": p])
        case let .goesWith(o, other): return ("cli.option.goesWith", ["option": o, "other": other])
        case let .goesWithEither(o, first, second): return ("cli.option.goesWithEither", ["option": o, "first": first, "second": second])
        case let .goesWithAFPolicy(o): return ("cli.option.goesWithAFPolicy", ["option": o])
        case let .goesWithAFPolicyOrImageDownloader(o): return ("cli.option.goesWithAFPolicyOrImageDownloader", ["option": o])
        case let .goTogether(first, second): return ("cli.option.goTogether", ["first": first, "second": second])
        case .seedDoesNotApply: return ("cli.option.seedDoesNotApply", [:])
        case .alpnList: return ("cli.option.alpnList", [:])
        case .earlyDataWithHTTP2: return ("cli.option.earlyDataWithHTTP2", [:])
        case let .suitesOfAnotherVersion(names, tls, version):
            return ("cli.option.suitesOfAnotherVersion", ["suites": names.joined(separator: CLIWords.text("list.separator")), "tls": tls, "version": version])
        case let .takesColumns(o, r, given): return ("cli.option.takesColumns", ["option": o, "range": r, "given": given])
        case let .unknownBenchmark(name, known):
            return ("cli.option.unknownBenchmark", ["name": name, "known": known.joined(separator: CLIWords.text("list.separator"))])
        case let .unknownSelfTest(name): return ("cli.option.unknownSelfTest", ["name": name])
        case .noCertificateFile: return ("cli.option.noCertificateFile", [:])
        case .exportAllNeedsHTML: return ("cli.option.exportAllNeedsHTML", [:])
        case .exportAllTakesNothingElse: return ("cli.option.exportAllTakesNothingElse", [:])
        case .exportNeedsName: return ("cli.option.exportNeedsName", [:])
        case .exportNeedsOutput: return ("cli.option.exportNeedsOutput", [:])
        case .exportKeylogNeedsPcap: return ("cli.option.exportKeylogNeedsPcap", [:])
        case .exportSlidesNeedHTML: return ("cli.option.exportSlidesNeedHTML", [:])
        }
    }

    /// The sentence in the command line's language.
    var sentence: String { CLIWords.text(words.key, words.values) }

    /// What `validate()` throws: the parser prints it after "Error: " with the usage.
    var validationError: ValidationError { ValidationError(sentence) }
}
