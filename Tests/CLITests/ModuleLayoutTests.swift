import Foundation
import Testing

/// The layout the README's architecture section promises, read from the sources: every module a
/// file imports from this package or from a package product (swift-crypto's `Crypto`, Yams, …) is
/// declared among its target's dependencies in `Package.swift`
/// (SwiftPM on Linux lets an undeclared, transitively built module be imported), and no file under
/// `Sources/` is over 600 lines.
@Suite("Module layout: imports declared, files small")
struct ModuleLayoutTests {
    static var root: URL {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0 ..< 3 { url.deleteLastPathComponent() }
        return url
    }

    /// Each target of `Package.swift` with the names its declaration mentions (its dependencies).
    static func targets() throws -> [String: Set<String>] {
        let manifest = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let starts = manifest.matches(of: /\.(target|executableTarget|testTarget|systemLibrary)\(\s*name:\s*"([^"]+)"/)
        var out: [String: Set<String>] = [:]
        for (i, start) in starts.enumerated() {
            let end = i + 1 < starts.count ? starts[i + 1].range.lowerBound : manifest.endIndex
            let body = manifest[start.range.upperBound ..< end]
            out[String(start.output.2)] = Set(body.matches(of: /"([^"]+)"/).map { String($0.output.1) })
        }
        return out
    }

    static func swiftFiles(under folder: String) -> [URL] {
        let base = root.appendingPathComponent(folder)
        guard let walker = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil) else { return [] }
        return walker.compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
    }

    /// The package products the manifest names (`.product(name: "Crypto", …)`).
    static func products() throws -> Set<String> {
        let manifest = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
        return Set(manifest.matches(of: /\.product\(name:\s*"([^"]+)"/).map { String($0.output.1) })
    }

    @Test func everyImportOfThisPackageIsDeclared() throws {
        let targets = try Self.targets()
        let products = try Self.products()
        #expect(targets.count > 20, "\(targets.keys.sorted())")
        #expect(products.isSuperset(of: ["Crypto", "_CryptoExtras", "SwiftASN1", "Yams", "ArgumentParser"]), "\(products)")
        var checked = 0
        for folder in ["Sources", "Tests"] {
            for file in Self.swiftFiles(under: folder) {
                let parts = file.path.components(separatedBy: "/\(folder)/")
                guard let target = parts.last?.split(separator: "/").first.map(String.init), let declared = targets[target] else { continue }
                let text = try String(contentsOf: file, encoding: .utf8)
                for match in text.matches(of: /(?m)^(?:@testable )?import (\w+)/) {
                    let module = String(match.output.1)
                    guard targets[module] != nil || products.contains(module), module != target else { continue }
                    checked += 1
                    #expect(declared.contains(module), "\(folder)/\(parts.last ?? ""): imports \(module), which \(target) does not declare")
                }
            }
        }
        #expect(checked > 300, "\(checked) imports checked")
    }

    /// Lessons name trust reasons by identifier, so the scenario layer needs no catalogue: Scenarios
    /// neither declares Rendering nor imports it (the words stay above the facts).
    @Test func scenariosDoesNotDependOnRendering() throws {
        let declared = try #require(try Self.targets()["Scenarios"])
        #expect(!declared.contains("Rendering"), "Package.swift: Scenarios declares Rendering")
        let files = Self.swiftFiles(under: "Sources/Scenarios")
        #expect(files.count > 10)
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            #expect(!text.contains(/(?m)^(?:@testable )?import Rendering\b/), "\(file.lastPathComponent) imports Rendering")
        }
    }

    /// An import says the file uses the module: every Sources file that imports Trust names one of
    /// its public types (the import blocks were once copied whole, seven files importing it for nothing).
    @Test func filesImportingTrustUseIt() throws {
        var types: Set<String> = []
        for file in Self.swiftFiles(under: "Sources/Trust") {
            let text = try String(contentsOf: file, encoding: .utf8)
            for m in text.matches(of: /(?m)^public (?:struct|enum|final class|class|protocol) (\w+)/) { types.insert(String(m.output.1)) }
        }
        #expect(types.count >= 5, "\(types)")
        for file in Self.swiftFiles(under: "Sources") where !file.path.contains("/Sources/Trust/") {
            let text = try String(contentsOf: file, encoding: .utf8)
            guard text.contains(/(?m)^import Trust$/) else { continue }
            #expect(types.contains { text.contains($0) }, "\(file.lastPathComponent) imports Trust and names none of \(types.sorted())")
        }
    }

    /// The names a module declares at its top level as public (types, protocols, functions,
    /// constants): what a file that imports it can name.
    static func publicNames(of module: String) throws -> Set<String> {
        var names: Set<String> = []
        for file in Self.swiftFiles(under: "Sources/\(module)") {
            let text = try String(contentsOf: file, encoding: .utf8)
            let declaration = /(?m)^(?:@\w+(?:\([^)]*\))?\s+)*public (?:final )?(?:indirect )?(?:struct|enum|class|protocol|typealias|actor|func|let|var) (\w+)/
            for m in text.matches(of: declaration) { names.insert(String(m.output.1)) }
        }
        return names
    }

    /// Issue #32 §8: Simulation's files import only what they use. Each module a file imports is
    /// named in it (one of its public types, protocols or functions); the import blocks were once
    /// copied whole from file to file.
    @Test func simulationFilesImportOnlyWhatTheyName() throws {
        let modules = ["HTTP2", "PKI", "TCPSim", "TLSCrypto", "TLSEngine", "Trace", "Trust"]
        var names: [String: Set<String>] = [:]
        for module in modules { names[module] = try Self.publicNames(of: module) }
        // TLSCrypto re-exports BigNum (`@_exported import BigNum`): importing it names BigNum's too.
        names["TLSCrypto", default: []].formUnion(try Self.publicNames(of: "BigNum"))
        #expect(names.values.allSatisfy { $0.count >= 5 }, "\(names.mapValues(\.count))")
        var checked = 0
        for file in Self.swiftFiles(under: "Sources/Simulation") {
            let text = try String(contentsOf: file, encoding: .utf8)
            let code = text.split(separator: "\n").filter { !$0.hasPrefix("import ") }
                .map { line in line.range(of: "//").map { line[..<$0.lowerBound] } ?? line }.joined(separator: "\n")
            let words = Set(code.matches(of: /\w+/).map { String($0.output) })
            for m in text.matches(of: /(?m)^import (\w+)$/) {
                let module = String(m.output.1)
                guard let declared = names[module] else { continue }
                checked += 1
                #expect(!declared.isDisjoint(with: words), "\(file.lastPathComponent) imports \(module) and names nothing of it")
            }
        }
        #expect(checked > 20, "\(checked) imports checked")
    }

    @Test func noSourceFileIsOver600Lines() throws {
        let files = Self.swiftFiles(under: "Sources")
        #expect(files.count > 100)
        for file in files {
            let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).count
            #expect(lines <= 601, "\(file.lastPathComponent): \(lines) lines")
        }
    }
}
