import HTTP2
import PKI
import TCPSim
import TLSCrypto
import TLSEngine
import Trace

/// Everything one run needs: the two TLS endpoints, the network between them, and the HTTP
/// exchange to carry once the handshake is done.
public struct SimulationSetup {
    public var client: TLSClientConfiguration
    public var server: TLSServerConfiguration
    /// The source for everything random outside the TLS engines (TCP initial sequence numbers,
    /// random loss). Use the same seeded source as the engines to reproduce a run from one seed.
    public var random: RandomSource
    /// Documentation addresses (RFC 5737): nothing here is ever sent to a real network.
    public var clientAddress = IPv4Address(192, 0, 2, 10)
    public var serverAddress = IPv4Address(198, 51, 100, 20)
    /// Where a man in the middle sits (only used by `Attack.mitm`).
    public var attackerAddress = IPv4Address(203, 0, 113, 66)
    public var serverPort: UInt16 = 443
    public var link = TCPLink(latency: TCPDuration.milliseconds(20))
    public var tcpConfig = TCPConfig()
    /// How each host picks TCP initial sequence numbers (RFC 6528: random; a BSD counter is predictable).
    public var clientISN = ISNMode.random
    public var serverISN = ISNMode.random
    public var faults: [TCPFaultRule] = []
    /// The HTTP/1.1 request the client sends once the handshake completes (nil: none). Used when
    /// `requests` is nil.
    public var httpRequest: String? = "GET / HTTP/1.1\r\nHost: example.com\r\nCookie: session=42\r\n\r\n"
    /// Several requests (nil: just `httpRequest`).
    public var requests: [String]?
    /// How the requests use connections.
    public var connectionMode: HTTPConnectionMode = .keepAlive
    /// HTTP/2 server push (`.h2` only): paths the server pushes (PUSH_PROMISE on stream 1, the
    /// pushed responses on streams 2, 4, …) with its response to the first request.
    public var http2Push: [String] = []
    /// HTTP/2: the server's SETTINGS_MAX_CONCURRENT_STREAMS (RFC 9113 §6.5.2): the client keeps at
    /// most this many streams open; a stream beyond it is refused with REFUSED_STREAM.
    public var http2MaxConcurrentStreams: UInt32 = HTTP2Defaults.maxConcurrentStreams
    /// HTTP/2: the largest request header list the server accepts (announced as
    /// SETTINGS_MAX_HEADER_LIST_SIZE); a larger one is answered 431. nil: no limit, none announced.
    public var http2MaxHeaderListSize: Int?
    /// HTTP/2: the largest request body the server accepts; a larger one is answered 413. nil: no limit.
    public var http2MaxBodySize: Int?
    /// The server's answer to every request.
    public var httpResponse = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 6\r\n\r\nhello\n"
    /// false: plain HTTP straight over TCP, no TLS at all.
    public var usesTLS = true
    /// TLS 1.3 (RFC 8446) instead of 1.2: what the 1.3 client offers and the 1.3 server accepts.
    /// The client's server name and certificate evaluator, and the server's identity, are the
    /// 1.2 configurations' own (``client``, ``server``); nil: TLS 1.2.
    public var tls13: TLS13Options?
    /// The TLS version the run speaks: 1.3 when ``tls13`` is set.
    public var protocolVersion: ProtocolVersion { tls13 == nil ? .tls12 : .tls13 }
    /// Later connections offer the session of the first (RFC 5246 §7.3 abbreviated handshake). The
    /// server gets a session cache if it has none.
    public var resumesSessions = false
    /// With ``resumesSessions``: resumption by session ticket (RFC 5077) instead of session ID — the
    /// server keeps no session cache and seals each session into a ticket under keys drawn from the
    /// run's random source; the client asks for a ticket and offers it back.
    public var resumesByTicket = false
    /// Virtual CPU time per public-key operation (default: none).
    public var cpu = VirtualCPU.free
    /// What an attacker does besides recording every segment (nil: a passive eavesdropper only).
    public var attack: Attack?
    /// The AFNetworking release whose `AFSecurityPolicy` the client's evaluator reproduces (nil: no
    /// AFNetworking policy); recorded with the client's chain validation for the renderers.
    public var clientAFNetworkingRelease: AFSecurityPolicy.Behaviour?
    /// A run stops at this virtual time even if something still waits (a lost-for-good segment).
    public var timeLimit: TCPTime = TCPDuration.seconds(600)

    public init(client: TLSClientConfiguration, server: TLSServerConfiguration, random: RandomSource) {
        self.client = client
        self.server = server
        self.random = random
    }

    /// The requests the client will send, in order.
    public var plannedRequests: [String] { requests ?? httpRequest.map { [$0] } ?? [] }
}

/// What a TLS 1.3 run offers and accepts (RFC 8446 §4.1.1, §4.2.7, §4.2.8).
public struct TLS13Options: Sendable {
    /// The client's suites, in its order of preference.
    public var suites: [TLS13CipherSuite]
    /// The server's suites (nil: the client's list).
    public var serverSuites: [TLS13CipherSuite]?
    /// The client's supported_groups, in order of preference.
    public var groups: [NamedGroup]
    /// The groups the client's first ClientHello sends a key share for.
    public var keyShareGroups: [NamedGroup]
    /// The server's groups, in its order of preference.
    public var serverGroups: [NamedGroup]
    /// The server sends a NewSessionTicket after each handshake and later connections offer the
    /// last ticket back with pre_shared_key (psk_dhe_ke, RFC 8446 §2.2, §4.2.11).
    public var resumes: Bool
    /// The server asks for a client certificate (CertificateRequest, RFC 8446 §4.3.2); the client
    /// answers with ``SimulationSetup/client``'s identity, the server judges it with
    /// ``SimulationSetup/server``'s client certificate evaluator.
    public var clientAuthentication: ClientAuthentication
    /// The client offers TLS 1.2 beside 1.3 in one ClientHello (``DualVersionClient``).
    public var clientOffersTLS12 = false
    /// What the server speaks: TLS 1.3 alone, 1.3 and 1.2 (``DualVersionServer``, with the downgrade
    /// sentinel when it answers 1.2), or 1.2 alone.
    public var serverVersions: ServerVersions = .tls13Only

    public enum ServerVersions: Sendable, Hashable {
        case tls13Only, tls13AndTLS12, tls12Only
    }
    /// 0-RTT (RFC 8446 §2.3): the tickets allow early data and a resuming client sends its first
    /// request in its first flight; nil: no early data.
    public var earlyData: TLS13EarlyDataOptions?

    public init(suites: [TLS13CipherSuite] = [.aes128GCMSHA256], groups: [NamedGroup] = [.x25519, .secp256r1],
                keyShareGroups: [NamedGroup] = [.x25519], serverGroups: [NamedGroup] = [.x25519, .secp256r1], resumes: Bool = false,
                clientAuthentication: ClientAuthentication = .none) {
        self.resumes = resumes
        self.clientAuthentication = clientAuthentication
        self.suites = suites
        self.groups = groups
        self.keyShareGroups = keyShareGroups
        self.serverGroups = serverGroups
    }
}

/// Runs TLS over the simulated TCP: three-way handshake, the TLS handshake carried in segments,
/// the HTTP requests and responses as application data, close_notify both ways, four-way close —
/// for one or several connections, optionally with an attacker on the path or in the middle.
/// Deterministic: the same setup with the same seeds gives the same trace, byte for byte.
public struct Simulation {
    public var setup: SimulationSetup

    public init(_ setup: SimulationSetup) { self.setup = setup }

    public func run() -> Trace {
        let run = Run(setup: setup)
        run.execute()
        var participants = [setup.clientAddress: Actor.client, setup.serverAddress: .server]
        if case .mitm? = setup.attack { participants[setup.attackerAddress] = .attacker }
        // The 0-RTT replayer connects to the server from its own address.
        if run.earlyFlightReplayed { participants[setup.attackerAddress] = .attacker }
        return Trace(events: run.events, participants: participants, streamSpans: run.spans, exchange: run.exchange)
    }
}
