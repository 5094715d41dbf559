/// A clock reading the driver takes and hands to the server engine with the bytes it received
/// (``TLSServer/receive(_:at:)``): whole seconds since the Unix epoch, the unit of RFC 5077 §4's
/// StatePlaintext `timestamp`. The engine reads no clock itself.
public struct SessionTime: Sendable, Hashable, Comparable {
    public var secondsSinceEpoch: UInt32

    public init(secondsSinceEpoch: UInt32) {
        self.secondsSinceEpoch = secondsSinceEpoch
    }

    /// The whole seconds of a reading in milliseconds (a server's one clock input, from which its
    /// session and ticket times derive).
    public init(milliseconds: UInt64) {
        secondsSinceEpoch = UInt32(clamping: milliseconds / 1_000)
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

/// A session the server found (in its cache or in a ticket) and does not resume, by a rule that asks
/// for a full handshake instead.
public struct ResumptionDeclined: Sendable, Hashable {
    public enum Rule: String, Sendable, Hashable, CaseIterable {
        /// RFC 7627 §5.3: the session was made without the extended master secret and the ClientHello
        /// offers it — "MUST NOT perform the abbreviated handshake", "SHOULD continue with a full handshake".
        case extendedMasterSecretOnlyInHello
    }
    public var offer: ResumptionOffer
    public var rule: Rule

    public init(offer: ResumptionOffer, rule: Rule) {
        self.offer = offer
        self.rule = rule
    }
}

/// A session the server would have resumed but for its age: how it was offered, how old it is
/// (nil when unknown) and the lifetime it exceeded. The server does a full handshake instead.
public struct SessionExpiry: Sendable, Hashable {
    public var offer: ResumptionOffer
    public var ageSeconds: UInt32?
    public var lifetimeSeconds: UInt32
}

/// The client's side of RFC 5077 §3.3: "The value indicates the lifetime in seconds as a 32-bit
/// unsigned integer in network byte order relative to when the ticket is received. A value of zero is
/// reserved to indicate that the lifetime of the ticket is unspecified. A client SHOULD delete the
/// ticket and associated state when the time expires." The client engine reads no clock: the driver hands it a reading when the ticket
/// arrives (``TLSSession/ticketReceivedAt``) and when it starts the next handshake.
public enum TicketLifetimeHint {
    /// Why `session`'s ticket must not be offered at `now`, or nil when it may. Only a ticket with a
    /// hint, a known arrival time and a later reading can be shown expired: with no hint (0), no
    /// readings, or a clock set back since the ticket came, the client keeps offering it (the server
    /// still judges the session's age, RFC 5077 §5.6).
    public static func expiry(of session: TLSSession, now: SessionTime?) -> TicketExpiry? {
        guard session.ticket != nil, session.ticketLifetimeHint > 0,
              let received = session.ticketReceivedAt, let now, received <= now else { return nil }
        let age = now.secondsSinceEpoch - received.secondsSinceEpoch
        return age < session.ticketLifetimeHint ? nil : TicketExpiry(ageSeconds: age, lifetimeHintSeconds: session.ticketLifetimeHint)
    }
}

/// A ticket the client does not offer because its ticket_lifetime_hint has passed: how long ago it
/// arrived and its hint. The client forgets the session with it and does a full handshake.
public struct TicketExpiry: Sendable, Hashable {
    public var ageSeconds: UInt32
    public var lifetimeHintSeconds: UInt32

    public init(ageSeconds: UInt32, lifetimeHintSeconds: UInt32) {
        self.ageSeconds = ageSeconds
        self.lifetimeHintSeconds = lifetimeHintSeconds
    }
}
