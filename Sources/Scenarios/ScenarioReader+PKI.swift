import Foundation
import HTTP2
import PKI
import Simulation
import TCPSim
import TLSCrypto
import TLSEngine
import Trace
import Yams

/// The `pki` section and the names of certificates other sections refer to.
extension ScenarioReader {
    // MARK: - PKI

    /// The certificates a file can name and the defaults they imply.
    struct PKIWorld {
        var certificates: [String: NamedCertificate]
        var serverChain: [String]
        var trust: [String]
        var host: String
        var now: Int64
    }

    static let pkiKeys = ["preset", "seed", "organization", "root", "intermediate", "hosts", "client_name", "client_ca",
                          "key_bits", "keys", "defect", "leaf_valid_from_days", "leaf_valid_until_days", "wrong_host_name"]

    /// The certificates `pki.keys` can give a key kind to, as written in a file.
    static let pkiKeyHolders = ["root", "intermediate", "leaf", "client_ca", "client"]

    /// The demo PKI (`demo-root`, `demo-leaf`), the attacker's own certificate (`attacker`), and —
    /// when `pki` has hierarchy keys — a hierarchy built from a seed: `root`, `intermediate`,
    /// `sub-intermediate`, `leaf`, `original-leaf`, `client-root`, `client`.
    func pkiWorld(_ top: YAMLMapping) throws(ScenarioError) -> PKIWorld {
        var certs: [String: NamedCertificate] = [:]
        do throws(BuiltInPKIFailure) {
            for (label, certificate, key) in [("demo-root", DemoPKI.rootCertificatePEM, DemoPKI.rootKeyPEM),
                                              ("demo-leaf", DemoPKI.serverCertificatePEM, DemoPKI.serverKeyPEM),
                                              ("attacker", AttackerPKI.certificatePEM, AttackerPKI.keyPEM)] {
                certs[label] = NamedCertificate(name: label, certificate: try BuiltInPKIFailure.loadCertificate(certificate, label: label),
                                                key: .rsa(try BuiltInPKIFailure.loadRSAKey(key, label: label)))
            }
        } catch {
            // The cause typed, worded by the catalogue (issue #34).
            throw top.owner.error("the built-in certificates do not load: \(error)", "scenario.pki.builtInDoNotLoad",
                                  parts: ["error": .init(cause: .builtInPKI(error))])
        }
        let demoLeafStart = certs["demo-leaf"]?.certificate.notBefore ?? 0
        let explicitNow = try now(top)
        guard let pki = top["pki"] else {
            return PKIWorld(certificates: certs, serverChain: ["demo-leaf"], trust: ["demo-root"], host: "example.com",
                            now: explicitNow ?? demoLeafStart + 86_400)
        }
        let m = try pki.mapping(Self.pkiKeys)
        if let preset = m["preset"] {
            _ = try preset.oneOf(["demo", "hierarchy"])
            if m.keys.count == 1, try preset.string() == "demo" {
                return PKIWorld(certificates: certs, serverChain: ["demo-leaf"], trust: ["demo-root"], host: "example.com",
                                now: explicitNow ?? demoLeafStart + 86_400)
            }
            if try preset.string() == "demo" {
                throw m.keyError(m.keys.first { $0 != "preset" } ?? "preset", "contradiction: preset demo takes no hierarchy keys", "scenario.pki.presetTakesNoKeys")
            }
        }
        var spec = PKIHierarchySpec()
        if let v = m["seed"] { spec.seed = try v.uint64() }
        if let v = m["organization"] { spec.organization = try v.name(limit: 64) }
        if let v = m["root"] { spec.rootName = try v.name(limit: 64) }
        if let v = m["intermediate"] { spec.intermediateName = try v.name(limit: 64) }
        if let v = m["hosts"] {
            let hosts = try v.list().map { h throws(ScenarioError) in try h.hostName(wildcard: true) }
            guard !hosts.isEmpty else { throw v.error("expected at least one host name", "scenario.pki.noHost") }
            spec.serverHosts = hosts
        }
        if let v = m["client_name"] { spec.clientName = try v.name(limit: 64) }
        if let v = m["client_ca"] { spec.clientCAName = try v.name(limit: 64) }
        if let v = m["key_bits"] { spec.keyBits = Int(try v.oneOf(["1024", "2048", "3072", "4096"])) ?? 2048 }
        if let v = m["defect"] { spec.defect = PKIDefect(rawValue: try v.oneOf(PKIDefect.allCases.map(\.rawValue))) ?? .none }
        if let v = m["keys"] { spec.keyKinds = try keyKinds(v, spec: spec, pki: m) }
        if let v = m["leaf_valid_from_days"] { spec.leafValidFrom = Int64(try v.int(-36_500 ... 36_500)) * 86_400 }
        if let v = m["leaf_valid_until_days"] { spec.leafValidUntil = Int64(try v.int(-36_500 ... 36_500)) * 86_400 }
        if spec.leafValidFrom >= spec.leafValidUntil {
            throw m.keyError(m.has("leaf_valid_from_days") ? "leaf_valid_from_days" : "leaf_valid_until_days",
                             "contradiction: the leaf's validity starts after it ends", "scenario.pki.validityReversed")
        }
        if let v = m["wrong_host_name"] { spec.wrongHostName = try v.name() }
        if let explicitNow { spec.now = explicitNow }
        let h: PKIHierarchy
        do throws(PKIError) {
            h = try PKIHierarchy(spec)
        } catch .unsupportedKey(let why) {
            // The reason as catalogue words: the key kind, size or hash, as data (issue #34).
            throw pki.error("the hierarchy cannot be built: \(why)", "scenario.pki.cannotBuild",
                            parts: ["error": Self.unsupportedKeyWords(why)])
        } catch {
            // Any other PKI error, typed: the catalogue words it as `Explanations.pkiError` does.
            throw pki.error("the hierarchy cannot be built: \(error)", "scenario.pki.cannotBuild", parts: ["error": .init(cause: .pki(error))])
        }
        let keys: [String: SigningKey] = ["root": h.rootKey, "intermediate": h.intermediateKey, "leaf": h.serverKey,
                                             "client": h.client.privateKey]
        for (label, cert) in h.labelledCertificates {
            certs[label] = NamedCertificate(name: label, certificate: cert, key: keys[label])
        }
        func name(of cert: X509Certificate) -> String? {
            h.labelledCertificates.first { $0.certificate.der == cert.der }?.label
        }
        return PKIWorld(certificates: certs, serverChain: h.serverChain.compactMap(name), trust: h.roots.compactMap(name),
                        host: spec.primaryHost.hasPrefix("*.") ? "www" + spec.primaryHost.dropFirst() : spec.primaryHost,
                        now: spec.now)
    }

    /// `pki.keys`: one kind for every certificate (`keys: p-256`) or a mapping from certificate to
    /// kind (`keys: {leaf: p-384, client: p-256}`; the others stay RSA). Kinds: rsa, p-256, p-384, p-521,
    /// and ed25519 for a leaf or a client certificate.
    func keyKinds(_ value: YAMLValue, spec: PKIHierarchySpec, pki m: YAMLMapping) throws(ScenarioError) -> PKIKeyKinds {
        let names = PKIKeyKind.allCases.map(\.rawValue)
        func kind(_ v: YAMLValue) throws(ScenarioError) -> PKIKeyKind { PKIKeyKind(rawValue: try v.oneOf(names)) ?? .rsa }
        var kinds = PKIKeyKinds.allRSA
        var place: [String: YAMLValue] = [:]
        if case .mapping = value.node {
            let km = try value.mapping(Self.pkiKeyHolders)
            for holder in km.keys {
                guard let v = km[holder] else { continue }
                let k = try kind(v)
                place[holder] = v
                switch holder {
                case "root": kinds.root = k
                case "intermediate": kinds.intermediate = k
                case "leaf": kinds.leaf = k
                case "client_ca": kinds.clientRoot = k
                default: kinds.client = k
                }
            }
        } else {
            let k = try kind(value)
            kinds = PKIKeyKinds(root: k, intermediate: k, leaf: k, clientRoot: k, client: k)
        }
        // Ed25519 signs handshakes, not certificates (TLSLab's CAs sign with RSA or ECDSA).
        for (holder, k) in [("root", kinds.root), ("intermediate", kinds.intermediate), ("client_ca", kinds.clientRoot)] where k == .ed25519 {
            throw (place[holder] ?? value).error("\(holder) cannot be ed25519: a CA signs certificates, and TLSLab signs certificates with RSA or ECDSA only; give ed25519 to leaf or client ({leaf: ed25519})", "scenario.pki.caCannotBeEd25519", ["holder": holder])
        }
        // The RSA-only defects and key_bits must have an RSA key to act on.
        if spec.defect == .rsa1024Leaf, kinds.leaf != .rsa {
            throw (place["leaf"] ?? value).error("contradiction: the rsa-1024-leaf defect gives the leaf an RSA-1024 key, so the leaf cannot be \(kinds.leaf.rawValue)", "scenario.pki.rsa1024LeafKind", ["kind": kinds.leaf.rawValue])
        }
        if spec.defect == .sha1Signature, kinds.intermediate != .rsa {
            throw (place["intermediate"] ?? value).error("contradiction: the sha1-signature defect has the intermediate sign the leaf with sha1WithRSAEncryption, so the intermediate needs an RSA key, not \(kinds.intermediate.rawValue)", "scenario.pki.sha1IntermediateKind", ["kind": kinds.intermediate.rawValue])
        }
        let all = [kinds.root, kinds.intermediate, kinds.leaf, kinds.clientRoot, kinds.client]
        if m.has("key_bits"), !all.contains(.rsa) {
            throw m.keyError("key_bits", "contradiction: key_bits sizes RSA keys, and pki.keys gives every certificate an EC key", "scenario.pki.keyBitsWithoutRSA")
        }
        return kinds
    }

    func certificateNames(_ value: YAMLValue, _ known: [String: NamedCertificate]) throws(ScenarioError) -> [String] {
        try value.list().map { item throws(ScenarioError) in try certificateName(item, known) }
    }

    func certificateName(_ item: YAMLValue, _ known: [String: NamedCertificate]) throws(ScenarioError) -> String {
        let name = try item.string()
        guard known[name] != nil else {
            let list = known.keys.sorted()
            let suggestion = Spelling.suggestion(for: name, among: list)
            throw item.error("expected the name of a certificate of the PKI (\(list.joined(separator: ", "))), got '\(YAMLValue.clip(name))'"
                             + Spelling.hint(for: name, among: list),
                             suggestion == nil ? "scenario.pki.unknownCertificate" : "scenario.pki.unknownCertificate.suggested",
                             ["list": list.joined(separator: ", "), "value": YAMLValue.clip(name), "suggestion": suggestion ?? ""])
        }
        return name
    }

    func now(_ top: YAMLMapping) throws(ScenarioError) -> Int64? {
        guard let v = top["now"] else { return nil }
        let text = try v.string()
        let formatter = ISO8601DateFormatter()
        guard let date = formatter.date(from: text) else {
            throw v.error("expected an ISO 8601 UTC time like 2027-03-01T12:00:00Z, got '\(YAMLValue.clip(text))'", "scenario.pki.time", ["value": YAMLValue.clip(text)])
        }
        return Int64(date.timeIntervalSince1970)
    }
}

extension ScenarioReader {
    /// Why a hierarchy's key cannot be made or sign, as the catalogue's words (the same keys
    /// `Explanations.unsupportedKey` words): key kinds by the lesson file's names.
    static func unsupportedKeyWords(_ why: UnsupportedKey) -> ScenarioError.Words.Part {
        switch why {
        case let .rsaKeySize(bits, label): return .init(key: "pkiError.unsupportedKey.rsaKeySize", values: ["bits": "\(bits)", "label": label])
        case let .generationFailed(kind, label): return .init(key: "pkiError.unsupportedKey.generationFailed", values: ["kind": kind.rawValue, "label": label])
        case .ed25519Signer: return .init(key: "pkiError.unsupportedKey.ed25519Signer")
        case .signingFailed(let kind): return .init(key: "pkiError.unsupportedKey.signingFailed", values: ["kind": kind.rawValue])
        case .noRSASignatureAlgorithm(let hash): return .init(key: "pkiError.unsupportedKey.noRSASignatureAlgorithm", values: ["hash": "\(hash)"])
        case .ecdsaHash(let hash): return .init(key: "pkiError.unsupportedKey.ecdsaHash", values: ["hash": "\(hash)"])
        case .weakRSALeafNeedsRSA(let kind): return .init(key: "pkiError.unsupportedKey.weakRSALeafNeedsRSA", values: ["kind": kind.rawValue])
        case .sha1SignatureNeedsRSAIssuer(let kind): return .init(key: "pkiError.unsupportedKey.sha1SignatureNeedsRSAIssuer", values: ["kind": kind.rawValue])
        }
    }
}
