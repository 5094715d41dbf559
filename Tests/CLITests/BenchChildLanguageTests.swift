import Benchmarks
import Foundation
import Languages
import Testing
@testable import tlslab

/// Issue #34: the processes `tlslab bench` starts speak the language the parent chose (its `--lang`,
/// else TLSLAB_LANG, else the locale), not what their own environment would choose: TLSLAB_LANG is set
/// in every child's environment, and it outranks the locale.
@Suite("bench children get the parent's language")
struct BenchChildLanguageTests {
    static let parent = ["TLSLAB_LANG": "en", "LANG": "en_US.UTF-8", "PATH": "/usr/bin:/bin", "NO_COLOR": "1"]

    @Test func theChildEnvironmentCarriesTheChosenLanguage() {
        for language in Language.allCases {
            let overrides = ChildProcess.languageEnvironment(language)
            let env = ChildProcess.environment(overrides, base: Self.parent)
            #expect(env.contains("TLSLAB_LANG=\(language.rawValue)") && env.filter { $0.hasPrefix("TLSLAB_LANG=") }.count == 1, "\(env)")
            #expect(env.contains("PATH=/usr/bin:/bin") && env.contains("LANG=en_US.UTF-8"), "\(env)")
            // The child then chooses the parent's language, whatever its locale says.
            let childView = Dictionary(uniqueKeysWithValues: env.map { line in
                let parts = line.split(separator: "=", maxSplits: 1).map(String.init)
                return (parts[0], parts.count > 1 ? parts[1] : "")
            })
            #expect(Language.chosen(flag: nil, environment: childView) == language)
            // The walkthrough's pseudo-terminal child too (its screens are what the startup bench times).
            let pty = PseudoTerminalLaunch.environment(overrides, base: Self.parent)
            #expect(pty.contains("TLSLAB_LANG=\(language.rawValue)") && pty.contains("TERM=xterm") && !pty.contains { $0.hasPrefix("NO_COLOR=") }, "\(pty)")
        }
    }

    /// The bench's children are started with the language the command line chose from `--lang`.
    @Test func theBenchPassesTheCommandLinesLanguage() {
        #expect(StartupBenchCommand.childLanguage == ["TLSLAB_LANG": CLIWords.language.rawValue])
        #expect(CLIWords.chosen(arguments: ["--lang", "zh", "bench", "tcp"], environment: ["TLSLAB_LANG": "en"]) == .zh)
    }

    /// A spawned child really receives the variable (posix_spawn with the built environment).
    @Test func aSpawnedChildSeesTheVariable() throws {
        let child = try ChildProcess("/usr/bin/env", [], environment: ChildProcess.languageEnvironment(.zh))
        let lines = child.wait().stdoutText.split(separator: "\n")
        #expect(lines.contains("TLSLAB_LANG=zh"), "\(lines)")
        let english = try ChildProcess("/usr/bin/env", [], environment: ChildProcess.languageEnvironment(.en))
        #expect(english.wait().stdoutText.split(separator: "\n").contains("TLSLAB_LANG=en"))
    }
}
