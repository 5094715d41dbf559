import PKI
import TCPSim
import TLSCrypto
import TLSEngine
import Trust

/// The runs `tlslab` knows by name (scenario files arrive with the scenario layer).
public enum BuiltInRun: String, CaseIterable, Sendable {
    case rsa, dhe, ecdhe, wrongHost = "wrong-host", untrusted, lossy
    case httpPlain = "http-plain"
    case keyTheftRSA = "key-theft-rsa", keyTheftDHE = "key-theft-dhe", keyTheftECDHE = "key-theft-ecdhe"
    case weakRandom = "weak-random"
    case mitm, mitmTrusting = "mitm-trusting"
    case tamperServerHello = "tamper-serverhello"
    case strip, replay
    case http10, keepAlive = "keep-alive", pipelining, resumption
    case h2, h2c
    case chacha20
    case tls13
    case tls13HRR = "tls13-hrr"
    case tls13Resumption = "tls13-resumption"
    case tls13ClientAuth = "tls13-client-auth"
    case tls13MITM = "tls13-mitm"
    case tls13KeyTheft = "tls13-key-theft"
    case tls13Downgrade = "tls13-downgrade"
    case tls13ZeroRTT = "tls13-0rtt"
    case tls13ZeroRTTReplay = "tls13-0rtt-replay"
    case tls13ZeroRTTSingleUse = "tls13-0rtt-single-use"
    case tls13ZeroRTTRecorded = "tls13-0rtt-recorded"

    /// Why a built-in run cannot be set up: its compiled-in certificates or keys do not load (typed;
    /// the catalogue words it, `builtInPKI.*`).
    public enum SetupError: Error, Equatable, CustomStringConvertible {
        case demoPKI(BuiltInPKIFailure)
        public var description: String {
            switch self { case .demoPKI(let why): return "the built-in demo PKI does not load: \(why)" }
        }
    }

    static func certificate(_ pem: String, _ label: String) throws(SetupError) -> X509Certificate {
        do throws(BuiltInPKIFailure) { return try BuiltInPKIFailure.loadCertificate(pem, label: label) } catch { throw .demoPKI(error) }
    }

    static func key(_ pem: String, _ label: String) throws(SetupError) -> RSAPrivateKey {
        do throws(BuiltInPKIFailure) { return try BuiltInPKIFailure.loadRSAKey(pem, label: label) } catch { throw .demoPKI(error) }
    }

    /// The setup for this run. `seed` drives every random value (a seeded HMAC_DRBG).
    public func setup(seed: UInt64) throws(SetupError) -> SimulationSetup {
        try prepare(random: HMACDRBG(seed: seed)).setup
    }

    /// The setup and the certificates and keys it uses (for `tlslab export --pki`), with every
    /// random value drawn from `random` — the caller's choice: a seeded generator for lessons and
    /// tests, the system CSPRNG when the command line asks for it.
    public func prepare(random: any RandomSource) throws(SetupError) -> (setup: SimulationSetup, pki: PKIMaterial) {
        let key = try Self.key(DemoPKI.serverKeyPEM, "demo-leaf")
        let root = try Self.certificate(DemoPKI.rootCertificatePEM, "demo-root")
        let leaf = try Self.certificate(DemoPKI.serverCertificatePEM, "demo-leaf")
        let trusted = self == .untrusted ? [] : [root]
        // The simulated clock: one day into the certificates' validity.
        let now = leaf.notBefore + 86_400
        let evaluator: any PeerCertificateEvaluator = self == .mitmTrusting
            ? TrustEverything()
            : ChainTrustEvaluator(anchors: AnchorSelection(system: TrustStore.system(trusted)), time: now)
        let rsa = CipherSuite.TLS_RSA_WITH_AES_128_GCM_SHA256
        let suites: [CipherSuite]
        var serverSuites: [CipherSuite]?
        switch self {
        case .dhe, .keyTheftDHE: suites = [.TLS_DHE_RSA_WITH_AES_128_GCM_SHA256]
        // HTTP/2 over TLS 1.2 needs an ephemeral key exchange and an AEAD cipher (RFC 9113 §9.2.2).
        // tls13-downgrade: the 1.2 half of the offer is ECDHE, whose signature covers server_random (RFC 8446 §4.1.3).
        case .ecdhe, .keyTheftECDHE, .h2, .tls13Downgrade: suites = [.TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256]
        // The second AEAD (RFC 7905), fast without AES instructions.
        case .chacha20: suites = [.TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256]
        case .strip:
            suites = [.TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256, .TLS_DHE_RSA_WITH_AES_128_GCM_SHA256, rsa]
            serverSuites = suites
        default: suites = [rsa]
        }
        let host = self == .wrongHost ? "mail.example.com" : "example.com"
        // The strip lesson turns extended master secret off so the downgrade shows as a Finished
        // mismatch (decrypt_error); with EMS the changed ClientHello already changes the keys.
        let client = TLSClientConfiguration(certificateEvaluator: evaluator, random: random, cipherSuites: suites, serverName: host,
                                            offerExtendedMasterSecret: self != .strip)
        let server = TLSServerConfiguration(identity: TLSIdentity(certificateChain: [leaf.der], privateKey: key),
                                            random: random, cipherSuites: serverSuites ?? suites)
        var setup = SimulationSetup(client: client, server: server, random: random)
        setup.httpRequest = "GET /profile HTTP/1.1\r\nHost: \(host)\r\nCookie: session=42\r\n\r\n"
        let three = ["/", "/style.css", "/logo.png"]
        switch self {
        case .lossy:
            setup.faults = [TCPFaultRule(from: setup.clientAddress, to: setup.serverAddress, nth: 4, .drop),
                            TCPFaultRule(from: setup.serverAddress, to: setup.clientAddress, nth: 3, .drop)]
        case .httpPlain:
            setup.usesTLS = false
            setup.serverPort = 80
        case .keyTheftRSA, .keyTheftDHE, .keyTheftECDHE, .tls13KeyTheft:
            setup.attack = .stealServerKeyAfterwards
        case .weakRandom:
            setup.attack = .weakClientRandom(WeakRandom())
        case .mitm, .mitmTrusting, .tls13MITM:
            let attackerKey = try Self.key(AttackerPKI.keyPEM, "attacker")
            let attackerCert = try Self.certificate(AttackerPKI.certificatePEM, "attacker")
            setup.attack = .mitm(identity: TLSIdentity(certificateChain: [attackerCert.der], privateKey: attackerKey))
        case .tamperServerHello:
            // Byte 4 + 2 + 10 of ServerHello: the eleventh byte of server_random.
            setup.attack = .tamper(TamperTarget(message: "ServerHello", sender: .server, offset: 16))
        case .strip:
            setup.attack = .stripSuites([.TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256, .TLS_DHE_RSA_WITH_AES_128_GCM_SHA256])
        case .replay:
            setup.attack = .replayApplicationData(index: 0)
        case .http10:
            setup.connectionMode = .oneRequestPerConnection
            setup.requests = three.map { "GET \($0) HTTP/1.0\r\nHost: \(host)\r\nCookie: session=42\r\n\r\n" }
            setup.httpResponse = "HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 6\r\n\r\nhello\n"
            setup.cpu = .measured
        case .keepAlive, .pipelining:
            setup.connectionMode = self == .keepAlive ? .keepAlive : .pipelining
            setup.requests = three.map { "GET \($0) HTTP/1.1\r\nHost: \(host)\r\nCookie: session=42\r\n\r\n" }
            setup.cpu = .measured
        case .h2, .h2c:
            setup.connectionMode = .h2
            setup.requests = three.map { "GET \($0) HTTP/1.1\r\nHost: \(host)\r\nCookie: session=42\r\n\r\n" }
            setup.cpu = .measured
            if self == .h2c {
                setup.usesTLS = false
                setup.serverPort = 80
            } else {
                // HTTP/2 over TLS is chosen inside the handshake (RFC 9113 §3.2): this client speaks
                // only HTTP/2 and offers h2; the server speaks both and prefers h2.
                setup.client.applicationProtocols = [.h2]
                setup.server.applicationProtocols = [.h2, .http11]
            }
        case .tls13:
            // One round trip: the client guesses X25519 and sends its key share at once (RFC 8446 §2).
            setup.tls13 = TLS13Options(suites: [.aes128GCMSHA256], groups: [.x25519, .secp256r1], keyShareGroups: [.x25519])
        default:
            break
        }
        switch self {
        case .tls13MITM, .tls13KeyTheft:
            // The 1.2 attacks on the same world: the attacker's certificate (mitm), the server's RSA key stolen later (key-theft).
            setup.tls13 = TLS13Options(suites: [.aes128GCMSHA256], groups: [.x25519, .secp256r1], keyShareGroups: [.x25519])
        case .tls13Downgrade:
            // The client offers TLS 1.3 and 1.2 in one ClientHello; the server speaks both; an on-path
            // attacker takes 1.3 out of the ClientHello; the server answers 1.2 with the DOWNGRD
            // sentinel in its random, and the client refuses (RFC 8446 §4.1.3).
            var options = TLS13Options(suites: [.aes128GCMSHA256], groups: [.x25519, .secp256r1], keyShareGroups: [.x25519])
            options.clientOffersTLS12 = true
            options.serverVersions = .tls13AndTLS12
            setup.tls13 = options
            setup.attack = .stripTLS13
        case .tls13HRR:
            // The client supports X25519 but sends a share for P-256 only; this server takes X25519 alone
            // and asks for it (RFC 8446 §4.1.4): the guess cost a round trip.
            setup.tls13 = TLS13Options(suites: [.aes128GCMSHA256], groups: [.secp256r1, .x25519], keyShareGroups: [.secp256r1],
                                       serverGroups: [.x25519])
        case .tls13Resumption:
            // Two connections: the first a full handshake after which the server sends a
            // NewSessionTicket; the second offers it back with pre_shared_key (RFC 8446 §2.2).
            setup.tls13 = TLS13Options(suites: [.aes128GCMSHA256], groups: [.x25519, .secp256r1], keyShareGroups: [.x25519], resumes: true)
            setup.connectionMode = .oneRequestPerConnection
            setup.requests = ["/", "/next"].map { "GET \($0) HTTP/1.1\r\nHost: \(host)\r\nCookie: session=42\r\nConnection: close\r\n\r\n" }
        case .tls13ClientAuth:
            // The server asks for a certificate inside its encrypted flight (RFC 8446 §4.3.2); the client
            // has one from the demo CA, for an ECDSA P-256 key made for this run, with EKU clientAuth.
            setup.tls13 = TLS13Options(suites: [.aes128GCMSHA256], groups: [.x25519, .secp256r1], keyShareGroups: [.x25519],
                                       clientAuthentication: .require)
            let client = try Self.clientIdentity(root: root, now: now, random: random)
            setup.client.identity = client.identity
            setup.server.clientCertificateEvaluator = MutualTLSEvaluator(policy: MutualTLSPolicy(mode: .require, clientCAs: [root]), time: now)
        case .tls13ZeroRTT, .tls13ZeroRTTReplay, .tls13ZeroRTTSingleUse, .tls13ZeroRTTRecorded:
            // Two connections: the first's ticket allows early data (RFC 8446 §4.6.1); the second
            // resumes with it and sends its request as 0-RTT data in its first flight (§2.3). The
            // replay runs add an on-path attacker that records that flight and sends it again (§8);
            // single-use: the server redeems each ticket once (§8.1); recorded: the server records the
            // ClientHellos whose early data it accepted, within a 10-second window (§8.2, §8.3).
            setup.tls13 = TLS13Options(suites: [.aes128GCMSHA256], groups: [.x25519, .secp256r1], keyShareGroups: [.x25519], resumes: true)
            setup.tls13?.earlyData = TLS13EarlyDataOptions(singleUseTickets: self == .tls13ZeroRTTSingleUse,
                                                           recordingWindowMilliseconds: self == .tls13ZeroRTTRecorded ? 10_000 : nil)
            setup.connectionMode = .oneRequestPerConnection
            setup.requests = ["/", "/next"].map { "GET \($0) HTTP/1.1\r\nHost: \(host)\r\nCookie: session=42\r\nConnection: close\r\n\r\n" }
            if self != .tls13ZeroRTT { setup.attack = .replayEarlyData }
        case .resumption:
            setup.connectionMode = .oneRequestPerConnection
            setup.resumesSessions = true
            setup.requests = ["/", "/next"].map { "GET \($0) HTTP/1.1\r\nHost: \(host)\r\nCookie: session=42\r\nConnection: close\r\n\r\n" }
            setup.cpu = .measured
        default:
            break
        }
        return (setup, PKIMaterial(serverChain: [leaf], serverKey: .rsa(key), roots: [root]))
    }

    /// A client certificate signed by the demo root for a fresh ECDSA P-256 key (tls13-client-auth):
    /// digitalSignature and EKU clientAuth (RFC 5280 §4.2.1.3, §4.2.1.12), valid around `now`.
    static func clientIdentity(root: X509Certificate, now: Int64, random: any RandomSource) throws(SetupError) -> (identity: TLSIdentity, certificate: X509Certificate) {
        let rootKey = try Self.key(DemoPKI.rootKeyPEM, "demo-root")
        let key: ECDSAPrivateKey
        do throws(ECDSAError) { key = try ECDSAPrivateKey.generate(curve: .p256, using: random) } catch { throw .demoPKI(.clientKey(error)) }
        do throws(PKIError) {
            let template = CertificateTemplate(serialNumber: [0x0c, 0x11], subject: [.commonName("Demo Client")],
                                               notBefore: now - 86_400, notAfter: now + 365 * 86_400,
                                               keyUsage: [.digitalSignature], extendedKeyUsage: [CertificateExtensions.clientAuth])
            let certificate = try CertificateBuilder.build(template, subjectKey: .ecdsa(key.publicKey), issuer: root, issuerKey: .rsa(rootKey))
            return (TLSIdentity(certificateChain: [certificate.der], key: .ecdsa(key)), certificate)
        } catch {
            throw .demoPKI(.clientCertificate(error))
        }
    }
}
