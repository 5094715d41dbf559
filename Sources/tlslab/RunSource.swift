import TLSCrypto
import Languages
import Foundation
import HTTP2
import PKI
import Scenarios
import Simulation
import Trace
import Rendering

/// How `--seed` was given: not at all (a built-in run uses 1, a scenario file its own `seed:`),
/// a number, or `random` (the system CSPRNG).
enum SeedChoice: Equatable {
    case unspecified, fixed(UInt64), random

    init(_ option: String?) throws {
        guard let option else { self = .unspecified; return }
        if option == "random" { self = .random; return }
        guard let v = UInt64(option) else { throw CLIError.input(.seedNotANumber(given: option)) }
        self = .fixed(v)
    }
}

/// What `run`, `walkthrough` and `export` take as SCENARIO, resolved: a built-in run (`tlslab
/// list`), a lesson of the library by name (`tcp/old-duplicate-syn`, with or without `.yaml`), or
/// a scenario file by path. Built-in runs and lessons are one namespace.
struct ResolvedRun {
    var name: String
    var summary: String
    /// A TLS world's setup (a built-in run, a `kind: tls` lesson); nil for TCP, ATS and DH lessons.
    var setup: SimulationSetup?
    var pki: PKIMaterial?
    /// The lesson file, when the run comes from one (title, description, expectations, try next).
    var scenario: Scenario?
    /// For a lesson with `handlers`: the handler this run plays (``Scenario/variants()``).
    var chosen: Scenario? = nil
    /// True when the name picked the handler (`LESSON#HANDLER`).
    var handlerNamed = false

    static func isScenarioFile(_ name: String) -> Bool {
        name.hasSuffix(".yaml") || name.hasSuffix(".yml") || name.contains("/")
    }

    /// Resolves `name`: a built-in run, an existing file, else a lesson under the library
    /// (``LessonLibrary``). Unknown names (with the closest ones), unreadable or malformed files are
    /// bad input (exit 2) with a message naming the file, line and field.
    static func resolve(_ name: String, seed: SeedChoice) throws -> ResolvedRun {
        // `LESSON#HANDLER`: one handler of a lesson that compares several (`handlers`).
        if let hash = name.lastIndex(of: "#"), !FileManager.default.fileExists(atPath: name) {
            var whole = try resolve(String(name[..<hash]), seed: seed)
            let wanted = String(name[name.index(after: hash)...])
            guard let scenario = whole.scenario, !scenario.handlers.isEmpty else {
                throw CLIError.input(.noHandlers(name: name, lesson: whole.name))
            }
            guard let variant = scenario.variants().first(where: { $0.handlerChoice?.name == wanted }) else {
                let names = scenario.handlers.map(\.name)
                throw CLIError.input(.noSuchHandler(name: name, handler: wanted, lesson: whole.name, handlers: names))
            }
            whole.select(variant)
            whole.handlerNamed = true
            return whole
        }
        if let run = BuiltInRun(rawValue: name) { return try builtIn(run, seed: seed) }
        if FileManager.default.fileExists(atPath: name) { return try scenarioFile(name, seed: seed) }
        let library = LessonLibrary.locate()
        if let library, let entry = library.catalogue.entry(named: name) {
            return try scenarioFile(entry.file, seed: seed, name: entry.name)
        }
        if isScenarioFile(name) && library == nil {
            // A path that does not exist and no library to look the name up in.
            throw CLIError.input(.noSuchFileNoLibrary(name: name))
        }
        let names = BuiltInRun.allCases.map(\.rawValue) + (library?.catalogue.entries.map(\.name) ?? [])
        let close = LessonCatalogue.suggestions(for: name, among: names)
        let say = CLIWords.self
        let quoted = close.map { say.text("cli.unknownName.quoted", ["name": $0]) }.joined(separator: say.text("cli.unknownName.separator"))
        let hint = close.isEmpty ? "" : say.text("cli.unknownName.hint", ["names": quoted])
        throw CLIError.badInput(say.text("cli.unknownName", ["name": name, "hint": hint]))
    }

    static func builtIn(_ run: BuiltInRun, seed: SeedChoice) throws -> ResolvedRun {
        // The one place a simulated run may get the system CSPRNG: the user asked for --seed random.
        let random: any RandomSource
        switch seed {
        case .unspecified: random = HMACDRBG(seed: 1)
        case .fixed(let v): random = HMACDRBG(seed: v)
        case .random: random = SystemRandom()
        }
        do throws(BuiltInRun.SetupError) {
            let prepared = try run.prepare(random: random)
            return ResolvedRun(name: run.rawValue, summary: run.summary(in: .english), setup: prepared.setup, pki: prepared.pki)
        } catch {
            throw CLIError.failed(failure(error, run: run, explanations: CLIWords.explanations))
        }
    }

    /// Why a built-in run cannot be set up, worded by the catalogue from the typed cause (issue #34).
    static func failure(_ error: BuiltInRun.SetupError, run: BuiltInRun, explanations: Explanations) -> String {
        switch error {
        case .demoPKI(let why):
            return explanations.phrase("cli.builtInRun.failed", ["name": run.rawValue, "reason": explanations.builtInPKIFailure(why)])
        }
    }

    private static func scenarioFile(_ path: String, seed: SeedChoice, name: String? = nil) throws -> ResolvedRun {
        var scenario: Scenario
        do {
            scenario = try ScenarioParser.parse(contentsOf: path)
        } catch {
            throw CLIError.badInput(CheckCommand.located(error, explanations: CLIWords.explanations))
        }
        switch seed {
        case .unspecified: break
        case .fixed(let v): scenario.seed = v
        case .random: throw CLIError.input(.randomSeedForScenarioFile(path: path))
        }
        let display = name ?? ScenarioCheck.name(of: path)
        guard case .tls(let world) = scenario.world else {
            return ResolvedRun(name: display, summary: scenario.title, setup: nil, pki: nil, scenario: scenario)
        }
        var resolved = ResolvedRun(name: display, summary: scenario.title, setup: scenario.simulationSetup(), pki: pkiMaterial(world),
                                   scenario: scenario)
        // A lesson comparing handlers plays its first handler unless `#NAME` picks another (`run`
        // prints them all: ``variants``).
        if let first = scenario.variants().first, first.handlerChoice != nil { resolved.select(first) }
        return resolved
    }

    /// Plays one handler of a `handlers` lesson: its setup and expectations.
    mutating func select(_ variant: Scenario) {
        chosen = variant
        setup = variant.simulationSetup()
    }

    /// The runs `run` prints: each handler of a `handlers` lesson in file order, else this one.
    var variants: [ResolvedRun] {
        guard let scenario, !scenario.handlers.isEmpty, !handlerNamed else { return [self] }
        return scenario.variants().map { v in
            var r = self
            r.select(v)
            return r
        }
    }

    /// The certificates and keys a scenario file declares, as `export --pki` writes them: the chain
    /// the server sends (leaf first) and its key, every self-issued CA of the file's PKI (sorted by
    /// name; trusted by the client or not), and the client identity when there is one.
    static func pkiMaterial(_ world: TLSWorld) -> PKIMaterial {
        let chain = world.serverChain.compactMap { world.certificates[$0] }
        let roots = world.certificates.values
            .filter { $0.certificate.isSelfIssued && $0.certificate.isCA }
            .sorted { $0.name < $1.name }
            .map(\.certificate)
        let client = (world.identity ?? []).compactMap { world.certificates[$0] }
        return PKIMaterial(serverChain: chain.map(\.certificate), serverKey: chain.first?.key, roots: roots,
                           clientChain: client.map(\.certificate), clientKey: client.first?.key)
    }

    /// The one-line summary in the catalogue's language (a built-in run's `run.summary.NAME`; a
    /// lesson's title).
    func summary(in explanations: Explanations) -> String {
        if let run = BuiltInRun(rawValue: name) { return run.summary(in: explanations) }
        return scenario?.title(for: explanations.language) ?? summary
    }

    /// Runs it: the trace, and for a lesson file its checked expectations (worded by `explanations`).
    func play(explanations: Explanations = .english) -> (trace: Trace, page: LessonPage?) {
        guard let whole = scenario else { return (setup.map { Simulation($0).run() } ?? Trace(events: []), nil) }
        let scenario = chosen ?? whole
        let run = scenario.run()
        let trace = run.trace ?? Trace(events: [])
        let (problems, checked) = scenario.results(in: run.facts)
        let language = explanations.language
        var title = scenario.title(for: language)
        var tryNext = scenario.tryNext(for: language)
        if let choice = scenario.handlerChoice {
            title = explanations("lesson.handler.title", ["title": title, "index": "\(choice.index + 1)", "count": "\(choice.count)",
                                                          "name": choice.name]) ?? title
            // Every handler but the last points to the next one; the last keeps the file's try_next.
            let all = whole.handlers
            if choice.index + 1 < all.count {
                tryNext = [explanations("lesson.handler.next", ["lesson": name, "name": all[choice.index + 1].name]) ?? all[choice.index + 1].name]
            }
        }
        let page = LessonPage(
            name: name, kind: scenario.kind, title: title, description: scenario.description(for: language),
            checks: checked.map { e, unmet in
                LessonPage.Check(key: e.key, expected: e.value.description, actual: unmet.map { $0.actual.map { FactWords.fact($0, explanations) } ?? explanations.phrase("lesson.nothing") },
                                 meaning: e.key == "reason_includes" ? Self.meaning(of: e.value.description, in: run.reasons, explanations)
                                    : unmet == nil ? Self.handshakeMeaning(of: e, facts: run.facts, trace: trace, explanations) : nil)
            },
            problems: problems.map { ($0.key, $0.actual.map { FactWords.fact($0, explanations) } ?? "") },
            tryNext: tryNext, isDemo: !scenario.isChecked)
        return (trace, page)
    }

    /// The lesson after this one in the course (`tlslab lessons --path`), or for a built-in run the
    /// course's first lesson: name and title in `language` (nil without a library, or after the last).
    func nextInCourse(language: Language) -> (name: String, title: String)? {
        guard let path = LessonLibrary.locate()?.catalogue.path, !path.isEmpty else { return nil }
        guard scenario != nil else { return (path[0].name, path[0].title(for: language)) }
        guard let i = path.firstIndex(where: { $0.name == name }), i + 1 < path.count else { return nil }
        return (path[i + 1].name, path[i + 1].title(for: language))
    }

    /// A `reason_includes` value names a step by its identifier (`ats.notForwardSecret`): the steps of
    /// the run with that identifier, in the page's language (nil when the run has none).
    static func meaning(of expected: String, in reasons: [TrustReason], _ explanations: Explanations) -> String? {
        let named = reasons.filter { $0.identifier == expected }
        return named.isEmpty ? nil : explanations.trustReasons(named)
    }
}
