import Foundation

/// `tlslab check`: finds scenario files, validates and runs each, and reports one line per file.
public enum ScenarioCheck {
    public enum Result: Sendable {
        case pass(name: String)
        /// `facts`: every fact of the run when asked for (`keepFacts`), else empty.
        case fail(name: String, UnmetExpectation, facts: [String: FactValue])
        case invalid(ScenarioError)

        /// The line `tlslab check` prints.
        public var line: String {
            switch self {
            case .pass(let name): return "PASS \(name)"
            case .fail(let name, let unmet, _): return "FAIL \(name): \(unmet)"
            case .invalid(let error): return "INVALID \(error)"
            }
        }
    }

    /// Every `*.yaml` / `*.yml` file under the paths (a file is taken as is), sorted, without duplicates.
    public static func files(under paths: [String]) -> (files: [String], missing: [String]) {
        var out: [String] = [], missing: [String] = []
        let fm = FileManager.default
        for path in paths {
            var isDirectory: ObjCBool = false
            guard fm.fileExists(atPath: path, isDirectory: &isDirectory) else { missing.append(path); continue }
            guard isDirectory.boolValue else { out.append(path); continue }
            let base = path.hasSuffix("/") ? String(path.dropLast()) : path
            let entries = (fm.enumerator(atPath: path)?.allObjects as? [String]) ?? []
            out += entries.filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".yml") }.sorted().map { "\(base)/\($0)" }
        }
        var seen = Set<String>()
        return (out.filter { seen.insert($0).inserted }, missing)
    }

    /// The name a scenario is reported by: its path without the extension.
    public static func name(of file: String) -> String {
        file.hasSuffix(".yaml") ? String(file.dropLast(5)) : file.hasSuffix(".yml") ? String(file.dropLast(4)) : file
    }

    /// Validates and runs one file.
    public static func check(file: String, keepFacts: Bool = false) -> Result {
        let scenario: Scenario
        do {
            scenario = try ScenarioParser.parse(contentsOf: file)
        } catch {
            return .invalid(error)
        }
        return check(scenario, keepFacts: keepFacts)
    }

    public static func check(_ scenario: Scenario, keepFacts: Bool = false) -> Result {
        // A demo (no `expect`) can be shown but asserts nothing: `check` refuses it.
        guard scenario.isChecked else {
            return .invalid(ScenarioError(file: scenario.file, line: 1, column: 1, path: "expect",
                                          "expected a mapping of expectations: a file without one is a demo that `tlslab run` and `walkthrough` show, but `check` has nothing to check",
                                          "scenario.demoHasNoExpect"))
        }
        // A `handlers` file runs once per handler; the first handler whose expectation fails is
        // reported, its key prefixed with the handler (`handlers[1] useCredential: handshake: …`).
        for variant in scenario.variants() {
            let run = variant.run()
            if var unmet = variant.firstUnmet(in: run.facts) {
                if let choice = variant.handlerChoice { unmet.key = "handlers[\(choice.index)] \(choice.name): \(unmet.key)" }
                return .fail(name: name(of: scenario.file), unmet, facts: keepFacts ? run.facts : [:])
            }
        }
        return .pass(name: name(of: scenario.file))
    }
}
