import Foundation
import Rendering
import Scenarios
import Testing
@testable import tlslab

/// A lesson comparing challenge handlers (`handlers`) on the command line: `run` prints every
/// handler's run, `NAME#HANDLER` picks one, `check` counts the file once, `lessons --path` lists it.
@Suite("handlers on the command line")
struct HandlersCommandTests {
    static let lesson = "challenge/three-dispositions"

    @Test func runPrintsEveryHandlerInOrder() throws {
        let text = try RenderOptions.parse([]).lines(for: Self.lesson, width: 400).joined(separator: "\n")
        let titles = ["handler 1 of 3: performDefaultHandling", "handler 2 of 3: useCredential", "handler 3 of 3: cancelAuthenticationChallenge"]
        let places = titles.map { text.range(of: $0)?.lowerBound }
        #expect(places.allSatisfy { $0 != nil }, "\(titles)")
        #expect(places.compactMap { $0 } == places.compactMap { $0 }.sorted())
        #expect(text.contains("The next handler of this lesson: tlslab walkthrough challenge/three-dispositions#useCredential"))
        #expect(text.contains("Set client.trust to [demo-root]"), "the last handler ends with the file's try_next")
        #expect(text.components(separatedBy: "expectations hold.").count == 4 && !text.contains("FAIL  "), "three tallies, no failed expectation")
        let zh = try RenderOptions.parse(["--lang", "zh"]).lines(for: Self.lesson, width: 400).joined(separator: "\n")
        #expect(zh.contains("第 3 个处理器（共 3 个）：cancelAuthenticationChallenge"))
    }

    @Test func aNameAfterHashPicksOneHandler() throws {
        let one = try RenderOptions.parse([]).lines(for: Self.lesson + "#cancelAuthenticationChallenge", width: 400).joined(separator: "\n")
        #expect(one.contains("handler 3 of 3") && !one.contains("handler 1 of 3"))
        #expect(one.contains(try #require(Explanations.english("trust.fixedAnswer.cancelAuthenticationChallenge"))))
        #expect(throws: CLIError.self) { try ResolvedRun.resolve(Self.lesson + "#rejectProtectionSpace", seed: .unspecified) }
        #expect(throws: CLIError.self) { try ResolvedRun.resolve("tls/ecdhe#useCredential", seed: .unspecified) }
    }

    @Test func checkPassesAndLessonsListIt() throws {
        let check = try CLI.run(["check", "Scenarios/" + Self.lesson + ".yaml"], currentDirectory: LessonShowTests.root.path)
        #expect(check.status == 0 && check.stdout.contains("PASS Scenarios/\(Self.lesson)") && check.stdout.contains("1 passed, 0 failed"), "\(check.stdout)\(check.stderr)")
        let path = try CLI.run(["lessons", "--path"], currentDirectory: LessonShowTests.root.path)
        #expect(path.stdout.contains(Self.lesson))
    }
}
