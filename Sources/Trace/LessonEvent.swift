import PKI

/// What a lesson without a TLS connection shows, as facts: an ATS decision's plan and rules, the
/// steps of a Diffie-Hellman exchange by hand, a TCP script's steps and how its connection ended.
/// Renderers word them (no text here).
public enum LessonEvent: Sendable, Hashable {
    /// The connection ATS judges and the app's Info.plist.
    case atsPlan(ATSPlan)
    /// One ATS rule, in the order ATS applied it.
    case atsRule(ATSRuleCheck)
    /// ATS's decision: the load goes ahead or is blocked.
    case atsVerdict(allowed: Bool)
    /// One step of a Diffie-Hellman exchange by hand.
    case dh(DHStep)
    /// A step of a TCP lesson's script that is not a segment of its own.
    case tcpScript(TCPScriptStep)
    /// How a TCP lesson's connection ended.
    case tcpEnd(TCPLessonEnd)
}

/// The connection an ATS lesson describes, before ATS judges it.
public struct ATSPlan: Sendable, Hashable {
    /// One Info.plist setting: the path of keys under NSAppTransportSecurity and its value.
    public struct Setting: Sendable, Hashable {
        public var path: [String]
        public var value: String
        public init(path: [String], value: String) { self.path = path; self.value = value }
    }

    public var url: String
    public var host: String
    public var usesHTTPS: Bool
    /// The load kind (`app`, `webContent`, `media`).
    public var load: String
    /// What the TLS handshake negotiated (HTTPS only): the version name, whether the suite is forward secret.
    public var tlsVersion: String
    public var forwardSecret: Bool
    /// The certificates the server presents, leaf first, by name.
    public var chain: [String]
    /// The app's Info.plist (empty: no NSAppTransportSecurity dictionary, ATS's defaults).
    public var settings: [Setting]

    public init(url: String, host: String, usesHTTPS: Bool, load: String, tlsVersion: String, forwardSecret: Bool,
                chain: [String], settings: [Setting]) {
        self.url = url
        self.host = host
        self.usesHTTPS = usesHTTPS
        self.load = load
        self.tlsVersion = tlsVersion
        self.forwardSecret = forwardSecret
        self.chain = chain
        self.settings = settings
    }
}

/// Diffie-Hellman on the blackboard: small numbers, every value shown. Sides are `.client`
/// (exponent a, public value A) and `.server` (b, B); `.eavesdropper` searches.
public enum DHStep: Sendable, Hashable {
    /// The public group: prime p and generator g, and p's size in bits.
    case group(p: Int, g: Int, bits: Int)
    /// A side picks its private exponent (never sent).
    case privateExponent(side: Actor, value: Int)
    /// A side computes its public value g^x mod p.
    case publicValue(side: Actor, g: Int, exponent: Int, p: Int, value: Int)
    /// A side sends its public value (the eavesdropper sees it).
    case sent(side: Actor, value: Int)
    /// A side checks the peer's public value: 1 < y < p − 1 (RFC 7919 §5.1).
    case rangeCheck(side: Actor, value: Int, p: Int, passed: Bool)
    /// A side computes the shared value peer^x mod p.
    case shared(side: Actor, peerValue: Int, exponent: Int, p: Int, value: Int)
    /// The eavesdropper's exhaustive search: exponents tried, the one that gives the client's
    /// public value (nil: none below p), and the shared value it then computes.
    case search(target: Int, tries: Int, exponent: Int?, recovered: Int?)
    /// Both sides hold the same value (or not).
    case agreement(client: Int, server: Int)
}

/// A TCP lesson's script step that the segments alone do not show.
public enum TCPScriptStep: Sendable, Hashable {
    /// The application calls CONNECT, SEND (octets), CLOSE or ABORT (RFC 9293 §3.10 user calls).
    case connect(by: Actor)
    case send(by: Actor, octets: Int)
    case close(by: Actor)
    case abort(by: Actor)
    /// A stale SYN from an earlier incarnation of the connection arrives (sequence number `seq`).
    case oldDuplicateSYN(seq: UInt32)
    /// Spoofed SYNs from addresses that never answer: per second, for `seconds`.
    case synFlood(perSecond: Int, seconds: Int)
    /// The flood's totals: spoofed SYNs sent, SYN-ACKs (and cookies) the server sent back, SYNs the
    /// full backlog dropped (the flood's own and the client's). The flood's segments are counted, not drawn.
    case floodTotals(spoofedSYNs: Int, synAcks: Int, backlogDrops: Int, clientDrops: Int)
    /// The off-path attacker opens a connection of its own to read the server's current ISN.
    case probe(observedISN: UInt32)
    /// … and predicts the next ISN (4.3BSD adds TCP_ISSINCR/2 = 64,000 per connection).
    case predictISN(observed: UInt32, predicted: UInt32, spoofed: String)
}

/// How a TCP lesson ended: each side's final RFC 9293 state, the error the client's application
/// was told, and what each application read.
public struct TCPLessonEnd: Sendable, Hashable {
    public var clientState: String
    public var serverState: String
    public var clientError: String
    public var clientReceived: String
    public var serverReceived: String
    public var retransmissions: Int

    public init(clientState: String, serverState: String, clientError: String, clientReceived: String,
                serverReceived: String, retransmissions: Int) {
        self.clientState = clientState
        self.serverState = serverState
        self.clientError = clientError
        self.clientReceived = clientReceived
        self.serverReceived = serverReceived
        self.retransmissions = retransmissions
    }
}

extension Trace {
    /// True for a lesson without TLS or HTTP: TCP alone, an ATS decision, DH by hand.
    public var isLessonOnly: Bool {
        !events.contains { event in
            switch event.kind {
            case .tls, .http, .http2: return true
            default: return false
            }
        }
    }
}

extension Trace {
    /// True for an ATS lesson: a plan, rules and a verdict, nothing on a wire.
    public var isATSDecision: Bool {
        !events.isEmpty && events.allSatisfy { event in
            switch event.kind {
            case .lesson(.atsPlan), .lesson(.atsRule), .lesson(.atsVerdict): return true
            default: return false
            }
        }
    }
}
