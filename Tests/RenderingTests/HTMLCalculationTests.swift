import Foundation
import Languages
@testable import Rendering
import Simulation
import Testing
import TestSupport
import Trace

/// The page's calculations are steps a learner can redo: read only from the page (its calculation
/// figures and its handshake bytes), Python's `cryptography` redoes the TLS 1.2 key schedule — the
/// (EC)DH shared value from the private value and the peer's public value the page shows (RFC 5246
/// §8.1.2, RFC 8422 §5.10), premaster → master secret (RFC 5246 §8.1, RFC 7627 §4), master → key
/// block and its cut (§6.3), and each Finished's verify_data (§7.4.9) — with its own P_hash, and the
/// handshake hashes from the messages' bytes on the page. A byte changed on the page breaks it.
@Suite("HTML page: the TLS 1.2 calculations redone from the page alone",
       CrossCheckRequirement.trait(SignatureInputPython.path != nil, missing: "python3 with the cryptography package is not on the PATH"))
struct HTMLCalculationTests {
    /// One value of a calculation figure as the page writes it.
    struct Item {
        var name: String, role: String, hex: String, text: String?, shown: String
    }

    /// One calculation figure: its kind (`data-calc`), who calculates, its values in page order.
    struct Figure {
        var kind: String, actor: String, items: [Item]
        subscript(_ name: String) -> String? { items.first { $0.name == name }?.hex }
        func text(_ name: String) -> String? { items.first { $0.name == name }?.text }
    }

    static func figures(_ html: String) -> [Figure] {
        html.matches(of: /<figure class="calc-step" id="calc-\d+-\d+" data-calc="([a-z0-9_]+)" data-actor="([a-z]+)">((?:(?!<\/figure>).|\n)*)<\/figure>/).map { f in
            let items = String(f.output.3).matches(of: /<li data-name="([A-Za-z0-9_]+)" data-role="(input|output)" data-hex="([0-9a-f]*)"(?: data-text="([^"]*)")?><span class="name">[^<]*<\/span> = <code class="value">([^<]*)<\/code>/).map { m in
                Item(name: String(m.output.1), role: String(m.output.2), hex: String(m.output.3), text: m.output.4.map(String.init),
                     shown: String(m.output.5))
            }
            return Figure(kind: String(f.output.1), actor: String(f.output.2), items: items)
        }
    }

    /// The handshake messages, in page order (each step's own bytes panel), and the handshake messages
    /// the page shows decrypted from a protected record (its plaintext, the 5-byte header off).
    static func messages(_ html: String) -> (messages: [String], decrypted: [String]) {
        let clear = html.matches(of: /<details class="bytes" id="bytes-\d+" data-hex="([0-9a-f]+)">/).map { String($0.output.1) }
        let decrypted = html.matches(of: /<details class="bytes" id="record-\d+-\d+-plain" data-hex="16([0-9a-f]+)">/).map { String($0.output.1.dropFirst(8)) }
        return (clear, decrypted)
    }

    /// RFC 5246 §5's PRF, RFC 5246 §8.1.2 and RFC 8422 §5.10 / RFC 7748 §5, written here from the RFCs
    /// with `cryptography`'s HMAC, hashes and curves; a JSON request in, each calculation's outputs out.
    /// Key agreement as both versions' checks redo it, from a private key and the peer's public key:
    /// (own public key, shared secret). X25519 (RFC 7748 §5, §6.1), or a NIST curve's uncompressed
    /// point and the shared point's x-coordinate, every byte kept (RFC 8422 §5.10, RFC 8446 §7.4.2).
    static let pythonAgreement = #"""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec, x25519
    def agree(group, private, peer):
        if group == "x25519":
            key = x25519.X25519PrivateKey.from_private_bytes(private)
            return (key.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw),
                    key.exchange(x25519.X25519PublicKey.from_public_bytes(peer)))
        curve = {"secp256r1": ec.SECP256R1, "secp384r1": ec.SECP384R1, "secp521r1": ec.SECP521R1}[group]()
        key = ec.derive_private_key(int.from_bytes(private, "big"), curve)
        return (key.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint),
                key.exchange(ec.ECDH(), ec.EllipticCurvePublicKey.from_encoded_point(curve, peer)))
    """#

    static let python = #"""
    \#(pythonAgreement)
    import sys, json
    from cryptography.hazmat.primitives import hashes, hmac, serialization
    from cryptography.hazmat.primitives.asymmetric import ec, x25519
    from cryptography import x509
    HASHES = {"P_SHA256": hashes.SHA256, "P_SHA384": hashes.SHA384}
    def mac(h, key, data):
        m = hmac.HMAC(key, h()); m.update(data); return m.finalize()
    def prf(name, secret, label, seed, n):
        # P_hash(secret, label + seed): A(0) = s, A(i) = HMAC(secret, A(i-1)), out = HMAC(secret, A(i) + s) ... (RFC 5246 section 5)
        h = HASHES[name]; s = label + seed; a = s; out = b""
        while len(out) < n:
            a = mac(h, secret, a); out += mac(h, secret, a + s)
        return out[:n]
    def digest(name, data):
        d = hashes.Hash(HASHES[name]()); d.update(data); return d.finalize()
    request = json.load(sys.stdin)
    results = []
    for c in request["calcs"]:
        v = {n: bytes.fromhex(x) for n, x in c["hex"].items()}
        t = c["text"]; k = c["kind"]; r = {}
        if k in ("master_secret", "extended_master_secret"):
            seed = v["session_hash"] if k == "extended_master_secret" else v["seed"]
            r["master_secret"] = prf(t["prf"], v["pre_master_secret"], v["label"], seed, 48)
        elif k == "key_block" and "master_secret" in v:
            r["key_block"] = prf(t["prf"], v["master_secret"], v["label"], v["seed"], c["length"])
        elif k == "verify_data" and "master_secret" in v:
            r["verify_data"] = prf(t["prf"], v["master_secret"], v["finished_label"], v["handshake_hash"], 12)
        elif k == "rsa_premaster":
            # RFC 8017 section 5.1.1 (RSAEP): c = m^e mod n, written as long as the modulus.
            n, e, em = (int.from_bytes(v[x], "big") for x in ("n", "e", "EM"))
            r["encrypted_pre_master_secret"] = pow(em, e, n).to_bytes((n.bit_length() + 7) // 8, "big")
        elif k == "dh_shared":
            p, g, x, peer = (int.from_bytes(v[n], "big") for n in ("p", "g", "private_exponent", "peer_public_value"))
            r["public_value"] = pow(g, x, p).to_bytes(len(v["p"]), "big").lstrip(b"\0")
            r["pre_master_secret"] = pow(peer, x, p).to_bytes(len(v["p"]), "big").lstrip(b"\0")
        elif k == "ecdh_shared":
            r["public_key"], r["pre_master_secret"] = agree(t["curve"], v["private_key"], v["peer_public_key"])
        results.append({n: b.hex() for n, b in r.items()})
    digests = {n: digest(h, bytes.fromhex(x)).hex() for n, (h, x) in request["digests"].items()}
    # The server's RSA public key as its certificate carries it: the first certificate of the Certificate
    # message on the page (RFC 5246 section 7.4.2: a 3-byte list length, then each a 3-byte length and DER).
    keys = {}
    if request.get("certificate"):
        body = bytes.fromhex(request["certificate"])[4:]
        size = int.from_bytes(body[3:6], "big")
        numbers = x509.load_der_x509_certificate(body[6:6 + size]).public_key().public_numbers()
        keys = {"n": format(numbers.n, "x"), "e": format(numbers.e, "x")}
    json.dump({"calcs": results, "digests": digests, "server_key": keys}, sys.stdout)
    """#

    /// Python's answer to a JSON request: `script` reads the request on stdin and writes its answer.
    static func redo<A: Decodable>(_ request: [String: Any], with script: String, as: A.Type) throws -> A {
        let data = try JSONSerialization.data(withJSONObject: request)
        let result = try ExternalTool.run(try #require(SignatureInputPython.path), ["-c", script], stdin: data, timeout: 60)
        #expect(result.succeeded, "\(result.stderrText)")
        return try JSONDecoder().decode(A.self, from: Data(result.stdoutText.utf8))
    }

    struct Answer: Decodable {
        var calcs: [[String: String]]
        var digests: [String: String]
        var server_key: [String: String]
    }

    /// Where the page and the recomputation from its own values disagree (empty: every calculation
    /// redone gives the page's value); `checked` counts the values compared.
    static func disagreements(_ html: String) throws -> (problems: [String], checked: Int) {
        let figures = Self.figures(html)
        var problems: [String] = [], checked = 0
        func compare(_ what: String, _ page: String?, _ redone: String?) {
            checked += 1
            if page == nil || page != redone { problems.append("\(what): page \(page ?? "-"), redone \(redone ?? "-")") }
        }
        // The hash of the handshake messages the page shows, each step's own (RFC 5246 §7.4.9, RFC 7627 §3):
        // up to the ClientKeyExchange for the session hash; every message before the client's Finished for
        // it (a full handshake: the client's comes first), every one before the server's for the server's.
        let (messages, decrypted) = Self.messages(html)
        let prfName = try #require(figures.first { $0.kind.hasSuffix("master_secret") }?.text("prf"))
        let cke = try #require(messages.firstIndex { $0.hasPrefix("10") }, "a ClientKeyExchange on the page")
        let finished = messages.indices.filter { messages[$0].hasPrefix("14") }
        // The randoms as the hellos on the page carry them: type(1) length(3) version(2) random(32).
        func random(_ type: String) -> String {
            messages.first { $0.hasPrefix(type) }.map { String($0.dropFirst(12).prefix(64)) } ?? "-"
        }
        let clientRandom = random("01"), serverRandom = random("02")
        try #require(finished.count == 2, "both Finished messages on the page")
        let request: [String: Any] = [
            "certificate": messages.first { $0.hasPrefix("0b") } ?? "",
            "digests": ["session": [prfName, messages[...cke].joined()], "client": [prfName, messages[..<finished[0]].joined()],
                        "server": [prfName, messages[..<finished[1]].joined()]],
            "calcs": figures.map { f -> [String: Any] in
                var hex: [String: String] = [:], text: [String: String] = [:]
                for item in f.items where item.role == "input" { hex[item.name] = item.hex; text[item.name] = item.text }
                // RSA: EM is made with random padding, so Python is given it and raises it to e mod n.
                if f.kind == "rsa_premaster" { hex["EM"] = f["EM"] }
                // The key block is as long as its parts; Python is told only the length.
                return ["kind": f.kind, "hex": hex, "text": text, "length": (f["key_block"]?.count ?? 0) / 2]
            }]
        let answer = try Self.redo(request, with: python, as: Answer.self)
        #expect(answer.calcs.count == figures.count)
        for (f, redone) in zip(figures, answer.calcs) {
            let who = "\(f.kind) (\(f.actor))"
            for (name, value) in redone.sorted(by: { $0.key < $1.key }) {
                // A public value is an integer: its leading zero bytes may or may not be written.
                let page = name == "public_value" ? f[name].map { String($0.drop { $0 == "0" }) } : f[name]
                compare("\(who) \(name)", page, name == "public_value" ? String(value.drop { $0 == "0" }) : value)
            }
            switch f.kind {
            case "master_secret":
                // RFC 5246 §8.1: the seed is ClientHello.random ‖ ServerHello.random, as the hellos on the page carry them.
                compare("\(who) seed = the hellos' randoms", f["seed"], clientRandom + serverRandom)
            case "server_key_exchange_signature":
                compare("\(who) client_random", f["client_random"], clientRandom)
                compare("\(who) server_random", f["server_random"], serverRandom)
                compare("\(who) signed_input", f["signed_input"], [f["client_random"], f["server_random"], f["params"]].compactMap { $0 }.joined())
                // The parameters as sent: the ServerKeyExchange's body starts with them (RFC 5246 §7.4.3).
                compare("\(who) params as sent", f["params"].map { p in messages.contains { $0.hasPrefix("0c") && $0.dropFirst(8).hasPrefix(p) } } == true ? f["params"] : nil, f["params"])
            case "key_block":
                compare("\(who) seed = server_random ‖ client_random", f["seed"], serverRandom + clientRandom)
                // RFC 5246 §6.3: the parts, in order, are the key block.
                let parts = f.items.filter { $0.role == "output" && $0.name != "key_block" }.map(\.hex).joined()
                compare("\(who) cut into its parts", f["key_block"], parts)
            case "extended_master_secret":
                compare("\(who) session_hash = Hash(ClientHello … ClientKeyExchange) of the page's bytes", f["session_hash"], answer.digests["session"])
            case "verify_data":
                let sender = f.text("finished_label") == "client finished" ? "client" : "server"
                compare("\(who) handshake_hash of the page's bytes", f["handshake_hash"], answer.digests[sender])
                // The Finished the page shows decrypted carries this verify_data (type 20, length 12).
                let finished = f["verify_data"].map { "1400000c" + $0 }
                compare("\(who) in the Finished on the page", finished, decrypted.first { $0 == finished })
            default:
                break
            }
        }
        // One calculation feeds the next: the premaster of the key exchange, the master of the key block.
        for actor in ["client", "server"] {
            let mine = figures.filter { $0.actor == actor }
            let master = mine.first { $0.kind.hasSuffix("master_secret") }
            let exchange = mine.first { ["dh_shared", "ecdh_shared"].contains($0.kind) }
            if let exchange { compare("\(actor) premaster from its key exchange", master?["pre_master_secret"], exchange["pre_master_secret"]) }
            for f in mine where ["key_block", "verify_data"].contains(f.kind) {
                compare("\(actor) \(f.kind) from its master secret", f["master_secret"], master?["master_secret"])
            }
        }
        // RSA: the premaster the client encrypted is the one it used; EM is RFC 8017 §7.2.1's block around
        // it, as long as the modulus; (n, e) is the key in the server's certificate on the page, and the
        // encrypted value is the one the ClientKeyExchange on the page carries (RFC 5246 §7.4.7.1).
        if let rsa = figures.first(where: { $0.kind == "rsa_premaster" }) {
            compare("the RSA premaster is the client's", rsa["pre_master_secret"],
                    figures.first { $0.actor == "client" && $0.kind.hasSuffix("master_secret") }?["pre_master_secret"])
            let em = rsa["EM"] ?? "", pre = rsa["pre_master_secret"] ?? "-", n = rsa["n"] ?? ""
            let padding = em.dropFirst(4).dropLast(pre.count + 2)
            let nonzero = stride(from: 0, to: padding.count, by: 2).allSatisfy { padding.dropFirst($0).prefix(2) != "00" }
            compare("EM = 00 02 PS 00 pre_master_secret, PS nonzero, as long as n",
                    em.hasPrefix("0002") && em.hasSuffix("00" + pre) && nonzero && padding.count >= 16 && em.count == n.count ? em : nil, em)
            compare("n is the certificate's modulus", rsa["n"].map { String($0.drop { $0 == "0" }) }, answer.server_key["n"])
            compare("e is the certificate's exponent", rsa["e"].map { String($0.drop { $0 == "0" }) }, answer.server_key["e"])
            // handshake type 16, a 3-byte length, then the 2-byte length of the encrypted value (RFC 5246 §7.4.7.1).
            let sent = messages.first { $0.hasPrefix("10") }.map { String($0.dropFirst(12)) }
            compare("the encrypted value is the ClientKeyExchange's", rsa["encrypted_pre_master_secret"], sent)
        }
        return (problems, checked)
    }

    static func page(_ run: BuiltInRun, explanations: Explanations = .english) throws -> String {
        HTMLRenderer(explanations: explanations).page(name: run.rawValue, trace: Simulation(try run.setup(seed: 1)).run())
    }

    @Test(arguments: [BuiltInRun.rsa, .ecdhe, .dhe])
    func theKeyScheduleIsRedoneFromThePage(_ run: BuiltInRun) throws {
        let html = try Self.page(run)
        let figures = Self.figures(html)
        let kinds = Set(figures.map(\.kind))
        let exchange = run == .rsa ? "rsa_premaster" : run == .dhe ? "dh_shared" : "ecdh_shared"
        for kind in [exchange, "key_block", "verify_data"] { #expect(kinds.contains(kind), "\(run): a \(kind) calculation") }
        #expect(kinds.contains("master_secret") || kinds.contains("extended_master_secret"), "\(run): a master secret calculation")
        if run != .rsa { #expect(kinds.contains("server_key_exchange_signature"), "\(run): what the ServerKeyExchange signs") }
        let (problems, checked) = try Self.disagreements(html)
        #expect(problems.isEmpty, "\(run): \(problems.joined(separator: "\n"))")
        // Both sides' chains: 2 × (premaster, master, key block and its cut, two verify_data…).
        #expect(checked >= 20, "\(run): \(checked) values compared")
    }

    /// Every built-in run uses the extended master secret (RFC 7627); the lesson `tls/ems-off` the plain
    /// one (RFC 5246 §8.1); `mtls/success` has the client's CertificateVerify: each redoes from its page.
    @Test(arguments: ["tls/ems-off", "mtls/success"])
    func aLessonsKeyScheduleIsRedoneFromItsPage(_ name: String) throws {
        let html = HTMLRenderer().page(name: name, trace: try SignatureInputTests.lesson(name))
        let kinds = Set(Self.figures(html).map(\.kind))
        #expect(kinds.contains(name == "tls/ems-off" ? "master_secret" : "certificate_verify_signature"), "\(name): \(kinds.sorted())")
        let (problems, checked) = try Self.disagreements(html)
        #expect(problems.isEmpty, "\(name): \(problems.joined(separator: "\n"))")
        #expect(checked >= 20, "\(name): \(checked) values compared")
    }

    /// A CertificateVerify signs the handshake messages before it (RFC 5246 §7.4.8): the page's signed
    /// input is those messages' bytes, as the page shows them, one after another.
    @Test func theCertificateVerifyInputIsTheMessagesOnThePage() throws {
        let html = HTMLRenderer().page(name: "mtls/success", trace: try SignatureInputTests.lesson("mtls/success"))
        let verify = try #require(Self.figures(html).first { $0.kind == "certificate_verify_signature" })
        let messages = Self.messages(html).messages
        let index = try #require(messages.firstIndex { $0.hasPrefix("0f") }, "the CertificateVerify on the page")
        #expect(verify["signed_input"] == messages[..<index].joined())
    }

    /// The recomputation can fail: one byte changed in a value the page shows, and the value it
    /// feeds no longer comes out (the premaster → the master secret; the handshake hash → verify_data).
    @Test func aByteChangedOnThePageBreaksTheCalculation() throws {
        let html = try Self.page(.ecdhe)
        // The second byte: X25519 clamps bits of the first and last (RFC 7748 §5).
        for (name, breaks) in [("pre_master_secret", "master_secret"), ("handshake_hash", "verify_data"), ("private_key", "pre_master_secret")] {
            let value = try #require(html.firstMatch(of: try Regex("data-name=\"\(name)\" data-role=\"input\" data-hex=\"[0-9a-f]{2}([0-9a-f]{2})")))
            let range = try #require(value.output[1].range)
            let byte = String(html[range]) == "00" ? "01" : "00"
            var changed = html
            changed.replaceSubrange(range, with: byte)
            let (problems, _) = try Self.disagreements(changed)
            #expect(problems.contains { $0.contains(" \(breaks):") }, "changing \(name) must break \(breaks): \(problems)")
        }
    }

    /// RSA: the page's (n, e) and EM give its encrypted premaster; one byte changed in n breaks both the
    /// encryption and the match with the certificate, one in EM the encryption.
    @Test func aByteChangedInTheRSAEncryptionBreaksIt() throws {
        let html = try Self.page(.rsa)
        #expect(try Self.disagreements(html).problems.isEmpty)
        for (name, role, breaks) in [("n", "input", ["encrypted_pre_master_secret", "certificate's modulus"]), ("EM", "output", ["encrypted_pre_master_secret"])] {
            let value = try #require(html.firstMatch(of: try Regex("data-name=\"\(name)\" data-role=\"\(role)\" data-hex=\"[0-9a-f]{6}([0-9a-f]{2})")))
            let range = try #require(value.output[1].range)
            var changed = html
            changed.replaceSubrange(range, with: String(html[range]) == "11" ? "22" : "11")
            let (problems, _) = try Self.disagreements(changed)
            for b in breaks { #expect(problems.contains { $0.contains(b) }, "changing \(name) must break \(b): \(problems)") }
        }
    }

    /// Every value is on the page whole (never `03037e6c…a603235b`), beside the button that copies
    /// it; the buttons' words are the catalogue's, in English and in Chinese.
    @Test(arguments: [Language.en, .zh])
    func everyValueIsWholeWithItsCopyButton(_ language: Language) throws {
        let html = try Self.page(.ecdhe, explanations: language.explanations)
        try Self.expectEveryValueWholeWithItsButtons(html, language: language, atLeast: 8)
    }

    /// The check both TLS versions' pages pass: at least `count` calculations, each value shown whole
    /// with its own copy button, one copy-all button per calculation, the buttons' words the catalogue's.
    static func expectEveryValueWholeWithItsButtons(_ html: String, language: Language, atLeast count: Int) throws {
        let explanations = language.explanations
        let figures = Self.figures(html)
        #expect(figures.count >= count)
        for f in figures {
            #expect(!f.items.isEmpty)
            for item in f.items {
                #expect(item.shown == (item.text.map { "&quot;\($0)&quot;" } ?? item.hex), "\(f.kind) \(item.name) is shown whole")
                #expect(!item.shown.contains("…"))
            }
        }
        let copy = try #require(explanations("html.calc.copy")), all = try #require(explanations("html.calc.copyAll"))
        let valueCount = figures.reduce(0) { $0 + $1.items.count }
        let buttons = html.matches(of: try Regex("<li data-name=\"[A-Za-z0-9_]+\" data-role=\"(input|output)\"[^>]*>(?:(?!</li>).)*<button type=\"button\" class=\"copy\" hidden aria-label=\"[^\"]+\" data-copied=\"[^\"]+\" data-selected=\"[^\"]+\">\(copy)</button></li>")).count
        #expect(buttons == valueCount, "one copy button per value (\(buttons) for \(valueCount))")
        #expect(html.matches(of: try Regex("<button type=\"button\" class=\"copy-all\" hidden [^>]*>\(all)</button>")).count == figures.count)
    }
}
