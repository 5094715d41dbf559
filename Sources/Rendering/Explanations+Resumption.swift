/// The English sentences about a session the server would not resume because of its age
/// (``TLSEvent/sessionExpired(_:)``). Merged into ``Explanations/english``.
extension Explanations {
    static let englishResumption: [String: String] = [
        "ladder.sessionExpired": "{actor} does not resume the session offered by {offer}: it is {age} s old, at or past its lifetime of {lifetime} s — a full handshake instead (RFC 5246 Appendix F.1.4, RFC 5077 §5.6)",
        "ladder.sessionAgeUnknown": "{actor} does not resume the session offered by {offer}: its age is not known, and only a session younger than {lifetime} s is resumed — a full handshake instead (RFC 5246 Appendix F.1.4, RFC 5077 §5.6)",
        "session.offer.sessionID": "session ID",
        "session.offer.ticket": "ticket",
    ]
}
