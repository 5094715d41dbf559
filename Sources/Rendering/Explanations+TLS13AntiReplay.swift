/// The sentences of 0-RTT anti-replay by ClientHello recording (RFC 8446 §8.2) with the freshness
/// check (§8.3): the check's inputs, the recorded ClientHello, and the two refusals they lead to;
/// and what a later connection's NewSessionTicket changes (the first one's sentence says the rest).
extension Explanations {
    static let englishTLS13AntiReplay: [String: String] = [
        "run.summary.tls13-0rtt-recorded": "TLS 1.3 0-RTT replayed to a server that records ClientHellos: the copy arrives inside the freshness window but its PSK binder is recorded, so the server accepts the PSK, refuses the early data and goes on with the 1-RTT handshake (RFC 8446 §8.2, §8.3)",
        "tls13.NewSessionTicket.again": "NewSessionTicket again (RFC 8446 §4.6.1), after this connection's handshake: a new ticket with a fresh ticket_age_add and a new ticket label. Its PSK comes from this connection's resumption_master_secret, so it differs from the earlier ticket's even with the same ticket_nonce; the fields mean what they meant for the first ticket.",
        "tls13.earlyRefusal.outsideFreshnessWindow": "the ClientHello's expected arrival time (ticket creation + estimated round trip + the client's ticket age, §8.3) lies outside the server's recording window, so it may be an old ClientHello replayed, and a ClientHello outside the window is never recorded (§8.2)",
        "tls13.earlyRefusal.replayedClientHello": "the server has already recorded this ClientHello's PSK binder within its window, so this is a replay: as §8.2 allows, the server accepts the PSK but not the 0-RTT data and goes on with the 1-RTT handshake",
        "tls13.line.freshnessChecked": "{actor} checks freshness (RFC 8446 §8.3): ticket created at {created} ms + estimated round trip {rtt} ms + the client's ticket age {age} ms = expected arrival {expected} ms; its clock says {now} ms; window ±{window} ms: {verdict}",
        "tls13.freshness.fresh": "inside the window",
        "tls13.freshness.stale": "outside the window",
        "tls13.line.clientHelloRecorded": "{actor} records this ClientHello by its PSK binder {binder} for as long as its expected arrival time ({expected} ms) stays inside the window: the same ClientHello again will not get its 0-RTT data accepted (RFC 8446 §8.2)",
        "walk.tls13.freshnessChecked": "The {actor} compares when this ClientHello should have arrived — when it issued the ticket, plus the round trip it measured then, plus the ticket age the client states in obfuscated_ticket_age — with its own clock; only a ClientHello inside its window may have its 0-RTT data accepted (RFC 8446 §8.3).",
        "walk.tls13.clientHelloRecorded": "The {actor} accepts the 0-RTT data and records the ClientHello's binder; a copy of this ClientHello inside the window finds it recorded and gets a 1-RTT handshake instead (RFC 8446 §8.2).",
    ]
}
