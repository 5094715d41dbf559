/// The interactive walkthrough's words: the opening screen, the keys, the footer, the sentences
/// derived for steps the ladder leaves unexplained, and the phase summaries. A second language
/// gives every key here a value of its own.
extension Explanations {
    static let walkthroughCatalogue: [String: String] = [
        // The parties, as the walkthrough's sentences name them.
        "party.client": "client",
        "party.server": "server",
        "party.attacker": "attacker",
        "party.eavesdropper": "eavesdropper",
        "party.network": "network",

        // Screen furniture.
        "walk.header": "TLSLab · {title} · step {step}/{count}",
        "walk.headerPhase": " · {phase}",
        "walk.timeUnit": "ms",
        "walk.noSteps": "{title}: the run produced no steps",
        "walk.keys": "n/b step · g jump · k knowledge {knowledge} · x bytes {bytes} · d/u scroll · ? help · q quit",
        "walk.keysShort": "n/b step · k {knowledge} · x {bytes} · ? help · q quit",
        "walk.on": "on",
        "walk.off": "off",
        "walk.jump": "go to step: {digits}_   (Enter to jump, Esc to cancel)",
        "walk.noSuchStep": "There is no step {requested}: this walk has steps 1 to {count}.",
        "walk.scrollWindow": "lines {first}–{last} of {count} · d/PgDn down, u/PgUp up",
        "walk.helpClose": "any key closes the help",
        "walk.autoplaying": "autoplay: the next step comes by itself · any key pauses · q quits",

        // The keys (help overlay, opening screen, `tlslab walkthrough --help`).
        "walk.help.heading": "Keys",
        "walk.help.next": "next step",
        "walk.help.back": "previous step",
        "walk.help.jump": "go to step N (Esc cancels)",
        "walk.help.ends": "first step, last step",
        "walk.help.knowledge": "who knows what so far, on/off",
        "walk.help.bytes": "the bytes, field by field, on/off",
        "walk.help.scroll": "scroll the explanation down, up",
        "walk.help.autoplay": "autoplay on/off; any key pauses",
        "walk.help.help": "this help; any key closes it",
        "walk.help.quit": "quit, restoring the terminal",

        // The opening screen.
        "walk.opening.title": "TLSLab: {title}",
        "walk.opening.begin": "Press n or Enter to begin, ? for the keys at any time.",
        "walk.story.partiesTLSHost": "A client at {client} opens a TCP connection to a server at {server} and asks it for {host} over TLS 1.2: the TLS handshake agrees on keys and authenticates the server before any request is sent.",
        "walk.story.partiesTLS": "A client at {client} opens a TCP connection to a server at {server} and talks TLS 1.2 with it: the TLS handshake agrees on keys and authenticates the server before any application data is sent.",
        "walk.story.partiesPlain": "A client at {client} opens a TCP connection to a server at {server} and talks plain HTTP with it, without TLS: every byte crosses the wire readable.",
        "walk.story.oneSided": "One side is a real program: only the {side}'s events are traced.",
        "walk.story.eavesdropper": "An eavesdropper on the path records every byte that crosses the wire; k shows, step by step, what the client, the server and the eavesdropper know.",
        "walk.story.attacker": "An attacker sits on the path between them, in the middle column: it can read, change, drop or inject what passes. k shows, step by step, who knows what.",
        "walk.story.phases": "The phases, in order: {phases}.",
        "walk.story.ladder": "Each step adds an entry to the ladder above: the time in milliseconds since the start, one column per party (named in the header), an arrow for what crosses the wire, a dot (●) for what a party does on its own. Below the line: what the step means.",

        // Bare ACKs: what they acknowledge, and why they travel alone.
        "walk.ack.data": "ACK from the {actor}: it acknowledges {count} more bytes of the {peer}'s stream, the bytes of {messages}. ack = {ack} is the sequence number of the next byte it expects; the segment carries no data.",
        "walk.ack.bytes": "ACK from the {actor}: it acknowledges {count} more bytes of the {peer}'s stream. ack = {ack} is the sequence number of the next byte it expects; the segment carries no data.",
        "walk.ack.atOnce": "The ACK leaves the moment the data arrives: TCP acknowledges below TLS, before the {actor}'s TLS layer has acted on the bytes — so the ACK travels on its own instead of riding on the {actor}'s next data.",
        "walk.ack.delayed": "A delayed ACK: the {actor}'s TCP waited, hoping to ride on data of its own, and its delayed-ACK timer ran out first (RFC 9293 §3.8.6.3).",
        "walk.ack.fin": "ACK from the {actor}: it acknowledges the {peer}'s FIN (ack = the FIN's sequence number + 1 = {ack}). The {peer} → {actor} direction is now closed.",
        "walk.ack.syn": "ACK from the {actor}: it acknowledges the {peer}'s SYN (ack = its ISN + 1 = {ack}), the last of the three segments that open this connection.",
        "walk.ack.nothingNew": "ACK from the {actor} with ack = {ack}, as before: it acknowledges no new byte.",
        "walk.ack.windowUpdate": "It is a window update: the {actor}'s TLS layer has just read bytes out of TCP's receive buffer, so the window it offers grew back to {window} bytes — the {peer} may have that much in flight (RFC 9293 §3.8.6.2.2).",
        "walk.ack.duplicate": "It is a duplicate ACK: a segment arrived out of order, after a gap; TCP keeps it and repeats the ack of the last byte it holds in order, so the {peer} learns about the gap (RFC 5681 §4.2).",
        "walk.ack.challenge": "It is a challenge ACK: a segment arrived that a blind attacker could have guessed (RFC 5961); the {actor} answers with its current numbers, and only the real {peer} can react to them.",
        "walk.ack.finAgain": "The {peer}'s FIN came again (its copy of the last ACK was lost or is late), so the {actor}, in TIME-WAIT, acknowledges it again — one reason TIME-WAIT exists (RFC 9293 §3.10.7.4).",
        "walk.ack.noReason": "TCP sends it to keep the {peer}'s view of its window and acknowledgment current.",

        // Segments with data.
        "walk.segment.data": "The {actor}'s TCP sends {count} bytes of its stream, bytes {first}–{last} counted from the first byte after its SYN: {messages}.",
        "walk.segment.bytes": "The {actor}'s TCP sends {count} bytes of its stream, bytes {first}–{last} counted from the first byte after its SYN.",
        "walk.segment.dataNoOffsets": "The {actor}'s TCP sends {count} bytes of its stream: {messages}.",
        "walk.segment.split": "The bytes TLS handed over do not all fit in one segment — a segment holds at most the maximum segment size (MSS) — so TCP cuts them: a message marked (part) continues in the next segment, and the receiver's TCP puts the bytes back in order before TLS reads them.",
        "walk.segment.push": "P (PSH) marks the last segment of what the sender had queued: the receiver should hand the data to the application without waiting for more (RFC 9293 §3.9.1.2).",
        "walk.segment.piggyback": "Its ack also acknowledges {count} more bytes of the {peer}'s stream, the bytes of {messages}: the acknowledgment rides on the data.",
        "walk.segment.piggybackBytes": "Its ack also acknowledges {count} more bytes of the {peer}'s stream: the acknowledgment rides on the data.",

        // TCP states (RFC 9293 §3.3.2).
        "walk.state.listen": "LISTEN: the {actor} has opened its port passively and waits for a SYN; nothing is sent yet (RFC 9293 §3.3.2).",
        "walk.state.listenAgain": "LISTEN again: this half-open connection came from a passive OPEN, so on the RST (or a SYN in its window) the {actor} forgets the peer and returns to LISTEN instead of closing; the port stays open for the next SYN (RFC 9293 §3.10.7.4).",
        "walk.state.synSent": "SYN-SENT: the {actor} asks to open the connection (an active OPEN): it sends its SYN and waits for the SYN-ACK.",
        "walk.state.synReceived": "SYN-RECEIVED: the {actor} has received a SYN; it answers with SYN-ACK and waits for the ACK of its own SYN.",
        "walk.state.established": "ESTABLISHED: the {actor} has seen its own SYN acknowledged and knows the {peer}'s initial sequence number, so it can now send and receive data.",
        "walk.state.finWait1": "FIN-WAIT-1: the {actor} has nothing more to send: it sends its FIN and waits for it to be acknowledged.",
        "walk.state.finWait2": "FIN-WAIT-2: the {actor}'s FIN is acknowledged; it waits for the {peer}'s FIN — until then the {peer} may still send data (a half-close).",
        "walk.state.closeWait": "CLOSE-WAIT: the {actor} received the {peer}'s FIN, so the {peer} will send nothing more; the {actor} may still send, and closes its own direction when its application is done.",
        "walk.state.closing": "CLOSING: both sides sent a FIN at about the same time; the {actor} waits for the ACK of its own.",
        "walk.state.lastAck": "LAST-ACK: the {actor} has sent its own FIN after the {peer}'s and waits for it to be acknowledged; then the connection is gone.",
        "walk.state.timeWait": "TIME-WAIT: the {actor} closed first, so it keeps the connection for 2·MSL before forgetting it: late duplicates of its segments die out before the same addresses and ports can make a new connection, and it can still acknowledge the {peer}'s FIN again if its last ACK is lost (RFC 9293 §3.6).",
        "walk.state.closedAfterTimeWait": "CLOSED: 2·MSL has passed in TIME-WAIT; the {actor} forgets the connection, and its addresses and ports may be used again.",
        "walk.state.closedAfterLastACK": "CLOSED: the {actor}'s FIN is acknowledged, so both directions are closed and the {actor} forgets the connection at once — only the side that closed first waits in TIME-WAIT.",
        "walk.state.closedByReset": "CLOSED: a RST ended the connection at once; whatever was not yet delivered is lost.",
        "walk.state.closed": "CLOSED: the {actor} no longer has this connection.",

        // Segments the ladder draws without a sentence.
        "walk.tcp.rst": "RST: the {actor} aborts the connection at once — no FIN exchange, no TIME-WAIT; whatever was not yet delivered is lost (RFC 9293 §3.5.2, §3.5.3).",
        "walk.tcp.injected": "The {actor} sends these bytes from the {peer}'s address and port, with the sequence numbers the receiver expects next: TCP cannot tell them from the {peer}'s own. Only TLS can notice, because each record's authentication covers its own sequence number (RFC 5246 §6.2.3).",
        "walk.dropped.afterAlertSent": "After a fatal alert nothing more is processed on this connection (RFC 5246 §7.2.2): the {actor}'s TCP still receives what was already in flight, and TLS ignores it.",
        "walk.dropped.afterAlertReceived": "After a fatal alert nothing more is processed on this connection (RFC 5246 §7.2.2): the {actor}'s TCP still receives what was already in flight, and TLS ignores it.",
        "walk.dropped.recordFailed": "A record whose authentication does not verify is never opened: the {actor} cannot tell what was inside, only that the bytes or the keys differ from what it expects, so it ends the connection (RFC 5246 §6.2.3.3).",
        "walk.dropped.stoppedReading": "The {actor} no longer reads TLS records, so these bytes change nothing.",
        "walk.dropped.connectionEnded": "The connection ended before the message arrived, so the {actor} never saw it.",
        "walk.dropped": "The {actor} does not act on this message: it changes nothing on its side.",
        "walk.attack.failed": "The {actor} stops here: what it learned so far is all it gets, and k shows what that is.",

        // HTTP/2 steps the ladder draws without a sentence (RFC 9113).
        "walk.h2.connectionError": "A connection error ends the whole HTTP/2 connection, not one stream: RFC 9113 §5.4.1 has the endpoint send GOAWAY with the error code ({code}) first, then close the TCP connection.",
        "walk.h2.streamError": "A stream error ends stream {stream} only (RFC 9113 §5.4.2): RST_STREAM carries the error code {code}, and the other streams go on.",
        "walk.h2.rstStream": "RST_STREAM ends one stream at once, with an error code; the connection and its other streams go on (RFC 9113 §6.4).",
        "walk.h2.rstStreamRefused": "RST_STREAM with REFUSED_STREAM ends one stream that was not processed at all, so its request can safely be sent again on a new stream (RFC 9113 §8.7); the other streams go on.",

        // TLS steps the ladder draws without a sentence.
        "walk.tls.closeNotify": "close_notify: the {actor} will send no more data on this connection. The alert travels in a protected record like any other, so an attacker can cut the connection but cannot forge this alert — a receiver that sees the end of the data without it knows the data may have been truncated (RFC 5246 §7.2.1).",
        "walk.tls.complete": "The {actor}'s handshake is complete: it has sent its own Finished and checked the {peer}'s against its own computation, so both hold the same keys and saw the same handshake messages (RFC 5246 §7.4.9). From now on it may send application data.",
        "walk.tls.negotiated": "The client now knows what the server chose in its ServerHello; every later message follows this choice.",
        "walk.tls.negotiatedResumed": "The client now knows the server accepted to resume the earlier session: no certificate and no key exchange this time, the keys come from the session's master secret and the two new randoms.",
        "walk.tls.applicationData": "The record layer protects these {count} bytes with the {actor}'s write key: the record on the wire is longer (an explicit nonce or IV, and an authentication tag or MAC) and unreadable without the key; only its length shows.",
        "walk.tls.signed": "The {actor} signs with its private key: anyone with the public key from its certificate can check the signature, and nobody without the private key can make one that checks.",
        "walk.tls.signatureValid": "The signature checks out with the public key from the {peer}'s certificate: whoever made it holds the matching private key, and the signed bytes arrived unchanged.",
        "walk.tls.signatureInvalid": "The signature does not match the signed bytes under the certificate's public key: the bytes were changed on the way, or the signer does not hold the certificate's private key. The handshake must stop.",
        "walk.tls.sameComputation": "The {actor} runs the same computation with its own copy of the inputs; if every input matches the {peer}'s, it now holds the same values — Finished will prove it.",
        "walk.tls.rsaDecryption": "Only the holder of the server's private key can do this: the {actor} now has the premaster the {peer} chose, which never crossed the wire in the clear.",
        "walk.tls.agreement": "The {actor} combines its own private value with the {peer}'s public value; the {peer} does the same the other way round, and both arrive at the same premaster without it ever crossing the wire.",
        "walk.tls.verifyData": "verify_data: 12 bytes that only someone holding the master secret and the same handshake messages can compute; the receiver recomputes them to check.",
        "walk.pki.accepted": "The {actor} accepts the {peer}'s certificate chain under its trust policy (the ladder line says why); from here on it takes the public key in the leaf to be the {peer}'s.",
        "walk.pki.rejected": "The {actor} rejects the {peer}'s certificate chain under its trust policy (the ladder line says why): it cannot take the key in the leaf to be the {peer}'s, so it must not go on with this handshake.",
        "walk.compute": "Public-key work takes time: the {actor} spends {duration} of (virtual) processor time before it can go on.",
        "walk.http.request": "The application hands the request to TLS, which sends it in encrypted application-data records: the eavesdropper sees only their lengths.",
        "walk.http.requestPlain": "The application hands the request straight to TCP: without TLS every byte of it, cookie included, crosses the wire readable.",
        "walk.http.retried": "The {actor} sends the same request again on a new stream: the {peer} refused the first stream before processing it, so sending it again cannot make anything happen twice (RFC 9113 §8.7).",
        "walk.http.response": "The {actor}'s TLS layer decrypted and checked the records carrying the response and hands it to the application.",
        "walk.http.responsePlain": "The response arrived in the clear: the {actor}'s TCP hands the bytes straight to the application — the eavesdropper read exactly the same bytes.",

        // The knowledge panel's subtlety: TCP acknowledging bytes is not TLS reading them.
        "walk.knowledge.unread": "The {actor}'s TCP has received and acknowledged the bytes of {messages}, but its TLS layer has not read them yet: the table counts what each TLS layer has read, so what they carry counts for the {actor} from {time}, when its TLS layer reads them.",
        "walk.knowledge.unreadNever": "The {actor}'s TCP has received and acknowledged the bytes of {messages}, but its TLS layer never reads them in this run: the table counts what each TLS layer has read.",

        // Phase summaries.
        "walk.summary.heading": "{phase}: summary",
        "walk.summary.tcpOpen": "{segments} segments, both ISNs confirmed: the client's ISN {clientISN} (the server acknowledged it with ack = {clientAck}) and the server's ISN {serverISN} (the client acknowledged it with ack = {serverAck}).",
        "walk.summary.tcpNotOpen": "{segments} segments, and the connection did not open: not both initial sequence numbers were acknowledged.",
        "walk.summary.established": "The {actor} has been ESTABLISHED since {time}.",
        "walk.summary.establishedLater": "The {actor} becomes ESTABLISHED only at {time}, when the last of the three segments reaches it — data may already be on its way.",
        "walk.summary.tlsEMS": "Handshake done: {version}, {suite}, with the extended master secret (RFC 7627): the master secret is bound to this handshake's messages.",
        "walk.summary.tlsNoEMS": "Handshake done: {version}, {suite}, without the extended master secret: the master secret depends on the premaster and the two randoms only.",
        "walk.summary.resumed": "It was an abbreviated handshake: the session was resumed.",
        "walk.summary.tlsFailed": "The handshake failed: the {side} sent the fatal alert {alert}.",
        "walk.summary.tlsUnfinished": "The handshake did not finish.",
        "walk.summary.knows": "Who knows what now: client and server both hold {both}; the eavesdropper holds {eavesdropper}.",
        "walk.summary.nothing": "nothing",
        "walk.summary.timeWait": "The {actor} closed first: it stays in TIME-WAIT from {since} until t = {until} (2·MSL = {duration}); then the connection is forgotten.",
        "walk.summary.closed": "The connection is closed.",
        "walk.summary.http": "{requests} request(s) sent and {responses} response(s) received, inside encrypted TLS records.",
        "walk.summary.httpPlain": "{requests} request(s) sent and {responses} response(s) received, in the clear.",
    ]
}
