/// A server's session cache (RFC 5246 §7.4.1.2: the server may resume a session whose ID the
/// client offers). A reference type so that several ``TLSServer`` values can share it.
public final class TLSSessionCache {
    private var sessions: [[UInt8]: TLSSession] = [:]

    public init() {}

    public func store(_ session: TLSSession) {
        guard !session.sessionID.isEmpty else { return }
        sessions[session.sessionID] = session
    }

    public func session(id: [UInt8]) -> TLSSession? {
        id.isEmpty ? nil : sessions[id]
    }

    public var count: Int { sessions.count }
}
