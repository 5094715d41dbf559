import Foundation
import Testing

/// Every test that starts another program goes through `ExternalTool` (`Tests/TestSupport`): one
/// runner with a deadline, output through files and a stop that always waits (issue #32, review §8).
@Suite("Tests launch programs through ExternalTool only")
struct ExternalToolLaunchTests {
    @Test func noTestOutsideTestSupportMakesItsOwnProcess() throws {
        let tests = ModuleLayoutTests.root.appendingPathComponent("Tests")
        let files = FileManager.default.enumerator(at: tests, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" && !$0.path.contains("/TestSupport/") } ?? []
        #expect(files.count > 100)
        // Foundation's Process made with no arguments (a name merely ending in Process, as a test's, is not one).
        let call = try Regex(#"[^A-Za-z0-9_]Process\(\)"#)
        let launching = try files.filter { try String(contentsOf: $0, encoding: .utf8).contains(call) }
        #expect(launching.isEmpty, "\(launching.map(\.lastPathComponent))")
    }
}
