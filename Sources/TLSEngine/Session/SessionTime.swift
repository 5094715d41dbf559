/// A clock reading the driver takes and hands to the server engine with the bytes it received
/// (``TLSServer/receive(_:at:)``): whole seconds since the Unix epoch, the unit of RFC 5077 §4's
/// StatePlaintext `timestamp`. The engine reads no clock itself.
public struct SessionTime: Sendable, Hashable, Comparable {
    public var secondsSinceEpoch: UInt32

    public init(secondsSinceEpoch: UInt32) {
        self.secondsSinceEpoch = secondsSinceEpoch
    }

    public static func < (a: SessionTime, b: SessionTime) -> Bool { a.secondsSinceEpoch < b.secondsSinceEpoch }
}

/// How long a server resumes a session after the full handshake that made it, whether the client
/// offers it by session ID (RFC 5246 Appendix F.1.4: "an upper limit of 24 hours is suggested for
/// session ID lifetimes") or by ticket (RFC 5077 §5.6: "the TLS server controls the lifetime of
/// the ticket"). A resumption does not renew it: the session keeps the age of its full handshake.
public struct SessionLifetime: Sendable, Hashable {
    public var seconds: UInt32

    public init(seconds: UInt32) {
        self.seconds = seconds
    }

    /// Why a session cannot be resumed at `now`, or nil when it still can. A session or a reading
    /// the server does not know the time of cannot be shown young enough, so it is not resumed.
    public func expiry(of offer: ResumptionOffer, establishedAt: SessionTime?, now: SessionTime?) -> SessionExpiry? {
        guard let establishedAt, let now else { return SessionExpiry(offer: offer, ageSeconds: nil, lifetimeSeconds: seconds) }
        // A clock set back since the session was made gives no trustworthy age either.
        guard establishedAt <= now else { return SessionExpiry(offer: offer, ageSeconds: nil, lifetimeSeconds: seconds) }
        let age = now.secondsSinceEpoch - establishedAt.secondsSinceEpoch
        return age < seconds ? nil : SessionExpiry(offer: offer, ageSeconds: age, lifetimeSeconds: seconds)
    }

    /// The lifetime left at `now` for a session made at `establishedAt`: the ticket_lifetime_hint
    /// of a ticket issued then (RFC 5077 §3.3: the hint counts from when the ticket is received).
    func remaining(establishedAt: SessionTime?, now: SessionTime?) -> UInt32 {
        guard let establishedAt, let now, establishedAt <= now else { return seconds }
        return seconds - min(seconds, now.secondsSinceEpoch - establishedAt.secondsSinceEpoch)
    }
}

/// How the client offered the session it wants resumed.
public enum ResumptionOffer: String, Sendable, Hashable, CaseIterable {
    /// A session ID from the server's cache (RFC 5246 §7.4.1.2).
    case sessionID
    /// A session ticket (RFC 5077 §3.4).
    case ticket
}

/// A session the server would have resumed but for its age: how it was offered, how old it is
/// (nil when unknown) and the lifetime it exceeded. The server does a full handshake instead.
public struct SessionExpiry: Sendable, Hashable {
    public var offer: ResumptionOffer
    public var ageSeconds: UInt32?
    public var lifetimeSeconds: UInt32
}
