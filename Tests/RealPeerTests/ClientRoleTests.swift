import Foundation
import HTTP2
import PKI
import RealPeer
import Rendering
import Simulation
import TLSCrypto
import TLSEngine
import Testing
import Trace
import Trust
import TestSupport

/// Our client (the simulation's `TLSClient` over a real socket) against `openssl s_server -tls1_2`
/// with OpenSSL's defaults left on: extended master secret, RSA-PSS signatures, encrypt-then-MAC
/// offered by OpenSSL for CBC (we do not offer it, so MAC-then-encrypt must be used).
@Suite("RealPeer: our client against openssl s_server", .serialized, CrossCheckRequirement.trait(Tools.openssl != nil, missing: "openssl is not on the PATH"))
struct ClientRoleTests {
    struct Case: Sendable, CustomStringConvertible {
        var openSSLName: String
        var suite: CipherSuite
        var serverArgs: [String] = []
        /// What the key exchange's group must be (nil: RSA key transport).
        var group: String?
        var description: String { "\(openSSLName) \(serverArgs.joined(separator: " "))" }
    }

    static let cases: [Case] = [
        Case(openSSLName: "AES128-GCM-SHA256", suite: .TLS_RSA_WITH_AES_128_GCM_SHA256),
        Case(openSSLName: "AES256-GCM-SHA384", suite: .TLS_RSA_WITH_AES_256_GCM_SHA384),
        Case(openSSLName: "AES128-SHA", suite: .TLS_RSA_WITH_AES_128_CBC_SHA),
        Case(openSSLName: "DHE-RSA-AES128-GCM-SHA256", suite: .TLS_DHE_RSA_WITH_AES_128_GCM_SHA256, group: "modp2048"),
        Case(openSSLName: "DHE-RSA-AES128-GCM-SHA256", suite: .TLS_DHE_RSA_WITH_AES_128_GCM_SHA256,
             serverArgs: ["-dhparam", "ffdhe2048.pem"], group: "ffdhe2048"),
        Case(openSSLName: "DHE-RSA-AES128-SHA256", suite: .TLS_DHE_RSA_WITH_AES_128_CBC_SHA256, group: "modp2048"),
        Case(openSSLName: "ECDHE-RSA-AES128-GCM-SHA256", suite: .TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256,
             serverArgs: ["-groups", "X25519"], group: "x25519"),
        Case(openSSLName: "ECDHE-RSA-AES256-GCM-SHA384", suite: .TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384,
             serverArgs: ["-groups", "P-256"], group: "secp256r1"),
        // The CBC suites beyond the default offer (issue #22): SHA-1, SHA-256 and SHA-384 MACs, AES-128 and AES-256.
        Case(openSSLName: "ECDHE-RSA-AES128-SHA", suite: .TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA, serverArgs: ["-groups", "X25519"], group: "x25519"),
        Case(openSSLName: "ECDHE-RSA-AES256-SHA", suite: .TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA, serverArgs: ["-groups", "X25519"], group: "x25519"),
        Case(openSSLName: "ECDHE-RSA-AES128-SHA256", suite: .TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256, serverArgs: ["-groups", "P-256"], group: "secp256r1"),
        Case(openSSLName: "ECDHE-RSA-AES256-SHA384", suite: .TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA384, serverArgs: ["-groups", "X25519"], group: "x25519"),
        Case(openSSLName: "DHE-RSA-AES128-SHA", suite: .TLS_DHE_RSA_WITH_AES_128_CBC_SHA, group: "modp2048"),
        Case(openSSLName: "DHE-RSA-AES256-SHA", suite: .TLS_DHE_RSA_WITH_AES_256_CBC_SHA, group: "modp2048"),
        Case(openSSLName: "DHE-RSA-AES256-SHA256", suite: .TLS_DHE_RSA_WITH_AES_256_CBC_SHA256, group: "modp2048"),
        Case(openSSLName: "AES256-SHA", suite: .TLS_RSA_WITH_AES_256_CBC_SHA),
        Case(openSSLName: "AES128-SHA256", suite: .TLS_RSA_WITH_AES_128_CBC_SHA256),
        Case(openSSLName: "AES256-SHA256", suite: .TLS_RSA_WITH_AES_256_CBC_SHA256),
    ]

    static func client(port: UInt16, pki: TestPKI, suites: [CipherSuite] = CipherSuite.implemented,
                       identity: TLSIdentity? = nil, anchors: String = "root.pem", serverName: String = "localhost") throws -> RealClient {
        let roots = try PeerFiles.certificates(at: pki.path(anchors))
        let configuration = TLSClientConfiguration(certificateEvaluator: PeerFiles.chainEvaluator(anchors: roots, storeName: .file("test root")),
                                                   random: SystemRandom(), cipherSuites: suites, serverName: serverName,
                                                   signatureAlgorithms: RealClient.openSSLSignatureOrder, identity: identity)
        return RealClient(host: "127.0.0.1", port: port, configuration: configuration,
                          request: "GET / HTTP/1.0\r\n\r\n", timeoutMilliseconds: 5_000)
    }

    static func tlsEvents(_ trace: Trace) -> [TLSEvent] {
        trace.events.compactMap { if case .tls(let e) = $0.kind { return e } else { return nil } }
    }

    @Test("each suite completes with OpenSSL's defaults; EMS on; PSS signatures; MAC-then-encrypt on CBC", arguments: cases)
    func suite(_ c: Case) throws {
        let pki = try TestPKI.require()
        let (server, port) = try startSServer(["-cert", "chain.pem", "-key", "leaf.key", "-cipher", c.openSSLName, "-www"] + c.serverArgs, pki: pki)
        defer { server.stop() }
        let result = try Self.client(port: port, pki: pki, suites: [c.suite]).run()
        #expect(result.failureText == nil, "\(c): \(result.failureText ?? "")")
        #expect(result.suite == c.suite)
        #expect(result.extendedMasterSecret, "OpenSSL 3 agrees to extended_master_secret by default")
        #expect(result.response?.hasPrefix("HTTP/1.0 200 ok") == true, "\(result.response ?? "no response")")
        #expect(result.keyLog?.masterSecret?.count == 48)
        let events = Self.tlsEvents(result.trace)
        // We never offer encrypt_then_mac (RFC 7366, type 22), so the ServerHello must not carry it and
        // the CBC records that just decrypted were MAC-then-encrypt.
        let serverHello = events.compactMap { e -> ServerHello? in
            if case .handshakeReceived(.serverHello(let sh), _) = e { return sh } else { return nil }
        }.first
        #expect(serverHello != nil)
        #expect(!(serverHello?.extensions ?? []).contains { $0.type.rawValue == 22 })
        let clientHello = events.compactMap { e -> ClientHello? in
            if case .handshakeSent(.clientHello(let ch), _) = e { return ch } else { return nil }
        }.first
        #expect(!(clientHello?.extensions ?? []).contains { $0.type.rawValue == 22 })
        if let group = c.group {
            let signatures = events.compactMap { e -> SignatureTrace? in if case .signature(let s) = e { return s } else { return nil } }
            #expect(signatures.first?.scheme == .rsaPSSRSAESHA256, "OpenSSL signs ServerKeyExchange with RSA-PSS by default")
            #expect(signatures.first?.valid == true)
            let agreed = events.compactMap { e -> String? in
                switch e {
                case .derived(.dhAgreement(_, _, let g, _, _, _, _)): return g
                case .derived(.ecdhAgreement(let curve, _, _, _, _)): return curve.name
                default: return nil
                }
            }
            #expect(agreed.first?.lowercased() == group, "group \(agreed)")
        }
        // The socket layer is labelled as such and says how many bytes went each way.
        let phases = result.trace.events.compactMap { e -> String? in if case .phase(let p) = e.kind { return Explanations.english.phaseName(p) } else { return nil } }
        #expect(phases.contains { $0.hasPrefix("socket-level (what the kernel lets us see): connect()") })
        #expect(phases.contains { $0.contains("close():") && $0.contains("bytes read") })
    }

    @Test("EMS switched off in the server's OpenSSL config file: the handshake completes without it")
    func noExtendedMasterSecret() throws {
        let pki = try TestPKI.require()
        let (server, port) = try startSServer(["-cert", "chain.pem", "-key", "leaf.key", "-www"], pki: pki,
                                              environment: ["OPENSSL_CONF": pki.path("noems.cnf")])
        defer { server.stop() }
        let result = try Self.client(port: port, pki: pki).run()
        #expect(result.failureText == nil, "\(result.failureText ?? "")")
        #expect(!result.extendedMasterSecret)
        let events = Self.tlsEvents(result.trace)
        let label = events.compactMap { e -> String? in
            if case .derived(.masterSecret(_, let label, _, _, _)) = e { return label } else { return nil }
        }.first
        #expect(label == "master secret")
    }

    @Test("mutual TLS: s_server -Verify 1 accepts our client certificate (PKCS#1 key) and refuses no certificate")
    func mutual() throws {
        let pki = try TestPKI.require()
        let identity = try PeerFiles.identity(certificate: pki.path("client.pem"), key: pki.path("client.key"))
        do {
            let (server, port) = try startSServer(["-cert", "chain.pem", "-key", "leaf.key", "-www", "-Verify", "1",
                                                   "-CAfile", "root.pem", "-verify_return_error"], pki: pki)
            defer { server.stop() }
            let result = try Self.client(port: port, pki: pki, identity: identity).run()
            #expect(result.failureText == nil, "\(result.failureText ?? "")")
            #expect(result.response?.contains("TLSLab Test Client") == true, "s_server -www shows the client's certificate")
        }
        do {
            let (server, port) = try startSServer(["-cert", "chain.pem", "-key", "leaf.key", "-www", "-Verify", "1",
                                                   "-CAfile", "root.pem", "-verify_return_error"], pki: pki)
            defer { server.stop() }
            let result = try Self.client(port: port, pki: pki).run()
            #expect(result.failureText?.contains("handshake_failure") == true, "\(result.failureText ?? "succeeded")")
        }
    }

    /// How a simulation ends for the same server certificate and the same evaluator: nil when the
    /// handshake completed, else the cause of the first fatal alert.
    static func simulated(certificate: String, pki: TestPKI, evaluator: any PeerCertificateEvaluator) throws -> (completed: Bool, cause: String?) {
        let identity = try PeerFiles.identity(certificate: pki.path(certificate), key: pki.path("leaf.key"))
        let random = HMACDRBG(seed: 7)
        var setup = SimulationSetup(
            client: TLSClientConfiguration(certificateEvaluator: evaluator, random: random, serverName: "localhost"),
            server: TLSServerConfiguration(identity: identity, random: random), random: random)
        setup.httpRequest = nil
        let summary = Simulation(setup).run().summary
        return (summary.clientCompleted && summary.failure == nil, summary.failure.map { Explanations.english.alertCause($0.cause) })
    }

    /// One trust policy against one server certificate.
    struct TrustCase: Sendable, CustomStringConvertible {
        var certificate: String
        var policy: ClientTrustPolicy
        var ats = false
        /// The alert our client must send (nil: the handshake completes).
        var alert: String?
        var description: String { "\(certificate) under \(policy.handler)\(ats ? " + ATS" : "")" }
    }

    static func pins(_ names: String...) -> [[UInt8]] {
        guard let pki = TestPKI.shared else { return [] }
        return names.flatMap { (try? PeerFiles.certificates(at: pki.path($0)))?.map(\.der) ?? [] }
    }

    static let trustCases: [TrustCase] = [
        TrustCase(certificate: "chain.pem", policy: .systemDefault),
        TrustCase(certificate: "selfsigned.pem", policy: .systemDefault, alert: "unknown_ca"),
        TrustCase(certificate: "wrong.pem", policy: .systemDefault, alert: "bad_certificate"),
        // `openssl req -x509` defaults: a self-signed CA:TRUE certificate presented as the server's. Our
        // chain check rejects the CA:TRUE leaf before looking for an anchor: bad_certificate (OpenSSL
        // says unknown_ca; see selfSignedCAServerAgainstOpenSSL).
        TrustCase(certificate: "selfsigned-ca.pem", policy: .systemDefault, alert: "bad_certificate"),
        TrustCase(certificate: "chain.pem", policy: .systemDefault, ats: true),
        TrustCase(certificate: "wrong.pem", policy: .systemDefault, ats: true, alert: "bad_certificate"),
        // `connect --policy none`.
        TrustCase(certificate: "selfsigned.pem",
                  policy: .afNetworking(AFSecurityPolicy(mode: .none, allowInvalidCertificates: true, validatesDomainName: false))),
        TrustCase(certificate: "wrong.pem", policy: .challengeMode(.simple)),
        TrustCase(certificate: "wrong.pem", policy: .challengeMode(.full), alert: "bad_certificate"),
        TrustCase(certificate: "chain.pem", policy: .afNetworking(AFSecurityPolicy(mode: .certificate, pinnedCertificates: pins("root.pem")))),
        TrustCase(certificate: "chain.pem", policy: .afNetworking(AFSecurityPolicy(mode: .certificate, pinnedCertificates: pins("selfsigned.pem"))),
                  alert: "unknown_ca"),
        // wrong.pem carries the leaf's key: a public-key pin of it matches the real leaf.
        TrustCase(certificate: "chain.pem", policy: .afNetworking(AFSecurityPolicy(mode: .publicKey, pinnedCertificates: pins("wrong.pem")))),
        TrustCase(certificate: "selfsigned.pem", policy: .afNetworking(AFSecurityPolicy(mode: .publicKey, pinnedCertificates: pins("selfsigned.pem"),
                                                                                        allowInvalidCertificates: true))),
    ]

    @Test("trust policies (system default, ATS, AFSecurityPolicy, challenge modes) decide a real server as they decide in a simulation",
          arguments: ClientRoleTests.trustCases)
    func trustPolicy(_ c: TrustCase) throws {
        let pki = try TestPKI.require()
        // s_server sends only the first certificate of -cert: the rest of chain.pem goes in -cert_chain,
        // so that the real server presents what the simulated one does.
        let presented = c.certificate == "chain.pem" ? ["-cert", "leaf.pem", "-cert_chain", "root.pem"] : ["-cert", c.certificate]
        let (server, port) = try startSServer(presented + ["-key", "leaf.key", "-www"], pki: pki)
        defer { server.stop() }
        let roots = try PeerFiles.certificates(at: pki.path("root.pem"))
        let now = Int64(Date().timeIntervalSince1970)
        let evaluator = RealTrust.evaluator(policy: c.policy, ats: c.ats ? ATSPolicy() : nil, anchors: roots, storeName: .file("test root"), time: now)
        var client = try Self.client(port: port, pki: pki)
        client.configuration.certificateEvaluator = evaluator
        if c.ats { client.configuration = try RealTrust.restrict(client.configuration, ats: ATSPolicy(), host: "localhost").get() }
        let result = client.run()
        let simulated = try Self.simulated(certificate: c.certificate, pki: pki, evaluator: evaluator)
        if let alert = c.alert {
            let failure = try #require(result.failureText, "\(c) was accepted")
            #expect(failure.hasPrefix("refused: \(alert) — "), "\(failure)")
            #expect(!simulated.completed)
            let cause = try #require(simulated.cause)
            #expect(failure.hasSuffix(cause), "real: \(failure)\nsimulated: \(cause)")
            // The policy's own steps, in the catalogue's words, up to its first failing check.
            #expect(failure.contains("first failing check: "), "the policy's decision: \(failure)")
            // OpenSSL saw our alert.
            #expect(server.wait(for: "alert", seconds: 2), "\(server.output)")
        } else {
            #expect(result.failureText == nil, "\(c): \(result.failureText ?? "")")
            #expect(simulated.completed, "\(c): simulated \(simulated.cause ?? "")")
        }
    }

    @Test("ATS removes suites without forward secrecy before connecting; an exception domain keeps them")
    func atsSuites() throws {
        let config = TLSClientConfiguration(certificateEvaluator: AcceptAnyCertificate(), random: SystemRandom(),
                                            cipherSuites: [.TLS_RSA_WITH_AES_128_GCM_SHA256, .TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256])
        let strict = try RealTrust.restrict(config, ats: ATSPolicy(), host: "localhost").get()
        #expect(strict.cipherSuites == [.TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256])
        var rsaOnly = config
        rsaOnly.cipherSuites = [.TLS_RSA_WITH_AES_128_GCM_SHA256]
        guard case .failure(let error) = RealTrust.restrict(rsaOnly, ats: ATSPolicy(), host: "localhost") else {
            Issue.record("ATS accepted an RSA-only offer")
            return
        }
        #expect(error == .atsNoForwardSecretSuite(host: "localhost"), "\(error)")
        let relaxed = ATSPolicy(exceptionDomains: ["localhost": ATSPolicy.ExceptionDomain(requiresForwardSecrecy: false)])
        #expect(try RealTrust.restrict(rsaOnly, ats: relaxed, host: "localhost").get().cipherSuites == [.TLS_RSA_WITH_AES_128_GCM_SHA256])
    }

    /// The handshake lines of a text ladder: "client ──▶ server  TLS ClientHello", … (time and sizes dropped).
    static func ladder(_ lines: [String]) -> [String] {
        lines.compactMap { line -> String? in
            guard let range = line.range(of: #"client (──▶|◀──) server  TLS [A-Za-z]+"#, options: .regularExpression) else { return nil }
            let text = String(line[range])
            return text.hasSuffix("TLS Alert") ? nil : text
        }
    }

    @Test("the text trace of a real handshake shows the server's messages as they arrive, the same ladder as a simulation")
    func textLadder() throws {
        let pki = try TestPKI.require()
        let (server, port) = try startSServer(["-cert", "leaf.pem", "-cert_chain", "root.pem", "-key", "leaf.key", "-www"], pki: pki)
        defer { server.stop() }
        let suite = CipherSuite.TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256
        let result = try Self.client(port: port, pki: pki, suites: [suite]).run()
        #expect(result.failureText == nil, "\(result.failureText ?? "")")
        let real = TextRenderer(verbosity: .normal, width: 120, color: false).render(result.trace)

        let identity = try PeerFiles.identity(certificate: pki.path("chain.pem"), key: pki.path("leaf.key"))
        let roots = try PeerFiles.certificates(at: pki.path("root.pem"))
        let random = HMACDRBG(seed: 3)
        let setup = SimulationSetup(
            client: TLSClientConfiguration(certificateEvaluator: RealTrust.evaluator(policy: .systemDefault, anchors: roots, storeName: .file("test root")),
                                           random: random, cipherSuites: [suite], serverName: "localhost"),
            server: TLSServerConfiguration(identity: identity, random: random), random: random)
        let simulated = TextRenderer(verbosity: .normal, width: 120, color: false).render(Simulation(setup).run())

        let ladder = Self.ladder(real)
        #expect(ladder.contains("client ◀── server  TLS ServerHello"), "\(real.joined(separator: "\n"))")
        #expect(ladder == Self.ladder(simulated), "real:\n\(ladder.joined(separator: "\n"))\nsimulated:\n\(Self.ladder(simulated).joined(separator: "\n"))")
        #expect(real.contains { $0.contains("Success on the client side") })
        #expect(!real.contains { $0.contains("Who knows what") }, "no knowledge panel without a wire to measure it from")
        #expect(simulated.contains { $0.contains("Who knows what") })
    }

    @Test("a server that closes at once, or answers with garbage: one clear line")
    func badServers() throws {
        let silent = try TCPListener(port: 0)
        let thread = Thread {
            if let s = try? silent.accept(timeoutMilliseconds: 3_000) { _ = try? s.read(timeoutMilliseconds: 1_000); s.close() }
        }
        thread.start()
        let pki = try TestPKI.require()
        let closed = try Self.client(port: silent.port, pki: pki).run()
        #expect(closed.failureText?.contains("closed the connection during the handshake") == true, "\(closed.failureText ?? "")")

        let garbage = try TCPListener(port: 0)
        let thread2 = Thread {
            if let s = try? garbage.accept(timeoutMilliseconds: 3_000) {
                _ = try? s.read(timeoutMilliseconds: 1_000)
                try? s.write(Array("HTTP/1.1 400 Bad Request\r\n\r\n".utf8))
                _ = try? s.read(timeoutMilliseconds: 1_000)
                s.close()
            }
        }
        thread2.start()
        let answer = try Self.client(port: garbage.port, pki: pki).run()
        #expect(answer.failureText?.hasPrefix("refused: ") == true, "\(answer.failureText ?? "")")
    }

    /// Both refuse; they differ in the alert. OpenSSL looks for a trust anchor first (none: error 18,
    /// self-signed, alert unknown_ca); our chain check (the simulation's too) first finds a leaf with
    /// basicConstraints CA:TRUE, which may not be a TLS server's end-entity certificate, and sends
    /// bad_certificate. Both facts are asserted so that a change on either side shows up here.
    @Test("a self-signed server certificate from `openssl req -x509` defaults (CA:TRUE): refused by s_client (unknown_ca) and by us (bad_certificate, CA:TRUE leaf)")
    func selfSignedCAServerAgainstOpenSSL() throws {
        let pki = try TestPKI.require()
        let openssl = try #require(Tools.openssl)
        let (server, port) = try startSServer(["-cert", "selfsigned-ca.pem", "-key", "leaf.key", "-www"], pki: pki)
        defer { server.stop() }
        // OpenSSL's client: verify error 18, and the alert it sends is unknown_ca (48).
        let theirs = try runTool(openssl, ["s_client", "-connect", "127.0.0.1:\(port)", "-tls1_2", "-CAfile", "root.pem",
                                           "-verify_return_error", "-servername", "localhost"], in: pki.dir, stdin: "", timeout: 15)
        #expect(theirs.output.contains("verify error:num=18:self-signed certificate"), "\(theirs.output)")
        #expect(server.wait(for: "alert unknown ca", seconds: 3), "s_server: \(server.output)")
        // Ours: refused with bad_certificate, naming the CA:TRUE leaf (the simulation says the same: trustPolicy).
        let ours = try Self.client(port: port, pki: pki).run()
        let failure = try #require(ours.failureText, "our client accepted a self-signed certificate")
        #expect(failure.hasPrefix("refused: bad_certificate — "), "\(failure)")
        #expect(failure.contains("not a valid end entity: basicConstraints CA:TRUE"), "\(failure)")
        #expect(server.wait(for: "alert bad certificate", seconds: 3), "s_server saw our alert: \(server.output)")
    }

    @Test("tlslab connect --cert/--key against s_server -Verify 1: mutual TLS completes; without them the server refuses")
    func connectWithClientCertificate() throws {
        let pki = try TestPKI.require()
        let tlslab = try Tools.need(Tools.tlslab, "the tlslab executable is not next to the test bundle")
        let (server, port) = try startSServer(["-cert", "leaf.pem", "-cert_chain", "root.pem", "-key", "leaf.key",
                                               "-Verify", "1", "-CAfile", "root.pem", "-www"], pki: pki)
        defer { server.stop() }
        let base = ["connect", "127.0.0.1:\(port)", "--servername", "localhost", "--ca", "root.pem", "--timeout", "5"]
        let ok = try runTool(tlslab, base + ["--cert", "client.pem", "--key", "client.key"], in: pki.dir, environment: ["NO_COLOR": "1"])
        #expect(ok.status == 0, "\(ok.output.suffix(1500))")
        #expect(ok.output.contains("HTTP/1.0 200 ok"), "s_server's page: \(ok.output.suffix(1500))")
        #expect(server.wait(for: "CN = TLSLab Test Client", seconds: 3), "s_server verified our client certificate: \(server.output)")
        let refused = try runTool(tlslab, base, in: pki.dir, environment: ["NO_COLOR": "1"])
        #expect(refused.status == 1, "\(refused.output.suffix(1500))")
        #expect(refused.output.contains("the server sent a fatal alert: "), "\(refused.output.suffix(500))")
    }
}
