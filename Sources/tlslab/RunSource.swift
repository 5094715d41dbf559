import Foundation
import HTTP2
import PKI
import Scenarios
import Simulation
import Trace
import Trust

/// How `--seed` was given: not at all (a built-in run uses 1, a scenario file its own `seed:`),
/// a number, or `random` (the system CSPRNG).
enum SeedChoice: Equatable {
    case unspecified, fixed(UInt64), random

    init(_ option: String?) throws {
        guard let option else { self = .unspecified; return }
        if option == "random" { self = .random; return }
        guard let v = UInt64(option) else { throw CLIError.badInput("--seed takes a whole number or 'random', not '\(option)'") }
        self = .fixed(v)
    }
}

/// What `run`, `walkthrough` and `export` take as SCENARIO, resolved to a setup: a built-in run's
/// name (`tlslab list`) or a TLS scenario file (`.yaml`/`.yml`, or any path with a `/`).
struct ResolvedRun {
    var name: String
    var summary: String
    var setup: SimulationSetup
    var pki: PKIMaterial?

    static func isScenarioFile(_ name: String) -> Bool {
        name.hasSuffix(".yaml") || name.hasSuffix(".yml") || name.contains("/")
    }

    /// Resolves `name`. Unknown names, unreadable or malformed files and non-TLS scenarios are bad
    /// input (exit 2) with a message naming the file, line and field.
    static func resolve(_ name: String, seed: SeedChoice) throws -> ResolvedRun {
        if isScenarioFile(name) { return try scenarioFile(name, seed: seed) }
        guard let run = BuiltInRun(rawValue: name) else {
            throw CLIError.badInput("unknown scenario '\(name)' (built-in: \(BuiltInRun.allCases.map(\.rawValue).joined(separator: ", ")); or a scenario file ending in .yaml)")
        }
        let value: UInt64?
        switch seed {
        case .unspecified: value = 1
        case .fixed(let v): value = v
        case .random: value = nil
        }
        do {
            let prepared = try run.prepare(seed: value)
            return ResolvedRun(name: run.rawValue, summary: run.summary, setup: prepared.setup, pki: prepared.pki)
        } catch {
            throw CLIError.failed("\(error)")
        }
    }

    private static func scenarioFile(_ path: String, seed: SeedChoice) throws -> ResolvedRun {
        var scenario: Scenario
        do {
            scenario = try ScenarioParser.parse(contentsOf: path)
        } catch {
            throw CLIError.badInput("\(error)")
        }
        switch seed {
        case .unspecified: break
        case .fixed(let v): scenario.seed = v
        case .random: throw CLIError.badInput("a scenario file runs from a seed (its own, or --seed N); --seed random is not supported for \(path)")
        }
        guard let setup = scenario.simulationSetup() else {
            throw CLIError.badInput("\(path) is a \(scenario.kind) scenario; run, walkthrough and export show TLS scenarios (use `tlslab check \(path)`)")
        }
        guard case .tls(let world) = scenario.world else {
            return ResolvedRun(name: path, summary: scenario.title, setup: setup, pki: nil)
        }
        return ResolvedRun(name: path, summary: scenario.title, setup: setup, pki: pkiMaterial(world))
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

    func simulate() -> Trace { Simulation(setup).run() }
}
