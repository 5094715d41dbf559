import Foundation

/// A server's session cache (RFC 5246 §7.4.1.2: the server may resume a session whose ID the
/// client offers). A reference type so that several ``TLSServer`` values can share it — the
/// connections of `tlslab serve` do, each on its own thread, so it is locked. It holds at most
/// `capacity` sessions; storing one more forgets the oldest (memory stays bounded however many
/// clients come).
public final class TLSSessionCache: @unchecked Sendable {
    private let lock = NSLock()
    private var sessions: [[UInt8]: TLSSession] = [:]
    /// Session IDs, oldest first.
    private var order: [[UInt8]] = []
    public let capacity: Int

    public init(capacity: Int = 1_024) {
        self.capacity = max(1, capacity)
    }

    public func store(_ session: TLSSession) {
        guard !session.sessionID.isEmpty else { return }
        lock.withLock {
            if sessions.updateValue(session, forKey: session.sessionID) == nil { order.append(session.sessionID) }
            while order.count > capacity { sessions[order.removeFirst()] = nil }
        }
    }

    public func session(id: [UInt8]) -> TLSSession? {
        id.isEmpty ? nil : lock.withLock { sessions[id] }
    }

    /// Drops a session (one that expired): its ID no longer resumes.
    public func forget(id: [UInt8]) {
        lock.withLock {
            guard sessions.removeValue(forKey: id) != nil else { return }
            order.removeAll { $0 == id }
        }
    }

    public var count: Int { lock.withLock { sessions.count } }
}
