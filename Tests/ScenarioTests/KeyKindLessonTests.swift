import Testing
@testable import Scenarios

/// `pki.keys` with the newer key kinds (issue #39): P-521 anywhere, Ed25519 for a leaf or a client
/// only — a CA's Ed25519 key is refused at the line that asks for it, with the reason.
@Suite("pki.keys: p-521 and ed25519")
struct KeyKindLessonTests {
    @Test(arguments: ["keys: ed25519", "keys: { root: ed25519 }", "keys: { intermediate: ed25519 }", "keys: { client_ca: ed25519 }"])
    func anEd25519CAIsRefused(keys: String) {
        let yaml = "title: t\ndescription: a lesson file made by a test, to read its key kinds\npki: { seed: 1, \(keys) }\nexpect: { handshake: success }\n"
        do {
            _ = try ScenarioParser.parse(data: Array(yaml.utf8), file: "ed.yaml")
            Issue.record("\(keys) was accepted")
        } catch {
            #expect("\(error)".contains("cannot be ed25519"), "\(error)")
            #expect("\(error)".contains("ed.yaml:3:"), "\(error)")
        }
    }

    @Test(arguments: ["keys: p-521", "keys: { leaf: ed25519 }", "keys: { leaf: ed25519, client: ed25519 }", "keys: { leaf: p-521 }"])
    func newerKindsAreAccepted(keys: String) throws {
        let yaml = "title: t\ndescription: a lesson file made by a test, to read its key kinds\npki: { seed: 1, \(keys) }\nexpect: { handshake: success }\n"
        _ = try ScenarioParser.parse(data: Array(yaml.utf8), file: "ok.yaml")
    }
}
