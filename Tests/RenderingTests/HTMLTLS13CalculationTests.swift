import Foundation
import Languages
@testable import Rendering
import Scenarios
import Simulation
import Testing
import TestSupport
import Trace

/// The page's TLS 1.3 calculations are steps a learner can redo (#33): read only from the page (its
/// calculation figures and its handshake bytes), Python's `cryptography` redoes each one with HMAC,
/// HKDF-Expand-Label written here from RFC 8446 §7.1 and RFC 5869, and its X25519 / ECDH: the (EC)DHE
/// shared secret (§7.4), every key-schedule step (§7.1), each traffic key and IV (§7.3), each Finished
/// and PSK binder (§4.4.4, §4.2.11.2) and what each CertificateVerify signs (§4.4.3, the signature
/// checked with the certificate the page shows). The chain holds (each input is the output of the step
/// it names, the client and the server agree) and a byte changed on the page breaks it.
@Suite("HTML page: the TLS 1.3 calculations redone from the page alone",
       CrossCheckRequirement.trait(SignatureInputPython.path != nil, missing: "python3 with the cryptography package is not on the PATH"))
struct HTMLTLS13CalculationTests {
    typealias Figure = HTMLCalculationTests.Figure

    /// RFC 8446 §7.1's HKDF-Expand-Label and HkdfLabel, RFC 5869's HKDF, §7.4's (EC)DHE, §4.4.3's
    /// signed content, written here with `cryptography`'s HMAC, hashes, curves and signatures; a JSON
    /// request in, each calculation's outputs out.
    static let python = #"""
    \#(HTMLCalculationTests.pythonAgreement)
    import sys, json
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, hmac, serialization
    from cryptography.hazmat.primitives.asymmetric import ec, x25519, padding, rsa, ed25519
    H = {"SHA-256": hashes.SHA256, "SHA-384": hashes.SHA384}
    def mac(h, key, data):
        m = hmac.HMAC(key, h()); m.update(data); return m.finalize()
    def digest(h, data):
        d = hashes.Hash(h()); d.update(data); return d.finalize()
    def hkdf_label(n, label, context):
        # struct { uint16 length; opaque label<7..255> = "tls13 " + Label; opaque context<0..255>; } (RFC 8446 section 7.1)
        full = b"tls13 " + label
        return n.to_bytes(2, "big") + bytes([len(full)]) + full + bytes([len(context)]) + context
    def expand(h, prk, info, n):
        # T(i) = HMAC(PRK, T(i-1) + info + i) (RFC 5869 section 2.3)
        out, t, i = b"", b"", 1
        while len(out) < n:
            t = mac(h, prk, t + info + bytes([i])); out += t; i += 1
        return out[:n]
    def expand_label(h, secret, label, context, n):
        return expand(h, secret, hkdf_label(n, label, context), n)
    def leaf(message):
        # Certificate: type(1) length(3) context<0..255> certificate_list<0..2^24-1>: cert_data<1..2^24-1> extensions<0..2^16-1> (section 4.4.2)
        m = bytes.fromhex(message); at = 4 + 1 + m[4] + 3
        n = int.from_bytes(m[at:at + 3], "big")
        return x509.load_der_x509_certificate(m[at + 3:at + 3 + n]).public_key()
    def verify(key, scheme, signature, content):
        try:
            if scheme.startswith("ecdsa"):
                h = {"ecdsa_secp256r1_sha256": hashes.SHA256, "ecdsa_secp384r1_sha384": hashes.SHA384, "ecdsa_secp521r1_sha512": hashes.SHA512}[scheme]
                key.verify(signature, content, ec.ECDSA(h()))
            elif scheme.startswith("rsa_pss_rsae"):
                h = {"rsa_pss_rsae_sha256": hashes.SHA256, "rsa_pss_rsae_sha384": hashes.SHA384, "rsa_pss_rsae_sha512": hashes.SHA512}[scheme]
                key.verify(signature, content, padding.PSS(mgf=padding.MGF1(h()), salt_length=h().digest_size), h())
            elif scheme == "ed25519":
                key.verify(signature, content)
            else:
                return "unknown scheme " + scheme
            return "valid"
        except Exception as e:
            return "invalid: " + repr(e)
    HRR = "cf21ad74e59a6111be1d8c021e65b891c2a211167abb8c5e079e09e2c8a8339c"
    def transcripts(messages, h):
        # The hash of the transcript after each message, in page order (section 4.4.1): a ClientHello starts a
        # handshake, except the one answering a HelloRetryRequest, before which ClientHello1 became
        # message_hash (254, 00 00, Hash.length, Hash(ClientHello1)); NewSessionTicket and KeyUpdate are not in it.
        # Also the hash of each ClientHello without its binders list (2 + 1 + Hash.length bytes), after the messages before it (section 4.2.11.2).
        after, binders, current, retried = [], [], b"", False
        n = h().digest_size
        for m in messages:
            b = bytes.fromhex(m)
            if b[0] == 1:
                current = current if retried else b""
                binders.append(digest(h, current + b[:-(3 + n)]).hex())
            if b[0] in (4, 24):
                after.append(digest(h, current).hex()); continue
            retry = b[0] == 2 and m[12:76] == HRR
            if retry:
                current = bytes([254, 0, 0, n]) + digest(h, current)
            current += b
            retried = retry
            after.append(digest(h, current).hex())
        return after, binders
    request = json.load(sys.stdin)
    results = []
    for c in request["calcs"]:
        v = {n: bytes.fromhex(x) for n, x in c["hex"].items()}
        t = c["text"]; k = c["kind"]; outs = c["outputs"]; r = {}
        h = H.get(t.get("hash"))
        named = [n for n in v if n not in ("hash", "label", "transcript_hash", "HkdfLabel", "context", "salt", "IKM")]
        if k == "tls13_key_share":
            r["public_key"], r["shared_secret"] = agree(t["group"], v["private_key"], v["peer_public_key"])
        elif k == "tls13_extract":
            # HKDF-Extract(salt, IKM) = HMAC-Hash(salt, IKM) (RFC 5869 section 2.2)
            r[outs[0]] = mac(h, v["salt"], v["IKM"])
        elif k in ("tls13_derive_secret", "tls13_expand_label"):
            n = h().digest_size
            context = v["transcript_hash"] if k == "tls13_derive_secret" else v["context"]
            r["HkdfLabel"] = hkdf_label(n, v["label"], context)
            r[outs[0]] = expand(h, v[named[0]], r["HkdfLabel"], n)
        elif k == "tls13_traffic_keys":
            for o in outs:
                r[o] = expand_label(h, v[named[0]], b"key" if o.endswith("_write_key") else b"iv", b"", c["lengths"][o])
        elif k in ("tls13_finished", "tls13_psk_binder"):
            r["finished_key"] = expand_label(h, v[named[0]], b"finished", b"", h().digest_size)
            r["binder" if k == "tls13_psk_binder" else "verify_data"] = mac(h, r["finished_key"], v["transcript_hash"])
        elif k == "tls13_certificate_verify":
            r["content"] = v["padding"] + v["context_string"] + v["separator"] + v["transcript_hash"]
            certificate = request["certificates"].get("server" if v["context_string"] == b"TLS 1.3, server CertificateVerify" else "client")
            signature = bytes.fromhex(c["signature"])
            c["verified"] = verify(leaf(certificate), t["signature_scheme"], signature, r["content"]) if certificate else "no certificate on the page"
        results.append({"values": {n: b.hex() for n, b in r.items()}, "verified": c.get("verified")})
    digests = {n: digest(H[h], bytes.fromhex(x)).hex() for n, (h, x) in request["digests"].items()}
    after, binders = transcripts(request["messages"], H[request["hash"]])
    json.dump({"calcs": results, "digests": digests, "after": after, "binders": binders}, sys.stdout)
    """#

    struct Answer: Decodable {
        struct Calc: Decodable {
            var values: [String: String]
            var verified: String?
        }
        var calcs: [Calc]
        var digests: [String: String]
        /// The transcript hash after each of the page's messages; the hash of each ClientHello without its binders.
        var after: [String]
        var binders: [String]
    }

    /// The secrets of RFC 8446 §7.1 by the names the page gives them: an input named so must be the
    /// output of the step that makes it.
    static let secretNames: Set<String> = [
        "early_secret", "binder_key", "client_early_traffic_secret", "early_exporter_master_secret", "derived_from_early_secret",
        "handshake_secret", "client_handshake_traffic_secret", "server_handshake_traffic_secret", "derived_from_handshake_secret",
        "master_secret", "client_application_traffic_secret_0", "server_application_traffic_secret_0", "exporter_master_secret",
        "resumption_master_secret", "resumption_psk"]

    /// Where the page and the recomputation from its own values disagree (empty: every calculation
    /// redone gives the page's value); `checked` counts the values compared.
    static func disagreements(_ html: String) throws -> (problems: [String], checked: Int) {
        let figures = HTMLCalculationTests.figures(html).filter { $0.kind.hasPrefix("tls13_") }
        var problems: [String] = [], checked = 0
        func compare(_ what: String, _ page: String?, _ redone: String?) {
            checked += 1
            if page == nil || page != redone { problems.append("\(what): page \(page ?? "-"), redone \(redone ?? "-")") }
        }
        let messages = Self.messages(html)
        // The leaf certificates of the page's Certificate messages: the server's first, then the client's (RFC 8446 §4.4.2).
        let certificates = messages.filter { $0.hasPrefix("0b") && $0.count > 20 }
        var certificatesBySide: [String: String] = [:]
        if let first = certificates.first { certificatesBySide["server"] = first }
        if certificates.count > 1 { certificatesBySide["client"] = certificates[1] }
        let request: [String: Any] = [
            "digests": ["empty-256": ["SHA-256", ""], "empty-384": ["SHA-384", ""]],
            "certificates": certificatesBySide, "messages": messages,
            "hash": figures.first { $0.kind == "tls13_extract" }?.text("hash") ?? "SHA-256",
            "calcs": figures.map { f -> [String: Any] in
                var hex: [String: String] = [:], text: [String: String] = [:], lengths: [String: Int] = [:]
                for item in f.items where item.role == "input" { hex[item.name] = item.hex; text[item.name] = item.text }
                let outputs = f.items.filter { $0.role == "output" }
                for item in outputs { lengths[item.name] = item.hex.count / 2 }
                return ["kind": f.kind, "hex": hex, "text": text, "outputs": outputs.map(\.name), "lengths": lengths,
                        "signature": f["signature"] ?? ""]
            }]
        let answer = try HTMLCalculationTests.redo(request, with: python, as: Answer.self)
        #expect(answer.calcs.count == figures.count)
        for (f, redone) in zip(figures, answer.calcs) {
            let who = "\(f.kind) (\(f.actor))"
            for (name, value) in redone.values.sorted(by: { $0.key < $1.key }) { compare("\(who) \(name)", f[name], value) }
            let empty = f.text("hash") == "SHA-384" ? answer.digests["empty-384"] : answer.digests["empty-256"]
            /// The transcript hashes after the page's messages of a type (RFC 8446 §7.1's transcript points).
            func after(_ type: String) -> Set<String> {
                Set(messages.indices.filter { messages[$0].hasPrefix(type) && !messages[$0].dropFirst(12).hasPrefix("cf21ad74e59a6111") }.map { answer.after[$0] })
            }
            /// The transcript hash before the message with `content` (the message itself not included).
            func before(_ type: String, containing content: String?) -> String? {
                guard let content, let j = messages.firstIndex(where: { $0.hasPrefix(type) && $0.contains(content) }), j > 0 else { return nil }
                return answer.after[j - 1]
            }
            func oneOf(_ hashes: Set<String>) -> String? { f["transcript_hash"].flatMap { hashes.contains($0) ? $0 : nil } }
            switch f.kind {
            case "tls13_key_share":
                // This side's public value is the one its hello carries in key_share (RFC 8446 §4.2.8).
                let sent = f["public_key"].flatMap { k in messages.contains { ($0.hasPrefix("01") || $0.hasPrefix("02")) && $0.contains(k) } ? k : nil }
                compare("\(who) public_key in a hello on the page", sent, f["public_key"])
            case "tls13_certificate_verify":
                compare("\(who) signature checked with the page's certificate", redone.verified, "valid")
                compare("\(who) padding is 64 × 0x20", f["padding"], String(repeating: "20", count: 64))
                compare("\(who) separator", f["separator"], "00")
                // Transcript-Hash(Handshake Context, Certificate): every message before the CertificateVerify on the page (§4.4.3).
                compare("\(who) transcript_hash of the page's messages", f["transcript_hash"], before("0f", containing: f["signature"]))
            case "tls13_derive_secret" where f.text("label") == "derived" || f.text("label")?.hasSuffix("binder") == true:
                // Derive-Secret(., "derived", "") and the binder key hash no message: Transcript-Hash("") (RFC 8446 §7.1).
                compare("\(who) transcript_hash = Hash(\"\")", f["transcript_hash"], empty)
            case "tls13_derive_secret":
                // The transcript point of each Derive-Secret (RFC 8446 §7.1), hashed from the page's messages.
                let point = switch f.text("label") {
                case "c hs traffic", "s hs traffic": after("02")
                case "c e traffic", "e exp master": after("01")
                default: after("14")
                }
                compare("\(who) \(f.text("label") ?? "?") transcript_hash of the page's messages", oneOf(point), f["transcript_hash"])
            case "tls13_psk_binder":
                compare("\(who) transcript_hash = the ClientHello on the page without its binders", oneOf(Set(answer.binders)), f["transcript_hash"])
                // The binder is the last bytes of a ClientHello on the page (its binders list ends it, §4.2.11).
                compare("\(who) in the ClientHello on the page", f["binder"],
                        f["binder"].flatMap { b in messages.first { $0.hasPrefix("01") && $0.hasSuffix(b) }.map { _ in b } })
            case "tls13_extract":
                // Salt and IKM that are not there are Hash.length zeros (RFC 8446 §7.1).
                let zeros = String(repeating: "00", count: (empty?.count ?? 0) / 2)
                let output = f.items.first { $0.role == "output" }?.name
                if output == "early_secret" { compare("\(who) salt = zeros", f["salt"], zeros) }
                if output == "master_secret" { compare("\(who) IKM = zeros", f["IKM"], zeros) }
            case "tls13_finished":
                // A Finished on the page carries this verify_data (type 20, length Hash.length), over the messages before it (§4.4.4).
                let finished = f["verify_data"].map { "14" + String(format: "%06x", $0.count / 2) + $0 }
                compare("\(who) in the Finished on the page", finished, messages.first { $0 == finished })
                compare("\(who) transcript_hash of the page's messages", f["transcript_hash"], before("14", containing: f["verify_data"]))
            default:
                break
            }
        }
        // The chain: each input named after a secret is the output of the same side's step that makes it;
        // the salt and IKM of the extractions are the previous "derived" secret and the (EC)DHE shared secret.
        for actor in ["client", "server"] {
            let mine = figures.filter { $0.actor == actor }
            var outputs: [String: Set<String>] = [:]
            for f in mine { for item in f.items where item.role == "output" { outputs[item.name, default: []].insert(item.hex) } }
            for f in mine {
                for item in f.items where item.role == "input" && secretNames.contains(item.name) {
                    compare("\(actor) \(f.kind): \(item.name) is its own step's output", outputs[item.name]?.contains(item.hex) == true ? item.hex : nil, item.hex)
                }
                let output = f.items.first { $0.role == "output" }?.name
                switch (f.kind, output) {
                case ("tls13_extract", "handshake_secret"):
                    compare("\(actor) handshake_secret: salt = derived_from_early_secret", outputs["derived_from_early_secret"]?.contains(f["salt"] ?? "") == true ? f["salt"] : nil, f["salt"])
                    compare("\(actor) handshake_secret: IKM = the shared secret", outputs["shared_secret"]?.contains(f["IKM"] ?? "") == true ? f["IKM"] : nil, f["IKM"])
                case ("tls13_extract", "master_secret"):
                    compare("\(actor) master_secret: salt = derived_from_handshake_secret", outputs["derived_from_handshake_secret"]?.contains(f["salt"] ?? "") == true ? f["salt"] : nil, f["salt"])
                default:
                    break
                }
            }
        }
        // Both sides reach the same secrets, keys and Finished values (each its own calculation).
        func values(_ actor: String) -> [String: Set<String>] {
            var out: [String: Set<String>] = [:]
            for f in figures where f.actor == actor && f.kind != "tls13_key_share" && f.kind != "tls13_certificate_verify" {
                for item in f.items where item.role == "output" { out[item.name, default: []].insert(item.hex) }
            }
            let shared = figures.filter { $0.actor == actor && $0.kind == "tls13_key_share" }.compactMap { $0["shared_secret"] }
            if !shared.isEmpty { out["shared_secret"] = Set(shared) }
            return out
        }
        let client = values("client"), server = values("server")
        for name in Set(client.keys).intersection(server.keys).sorted() {
            compare("client and server agree on \(name)", client[name]?.sorted().joined(separator: ","), server[name]?.sorted().joined(separator: ","))
        }
        return (problems, checked)
    }

    /// Every handshake message in page order, each from its step's bytes panel (TLS 1.3 shows the protected
    /// ones' plaintext there too); a message sent again byte for byte points to the first panel (`data-same`).
    static func messages(_ html: String) -> [String] {
        var byID: [String: String] = [:], out: [String] = []
        for m in html.matches(of: /<details class="bytes" id="(bytes-\d+)" (?:data-hex="([0-9a-f]+)"|data-same="(bytes-\d+)")>/) {
            guard let hex = m.output.2.map(String.init) ?? m.output.3.flatMap({ byID[String($0)] }) else { continue }
            byID[String(m.output.1)] = hex
            out.append(hex)
        }
        return out
    }

    static func page(_ run: BuiltInRun, explanations: Explanations = .english) throws -> String {
        HTMLRenderer(explanations: explanations).page(name: run.rawValue, trace: Simulation(try run.setup(seed: 1)).run())
    }

    @Test(arguments: [BuiltInRun.tls13, .tls13HRR, .tls13Resumption, .tls13ClientAuth, .tls13ZeroRTT])
    func theTLS13KeyScheduleIsRedoneFromThePage(_ run: BuiltInRun) throws {
        let html = try Self.page(run)
        let figures = HTMLCalculationTests.figures(html)
        let kinds = Set(figures.map(\.kind))
        for kind in ["tls13_key_share", "tls13_extract", "tls13_derive_secret", "tls13_traffic_keys", "tls13_finished"] {
            #expect(kinds.contains(kind), "\(run): a \(kind) calculation")
        }
        if run != .tls13Resumption && run != .tls13ZeroRTT { #expect(kinds.contains("tls13_certificate_verify"), "\(run): \(kinds.sorted())") }
        if run == .tls13Resumption || run == .tls13ZeroRTT {
            #expect(kinds.contains("tls13_psk_binder") && kinds.contains("tls13_expand_label"), "\(run): \(kinds.sorted())")
        }
        if run == .tls13ClientAuth {
            #expect(figures.filter { $0.kind == "tls13_certificate_verify" }.contains { $0.text("context_string") == "TLS 1.3, client CertificateVerify" })
        }
        // Every step of RFC 8446 §7.1's schedule is there, on each side.
        for actor in ["client", "server"] {
            let made = Set(figures.filter { $0.actor == actor }.flatMap { $0.items.filter { $0.role == "output" }.map(\.name) })
            for secret in ["early_secret", "derived_from_early_secret", "handshake_secret", "client_handshake_traffic_secret",
                           "server_handshake_traffic_secret", "derived_from_handshake_secret", "master_secret",
                           "client_application_traffic_secret_0", "server_application_traffic_secret_0", "shared_secret",
                           "client_write_key", "server_write_iv", "verify_data", "finished_key"] {
                #expect(made.contains(secret), "\(run) \(actor): \(secret)")
            }
        }
        let (problems, checked) = try Self.disagreements(html)
        #expect(problems.isEmpty, "\(run): \(problems.joined(separator: "\n"))")
        #expect(checked >= 60, "\(run): \(checked) values compared")
    }

    /// A TLS 1.3 handshake over a NIST curve (no built-in run has one): the shared secret is the
    /// x-coordinate of the ECDH point (RFC 8446 §7.4.2), the key shares uncompressed points (§4.2.8.2).
    @Test(arguments: ["secp256r1", "secp384r1"])
    func aNISTCurveKeyShareIsRedoneFromThePage(_ group: String) throws {
        let yaml = """
        title: TLS 1.3 over \(group)
        description: A TLS 1.3 handshake whose key share is \(group).
        version: "1.3"
        server:
          groups: [\(group)]
        client:
          groups: [\(group)]
          key_share: [\(group)]
        expect:
          handshake: success
        """
        let trace = try #require(try ScenarioParser.parse(text: yaml, file: "\(group).yaml").run().trace)
        let html = HTMLRenderer().page(name: group, trace: trace)
        let shares = HTMLCalculationTests.figures(html).filter { $0.kind == "tls13_key_share" }
        #expect(shares.count == 2 && shares.allSatisfy { $0.text("group") == group && $0["public_key"]?.hasPrefix("04") == true }, "\(shares.map(\.items))")
        let (problems, checked) = try Self.disagreements(html)
        #expect(problems.isEmpty, "\(group): \(problems.joined(separator: "\n"))")
        #expect(checked >= 60, "\(group): \(checked) values compared")
    }

    /// The recomputation can fail: one byte changed in a value the page shows, and the value it feeds
    /// no longer comes out.
    @Test func aByteChangedOnThePageBreaksTheCalculation() throws {
        let html = try Self.page(.tls13ClientAuth)
        let figures = HTMLCalculationTests.figures(html)
        // (the calculation, its output, the input changed, what must no longer come out). The second byte:
        // X25519 clamps bits of the first and last (RFC 7748 §5).
        let cases: [(String, String?, String, String)] = [
            ("tls13_extract", "handshake_secret", "IKM", "handshake_secret"), ("tls13_extract", "handshake_secret", "salt", "handshake_secret"),
            ("tls13_key_share", nil, "private_key", "shared_secret"), ("tls13_finished", nil, "transcript_hash", "verify_data"),
            ("tls13_derive_secret", "client_handshake_traffic_secret", "HkdfLabel", "HkdfLabel"),
            ("tls13_derive_secret", "client_application_traffic_secret_0", "transcript_hash", "client_application_traffic_secret_0"),
            ("tls13_traffic_keys", nil, "client_handshake_traffic_secret", "client_write_key"),
            ("tls13_certificate_verify", nil, "transcript_hash", "content")]
        for (kind, output, name, breaks) in cases {
            let f = try #require(figures.first { $0.kind == kind && (output == nil || $0.items.contains { $0.role == "output" && $0.name == output })
                && $0[name] != nil }, "\(kind) \(output ?? "") with \(name)")
            let hex = try #require(f[name])
            let value = try #require(html.firstMatch(of: try Regex("data-name=\"\(name)\" data-role=\"input\" data-hex=\"\(hex.prefix(2))([0-9a-f]{2})\(hex.dropFirst(4))\"")))
            let range = try #require(value.output[1].range)
            let byte = String(html[range]) == "00" ? "01" : "00"
            var changed = html
            changed.replaceSubrange(range, with: byte)
            let (problems, _) = try Self.disagreements(changed)
            #expect(problems.contains { $0.contains(" \(breaks):") }, "changing \(name) of \(kind) must break \(breaks): \(problems)")
        }
    }

    /// Every value is on the page whole, beside the button that copies it; each calculation has its
    /// own copy button; the words are the catalogue's, in English and in Chinese.
    @Test(arguments: [Language.en, .zh])
    func everyValueIsWholeWithItsCopyButton(_ language: Language) throws {
        let html = try Self.page(.tls13ClientAuth, explanations: language.explanations)
        try HTMLCalculationTests.expectEveryValueWholeWithItsButtons(html, language: language, atLeast: 30)
        let figures = HTMLCalculationTests.figures(html)
        // Each heading and formula is the catalogue's, its placeholders filled.
        for kind in ["tls13_key_share", "tls13_extract", "tls13_derive_secret", "tls13_traffic_keys", "tls13_finished", "tls13_certificate_verify"] {
            #expect(figures.contains { $0.kind == kind }, "\(language) \(kind)")
        }
        #expect(!html.contains("{secret}") && !html.contains("{from}") && !html.contains("{ikm}") && !html.contains("{senderName}"))
        // Each word is escaped once: Messages = "" reads as two quotes, not as `&quot;`.
        let formulas = html.matches(of: /<p class="formula">([^<]*)<\/p>/).map { String($0.output.1) }
        #expect(!formulas.isEmpty && !formulas.contains { $0.contains("&amp;") }, "\(formulas.filter { $0.contains("&amp;") }.prefix(1))")
    }
}
