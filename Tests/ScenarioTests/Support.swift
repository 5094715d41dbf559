import Foundation
import HTTP2
@testable import Scenarios
import Trace
import Trust

/// The repository's `Scenarios/` directory (found from this file's path).
enum Library {
    static var root: String {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0 ..< 3 { url.deleteLastPathComponent() }
        return url.appendingPathComponent("Scenarios").path
    }

    static var files: [String] { ScenarioCheck.files(under: [root]).files }
}

/// Parses text as a scenario named `t.yaml`; returns the error or nil.
func validationError(_ text: String) -> ScenarioError? {
    do {
        _ = try ScenarioParser.parse(text: text, file: "t.yaml")
        return nil
    } catch {
        return error
    }
}

/// A minimal valid TLS scenario, with `extra` lines appended at top level.
func minimal(_ extra: String = "", expect: String = "expect:\n  handshake: success\n") -> String {
    "title: t\ndescription: a description long enough to teach\n" + extra + expect
}
