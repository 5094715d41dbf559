import PKI
import TCPSim
import TLSCrypto
import TLSEngine

/// The runs `tlslab` knows by name (scenario files arrive with the scenario layer).
public enum BuiltInRun: String, CaseIterable, Sendable {
    case rsa, dhe, ecdhe, wrongHost = "wrong-host", untrusted, lossy

    public var summary: String {
        switch self {
        case .rsa: return "RSA key exchange, one-way authentication (the default walkthrough)"
        case .dhe: return "finite-field Diffie-Hellman (DHE, RFC 3526 group 14): forward secrecy"
        case .ecdhe: return "elliptic-curve Diffie-Hellman (ECDHE, X25519)"
        case .wrongHost: return "the client asks for mail.example.com; the certificate names example.com"
        case .untrusted: return "the client does not trust the server's root CA"
        case .lossy: return "RSA over a network that loses two segments: TCP retransmits"
        }
    }

    public enum SetupError: Error, CustomStringConvertible {
        case demoPKI(String)
        public var description: String {
            switch self { case .demoPKI(let why): return "the built-in demo PKI does not load: \(why)" }
        }
    }

    /// The setup for this run. `seed` drives every random value; nil uses the system CSPRNG.
    public func setup(seed: UInt64?) throws(SetupError) -> SimulationSetup {
        let random: RandomSource = seed.map { HMACDRBG(seed: $0) } ?? SystemRandom()
        let key: RSAPrivateKey
        let root: X509Certificate, leaf: X509Certificate
        do {
            key = try RSAPrivateKey(pem: DemoPKI.serverKeyPEM)
        } catch {
            throw .demoPKI("server key: \(error)")
        }
        do {
            guard let r = try X509Certificate.parseAll(Array(DemoPKI.rootCertificatePEM.utf8), source: "demo root").first,
                  let l = try X509Certificate.parseAll(Array(DemoPKI.serverCertificatePEM.utf8), source: "demo server").first
            else { throw SetupError.demoPKI("no certificate") }
            root = r
            leaf = l
        } catch let error as SetupError {
            throw error
        } catch {
            throw .demoPKI("certificates: \(error)")
        }
        let trusted = self == .untrusted ? [] : [root]
        // The simulated clock: one day into the certificates' validity.
        let now = leaf.notBefore + 86_400
        let evaluator = ChainTrustEvaluator(anchors: AnchorSelection(system: TrustStore.system(trusted)), time: now)
        let suites: [CipherSuite]
        switch self {
        case .rsa, .wrongHost, .untrusted, .lossy: suites = [.TLS_RSA_WITH_AES_128_GCM_SHA256]
        case .dhe: suites = [.TLS_DHE_RSA_WITH_AES_128_GCM_SHA256]
        case .ecdhe: suites = [.TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256]
        }
        let host = self == .wrongHost ? "mail.example.com" : "example.com"
        let client = TLSClientConfiguration(certificateEvaluator: evaluator, random: random, cipherSuites: suites, serverName: host)
        let server = TLSServerConfiguration(identity: TLSIdentity(certificateChain: [leaf.der], privateKey: key),
                                            random: random, cipherSuites: suites)
        var setup = SimulationSetup(client: client, server: server, random: random)
        setup.httpRequest = "GET /profile HTTP/1.1\r\nHost: \(host)\r\nCookie: session=42\r\n\r\n"
        if self == .lossy {
            setup.faults = [TCPFaultRule(from: setup.clientAddress, to: setup.serverAddress, nth: 4, .drop),
                            TCPFaultRule(from: setup.serverAddress, to: setup.clientAddress, nth: 3, .drop)]
        }
        return setup
    }
}
