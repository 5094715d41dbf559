import Foundation
@testable import Rendering
import Scenarios
import Simulation
import Testing
import TestSupport
import TLSEngine
import Trace

/// Issue #33: every handshake signature is a calculation a learner can redo — the signed input as
/// bytes (its parts, the rule that joins them, the whole), the signature, the check. The bytes the
/// page shows (the document with whole values) verify with the public key of the signer's
/// certificate in Python's `cryptography`, and one changed byte of the input does not; the parts
/// shown join to the whole input; the terminal's byte view and the walkthrough give the whole
/// values too; the Chinese document shows the same bytes in Chinese words.
@Suite("The signature input, as bytes a learner can check")
struct SignatureInputTests {
    static func trace(_ run: BuiltInRun) throws -> Trace { Simulation(try run.setup(seed: 5)).run() }

    static func lesson(_ name: String) throws -> Trace {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0 ..< 3 { url.deleteLastPathComponent() }
        let path = url.appendingPathComponent("Scenarios").appendingPathComponent(name + ".yaml").path
        return try #require(try ScenarioParser.parse(contentsOf: path).run().trace)
    }

    /// One signature as the document shows it: the actor's event, the parts, the whole input, the
    /// algorithm (from the event) and the signature.
    struct Shown {
        var actor: Actor
        var parts: [String]
        var input: String
        var signature: String
        var created: Bool
    }

    static func shown(_ trace: Trace, explanations: Explanations = .english, fullValues: Bool = true) -> [Shown] {
        let document = RunDocumentBuilder(verbosity: .bytes, width: 200, explanations: explanations, fullValues: fullValues)
            .prepared(for: trace).document(for: trace)
        var out: [Shown] = []
        for step in document.steps {
            let sentences = step.entries.compactMap(\.sentence)
            guard let whole = sentences.first(where: { $0.key == "derived.signedInput.whole" }) else { continue }
            let parts = sentences.filter { $0.key == "derived.signedInput.part" || $0.key == "derived.signedInput.contextString" }
                .compactMap { $0.values["value"] }
            let made = sentences.first { $0.key == "derived.signature.made" }
            let verify = sentences.first { $0.key == "derived.signature.verified" || $0.key == "derived.signature.refused" }
            out.append(Shown(actor: trace.events[step.eventIndex].actor, parts: parts, input: whole.values["input"] ?? "",
                             signature: (made ?? verify)?.values["signature"] ?? "", created: made != nil))
        }
        return out
    }

    /// The leaf certificate each party sent: the first of its Certificate message (TLS 1.2: RFC 5246
    /// §7.4.2; TLS 1.3: type, length, context, list length, then the first entry's 3-byte length and DER, RFC 8446 §4.4.2).
    static func leaves(_ trace: Trace) -> [Actor: [UInt8]] {
        var out: [Actor: [UInt8]] = [:]
        for event in trace.events {
            switch event.kind {
            case .tls(.handshakeSent(.certificate(let c), _)):
                if let leaf = c.certificateList.first { out[event.actor] = leaf }
            case .tls(.handshakeSent(.other(.certificate, let bytes), _)) where bytes.count > 8:
                // A TLS 1.3 Certificate, as the trace keeps it (its body).
                let context = Int(bytes[0])
                let at = 1 + context + 3
                guard bytes.count > at + 3 else { continue }
                let length = Int(bytes[at]) << 16 | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2])
                guard bytes.count >= at + 3 + length else { continue }
                out[event.actor] = Array(bytes[(at + 3)..<(at + 3 + length)])
            default: continue
            }
        }
        return out
    }

    static let verifier = """
    import sys, json
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.asymmetric import padding, ec, ed25519
    from cryptography.exceptions import InvalidSignature
    H = {"sha256": hashes.SHA256(), "sha384": hashes.SHA384(), "sha512": hashes.SHA512(), "sha1": hashes.SHA1()}
    for line in sys.stdin:
        c = json.loads(line)
        key = x509.load_der_x509_certificate(bytes.fromhex(c["cert"])).public_key()
        data, sig, s = bytes.fromhex(c["input"]), bytes.fromhex(c["signature"]), c["scheme"]
        h = H[s.rsplit("_", 1)[1]] if "_sha" in s else None
        try:
            if s.startswith("rsa_pkcs1_"): key.verify(sig, data, padding.PKCS1v15(), h)
            elif s.startswith("rsa_pss_"): key.verify(sig, data, padding.PSS(mgf=padding.MGF1(h), salt_length=h.digest_size), h)
            elif s.startswith("ecdsa_"): key.verify(sig, data, ec.ECDSA(h))
            elif s == "ed25519": key.verify(sig, data)
            else: raise SystemExit("unknown scheme " + s)
            print("valid")
        except InvalidSignature:
            print("invalid")
    """

    /// The scheme of each signature, in trace order (the trace's own fact; the lines show the same name).
    static func schemes(_ trace: Trace) -> [String] {
        trace.events.compactMap { e -> String? in
            switch e.kind {
            case .tls(.signature(let s)): return s.scheme.map { "\($0)" }
            case .tls(.tls13(.certificateVerifySigned(let scheme, _, _))), .tls(.tls13(.certificateVerifyChecked(let scheme, _, _, _))):
                return "\(scheme)"
            default: return nil
            }
        }
    }

    @Test(CrossCheckRequirement.trait(SignatureInputPython.path != nil, missing: "python3 with the `cryptography` package is not available"),
          arguments: ["ecdhe", "dhe", "tls13", "tls13-client-auth", "mtls/success", "mtls/ecdsa-client-certificate"])
    func theBytesShownVerifyWithTheCertificatesPublicKey(name: String) throws {
        let python = try #require(SignatureInputPython.path)
        let trace = try BuiltInRun(rawValue: name).map(Self.trace) ?? Self.lesson(name)
        let shown = Self.shown(trace)
        let schemes = Self.schemes(trace)
        #expect(shown.count == schemes.count && shown.count >= 2, "\(name): \(shown.count) shown, \(schemes.count) signatures")
        let leaves = Self.leaves(trace)
        var lines = "", expected: [String] = []
        for (s, scheme) in zip(shown, schemes) {
            // The parts shown join to the whole input (a CertificateVerify in TLS 1.2 has no parts: it is the transcript).
            if !s.parts.isEmpty { #expect(s.parts.joined() == s.input, "\(name): the parts do not join to the input") }
            // The signer: the event's actor when it signed; the other side when it checked.
            let signer: Actor = s.created ? s.actor : (s.actor == .client ? .server : .client)
            let cert = try #require(leaves[signer], "\(name): no certificate of the \(signer)")
            var changed = Array(s.input)
            changed[changed.count / 2] = changed[changed.count / 2] == "0" ? "1" : "0"
            for (input, verdict) in [(s.input, "valid"), (String(changed), "invalid")] {
                let object = ["cert": Hex.string(cert), "input": input, "signature": s.signature, "scheme": scheme]
                lines += String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self) + "\n"
                expected.append(verdict)
            }
        }
        let result = try ExternalTool.run(python, ["-c", Self.verifier], stdin: Data(lines.utf8))
        #expect(result.succeeded, "\(result.stderrText)")
        #expect(result.stdoutText.split(separator: "\n").map(String.init) == expected, "\(name): \(result.stdoutText)")
    }

    /// The terminal (`--verbosity bytes`) and the walkthrough's byte view shorten long values in the
    /// formula and give the whole input and signature on lines of their own; the normal level shows none of it.
    @Test func theTerminalsByteViewGivesTheWholeValues() throws {
        let trace = try Self.trace(.ecdhe)
        let whole = try #require(Self.shown(trace).first)
        let bytes = TextRenderer(verbosity: .bytes, width: 100, color: false).render(trace).joined(separator: "\n")
        let joined = bytes.replacingOccurrences(of: "\n", with: "").filter { !$0.isWhitespace && $0 != "│" }
        #expect(bytes.contains("Signed input (RFC 5246 §7.4.3, RFC 8422 §5.4) = client_random ‖") && bytes.contains("ServerECDHParams ="))
        #expect(joined.contains(whole.input) && joined.contains(whole.signature), "the whole values are on the terminal's byte lines")
        let normal = TextRenderer(verbosity: .normal, width: 100, color: false).render(trace).joined(separator: "\n")
        #expect(!normal.contains("Signed input"))
        let walk = Walkthrough(title: "ecdhe", trace: trace, width: 100)
        let step = try #require(walk.steps.first { $0.lines.contains { $0.sentence?.key == "derived.signedInput.serverKeyExchange" } })
        #expect(step.detail.contains { $0.contains("client_random = ") }, "the pane shows the formula and parts")
        #expect(!step.detail.joined().contains(whole.input), "the pane shortens the whole input")
        #expect(step.detailWithBytes.joined().filter { !$0.isWhitespace }.contains(whole.input), "x shows the whole input")
    }

    /// The Chinese document: the same bytes, Chinese words around them.
    @Test func theChineseDocumentShowsTheSameBytes() throws {
        let trace = try Self.trace(.tls13)
        let en = Self.shown(trace), zh = Self.shown(trace, explanations: .chinese)
        #expect(en.map(\.input) == zh.map(\.input) && en.map(\.signature) == zh.map(\.signature) && !zh.isEmpty)
        let page = HTMLRenderer(explanations: .chinese).page(name: "tls13", trace: trace)
        #expect(page.contains("签名输入（RFC 8446 §4.4.3）= 64 × 0x20 ‖ 上下文字符串 ‖ 00 ‖ Transcript-Hash"))
        #expect(page.contains("签名输入 = " + (zh.first?.input ?? "-")), "the page gives the whole input")
        #expect(!page.contains("Signed input"))
    }
}

/// python3, when it can import `cryptography`.
enum SignatureInputPython {
    static let path: String? = ExternalTool.find("python3").flatMap { python in
        (try? ExternalTool.run(python, ["-c", "import cryptography"]))?.succeeded == true ? python : nil
    }
}
