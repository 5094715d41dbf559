/// The English sentences about a session not resumed because of its age: the server's lifetime
/// (``TLSEvent/sessionExpired(_:)``) or the client's ticket_lifetime_hint (``TLSEvent/sessionTicketExpired(_:)``). Merged into ``Explanations/english``.
extension Explanations {
    static let englishResumption: [String: String] = [
        "ladder.sessionExpired": "{actor} does not resume the session offered by {offer}: it is {age} s old, at or past its lifetime of {lifetime} s — a full handshake instead (RFC 5246 Appendix F.1.4, RFC 5077 §5.6)",
        "ladder.sessionAgeUnknown": "{actor} does not resume the session offered by {offer}: its age is not known, and only a session younger than {lifetime} s is resumed — a full handshake instead (RFC 5246 Appendix F.1.4, RFC 5077 §5.6)",
        "ladder.ticketExpired": "{actor} does not offer its session: its ticket came {age} s ago, at or past the ticket_lifetime_hint of {hint} s, and a client deletes the ticket and its session when that time expires (RFC 5077 §3.3) — a full handshake instead",
        "ladder.resumptionDeclined.extendedMasterSecretOnlyInHello": "{actor} does not resume the session offered by {offer}: it was made without the extended master secret and this ClientHello offers it, so the server MUST NOT perform the abbreviated handshake and continues with a full handshake (RFC 7627 §5.3)",
        "session.offer.sessionID": "session ID",
        "session.offer.ticket": "ticket",
    ]
}
