import Foundation
import Simulation

/// What `run`, `walkthrough` and `export` take as SCENARIO, resolved to a setup: for now a
/// built-in run's name (scenario files join here).
struct ResolvedRun {
    var name: String
    var summary: String
    var setup: SimulationSetup
    var pki: PKIMaterial?

    /// Resolves `name` with `seed` (nil: the system CSPRNG). Unknown names are bad input (exit 2).
    static func resolve(_ name: String, seed: UInt64?) throws -> ResolvedRun {
        guard let run = BuiltInRun(rawValue: name) else {
            throw CLIError.badInput("unknown scenario '\(name)' (built-in: \(BuiltInRun.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        do {
            let prepared = try run.prepare(seed: seed)
            return ResolvedRun(name: run.rawValue, summary: run.summary, setup: prepared.setup, pki: prepared.pki)
        } catch {
            throw CLIError.failed("\(error)")
        }
    }

    func simulate() -> Trace { Simulation(setup).run() }
}
