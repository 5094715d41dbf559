import TLSCrypto
@testable import Rendering
import Simulation
import Testing

/// The page's calculations read in order: no box takes a key-schedule secret the page has not yet
/// shown how to get (RFC 8446 §7.1), and a signature is made by its signer and only checked by
/// the peer (RFC 8446 §4.4.3, RFC 5246 §4.7).
@Suite("HTML page: calculations in the order they can be redone")
struct HTMLCalculationOrderTests {
    static let tls13Runs: [BuiltInRun] = BuiltInRun.allCases.filter { $0.rawValue.hasPrefix("tls13") }

    static func page(_ run: BuiltInRun) throws -> String {
        HTMLRenderer().page(name: run.rawValue, trace: Simulation(try run.setup(seed: 1)).run())
    }

    /// Each input named after a key-schedule secret was an output of an earlier box of the same side.
    static func secretsUsedBeforeShown(_ html: String) -> [String] {
        var shown: [String: Set<String>] = [:], problems: [String] = []
        for (i, f) in HTMLCalculationTests.figures(html).enumerated() {
            for item in f.items where item.role == "input" && TLS13Secret(rawValue: item.name) != nil {
                if !shown[f.actor, default: []].contains(item.name) { problems.append("box \(i + 1) \(f.kind) (\(f.actor)) takes \(item.name)") }
            }
            for item in f.items where item.role == "output" { shown[f.actor, default: []].insert(item.name) }
        }
        return problems
    }

    @Test(arguments: tls13Runs)
    func noBoxTakesASecretBeforeItsBoxIsShown(_ run: BuiltInRun) throws {
        let html = try Self.page(run)
        #expect(!HTMLCalculationTests.figures(html).isEmpty)
        let problems = Self.secretsUsedBeforeShown(html)
        #expect(problems.isEmpty, "\(run): \(problems.joined(separator: "; "))")
    }

    /// The check can fail: the client's traffic-keys box for the server's application secret moved
    /// before the box that derives that secret is caught.
    @Test func theOrderCheckCatchesABoxTooEarly() throws {
        let html = try Self.page(.tls13)
        let figures = html.matches(of: /<figure class="calc-step"(?:(?!<\/figure>).|\n)*<\/figure>\n/).map { String($0.output) }
        let derive = try #require(figures.firstIndex { $0.contains("data-actor=\"client\"") && $0.contains("data-name=\"server_application_traffic_secret_0\" data-role=\"output\"") })
        let keys = try #require(figures.firstIndex { $0.contains("data-actor=\"client\"") && $0.contains("data-calc=\"tls13_traffic_keys\"") && $0.contains("data-name=\"server_application_traffic_secret_0\" data-role=\"input\"") })
        #expect(derive < keys)
        let moved = figures[keys] + figures.enumerated().filter { $0.offset != keys }.map(\.element).joined()
        #expect(Self.secretsUsedBeforeShown(moved).contains { $0.contains("server_application_traffic_secret_0") })
    }

    /// The signer's box makes the signature; the peer's box receives it (an input) and says whether it verified.
    @Test(arguments: [BuiltInRun.tls13ClientAuth, .ecdhe])
    func theCheckerReceivesTheSignature(_ run: BuiltInRun) throws {
        let html = try Self.page(run)
        let boxes = HTMLCalculationTests.figures(html).filter { $0.kind.hasSuffix("certificate_verify") || $0.kind.hasSuffix("_signature") }
        #expect(!boxes.isEmpty)
        for f in boxes {
            let signature = try #require(f.items.first { $0.name == "signature" }, "\(f.kind) (\(f.actor)) shows the signature")
            let signer = f.kind == "server_key_exchange_signature" || f.kind == "tls13_certificate_verify" && f.text("context_string")?.contains("server") == true
                ? "server" : "client"
            if f.actor == signer {
                #expect(signature.role == "output" && f.text("valid") == nil, "\(f.kind): the \(signer) makes it")
            } else {
                #expect(signature.role == "input" && f.text("valid") == "true", "\(f.kind): the \(f.actor) checks it")
            }
        }
        #expect(boxes.contains { $0.text("valid") != nil }, "\(run): a box of the side that checks")
    }
}
