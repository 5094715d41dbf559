import Foundation

/// The TLS 1.3 tickets a server issued and still resumes (RFC 8446 §4.6.1, §4.2.11), shared by
/// every connection of one server: a reference type, locked, as ``TLSSessionCache`` is for TLS 1.2,
/// holding at most `capacity` tickets (storing one more forgets the oldest). Each ticket is kept
/// with the driver's clock reading when it was issued, so one older than its ticket_lifetime is not
/// resumed whatever age the client claims (§4.6.1: "Servers MUST NOT use any value greater than
/// 604800 seconds"; a client "MUST NOT cache tickets for longer than" the lifetime).
///
/// Single use (§8.1): ``redeem(_:)`` takes a ticket out atomically, so two connections that offer the
/// same ticket at once cannot both resume with it.
public final class TLS13TicketStore: @unchecked Sendable {
    private let lock = NSLock()
    private var tickets: [[UInt8]: (ticket: TLS13ResumptionTicket, issuedAt: SessionTime?)] = [:]
    /// Ticket identities, oldest first.
    private var order: [[UInt8]] = []
    public let capacity: Int

    public init(capacity: Int = 1_024) {
        self.capacity = max(1, capacity)
    }

    public func store(_ ticket: TLS13ResumptionTicket, issuedAt: SessionTime?) {
        let identity = ticket.message.ticket
        lock.withLock {
            if tickets.updateValue((ticket, issuedAt), forKey: identity) == nil { order.append(identity) }
            while order.count > capacity { tickets[order.removeFirst()] = nil }
        }
    }

    /// The ticket with this identity, unless it is older than its lifetime at `now` (when both
    /// clock readings are known).
    public func ticket(_ identity: [UInt8], now: SessionTime?) -> TLS13ResumptionTicket? {
        lock.withLock {
            guard let entry = tickets[identity] else { return nil }
            if let issued = entry.issuedAt, let now, now.secondsSinceEpoch >= issued.secondsSinceEpoch,
               now.secondsSinceEpoch - issued.secondsSinceEpoch > entry.ticket.message.lifetime { return nil }
            return entry.ticket
        }
    }

    /// Takes the ticket out; false when it is no longer there (another connection redeemed it).
    public func redeem(_ identity: [UInt8]) -> Bool {
        lock.withLock {
            guard tickets.removeValue(forKey: identity) != nil else { return false }
            order.removeAll { $0 == identity }
            return true
        }
    }

    public var count: Int { lock.withLock { tickets.count } }
}
