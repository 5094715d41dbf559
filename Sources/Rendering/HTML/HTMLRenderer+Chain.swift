import PKI
import TLSEngine
import Trace

/// The certificate check, link by link: each certificate of the path with its role, which key
/// checked its signature (the next link's), every check passed or failed, and for a signature
/// Hash1 (the digest of the TBSCertificate) beside Hash2 (the digest the issuer's key recovered).
extension HTMLRenderer {
    func chain(_ validation: ChainValidationTrace, checker: Actor) -> String {
        let result = validation.result
        let peer = Actor(rawValue: validation.peer.rawValue).map(party) ?? validation.peer.rawValue
        var out = "<figure class=\"chain\">\n<figcaption>\(say("html.chain.heading", ["who": party(checker), "peer": peer]))</figcaption>\n"
        out += "<p class=\"why\">\(HTMLText.escaped(explanations(CatalogueKey.trust(result.result)) ?? result.result.rawValue))</p>\n<ol class=\"links\">\n"
        let depths = result.checks.map(\.depth).reduce(into: [Int]()) { if !$0.contains($1) { $0.append($1) } }
        var explainedKinds: Set<ChainCheck.Kind> = []
        for depth in depths {
            let checks = result.checks.filter { $0.depth == depth }
            let subject = depth < result.path.count ? result.path[depth].subject.description : (checks.first?.subject ?? "?")
            let role = ChainRole(depth: depth, of: result)
            let isAnchor = role == .anchor
            let ok = checks.allSatisfy(\.passed)
            out += "<li class=\"link \(ok ? "ok" : "bad")\">\n<h4>\(say("html.chain.link", ["depth": "\(depth)", "role": explanations(CatalogueKey.chainRole(role)) ?? role.rawValue, "subject": subject]))</h4>\n"
            if checks.contains(where: { $0.kind == .signature }), depth + 1 < result.path.count {
                out += "<p class=\"key\">\(say("html.chain.verifiedBy", ["issuerDepth": "\(depth + 1)", "issuer": result.path[depth + 1].subject.description]))</p>\n"
            } else if isAnchor {
                out += "<p class=\"key\">\(say("html.chain.anchor"))</p>\n"
            }
            out += "<ul class=\"checks\">\n"
            for check in checks {
                out += "<li class=\"\(check.passed ? "pass" : "fail")\">\(check.passed ? "✓" : say("chain.fail")) "
                out += "<b>\(HTMLText.escaped(explanations(CatalogueKey.chainKind(check.kind)) ?? check.kind.rawValue))</b>: \(HTMLText.escaped(explanations.chainCheckDetail(check)))"
                if let sig = check.signature { out += signature(sig) }
                // A failed check says what it checks, why (the RFC section) and what it protects against, once per kind.
                if !check.passed, explainedKinds.insert(check.kind).inserted {
                    out += "<p class=\"why\">\(HTMLText.escaped(explanations.chainCheckWhy(check.kind)))</p>"
                }
                out += "</li>\n"
            }
            out += "</ul>\n</li>\n"
        }
        return out + "</ol>\n</figure>\n"
    }

    func signature(_ sig: SignatureCheck) -> String {
        var out = "<dl class=\"hashes\">\n"
        out += "<dt>\(say("html.chain.hash1", ["algorithm": explanations.signatureAlgorithmName(sig.algorithm), "digest": sig.algorithm.hash.map { "\($0)" } ?? explanations.signatureAlgorithmName(sig.algorithm)]))</dt><dd><code>\(Hex.string(sig.hash1))</code></dd>\n"
        if let hash2 = sig.hash2 {
            out += "<dt>\(say("html.chain.hash2"))</dt><dd><code>\(Hex.string(hash2))</code></dd>\n"
        }
        if let block = sig.recoveredBlock {
            out += "<dt>\(say("html.chain.block"))</dt><dd><code>\(Hex.string(block.encodedMessage))</code></dd>\n"
        }
        out += "</dl>\n"
        if let r = sig.ecdsaR, let s = sig.ecdsaS {
            // An ECDSA signature hides no digest: the pair (r, s) is checked against Hash1 and the issuer's point.
            out += "<ul class=\"ecdsa\">\n<li><code>\(say("chain.ecdsaR", ["value": Hex.string(r)]))</code></li>\n"
            out += "<li><code>\(say("chain.ecdsaS", ["value": Hex.string(s)]))</code></li>\n<li>\(say("chain.ecdsaVerify"))</li>\n</ul>\n"
        }
        if let hash2 = sig.hash2 {
            out += "<p class=\"\(hash2 == sig.hash1 ? "pass" : "fail")\">\(say(hash2 == sig.hash1 ? "html.chain.equal" : "html.chain.differ"))</p>\n"
        } else {
            out += "<p>\(HTMLText.escaped(explanations.signatureOutcome(sig.outcome)))</p>\n"
        }
        return out
    }
}
