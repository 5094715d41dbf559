import HTTP2
import PKI
import Simulation
import TCPSim
import TLSCrypto
import TLSEngine
import Trace

/// One validated scenario file: a world to simulate and what must happen in it.
public struct Scenario {
    public var file: String
    public var title: String
    public var description: String
    public var seed: UInt64
    public var world: World
    /// Empty for a demo (a file without `expect`): it can be shown but not checked.
    public var expectations: [Expectation]
    /// One or two "try next" suggestions the lesson ends with (`try_next`), possibly none.
    public var tryNext: [String] = []
    /// The lesson's Chinese title, description and try_next lines (`title_zh`, `description_zh`,
    /// `try_next_zh`); nil for a file without them. ``title(for:)`` and its siblings pick a language.
    public var chinese: ChineseLessonText? = nil
    /// `handlers`: the same TLS world run once per ServerTrust challenge handler, each with its own
    /// expectations (empty for an ordinary file, whose expectations are ``expectations``).
    public var handlers: [HandlerVariant] = []
    /// Set on one run of a `handlers` file (``variants()``): which handler, counted from 0, of how many.
    public var handlerChoice: (index: Int, count: Int, name: String)? = nil

    /// What kind of world the file sets up.
    public enum World {
        /// TLS over simulated TCP between a client and a server (the default kind).
        case tls(TLSWorld)
        /// TCP alone: two hosts and a script of user calls and injected segments.
        case tcp(TCPWorld)
        /// An App Transport Security decision about one described connection.
        case ats(ATSWorld)
        /// Diffie-Hellman by hand: a small group, both private exponents, and an eavesdropper's search.
        case dh(DHWorld)
    }

    public var kind: String {
        switch world {
        case .tls: return "tls"
        case .tcp: return "tcp"
        case .ats: return "ats"
        case .dh: return "dh"
        }
    }
}

/// A named certificate and key of the scenario's PKI.
public struct NamedCertificate {
    public var name: String
    public var certificate: X509Certificate
    /// The certificate's private key (RSA or EC), when the scenario's PKI holds it.
    public var key: SigningKey?
}

/// The client's trust policy: how the NSURLSession-style challenge is answered.
public enum ClientPolicy {
    /// The system default evaluation (chain to a trusted root, host name, validity, algorithms).
    case system
    /// AFSecurityPolicy: mode, pinned certificates (by name), flags, historical behaviour.
    case afnetworking(AFSecurityPolicy, pinnedNames: [String])
    /// A hand-written challenge handler's modes None / Simple / Full.
    case challengeMode(ChallengeHandlingPolicies.ChallengeMode)
    /// The hybrid web container (trusts every server).
    case webContainer
    /// The image downloader with its allowInvalidSSLCertificates option.
    case imageDownloader(allowInvalid: Bool)
    /// The bundled-anchor delegate: the named certificates (the app bundles them) as the trust's anchors.
    case bundledAnchor(names: [String], anchorsOnly: Bool)
    /// A handler that answers every ServerTrust challenge with one disposition (`handlers: - answer: …`).
    case fixedAnswer(ChallengeDisposition)
}

/// One entry of `handlers`: a name, the client policy that answers the ServerTrust challenge, and
/// what must happen with it.
public struct HandlerVariant {
    /// Unique in the file: the `answer` (`useCredential`) or the policy's kind unless `name` is given.
    public var name: String
    public var policy: ClientPolicy
    public var expectations: [Expectation]
    public var line: Int
    public var column: Int
}

extension Scenario {
    /// The runs a file stands for: itself, or for a `handlers` file one scenario per handler (the
    /// handler's policy as the client's, its expectations as the file's), in file order.
    public func variants() -> [Scenario] {
        guard !handlers.isEmpty, case .tls(let world) = self.world else { return [self] }
        return handlers.enumerated().map { i, h in
            var w = world
            w.policy = h.policy
            var s = self
            s.world = .tls(w)
            s.expectations = h.expectations
            s.handlers = []
            s.handlerChoice = (i, handlers.count, h.name)
            return s
        }
    }

    /// False for a demo: a file with no `expect` and no `handlers`.
    public var isChecked: Bool { !expectations.isEmpty || !handlers.isEmpty }
}

public struct TLSWorld {
    /// The simulated clock (seconds since 1970) for certificate validity.
    public var now: Int64
    public var certificates: [String: NamedCertificate]

    public var serverChain: [String]
    public var serverSuites: [CipherSuite]
    public var serverMinVersion: ProtocolVersion
    public var serverMaxVersion: ProtocolVersion
    public var dhGroup: DHGroup
    public var serverEMS: Bool
    public var clientAuth: ClientAuthentication
    public var clientCAs: [String]
    public var subjectWhitelist: [String]?

    public var host: String
    public var clientSuites: [CipherSuite]
    public var clientMinVersion: ProtocolVersion
    public var clientMaxVersion: ProtocolVersion
    public var clientEMS: Bool
    public var minimumDHPrimeBits: Int
    public var trustStore: [String]
    public var customAnchors: [String]?
    public var anchorsOnly: Bool
    public var policy: ClientPolicy
    /// The app's ATS dictionary, applied to the server's certificate before the challenge.
    public var ats: ATSPolicy?
    public var identity: [String]?

    public var network: NetworkSpec
    public var tcp: TCPSpec
    public var httpRequest: String?
    public var httpResponse: String
    /// More than one request (`http.requests`), carried as `connectionMode` says.
    public var requests: [String]?
    public var connectionMode: HTTPConnectionMode
    /// False: plain HTTP over TCP, no TLS.
    public var usesTLS: Bool
    public var resumesSessions: Bool
    /// `resumption: ticket`: resumption by session ticket (RFC 5077) instead of session ID.
    public var resumesByTicket = false
    public var cpu: VirtualCPU
    public var attack: Attack?
    /// ALPN (RFC 7301): the server's protocols in its preference order, and the client's offer
    /// (empty: that side does not use ALPN).
    public var serverALPN: [String] = []
    public var clientALPN: [String] = []
    /// HTTP/2 server push (`http.push`): paths the server pushes with its first response.
    public var http2Push: [String] = []
    /// HTTP/2 (`http.max_concurrent_streams`): the server's SETTINGS_MAX_CONCURRENT_STREAMS.
    public var http2MaxConcurrentStreams: UInt32 = HTTP2Defaults.maxConcurrentStreams
    /// True when the PKI has an EC key (`pki.keys`): the client then offers, as `tlslab connect`
    /// does, the ECDSA signature schemes and secp384r1 besides the RSA ones (RFC 8422 §5.1), and
    /// both sides' default suites start with the ECDHE_ECDSA AEAD suites. An RSA-only PKI keeps
    /// the original offer, so its runs' bytes do not change.
    public var offersECDSA = false
    /// A P-521 or Ed25519 key in the PKI: the client offers ecdsa_secp521r1_sha512, ed25519 and secp521r1 too.
    public var offersNewerSchemes = false
    /// `version: "1.3"`: both sides speak TLS 1.3 (RFC 8446) with these suites, groups and key
    /// shares; nil: TLS 1.2.
    public var tls13: TLS13Options? = nil
}

/// Latency and loss between the two hosts.
public struct NetworkSpec {
    public var latencyMs = 20
    public var loss = 0.0
    public var duplicate = 0.0
    public var jitterMs = 0
    public var faults: [FaultSpec] = []
}

/// "The nth segment from `from` is dropped / duplicated / delayed."
public struct FaultSpec {
    public var from: String   // client | server
    public var nth: Int
    public var action: TCPFaultRule.Action
}

/// TCP parameters of both hosts.
public struct TCPSpec {
    public var mss = 1460
    public var window = 65_535
    public var clientISN: ISNMode = .random
    public var serverISN: ISNMode = .random
    public var handshake: TCPHandshakeMode = .threeWay
    public var minimumRTOMs = 1000
    public var initialRTOMs = 1000
    public var mslMs = 30_000
    public var backlog = 128
    public var synCookies = false
}

/// A TCP-only world: a client host, a server host listening on port 80, and timed actions.
public struct TCPWorld {
    public var network: NetworkSpec
    public var tcp: TCPSpec
    public var actions: [TCPAction]
    public var runMs: Int
}

/// One scripted step of a TCP scenario, at a virtual time in milliseconds.
public struct TCPAction {
    public enum Kind {
        /// The client opens a connection to the server (port 80).
        case connect
        /// `by` writes `bytes` octets (or `text`).
        case send(by: String, bytes: [UInt8])
        /// `by` closes its side (FIN).
        case close(by: String)
        /// `by` aborts (RST).
        case abort(by: String)
        /// A stale SYN from an earlier incarnation of the client's connection, with sequence number `seq`.
        case oldDuplicateSYN(seq: UInt32)
        /// `count` spoofed SYNs per second for `seconds` seconds from addresses that do not exist.
        case synFlood(perSecond: Int, seconds: Int)
        /// The off-path attack: probe the server's ISN, then spoof a trusted host and inject `text` blind.
        case offPathInjection(text: String)
    }
    public var atMs: Int
    public var kind: Kind
}

/// A described connection judged by an ATS dictionary.
public struct ATSWorld {
    public var policy: ATSPolicy
    public var host: String
    public var usesHTTPS: Bool
    public var tlsVersion: ATSPolicy.TLSVersion
    public var forwardSecret: Bool
    public var loadKind: ATSPolicy.LoadKind
    public var chain: [String]
    public var now: Int64
    public var certificates: [String: NamedCertificate]
    public var trustStore: [String]
}

/// Diffie-Hellman on the blackboard (a worked example with small numbers): a group small enough to write
/// down, each side's private exponent, and an eavesdropper that sees g, p and both public values
/// and tries every exponent until one gives the client's public value.
public struct DHWorld {
    public var p: Int
    public var g: Int
    public var clientPrivate: Int
    public var serverPrivate: Int
}
