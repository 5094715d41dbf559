import TCPSim
import TLSCrypto
import TLSEngine

/// A run's events in order, and the summary read off them.
public struct Trace: Sendable {
    public var events: [TraceEvent]

    public init(events: [TraceEvent]) { self.events = events }

    /// The values a run ends with, as each side derived them. `nil` for what a side never obtained.
    public var summary: RunSummary {
        var s = RunSummary()
        for event in events {
            guard case .tls(let tls) = event.kind else { continue }
            let side = event.actor
            switch tls {
            case .handshakeSent(.clientHello(let ch), _) where side == .client:
                s.clientRandom = s.clientRandom ?? ch.random.bytes
            case .handshakeSent(.serverHello(let sh), _) where side == .server:
                s.serverRandom = s.serverRandom ?? sh.random.bytes
            case .negotiated(let n):
                if side == .client || s.cipherSuite == nil {
                    s.cipherSuite = n.cipherSuite
                    s.version = n.version
                    s.extendedMasterSecret = n.extendedMasterSecret
                    s.resumed = n.resumed
                }
            case .derived(.masterSecret(let pre, _, _, _, let master)):
                if side == .client { s.clientPreMaster = pre; s.clientMaster = master }
                if side == .server { s.serverPreMaster = pre; s.serverMaster = master }
            case .derived(.verifyData(let sender, _, _, let data)):
                if sender == .client, side == .client { s.clientVerifyData = data }
                if sender == .server, side == .server { s.serverVerifyData = data }
            case .handshakeCompleted:
                if side == .client { s.clientCompleted = true } else if side == .server { s.serverCompleted = true }
            case .alertSent(let alert, let cause) where alert.isFatal && s.failure == nil:
                s.failure = RunSummary.Failure(alert: alert.alertDescription, sentBy: side, cause: cause)
            default:
                break
            }
        }
        return s
    }
}

/// The outcome of a run and the secrets each side ended with.
public struct RunSummary: Sendable, Hashable {
    public struct Failure: Sendable, Hashable {
        public var alert: AlertDescription
        public var sentBy: Actor
        public var cause: String
    }

    public var clientRandom: [UInt8]?
    public var serverRandom: [UInt8]?
    public var clientPreMaster: [UInt8]?
    public var serverPreMaster: [UInt8]?
    public var clientMaster: [UInt8]?
    public var serverMaster: [UInt8]?
    public var clientVerifyData: [UInt8]?
    public var serverVerifyData: [UInt8]?
    public var cipherSuite: CipherSuite?
    public var version: ProtocolVersion?
    public var extendedMasterSecret = false
    public var resumed = false
    public var clientCompleted = false
    public var serverCompleted = false
    public var failure: Failure?

    public init() {}

    /// `"success"` when both sides finished the handshake, else the first fatal alert's name.
    public var outcome: String {
        if let failure { return failure.alert.name ?? failure.alert.description }
        return clientCompleted && serverCompleted ? "success" : "incomplete"
    }

    /// The premaster secret both sides agree on (nil when they do not).
    public var preMasterSecret: [UInt8]? { clientPreMaster == serverPreMaster ? clientPreMaster : nil }
    public var masterSecret: [UInt8]? { clientMaster == serverMaster ? clientMaster : nil }
}
