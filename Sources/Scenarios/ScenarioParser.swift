import Foundation
import PKI
import Simulation
import TCPSim
import TLSCrypto
import TLSEngine
import Yams

/// Reads scenario files: YAML text → a validated ``Scenario``, or a located ``ScenarioError``.
public enum ScenarioParser {
    /// Files larger than this are refused before parsing.
    public static let maximumFileSize = 256 * 1024

    public static func parse(contentsOf path: String) throws(ScenarioError) -> Scenario {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ScenarioError(file: path, line: 1, column: 1, path: "", message: "cannot read the file")
        }
        return try parse(data: [UInt8](data), file: path)
    }

    public static func parse(data: [UInt8], file: String) throws(ScenarioError) -> Scenario {
        guard data.count <= maximumFileSize else {
            throw ScenarioError(file: file, line: 1, column: 1, path: "", message: "expected a scenario of at most \(maximumFileSize) bytes, got \(data.count)")
        }
        guard let text = String(validating: data, as: UTF8.self) else {
            let (line, column) = firstInvalidUTF8(data)
            throw ScenarioError(file: file, line: line, column: column, path: "", message: "expected UTF-8 text, got a byte sequence that is not UTF-8")
        }
        return try parse(text: text, file: file)
    }

    /// Line and column (1-based, in characters) of the first byte that breaks UTF-8.
    static func firstInvalidUTF8(_ data: [UInt8]) -> (Int, Int) {
        var line = 1, column = 1, i = 0
        while i < data.count {
            let b = data[i]
            let length: Int
            switch b {
            case 0x00 ... 0x7F: length = 1
            case 0xC2 ... 0xDF: length = 2
            case 0xE0 ... 0xEF: length = 3
            case 0xF0 ... 0xF4: length = 4
            default: return (line, column)
            }
            guard i + length <= data.count,
                  String(validating: data[i ..< i + length], as: UTF8.self) != nil else { return (line, column) }
            if b == UInt8(ascii: "\n") { line += 1; column = 1 } else { column += 1 }
            i += length
        }
        return (line, column)
    }

    public static func parse(text original: String, file: String) throws(ScenarioError) -> Scenario {
        // A UTF-8 byte order mark (editors on Windows write one) is not part of the YAML text.
        let text = original.unicodeScalars.first == "\u{FEFF}" ? String(String.UnicodeScalarView(original.unicodeScalars.dropFirst())) : original
        if let i = text.unicodeScalars.firstIndex(where: { $0.value < 0x20 && $0 != "\n" && $0 != "\r" && $0 != "\t" }) {
            let before = text.unicodeScalars[..<i]
            let line = before.filter { $0 == "\n" }.count + 1
            let column = before.count - (before.lastIndex(of: "\n").map { before.distance(from: before.startIndex, to: $0) + 1 } ?? 0) + 1
            throw ScenarioError(file: file, line: line, column: column, path: "",
                                message: "expected YAML text, got the control character U+\(String(text.unicodeScalars[i].value, radix: 16, uppercase: true))")
        }
        let root = try YAMLDocument.root(text: text, file: file)
        return try ScenarioReader(file: file).scenario(root)
    }
}

/// The schema, one function per section.
struct ScenarioReader {
    let file: String

    static let topKeys = ["title", "description", "kind", "seed", "now", "pki", "server", "client", "network", "tcp",
                          "http", "attacker", "actions", "run_ms", "ats", "connection", "dh", "expect"]
    static let versions: [String: ProtocolVersion] = ["TLS1.0": .tls10, "TLS1.1": .tls11, "TLS1.2": .tls12]
    static let versionNames = ["TLS1.0", "TLS1.1", "TLS1.2"]

    func scenario(_ root: YAMLValue) throws(ScenarioError) -> Scenario {
        let top = try root.mapping(Self.topKeys)
        let title = try top.required("title", "a one-line string: the lesson's name").name(limit: 200)
        let description = try top.required("description", "a string of at least 20 characters that teaches the point").string()
        guard description.count >= 20 else {
            throw top.keyError("description", "expected a description that teaches the point (at least 20 characters), got \(description.count)")
        }
        let kind = try top["kind"]?.oneOf(["tls", "tcp", "ats", "dh"]) ?? "tls"
        let seed = try top["seed"]?.uint64() ?? 1
        let allowed: [String]
        switch kind {
        case "tcp": allowed = ["title", "description", "kind", "seed", "network", "tcp", "actions", "run_ms", "expect"]
        case "ats": allowed = ["title", "description", "kind", "seed", "now", "pki", "client", "ats", "connection", "expect"]
        case "dh": allowed = ["title", "description", "kind", "seed", "dh", "expect"]
        default: allowed = ["title", "description", "kind", "seed", "now", "pki", "server", "client", "network", "tcp", "http", "attacker", "expect"]
        }
        for key in top.keys where !allowed.contains(key) {
            throw top.keyError(key, "key '\(key)' does not apply to a scenario of kind \(kind); expected one of: \(allowed.joined(separator: ", "))")
        }
        let world: Scenario.World
        switch kind {
        case "tcp": world = .tcp(try tcpWorld(top))
        case "ats": world = .ats(try atsWorld(top))
        case "dh": world = .dh(try dhWorld(top))
        default: world = .tls(try tlsWorld(top))
        }
        let expect = try top.required("expect", "a mapping of expectations (handshake, alert, …)")
        let expectations = try ExpectationReader.read(expect, kind: kind)
        return Scenario(file: file, title: title, description: description, seed: seed, world: world, expectations: expectations)
    }

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
                          "key_bits", "defect", "leaf_valid_from_days", "leaf_valid_until_days", "wrong_host_name"]

    /// The demo PKI (`demo-root`, `demo-leaf`), the attacker's own certificate (`attacker`), and —
    /// when `pki` has hierarchy keys — a hierarchy built from a seed: `root`, `intermediate`,
    /// `sub-intermediate`, `leaf`, `original-leaf`, `client-root`, `client`.
    func pkiWorld(_ top: YAMLMapping) throws(ScenarioError) -> PKIWorld {
        var certs: [String: NamedCertificate] = [:]
        do {
            let root = try X509Certificate.parseAll(Array(DemoPKI.rootCertificatePEM.utf8), source: "demo root")
            let leaf = try X509Certificate.parseAll(Array(DemoPKI.serverCertificatePEM.utf8), source: "demo leaf")
            let attacker = try X509Certificate.parseAll(Array(AttackerPKI.certificatePEM.utf8), source: "attacker")
            if let r = root.first { certs["demo-root"] = NamedCertificate(name: "demo-root", certificate: r, key: try RSAPrivateKey(pem: DemoPKI.rootKeyPEM)) }
            if let l = leaf.first { certs["demo-leaf"] = NamedCertificate(name: "demo-leaf", certificate: l, key: try RSAPrivateKey(pem: DemoPKI.serverKeyPEM)) }
            if let a = attacker.first { certs["attacker"] = NamedCertificate(name: "attacker", certificate: a, key: try RSAPrivateKey(pem: AttackerPKI.keyPEM)) }
        } catch {
            throw top.owner.error("the built-in certificates do not load: \(error)")
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
                throw m.keyError(m.keys.first { $0 != "preset" } ?? "preset", "contradiction: preset demo takes no hierarchy keys")
            }
        }
        var spec = PKIHierarchySpec()
        if let v = m["seed"] { spec.seed = try v.uint64() }
        if let v = m["organization"] { spec.organization = try v.name(limit: 64) }
        if let v = m["root"] { spec.rootName = try v.name(limit: 64) }
        if let v = m["intermediate"] { spec.intermediateName = try v.name(limit: 64) }
        if let v = m["hosts"] {
            let hosts = try v.list().map { h throws(ScenarioError) in try h.name() }
            guard !hosts.isEmpty else { throw v.error("expected at least one host name") }
            spec.serverHosts = hosts
        }
        if let v = m["client_name"] { spec.clientName = try v.name(limit: 64) }
        if let v = m["client_ca"] { spec.clientCAName = try v.name(limit: 64) }
        if let v = m["key_bits"] { spec.keyBits = Int(try v.oneOf(["1024", "2048", "3072", "4096"])) ?? 2048 }
        if let v = m["defect"] { spec.defect = PKIDefect(rawValue: try v.oneOf(PKIDefect.allCases.map(\.rawValue))) ?? .none }
        if let v = m["leaf_valid_from_days"] { spec.leafValidFrom = Int64(try v.int(-36_500 ... 36_500)) * 86_400 }
        if let v = m["leaf_valid_until_days"] { spec.leafValidUntil = Int64(try v.int(-36_500 ... 36_500)) * 86_400 }
        if spec.leafValidFrom >= spec.leafValidUntil {
            throw m.keyError(m.has("leaf_valid_from_days") ? "leaf_valid_from_days" : "leaf_valid_until_days",
                             "contradiction: the leaf's validity starts after it ends")
        }
        if let v = m["wrong_host_name"] { spec.wrongHostName = try v.name() }
        if let explicitNow { spec.now = explicitNow }
        let h: PKIHierarchy
        do {
            h = try PKIHierarchy(spec)
        } catch {
            throw pki.error("the hierarchy cannot be built: \(error)")
        }
        let keys: [String: RSAPrivateKey] = ["root": h.rootKey, "intermediate": h.intermediateKey, "leaf": h.serverKey,
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

    func certificateNames(_ value: YAMLValue, _ known: [String: NamedCertificate]) throws(ScenarioError) -> [String] {
        try value.list().map { item throws(ScenarioError) in try certificateName(item, known) }
    }

    func certificateName(_ item: YAMLValue, _ known: [String: NamedCertificate]) throws(ScenarioError) -> String {
        let name = try item.string()
        guard known[name] != nil else {
            let list = known.keys.sorted()
            throw item.error("expected the name of a certificate of the PKI (\(list.joined(separator: ", "))), got '\(YAMLValue.clip(name))'"
                             + Spelling.hint(for: name, among: list))
        }
        return name
    }

    func now(_ top: YAMLMapping) throws(ScenarioError) -> Int64? {
        guard let v = top["now"] else { return nil }
        let text = try v.string()
        let formatter = ISO8601DateFormatter()
        guard let date = formatter.date(from: text) else {
            throw v.error("expected an ISO 8601 UTC time like 2027-03-01T12:00:00Z, got '\(YAMLValue.clip(text))'")
        }
        return Int64(date.timeIntervalSince1970)
    }

    // MARK: - TLS

    func suites(_ value: YAMLValue) throws(ScenarioError) -> [CipherSuite] {
        let known = CipherSuite.implemented.compactMap(\.name)
        var out: [CipherSuite] = []
        for item in try value.list() {
            let name = try item.oneOf(known)
            if let s = CipherSuite.implemented.first(where: { $0.name == name }) { out.append(s) }
        }
        guard !out.isEmpty else { throw value.error("expected at least one cipher suite") }
        return out
    }

    func version(_ value: YAMLValue?, default d: ProtocolVersion) throws(ScenarioError) -> ProtocolVersion {
        guard let value else { return d }
        return Self.versions[try value.oneOf(Self.versionNames)] ?? d
    }

    func tlsWorld(_ top: YAMLMapping) throws(ScenarioError) -> TLSWorld {
        let pki = try pkiWorld(top)
        let certs = pki.certificates
        let now = pki.now

        // server
        let serverKeys = ["chain", "suites", "min_version", "max_version", "dh_group", "ems", "client_auth", "client_cas", "subject_whitelist", "alpn"]
        let server = try top["server"].map { v throws(ScenarioError) in try v.mapping(serverKeys) }
        var chain = pki.serverChain
        if let c = server?["chain"] {
            chain = try certificateNames(c, certs)
            guard let first = chain.first else { throw c.error("expected at least one certificate (the leaf first)") }
            guard certs[first]?.key != nil else { throw c.error("the PKI has no private key for '\(first)'") }
        }
        let serverSuites = try server?["suites"].map { v throws(ScenarioError) in try suites(v) } ?? CipherSuite.implemented
        let serverMin = try version(server?["min_version"], default: .tls12)
        let serverMax = try version(server?["max_version"], default: .tls12)
        if let server, serverMin.rawValue > serverMax.rawValue {
            throw server.keyError("min_version", "contradiction: min_version is above max_version")
        }
        var dhGroup = DHGroup.modp2048
        if let g = server?["dh_group"] {
            let names = (DHGroup.standardGroups + DHGroup.teachingGroups).map(\.name)
            let name = try g.oneOf(names)
            dhGroup = DHGroup.named(name) ?? .modp2048
            // The server draws a 256-bit exponent, which no toy prime can hold: the handshake would
            // end in internal_error. The toy numbers are shown by kind dh instead.
            if dhGroup.isTeachingOnly {
                throw g.error("contradiction: \(name) is a teaching group too small to carry a TLS handshake (the server's 256-bit private exponent cannot fit below p = \(dhGroup.p)); show its arithmetic with kind: dh (dh: {p: \(dhGroup.p), g: \(dhGroup.g), …}), or use modp2048, ffdhe2048, ffdhe3072 or ffdhe4096")
            }
        }
        let serverEMS = try server?["ems"]?.bool() ?? true
        var clientAuth = ClientAuthentication.none
        if let a = server?["client_auth"] {
            clientAuth = ClientAuthentication(rawValue: try a.oneOf(["none", "request", "require"])) ?? .none
        }
        let clientCAs = try server?["client_cas"].map { v throws(ScenarioError) in try certificateNames(v, certs) } ?? []
        var whitelist: [String]?
        if let w = server?["subject_whitelist"] {
            whitelist = try w.list().map { v throws(ScenarioError) in try v.string() }
        }
        if clientAuth == .none, let server, server.has("client_cas") || server.has("subject_whitelist") {
            throw server.keyError(server.has("client_cas") ? "client_cas" : "subject_whitelist",
                                  "contradiction: client_auth is none, so the server never asks for a client certificate")
        }

        // client
        let clientKeys = ["host", "suites", "min_version", "max_version", "ems", "min_dh_bits", "trust", "anchors", "anchors_only", "policy", "ats", "identity", "alpn"]
        let client = try top["client"].map { v throws(ScenarioError) in try v.mapping(clientKeys) }
        let host = try client?["host"]?.name() ?? pki.host
        let clientSuites = try client?["suites"].map { v throws(ScenarioError) in try suites(v) } ?? CipherSuite.implemented
        let clientMin = try version(client?["min_version"], default: .tls12)
        let clientMax = try version(client?["max_version"], default: .tls12)
        if let client, clientMin.rawValue > clientMax.rawValue {
            throw client.keyError("min_version", "contradiction: min_version is above max_version")
        }
        let clientEMS = try client?["ems"]?.bool() ?? true
        let minDH = try client?["min_dh_bits"]?.int(0 ... 16384) ?? 1024
        let trust = try client?["trust"].map { v throws(ScenarioError) in try certificateNames(v, certs) } ?? pki.trust
        let anchors = try client?["anchors"].map { v throws(ScenarioError) in try certificateNames(v, certs) }
        let anchorsOnly = try client?["anchors_only"]?.bool() ?? true
        if anchors == nil, let client, client.has("anchors_only") {
            throw client.keyError("anchors_only", "contradiction: anchors_only without anchors")
        }
        let policy = try client?["policy"].map { v throws(ScenarioError) in try self.policy(v, certs) } ?? .system
        if case .bundledAnchor = policy, let client {
            for key in ["anchors", "anchors_only"] where client.has(key) {
                throw client.keyError(key, "contradiction: the bundled_anchor policy sets the trust's anchors itself (its certificates and anchors_only), so client.\(key) would play no part")
            }
        }
        let ats = try client?["ats"].map { v throws(ScenarioError) in try atsPolicy(v, certs: certs) }
        let identity = try client?["identity"].map { v throws(ScenarioError) in try certificateNames(v, certs) }
        if let identity, let first = identity.first, certs[first]?.key == nil, let client {
            throw client.keyError("identity", "the PKI has no private key for '\(first)'")
        }

        let network = try self.network(top["network"], hosts: ["client", "server"])
        let tcp = try self.tcp(top["tcp"], tcpOnly: false)
        var request: String? = "GET /profile HTTP/1.1\r\nHost: \(host)\r\nCookie: session=42\r\n\r\n"
        var response = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 6\r\n\r\nhello\n"
        var requests: [String]?
        var mode = HTTPConnectionMode.keepAlive
        var usesTLS = true, resumes = false
        var cpu = VirtualCPU.free
        var push: [String] = []
        var maxStreams = HTTP2Defaults.maxConcurrentStreams
        if let h = top["http"] {
            let m = try h.mapping(["request", "requests", "response", "mode", "tls", "resumption", "cpu", "push", "max_concurrent_streams"])
            if let r = m["request"] { request = r.isNull ? nil : try r.string() }
            if let r = m["response"] { response = try r.string() }
            if let r = m["requests"] {
                if m.has("request") { throw m.keyError("requests", "contradiction: give request or requests, not both") }
                let list = try r.list().map { v throws(ScenarioError) in try v.string() }
                guard !list.isEmpty else { throw r.error("expected at least one request") }
                requests = list
            }
            if let v = m["mode"] {
                mode = HTTPConnectionMode(rawValue: try v.oneOf(HTTPConnectionMode.allCases.map(\.rawValue))) ?? .keepAlive
            }
            usesTLS = try m["tls"]?.bool() ?? true
            resumes = try m["resumption"]?.bool() ?? false
            if resumes, !usesTLS { throw m.keyError("resumption", "contradiction: session resumption needs tls: true") }
            if let v = m["cpu"] { cpu = try v.oneOf(["free", "measured"]) == "measured" ? .measured : .free }
            if let v = m["push"] {
                guard mode == .h2 else { throw m.keyError("push", "contradiction: server push is HTTP/2's (needs mode: h2)") }
                for item in try v.list() {
                    let path = try item.string()
                    guard path.hasPrefix("/"), !path.contains(" ") else { throw item.error("expected a path starting with /, without spaces") }
                    guard !push.contains(path) else { throw item.error("contradiction: \(path) is already pushed; a server pushes a resource once") }
                    push.append(path)
                }
            }
            if let v = m["max_concurrent_streams"] {
                guard mode == .h2 else {
                    throw m.keyError("max_concurrent_streams", "contradiction: SETTINGS_MAX_CONCURRENT_STREAMS is HTTP/2's (needs mode: h2)")
                }
                maxStreams = UInt32(try v.int(1 ... 0x7fff_ffff))
            }
            if mode == .h2, resumes {
                throw m.keyError("resumption", "contradiction: HTTP/2 uses one connection, so there is no second one to resume on")
            }
            if mode == .h2 {
                // HTTP/2 carries the request line and headers as HPACK fields (:method, :path, …), so
                // each message must be a well-formed HTTP/1.1-style message to translate.
                let key = m.has("requests") ? "requests" : "request"
                for text in requests ?? request.map({ [$0] }) ?? [] where !Self.isRequestMessage(text) {
                    throw m.keyError(key, "expected, with mode h2, requests written as HTTP/1.1 messages (\"GET /path HTTP/1.1\\r\\nHost: …\\r\\n\\r\\n\") to translate into HPACK fields; got '\(YAMLValue.clip(text))'")
                }
                if m.has("response"), !Self.isResponseMessage(response) {
                    throw m.keyError("response", "expected, with mode h2, a response written as an HTTP/1.1 message (\"HTTP/1.1 200 OK\\r\\n…\\r\\n\\r\\nbody\") to translate into :status and fields; got '\(YAMLValue.clip(response))'")
                }
            }
            if mode == .http09 {
                try http09(m, usesTLS: usesTLS)
                if !m.has("request"), !m.has("requests") { request = "GET /profile\r\n" }
                if !m.has("response") { response = "hello\n" }
            }
        }
        let attack = try self.attack(top["attacker"], certs: certs, usesTLS: usesTLS, clientSuites: clientSuites)
        if mode == .h2, attack != nil, let a = top["attacker"] {
            // The active attacks here act on HTTP/1.x text or TLS records; with HTTP/2 only watching is modelled.
            throw a.error("contradiction: with http.mode h2 only the attacker kind eavesdropper is modelled")
        }
        var world = TLSWorld(now: now, certificates: certs, serverChain: chain, serverSuites: serverSuites,
                        serverMinVersion: serverMin, serverMaxVersion: serverMax, dhGroup: dhGroup, serverEMS: serverEMS,
                        clientAuth: clientAuth, clientCAs: clientCAs, subjectWhitelist: whitelist, host: host,
                        clientSuites: clientSuites, clientMinVersion: clientMin, clientMaxVersion: clientMax,
                        clientEMS: clientEMS, minimumDHPrimeBits: minDH, trustStore: trust, customAnchors: anchors,
                        anchorsOnly: anchorsOnly, policy: policy, ats: ats, identity: identity, network: network, tcp: tcp,
                        httpRequest: request, httpResponse: response, requests: requests, connectionMode: mode,
                        usesTLS: usesTLS, resumesSessions: resumes, cpu: cpu, attack: attack, http2Push: push,
                        http2MaxConcurrentStreams: maxStreams)
        for (side, m) in [("server", server), ("client", client)] {
            if !usesTLS, let m, m.has("alpn") {
                throw m.keyError("alpn", "contradiction: ALPN is a TLS extension and this run has tls: false (\(side).alpn would never be sent)")
            }
        }
        world.serverALPN = try server?["alpn"].map { v throws(ScenarioError) in try alpn(v) } ?? []
        world.clientALPN = try client?["alpn"].map { v throws(ScenarioError) in try alpn(v) } ?? []
        if mode == .h2, usesTLS {
            // HTTP/2 over TLS is chosen with ALPN "h2" (RFC 9113 §3.2). The client of mode h2 speaks
            // only HTTP/2: it offers h2 (and nothing it cannot speak); the server defaults to
            // [h2, http/1.1]; an explicit server alpn: [] is a server that ignores ALPN.
            if let c = client, c.has("alpn") {
                if !world.clientALPN.contains("h2") || world.clientALPN.contains(where: { $0 != "h2" }) {
                    throw c.keyError("alpn", "contradiction: with http.mode h2 the client speaks only HTTP/2, so it offers exactly [h2]; offering \(world.clientALPN) would promise a protocol it cannot speak (use mode keep-alive for an HTTP/1.1 client)")
                }
            } else {
                world.clientALPN = ["h2"]
            }
            if !(server?.has("alpn") ?? false) { world.serverALPN = ["h2", "http/1.1"] }
        }
        return world
    }

    /// "METHOD SP target SP HTTP/1.x CRLF", header lines, an empty line.
    static func isRequestMessage(_ text: String) -> Bool {
        guard text.contains("\r\n\r\n"), let line = text.components(separatedBy: "\r\n").first else { return false }
        let parts = line.split(separator: " ", omittingEmptySubsequences: false)
        return parts.count == 3 && !parts[0].isEmpty && parts[0].allSatisfy { $0.isUppercase && $0.isASCII }
            && !parts[1].isEmpty && (parts[2] == "HTTP/1.1" || parts[2] == "HTTP/1.0")
    }

    /// "HTTP/1.x SP 3DIGIT SP reason CRLF", header lines, an empty line, the body.
    static func isResponseMessage(_ text: String) -> Bool {
        guard text.contains("\r\n\r\n"), let line = text.components(separatedBy: "\r\n").first else { return false }
        let parts = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        return parts.count >= 2 && (parts[0] == "HTTP/1.1" || parts[0] == "HTTP/1.0")
            && parts[1].count == 3 && parts[1].allSatisfy { $0.isASCII && $0.isNumber }
    }

    /// An ALPN list (RFC 7301): protocol names of 1…255 bytes, such as `[h2, http/1.1]`.
    func alpn(_ value: YAMLValue) throws(ScenarioError) -> [String] {
        var names: [String] = []
        for item in try value.list() {
            let name = try item.text("an ALPN protocol name such as h2 or http/1.1")
            guard (1 ... 255).contains(name.utf8.count) else {
                throw item.error("expected an ALPN protocol name of 1…255 bytes (RFC 7301 §3.1), such as h2 or http/1.1")
            }
            names.append(name)
        }
        return names
    }

    /// HTTP/0.9's rules: plain TCP; each request the single line `GET /path` (no version, no
    /// headers); a response with no status line or headers (the document itself).
    func http09(_ m: YAMLMapping, usesTLS: Bool) throws(ScenarioError) {
        if usesTLS {
            throw m.keyError("mode", "contradiction: HTTP/0.9 (1991) predates TLS; set tls: false")
        }
        var lines: [YAMLValue] = []
        if let r = m["request"], !r.isNull { lines.append(r) }
        if let r = m["requests"] { lines += try r.list() }
        for line in lines {
            let text = try line.string()
            let body = text.hasSuffix("\r\n") ? text.dropLast(2) : text.hasSuffix("\n") ? text.dropLast() : Substring(text)
            let parts = body.split(separator: " ", omittingEmptySubsequences: false)
            guard body.count < text.count, parts.count == 2, parts[0] == "GET", parts[1].hasPrefix("/"), !body.contains("\n"), !body.contains("\r") else {
                throw line.error("expected an HTTP/0.9 request: the one line \"GET /path\\r\\n\" (GET is the only method; no version, no headers), got '\(YAMLValue.clip(text))'")
            }
        }
        if let r = m["response"] {
            let text = try r.string()
            if text.hasPrefix("HTTP/") {
                throw r.error("contradiction: an HTTP/0.9 response is the document alone, with no status line or headers (the server's close marks its end)")
            }
        }
    }

    static let handshakeMessages = ["ClientHello", "ServerHello", "Certificate", "ServerKeyExchange", "CertificateRequest",
                                    "ServerHelloDone", "ClientKeyExchange", "CertificateVerify", "Finished",
                                    "HTTPRequest", "HTTPResponse"]

    /// `attacker`: who besides the passive eavesdropper (always present) acts, and how.
    /// Who sends each handshake message in TLS 1.2 (Certificate and Finished: both sides).
    static let messageSenders: [String: [String]] = [
        "ClientHello": ["client"], "ServerHello": ["server"], "Certificate": ["client", "server"],
        "ServerKeyExchange": ["server"], "CertificateRequest": ["server"], "ServerHelloDone": ["server"],
        "ClientKeyExchange": ["client"], "CertificateVerify": ["client"], "Finished": ["client", "server"],
        "HTTPRequest": ["client"], "HTTPResponse": ["server"],
    ]

    func attack(_ value: YAMLValue?, certs: [String: NamedCertificate], usesTLS: Bool,
                clientSuites: [CipherSuite]) throws(ScenarioError) -> Attack? {
        guard let value else { return nil }
        let m = try value.mapping(["kind", "certificate", "message", "sender", "offset", "value", "suites", "record",
                                   "process_id", "process_id_space", "clock_window_ms"])
        let kind = try m.required("kind", "one of: eavesdropper, steal_server_key, mitm, tamper, strip_suites, replay, weak_client_random").oneOf(["eavesdropper", "steal_server_key", "mitm", "tamper", "strip_suites", "replay",
                                                 "weak_client_random"])
        let keysFor: [String: [String]] = ["eavesdropper": [], "steal_server_key": [], "mitm": ["certificate"],
                                           "tamper": ["message", "sender", "offset", "value"], "strip_suites": ["suites"],
                                           "replay": ["record"], "weak_client_random": ["process_id", "process_id_space", "clock_window_ms"]]
        let allowed = ["kind"] + (keysFor[kind] ?? [])
        for key in m.keys where !allowed.contains(key) {
            throw m.keyError(key, "key '\(key)' does not apply to attacker kind \(kind); expected one of: \(allowed.joined(separator: ", "))")
        }
        // Over plain HTTP only watching and impersonating make sense: there is no handshake to
        // tamper with or strip, no record to replay, no key to steal, no certificate to present.
        if !usesTLS, kind != "eavesdropper", kind != "mitm", kind != "tamper" {
            throw m.keyError("kind", "contradiction: attacker \(kind) needs TLS, but http.tls is false")
        }
        if !usesTLS, m.has("certificate") {
            throw m.keyError("certificate", "contradiction: over plain HTTP (http.tls: false) the man in the middle presents no certificate")
        }
        switch kind {
        case "steal_server_key": return .stealServerKeyAfterwards
        case "mitm":
            let name = try m["certificate"].map { v throws(ScenarioError) in try certificateName(v, certs) } ?? "attacker"
            guard let cert = certs[name], let key = cert.key else {
                throw m.keyError("certificate", "the PKI has no private key for that certificate; the attacker must hold the key")
            }
            return .mitm(identity: TLSIdentity(certificateChain: [cert.certificate.der], privateKey: key))
        case "tamper":
            let messageValue = try m.required("message", "a handshake message name: \(Self.handshakeMessages.joined(separator: ", "))")
            let message = try messageValue.oneOf(Self.handshakeMessages)
            // Plain HTTP has no handshake: only its own bytes can be changed.
            if !usesTLS, !message.hasPrefix("HTTP") {
                throw messageValue.error("contradiction: over plain HTTP (http.tls: false) there is no \(message) to tamper with; expected HTTPRequest or HTTPResponse")
            }
            let senderValue = try m.required("sender", "client or server")
            let sender = try senderValue.oneOf(["client", "server"])
            if let senders = Self.messageSenders[message], !senders.contains(sender) {
                throw m.keyError("sender", "contradiction: the \(sender) never sends a \(message) in TLS 1.2 (only the \(senders.joined(separator: " and ")) does); expected sender: \(senders.joined(separator: " or "))")
            }
            let offset = try m.required("offset", "a whole number in 0...65535 (byte of the message, header included)").int(0 ... 65_535)
            let newValue = try m["value"].map { v throws(ScenarioError) in UInt8(try v.int(0 ... 255)) }
            return .tamper(TamperTarget(message: message, sender: sender == "client" ? .client : .server, offset: offset, newValue: newValue))
        case "strip_suites":
            let list = try m.required("suites", "a list of cipher suite names")
            let strip = try suites(list)
            let items = try list.list()
            for (i, suite) in strip.enumerated() where !clientSuites.contains(suite) {
                let at = i < items.count ? items[i] : list
                throw at.error("contradiction: the client never offers \(suite.name ?? suite.hex) (client.suites), so stripping it changes nothing")
            }
            if clientSuites.allSatisfy({ strip.contains($0) }) {
                throw list.error("contradiction: stripping every suite the client offers leaves an empty ClientHello list; keep at least one")
            }
            return .stripSuites(strip)
        case "replay":
            return .replayApplicationData(index: try m["record"]?.int(0 ... 1000) ?? 0)
        case "weak_client_random":
            var weak = WeakRandom()
            if let v = m["process_id"] { weak.processID = UInt16(try v.int(0 ... 65_535)) }
            if let v = m["process_id_space"] { weak.processIDSpace = try v.int(1 ... 65_536) }
            if let v = m["clock_window_ms"] { weak.clockWindowMilliseconds = try v.int(0 ... 100_000) }
            return .weakClientRandom(weak)
        default:
            return nil
        }
    }

    func policy(_ value: YAMLValue, _ certs: [String: NamedCertificate]) throws(ScenarioError) -> ClientPolicy {
        let kinds = ["system", "afnetworking", "challenge_mode", "web_container", "image_downloader", "bundled_anchor"]
        let m = try value.mapping(kinds)
        guard m.keys.count == 1, let kind = m.keys.first, let body = m[kind] else {
            throw value.error("expected exactly one policy, one of: \(kinds.joined(separator: ", ")); got \(m.keys.count)")
        }
        switch kind {
        case "afnetworking":
            let a = try body.mapping(["mode", "pinned", "allow_invalid", "validates_domain", "version"])
            let mode = AFSecurityPolicy.PinningMode(rawValue: try a.required("mode", "one of: none, publicKey, certificate").oneOf(AFSecurityPolicy.PinningMode.allCases.map(\.rawValue))) ?? .none
            let pinned = try a["pinned"].map { v throws(ScenarioError) in try certificateNames(v, certs) } ?? []
            let allowInvalid = try a["allow_invalid"]?.bool() ?? false
            let validatesDomain = try a["validates_domain"]?.bool() ?? true
            let versions = ["current": AFSecurityPolicy.Behaviour.current, "2.5.1": .v2_5_1, "2.5.2": .v2_5_2]
            let behaviour = try a["version"].map { v throws(ScenarioError) in versions[try v.oneOf(["current", "2.5.1", "2.5.2"])] ?? .current } ?? .current
            if mode == .none, !pinned.isEmpty {
                throw a.keyError("pinned", "contradiction: AFNetworking ignores pinnedCertificates in mode none (AFSSLPinningModeNone never compares them); use mode certificate or publicKey, or drop pinned")
            }
            if mode != .none, a.has("pinned"), pinned.isEmpty {
                throw a.keyError("pinned", "contradiction: mode \(mode.rawValue) with an empty pinned list rejects every server; name at least one certificate")
            }
            let policy = AFSecurityPolicy(mode: mode, pinnedCertificates: pinned.compactMap { certs[$0]?.certificate.der },
                                          allowInvalidCertificates: allowInvalid, validatesDomainName: validatesDomain,
                                          behaviour: behaviour)
            return .afnetworking(policy, pinnedNames: pinned)
        case "challenge_mode":
            let s = try body.mapping(["mode"])
            return .challengeMode(ChallengeHandlingPolicies.ChallengeMode(rawValue: try s.required("mode", "one of: none, simple, full").oneOf(["none", "simple", "full"])) ?? .full)
        case "image_downloader":
            let s = try body.mapping(["allow_invalid"])
            return .imageDownloader(allowInvalid: try s["allow_invalid"]?.bool() ?? false)
        case "bundled_anchor":
            let b = try body.mapping(["certificates", "anchors_only"])
            let names = try certificateNames(try b.required("certificates", "a list of certificate names the app bundles"), certs)
            if names.isEmpty {
                throw b.keyError("certificates", "contradiction: an empty anchor list makes SecTrustEvaluate fail for every server; name at least one certificate")
            }
            return .bundledAnchor(names: names, anchorsOnly: try b["anchors_only"]?.bool() ?? true)
        case "web_container":
            _ = try body.isNull ? nil : body.mapping([])
            return .webContainer
        default:
            _ = try body.isNull ? nil : body.mapping([])
            return .system
        }
    }

    // MARK: - Network and TCP

    func network(_ value: YAMLValue?, hosts: [String]) throws(ScenarioError) -> NetworkSpec {
        var n = NetworkSpec()
        guard let value else { return n }
        let m = try value.mapping(["latency_ms", "loss", "duplicate", "jitter_ms", "faults"])
        n.latencyMs = try m["latency_ms"]?.int(0 ... 10_000) ?? n.latencyMs
        n.loss = try m["loss"]?.probability() ?? 0
        n.duplicate = try m["duplicate"]?.probability() ?? 0
        n.jitterMs = try m["jitter_ms"]?.int(0 ... 10_000) ?? 0
        if let faults = m["faults"] {
            for item in try faults.list() {
                let f = try item.mapping(["from", "nth", "action", "delay_ms"])
                let from = try f.required("from", "client or server").oneOf(hosts)
                let nth = try f.required("nth", "a whole number ≥ 1").int(1 ... 100_000)
                let actionName = try f.required("action", "one of: drop, duplicate, delay").oneOf(["drop", "duplicate", "delay"])
                let action: TCPFaultRule.Action
                switch actionName {
                case "delay":
                    let ms = try f.required("delay_ms", "a whole number of milliseconds in 0...600000").int(0 ... 600_000)
                    action = .delay(TCPDuration.milliseconds(Int64(ms)))
                case "duplicate": action = .duplicate
                default: action = .drop
                }
                if actionName != "delay", f.has("delay_ms") {
                    throw f.keyError("delay_ms", "contradiction: delay_ms only applies to action delay")
                }
                n.faults.append(FaultSpec(from: from, nth: nth, action: action))
            }
        }
        return n
    }

    func isn(_ value: YAMLValue) throws(ScenarioError) -> ISNMode {
        if case .scalar = value.node {
            _ = try value.oneOf(["random"])
            return .random
        }
        let m = try value.mapping(["counter"])
        let c = try m.required("counter", "a mapping with start and increment").mapping(["start", "increment"])
        let start = try c.required("start", "a whole number in 0...4294967295").int(0 ... Int(UInt32.max))
        let inc = try c["increment"]?.int(0 ... Int(UInt32.max)) ?? 64_000
        return .counter(start: UInt32(start), increment: UInt32(inc))
    }

    func tcp(_ value: YAMLValue?, tcpOnly: Bool) throws(ScenarioError) -> TCPSpec {
        var t = TCPSpec()
        guard let value else { return t }
        var keys = ["mss", "window", "min_rto_ms", "initial_rto_ms", "msl_ms", "client_isn", "server_isn"]
        if tcpOnly { keys += ["handshake", "backlog", "syn_cookies"] }
        let m = try value.mapping(keys)
        t.mss = try m["mss"]?.int(64 ... 65_495) ?? t.mss
        t.window = try m["window"]?.int(1 ... 65_535) ?? t.window
        t.minimumRTOMs = try m["min_rto_ms"]?.int(1 ... 60_000) ?? t.minimumRTOMs
        t.initialRTOMs = try m["initial_rto_ms"]?.int(1 ... 60_000) ?? t.initialRTOMs
        t.mslMs = try m["msl_ms"]?.int(1 ... 600_000) ?? t.mslMs
        if let v = m["client_isn"] { t.clientISN = try isn(v) }
        if let v = m["server_isn"] { t.serverISN = try isn(v) }
        if let v = m["handshake"] { t.handshake = TCPHandshakeMode(rawValue: try v.oneOf(["threeWay", "twoWay"])) ?? .threeWay }
        t.backlog = try m["backlog"]?.int(1 ... 4096) ?? t.backlog
        t.synCookies = try m["syn_cookies"]?.bool() ?? false
        return t
    }

    func tcpWorld(_ top: YAMLMapping) throws(ScenarioError) -> TCPWorld {
        let network = try self.network(top["network"], hosts: ["client", "server"])
        let tcp = try self.tcp(top["tcp"], tcpOnly: true)
        let runMs = try top["run_ms"]?.int(1 ... 3_600_000) ?? 10_000
        var actions: [TCPAction] = []
        let list = try top.required("actions", "a list of actions (each a mapping with do)").list()
        var connected = false
        for item in list {
            let m = try item.mapping(["at_ms", "do", "by", "bytes", "text", "seq", "per_second", "seconds"])
            let at = try m["at_ms"]?.int(0 ... 3_600_000) ?? 0
            let verb = try m.required("do", "one of: connect, send, close, abort, old_duplicate_syn, syn_flood, off_path_injection").oneOf(["connect", "send", "close", "abort", "old_duplicate_syn", "syn_flood", "off_path_injection"])
            var used = ["at_ms", "do"]
            let kind: TCPAction.Kind
            switch verb {
            case "connect":
                kind = .connect
                connected = true
            case "send":
                let by = try m.required("by", "client or server").oneOf(["client", "server"])
                let bytes: [UInt8]
                if let t = m["text"] {
                    bytes = Array(try t.string().utf8)
                    if m.has("bytes") { throw m.keyError("bytes", "contradiction: give bytes or text, not both") }
                } else {
                    bytes = (0 ..< (try m.required("bytes", "a whole number of bytes in 1...1000000 (or text)").int(1 ... 1_000_000))).map { UInt8(truncatingIfNeeded: $0) }
                }
                used += ["by", "bytes", "text"]
                kind = .send(by: by, bytes: bytes)
            case "close", "abort":
                let by = try m.required("by", "client or server").oneOf(["client", "server"])
                used += ["by"]
                kind = verb == "close" ? .close(by: by) : .abort(by: by)
            case "old_duplicate_syn":
                let seq = try m.required("seq", "a whole number in 0...4294967295").int(0 ... Int(UInt32.max))
                used += ["seq"]
                kind = .oldDuplicateSYN(seq: UInt32(seq))
            case "syn_flood":
                let per = try m.required("per_second", "a whole number in 1...1000").int(1 ... 1000)
                let seconds = try m.required("seconds", "a whole number in 1...600").int(1 ... 600)
                used += ["per_second", "seconds"]
                kind = .synFlood(perSecond: per, seconds: seconds)
            default:
                let text = try m.required("text", "a string").string()
                used += ["text"]
                kind = .offPathInjection(text: text)
            }
            if verb != "connect", verb != "syn_flood", verb != "off_path_injection", verb != "old_duplicate_syn", !connected {
                throw item.error("contradiction: '\(verb)' before any 'connect'")
            }
            for key in m.keys where !used.contains(key) {
                throw m.keyError(key, "key '\(key)' does not apply to action '\(verb)'")
            }
            actions.append(TCPAction(atMs: at, kind: kind))
        }
        return TCPWorld(network: network, tcp: tcp, actions: actions, runMs: runMs)
    }

    // MARK: - Diffie-Hellman by hand

    /// `dh`: a prime small enough to search (5 … 1000003), a generator, and both private exponents.
    func dhWorld(_ top: YAMLMapping) throws(ScenarioError) -> DHWorld {
        let m = try top.required("dh", "a mapping with p, g, client_private, server_private").mapping(["p", "g", "client_private", "server_private"])
        let pValue = try m.required("p", "a prime in 5...1000003")
        let p = try pValue.int(5 ... 1_000_003)
        var d = 2
        while d * d <= p {
            if p % d == 0 { throw pValue.error("expected a prime modulus, got \(p) = \(d) × \(p / d)") }
            d += 1
        }
        let gValue = try m.required("g", "a whole number in 2...1000000 (the generator)")
        let g = try gValue.int(2 ... 1_000_000)
        guard g % p > 1, g % p < p - 1 else {
            throw gValue.error("contradiction: g = \(g) is \(g % p) modulo \(p); 0, 1 and p-1 generate at most two values")
        }
        let x1 = try m.required("client_private", "a whole number in 1...10000").int(1 ... 10_000)
        let x2 = try m.required("server_private", "a whole number in 1...10000").int(1 ... 10_000)
        return DHWorld(p: p, g: g, clientPrivate: x1, serverPrivate: x2)
    }

    // MARK: - ATS

    static let atsVersionNames = ["TLSv1.0", "TLSv1.1", "TLSv1.2", "TLSv1.3"]
    static let atsVersions: [String: ATSPolicy.TLSVersion] = ["TLSv1.0": .tls10, "TLSv1.1": .tls11, "TLSv1.2": .tls12, "TLSv1.3": .tls13]

    /// An Info.plist NSAppTransportSecurity dictionary.
    func atsPolicy(_ value: YAMLValue, certs: [String: NamedCertificate]) throws(ScenarioError) -> ATSPolicy {
        let a = try value.mapping(["NSAllowsArbitraryLoads", "NSAllowsArbitraryLoadsInWebContent",
                                                 "NSAllowsArbitraryLoadsForMedia", "NSAllowsLocalNetworking",
                                                 "NSExceptionDomains", "NSPinnedDomains"])
        var policy = ATSPolicy(allowsArbitraryLoads: try a["NSAllowsArbitraryLoads"]?.bool(),
                               allowsArbitraryLoadsInWebContent: try a["NSAllowsArbitraryLoadsInWebContent"]?.bool(),
                               allowsArbitraryLoadsForMedia: try a["NSAllowsArbitraryLoadsForMedia"]?.bool(),
                               allowsLocalNetworking: try a["NSAllowsLocalNetworking"]?.bool())
        if let d = a["NSExceptionDomains"] {
            guard case .mapping(let map) = d.node else { throw d.error("expected a mapping of domain names, got \(d.kindName)") }
            for (k, v) in map {
                let domain = try YAMLValue(node: k, path: d.path, file: file).name()
                let entry = YAMLValue(node: v, path: "\(d.path).\(domain)", file: file)
                let e = try entry.mapping(["NSIncludesSubdomains", "NSExceptionAllowsInsecureHTTPLoads",
                                           "NSExceptionMinimumTLSVersion", "NSExceptionRequiresForwardSecrecy"])
                policy.exceptionDomains[domain] = ATSPolicy.ExceptionDomain(
                    includesSubdomains: try e["NSIncludesSubdomains"]?.bool() ?? false,
                    allowsInsecureHTTPLoads: try e["NSExceptionAllowsInsecureHTTPLoads"]?.bool(),
                    minimumTLSVersion: try e["NSExceptionMinimumTLSVersion"].map { v throws(ScenarioError) in Self.atsVersions[try v.oneOf(Self.atsVersionNames)] ?? .tls12 },
                    requiresForwardSecrecy: try e["NSExceptionRequiresForwardSecrecy"]?.bool())
            }
        }
        if let d = a["NSPinnedDomains"] {
            guard case .mapping(let map) = d.node else { throw d.error("expected a mapping of domain names, got \(d.kindName)") }
            for (k, v) in map {
                let domain = try YAMLValue(node: k, path: d.path, file: file).name()
                let entry = YAMLValue(node: v, path: "\(d.path).\(domain)", file: file)
                let e = try entry.mapping(["NSIncludesSubdomains", "NSPinnedLeafIdentities", "NSPinnedCAIdentities"])
                func pins(_ key: String) throws(ScenarioError) -> [String]? {
                    guard let v = e[key] else { return nil }
                    return try certificateNames(v, certs).compactMap { certs[$0].map { Pins.publicKeyPin($0.certificate) } }
                }
                policy.pinnedDomains[domain] = ATSPolicy.PinnedDomain(includesSubdomains: try e["NSIncludesSubdomains"]?.bool() ?? false,
                                                                      leafIdentities: try pins("NSPinnedLeafIdentities"),
                                                                      caIdentities: try pins("NSPinnedCAIdentities"))
            }
        }
        return policy
    }


    func atsWorld(_ top: YAMLMapping) throws(ScenarioError) -> ATSWorld {
        let pki = try pkiWorld(top)
        let certs = pki.certificates
        let now = pki.now
        var trust = pki.trust
        if let c = top["client"] {
            let m = try c.mapping(["trust"])
            trust = try m["trust"].map { v throws(ScenarioError) in try certificateNames(v, certs) } ?? trust
        }
        let policy = try atsPolicy(try top.required("ats", "an NSAppTransportSecurity dictionary (a mapping)"), certs: certs)
        let c = try top.required("connection", "a mapping with host, scheme, tls_version, forward_secret, load, chain").mapping(["host", "scheme", "tls_version", "forward_secret", "load", "chain"])
        let host = try c.required("host", "a host name").name()
        let scheme = try c["scheme"]?.oneOf(["https", "http"]) ?? "https"
        let version = try c["tls_version"].map { v throws(ScenarioError) in Self.atsVersions[try v.oneOf(Self.atsVersionNames)] ?? .tls12 } ?? .tls12
        let fs = try c["forward_secret"]?.bool() ?? true
        let load = ATSPolicy.LoadKind(rawValue: try c["load"]?.oneOf(["app", "webContent", "media"]) ?? "app") ?? .app
        let chain = try c["chain"].map { v throws(ScenarioError) in try certificateNames(v, certs) } ?? pki.serverChain
        if scheme == "http", c.has("tls_version") || c.has("chain") {
            throw c.keyError(c.has("tls_version") ? "tls_version" : "chain", "contradiction: a plain http connection has no TLS version or certificate chain")
        }
        return ATSWorld(policy: policy, host: host, usesHTTPS: scheme == "https", tlsVersion: version, forwardSecret: fs,
                        loadKind: load, chain: chain, now: now, certificates: certs, trustStore: trust)
    }
}
