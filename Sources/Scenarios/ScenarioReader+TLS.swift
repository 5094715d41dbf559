import Foundation
import HTTP2
import PKI
import Simulation
import TCPSim
import TLSCrypto
import TLSEngine
import Trace
import Yams

/// The TLS world: `server`, `client`, `http` and the connection options of a `kind: tls` scenario.
extension ScenarioReader {
    // MARK: - TLS

    func suites(_ value: YAMLValue) throws(ScenarioError) -> [CipherSuite] {
        let known = CipherSuite.allImplementedWithECDSA.compactMap(\.name)
        var out: [CipherSuite] = []
        for item in try value.list() {
            let name = try item.oneOf(known)
            if let s = CipherSuite.allImplementedWithECDSA.first(where: { $0.name == name }) { out.append(s) }
        }
        guard !out.isEmpty else { throw value.error("expected at least one cipher suite", "scenario.tls.noSuite") }
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
        let tls13 = try tls13Version(top)
        if tls13 { try refuseTLS12Keys(top) }

        // server
        let server = try top["server"].map { v throws(ScenarioError) in try v.mapping(Self.serverKeys) }
        var chain = pki.serverChain
        if let c = server?["chain"] {
            chain = try certificateNames(c, certs)
            guard let first = chain.first else { throw c.error("expected at least one certificate (the leaf first)", "scenario.tls.noCertificate") }
            guard certs[first]?.key != nil else { throw c.error("the PKI has no private key for '\(first)'", "scenario.tls.noPrivateKey", ["name": first]) }
        }
        // With an EC key in the PKI both sides also speak the ECDHE_ECDSA suites (see TLSWorld.offersECDSA).
        let offersECDSA = certs.values.contains { switch $0.key { case .ecdsa?, .ed25519?: true; default: false } }
        // A P-521 or Ed25519 key: the client also offers ecdsa_secp521r1_sha512 and ed25519 (RFC 8422 §5.1.3).
        let offersNewerSchemes = certs.values.contains { key in
            switch key.key { case .ecdsa(let k)?: k.curve.name == .p521; case .ed25519?: true; default: false }
        }
        let defaultSuites = offersECDSA ? CipherSuite.offerWithECDSA : CipherSuite.implemented
        // A 1.3 world reads its suites as TLS 1.3 suites (tls13Options).
        let serverSuites = tls13 ? defaultSuites : try server?["suites"].map { v throws(ScenarioError) in try suites(v) } ?? defaultSuites
        if !tls13, let first = chain.first, case .ecdsa? = certs[first]?.key, let server, server.has("suites"),
           !serverSuites.contains(where: { $0.parameters?.keyExchange == .ecdheECDSA }) {
            throw server.keyError("suites", "contradiction: the server's certificate '\(first)' has an EC key, which only the ECDHE_ECDSA suites use (RFC 8422 §6); none is listed", "scenario.tls.ecKeyNeedsECDSASuite", ["name": first])
        }
        let serverMin = try version(server?["min_version"], default: .tls12)
        let serverMax = try version(server?["max_version"], default: .tls12)
        if let server, serverMin.rawValue > serverMax.rawValue {
            throw server.keyError("min_version", "contradiction: min_version is above max_version", "scenario.tls.minAboveMax")
        }
        var dhGroup = DHGroup.modp2048
        if let g = server?["dh_group"] {
            let names = (DHGroup.standardGroups + DHGroup.teachingGroups).map(\.name)
            let name = try g.oneOf(names)
            dhGroup = DHGroup.named(name) ?? .modp2048
            // The server draws a 256-bit exponent, which no toy prime can hold: the handshake would
            // end in internal_error. The toy numbers are shown by kind dh instead.
            if dhGroup.isTeachingOnly {
                throw g.error("contradiction: \(name) is a teaching group too small to carry a TLS handshake (the server's 256-bit private exponent cannot fit below p = \(dhGroup.p)); show its arithmetic with kind: dh (dh: {p: \(dhGroup.p), g: \(dhGroup.g), …}), or use modp2048, ffdhe2048, ffdhe3072 or ffdhe4096",
                              "scenario.tls.teachingGroup", ["name": name, "p": "\(dhGroup.p)", "example": "{p: \(dhGroup.p), g: \(dhGroup.g), …}"])
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
                                  "contradiction: client_auth is none, so the server never asks for a client certificate", "scenario.tls.clientAuthNone")
        }

        // client
        let client = try top["client"].map { v throws(ScenarioError) in try v.mapping(Self.clientKeys) }
        let host = try client?["host"]?.hostName() ?? pki.host
        let clientSuites = tls13 ? defaultSuites : try client?["suites"].map { v throws(ScenarioError) in try suites(v) } ?? defaultSuites
        if !tls13 {
            try refuseTLS13Keys(server: server, client: client)
            try refuseTLS13Negotiation(server: server, client: client, top: top)
        }
        let clientMin = try version(client?["min_version"], default: .tls12)
        let clientMax = try version(client?["max_version"], default: .tls12)
        if let client, clientMin.rawValue > clientMax.rawValue {
            throw client.keyError("min_version", "contradiction: min_version is above max_version", "scenario.tls.minAboveMax")
        }
        let clientEMS = try client?["ems"]?.bool() ?? true
        let minDH = try client?["min_dh_bits"]?.int(0 ... 16384) ?? 1024
        let trust = try client?["trust"].map { v throws(ScenarioError) in try certificateNames(v, certs) } ?? pki.trust
        let anchors = try client?["anchors"].map { v throws(ScenarioError) in try certificateNames(v, certs) }
        let anchorsOnly = try client?["anchors_only"]?.bool() ?? true
        if anchors == nil, let client, client.has("anchors_only") {
            throw client.keyError("anchors_only", "contradiction: anchors_only without anchors", "scenario.tls.anchorsOnlyWithoutAnchors")
        }
        let policy = try client?["policy"].map { v throws(ScenarioError) in try self.policy(v, certs) } ?? .system
        if case .bundledAnchor = policy, let client {
            for key in ["anchors", "anchors_only"] where client.has(key) {
                throw client.keyError(key, "contradiction: the bundled_anchor policy sets the trust's anchors itself (its certificates and anchors_only), so client.\(key) would play no part", "scenario.tls.bundledAnchorSetsAnchors", ["key": key])
            }
        }
        let ats = try client?["ats"].map { v throws(ScenarioError) in try atsPolicy(v, certs: certs) }
        let identity = try client?["identity"].map { v throws(ScenarioError) in try certificateNames(v, certs) }
        if let identity, let first = identity.first, certs[first]?.key == nil, let client {
            throw client.keyError("identity", "the PKI has no private key for '\(first)'", "scenario.tls.noPrivateKey", ["name": first])
        }

        let network = try self.network(top["network"], hosts: ["client", "server"])
        let tcp = try self.tcp(top["tcp"], tcpOnly: false)
        var request: String? = "GET /profile HTTP/1.1\r\nHost: \(host)\r\nCookie: session=42\r\n\r\n"
        var response = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 6\r\n\r\nhello\n"
        var requests: [String]?
        var mode = HTTPConnectionMode.keepAlive
        var usesTLS = true, resumes = false, byTicket = false
        var cpu = VirtualCPU.free
        var push: [String] = []
        var maxStreams = HTTP2Defaults.maxConcurrentStreams
        if let h = top["http"] {
            let m = try h.mapping(Self.httpKeys)
            if let r = m["request"] { request = r.isNull ? nil : try r.string() }
            if let r = m["response"] { response = try r.string() }
            if let r = m["requests"] {
                if m.has("request") { throw m.keyError("requests", "contradiction: give request or requests, not both", "scenario.http.requestAndRequests") }
                let list = try r.list().map { v throws(ScenarioError) in try v.string() }
                guard !list.isEmpty else { throw r.error("expected at least one request", "scenario.http.noRequest") }
                requests = list
            }
            if let v = m["mode"] {
                mode = HTTPConnectionMode(rawValue: try v.oneOf(HTTPConnectionMode.allCases.map(\.rawValue))) ?? .keepAlive
            }
            usesTLS = try m["tls"]?.bool() ?? true
            // true: by session ID (RFC 5246 §7.3); ticket: by session ticket (RFC 5077).
            if let v = m["resumption"] {
                if case .scalar(let s) = v.node, s.string == "ticket" {
                    resumes = true
                    byTicket = true
                } else {
                    resumes = try v.bool()
                }
            }
            if resumes, !usesTLS { throw m.keyError("resumption", "contradiction: session resumption needs tls: true", "scenario.http.resumptionNeedsTLS") }
            if let v = m["cpu"] { cpu = try v.oneOf(["free", "measured"]) == "measured" ? .measured : .free }
            if let v = m["push"] {
                guard mode == .h2 else { throw m.keyError("push", "contradiction: server push is HTTP/2's (needs mode: h2)", "scenario.http.pushNeedsH2") }
                for item in try v.list() {
                    let path = try item.string()
                    guard path.hasPrefix("/"), !path.contains(" ") else { throw item.error("expected a path starting with /, without spaces", "scenario.http.pushPath") }
                    guard !push.contains(path) else { throw item.error("contradiction: \(path) is already pushed; a server pushes a resource once", "scenario.http.pushedTwice", ["path": path]) }
                    push.append(path)
                }
            }
            if let v = m["max_concurrent_streams"] {
                guard mode == .h2 else {
                    throw m.keyError("max_concurrent_streams", "contradiction: SETTINGS_MAX_CONCURRENT_STREAMS is HTTP/2's (needs mode: h2)", "scenario.http.streamsNeedH2")
                }
                maxStreams = UInt32(try v.int(1 ... 0x7fff_ffff))
            }
            if mode == .h2, resumes {
                throw m.keyError("resumption", "contradiction: HTTP/2 uses one connection, so there is no second one to resume on", "scenario.http.h2NoResumption")
            }
            if mode == .h2 {
                // HTTP/2 carries the request line and headers as HPACK fields (:method, :path, …), so
                // each message must be a well-formed HTTP/1.1-style message to translate.
                let key = m.has("requests") ? "requests" : "request"
                for text in requests ?? request.map({ [$0] }) ?? [] where !Self.isRequestMessage(text) {
                    throw m.keyError(key, "expected, with mode h2, requests written as HTTP/1.1 messages (\"GET /path HTTP/1.1\\r\\nHost: …\\r\\n\\r\\n\") to translate into HPACK fields; got '\(YAMLValue.clip(text))'", "scenario.http.h2Requests", ["value": YAMLValue.clip(text)])
                }
                if m.has("response"), !Self.isResponseMessage(response) {
                    throw m.keyError("response", "expected, with mode h2, a response written as an HTTP/1.1 message (\"HTTP/1.1 200 OK\\r\\n…\\r\\n\\r\\nbody\") to translate into :status and fields; got '\(YAMLValue.clip(response))'", "scenario.http.h2Response", ["value": YAMLValue.clip(response)])
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
            throw a.error("contradiction: with http.mode h2 only the attacker kind eavesdropper is modelled", "scenario.http.h2OnlyEavesdropper")
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
        world.resumesByTicket = byTicket
        if tls13 {
            if !usesTLS, let h = top["http"], let m = try? h.mapping(Self.httpKeys) {
                throw m.keyError("tls", "contradiction: version \"1.3\" is a TLS version and this run has tls: false", "scenario.tls13.withoutTLS")
            }
            var options = try tls13Options(server: server, client: client)
            // TLS 1.3 resumes with a PSK from the server's NewSessionTicket (RFC 8446 §2.2).
            options.resumes = resumes
            options.clientAuthentication = clientAuth
            try tls13Negotiation(&options, server: server, client: client, top: top, attack: attack, resumes: resumes)
            world.tls13 = options
            world.resumesSessions = false
        }
        world.offersECDSA = offersECDSA
        world.offersNewerSchemes = offersNewerSchemes
        for (side, m) in [("server", server), ("client", client)] {
            if !usesTLS, let m, m.has("alpn") {
                throw m.keyError("alpn", "contradiction: ALPN is a TLS extension and this run has tls: false (\(side).alpn would never be sent)", "scenario.tls.alpnWithoutTLS", ["side": side])
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
                    throw c.keyError("alpn", "contradiction: with http.mode h2 the client speaks only HTTP/2, so it offers exactly [h2]; offering \(world.clientALPN) would promise a protocol it cannot speak (use mode keep-alive for an HTTP/1.1 client)", "scenario.tls.h2ClientALPN", ["offered": "\(world.clientALPN)"])
                }
            } else {
                world.clientALPN = ["h2"]
            }
            if !(server?.has("alpn") ?? false) { world.serverALPN = ["h2", "http/1.1"] }
        }
        try checkWorkLimits(world, top)
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
            let name = try item.text(.init("an ALPN protocol name such as h2 or http/1.1", "scenario.expected.alpnName"))
            guard (1 ... 255).contains(name.utf8.count) else {
                throw item.error("expected an ALPN protocol name of 1…255 bytes (RFC 7301 §3.1), such as h2 or http/1.1", "scenario.tls.alpnName")
            }
            names.append(name)
        }
        return names
    }

    /// HTTP/0.9's rules: plain TCP; each request the single line `GET /path` (no version, no
    /// headers); a response with no status line or headers (the document itself).
    func http09(_ m: YAMLMapping, usesTLS: Bool) throws(ScenarioError) {
        if usesTLS {
            throw m.keyError("mode", "contradiction: HTTP/0.9 (1991) predates TLS; set tls: false", "scenario.http.http09WithTLS")
        }
        var lines: [YAMLValue] = []
        if let r = m["request"], !r.isNull { lines.append(r) }
        if let r = m["requests"] { lines += try r.list() }
        for line in lines {
            let text = try line.string()
            let body = text.hasSuffix("\r\n") ? text.dropLast(2) : text.hasSuffix("\n") ? text.dropLast() : Substring(text)
            let parts = body.split(separator: " ", omittingEmptySubsequences: false)
            guard body.count < text.count, parts.count == 2, parts[0] == "GET", parts[1].hasPrefix("/"), !body.contains("\n"), !body.contains("\r") else {
                throw line.error("expected an HTTP/0.9 request: the one line \"GET /path\\r\\n\" (GET is the only method; no version, no headers), got '\(YAMLValue.clip(text))'", "scenario.http.http09Request", ["value": YAMLValue.clip(text)])
            }
        }
        if let r = m["response"] {
            let text = try r.string()
            if text.hasPrefix("HTTP/") {
                throw r.error("contradiction: an HTTP/0.9 response is the document alone, with no status line or headers (the server's close marks its end)", "scenario.http.http09Response")
            }
        }
    }

    static let serverKeys = ["chain", "suites", "min_version", "max_version", "dh_group", "ems", "client_auth", "client_cas", "subject_whitelist", "alpn",
                             "groups", "versions", "early_data"]

    static let handshakeMessages = ["ClientHello", "ServerHello", "Certificate", "ServerKeyExchange", "CertificateRequest",
                                    "ServerHelloDone", "ClientKeyExchange", "CertificateVerify", "Finished",
                                    "HTTPRequest", "HTTPResponse"]
}
