import HTTP2
import Trace

/// Every sentence the text renderer says about a step, in one catalogue keyed by step kind, so a
/// second language is a new table, not a code change.
public struct Explanations: Sendable {
    public var text: [String: String]

    public func callAsFunction(_ key: String) -> String? { text[key] }

    /// The catalogue's text for `key` with its `{name}` placeholders filled in; nil when the
    /// catalogue has no such key.
    public func callAsFunction(_ key: String, _ values: [String: String]) -> String? {
        guard var result = text[key] else { return nil }
        for (name, value) in values { result = result.replacing("{\(name)}", with: value) }
        return result
    }

    /// A sentence the simulation named by key (its key and values when the catalogue lacks it).
    public func sentence(_ s: Sentence) -> String { self(s.key, s.values) ?? s.description }

    public static let english = Explanations(text: [
        "phase.tcp": "TCP first opens a connection: three messages, so that each side learns that the other can both send and receive, and each side's starting sequence number is confirmed.",
        "tcp.syn": "SYN: the client proposes its initial sequence number (ISN). SYN takes one unit of sequence space.",
        "tcp.synack": "SYN-ACK: the server acknowledges the client's ISN + 1 and proposes its own ISN.",
        "tcp.ack3": "ACK: the client confirms the server's ISN + 1. Both directions are now open (ESTABLISHED).",
        "tcp.fin": "FIN: this side has nothing more to send. The other side may still send (half-close), which is why closing takes four messages instead of three.",
        "tcp.retransmit": "Retransmission: no ACK came back before the retransmission timer fired, so the segment is sent again with the same sequence number.",
        "tcp.drop": "The network lost this segment.",
        "phase.tls": "TLS 1.2 handshake: agree on versions and algorithms, authenticate the server by its certificate, agree on a shared secret, and check that nobody changed the messages on the way.",
        "tls.ClientHello": "ClientHello: the client lists the versions, cipher suites and extensions it supports, and sends the first random (client_random) in the clear.",
        "tls.ServerHello": "ServerHello: the server picks the version and one cipher suite, and sends the second random (server_random) in the clear.",
        "tls.Certificate": "Certificate: the server's certificate chain, leaf first. The client checks the signatures up to a trusted root, the validity dates and the host name.",
        "tls.ServerKeyExchange": "ServerKeyExchange: the server's ephemeral (EC)DH public value, signed with its certificate key over both randoms, so the client knows it comes from the certificate's owner.",
        "tls.CertificateRequest": "CertificateRequest: the server asks the client for a certificate too (mutual authentication).",
        "tls.ServerHelloDone": "ServerHelloDone: the server has said everything for now and waits for the client.",
        "tls.ClientKeyExchange.rsa": "ClientKeyExchange (RSA): the client made the premaster secret (the third random) and sends it encrypted with the server's public key. Only the private key's owner can read it — today, and also anyone who steals that key later.",
        "tls.ClientKeyExchange.ecdh": "ClientKeyExchange (ECDH): the client sends its own ephemeral public point. Each side combines its private key with the other's point; the premaster never travels. Each checks the point it receives: a P-256 point must lie on the curve, and an X25519 key of small order, which would force an all-zero secret, is refused (RFC 7748 §6.1).",
        "tls.ClientKeyExchange.dh": "ClientKeyExchange (DH): the client sends its own ephemeral public value. Each side combines its private value with the other's public value; the premaster never travels. Each checks the value it receives first: 1 < y < p-1, and for a named safe-prime group y^q mod p = 1 with q = (p-1)/2, so a forged value outside g's subgroup cannot leak a bit of its private exponent.",
        "tls.CertificateVerify": "CertificateVerify: the client signs the handshake so far with its private key, proving it owns the certificate it sent.",
        "tls.ChangeCipherSpec": "ChangeCipherSpec: from the next record on, this side encrypts and authenticates with the new keys.",
        "tls.Finished": "Finished: a hash of every handshake message, keyed with the master secret and sent encrypted. If anyone changed any message, the two sides compute different values and the handshake fails.",
        "tls.masterSecret": "Both sides now compute the master secret from the premaster and both randoms; the eavesdropper saw the randoms but not the premaster, so it cannot.",
        "tls.masterSecret.ems": "Both sides now compute the master secret from the premaster and the session hash — a hash of every handshake message so far, randoms and certificate included (extended master secret, RFC 7627). The eavesdropper saw those messages but not the premaster, so it cannot.",
        "tls.keyBlock": "The key block is expanded from the master secret (seeded with server_random‖client_random — the reverse order) and cut into MAC keys, write keys and IVs.",
        "tls.countermeasure": "The premaster did not decrypt correctly. The server goes on with a random premaster instead of failing now (RFC 5246 §7.4.7.1), so an attacker learns nothing from the timing; only Finished will fail.",
        "tls.alpn": "ALPN (RFC 7301): the client offers {offered}; the server picks {chosen} inside the handshake, so no extra round trip is needed to switch protocols. The choice travels in the clear, and Finished covers it like every other handshake byte.",
        // Alerts with a plain-language line of their own ("alert.<name>"), shown under the alert.
        "alert.no_application_protocol": "no_application_protocol (120, RFC 7301 §3.2): the client offered only application protocols the server does not speak, so the server ends the handshake rather than pick one the client cannot use.",
        "tls.alert": "A fatal alert ends the connection: the sender will not use this session again, and the receiver stops processing the connection's records.",
        "phase.http": "The HTTP request and response now travel as encrypted application-data records.",
        "attack.mitm": "A man in the middle answers the client's connection itself and presents its own certificate. Everything else about TLS works for it: it makes its own keys with each side. Only the client's certificate check stands in the way — a client that trusts any certificate hands it every byte.",
        "attack.onPath": "An attacker on the path (a router, a Wi-Fi access point) sees every segment and can change, drop or add any of them; TCP's checksums do not stop it, because it can recompute them.",
        "attack.tamperHTTP": "The attacker changed one byte of an HTTP message on the wire, keeping its length. Over plain HTTP nothing checks it (TCP's checksum is recomputed by whoever forges the segment), so the receiver reads the altered text; over TLS the byte is ciphertext, and the record's MAC (the AEAD tag) no longer verifies: bad_record_mac.",
        "attack.tamper": "The attacker changed one byte on the wire. TCP cannot notice (the attacker fixes checksums), but both sides hash every handshake message into Finished: the two hashes now differ, so the side that checks first sends a fatal alert.",
        "attack.strip": "A downgrade: the server now sees only weaker suites and picks one. The handshake messages themselves are not signed as a whole, but Finished covers all of them — the client's real ClientHello and the server's modified copy hash differently, so the downgrade is caught.",
        "attack.replay": "A replayed record is byte for byte a real one, but each record's MAC (or AEAD nonce and additional data) includes a sequence number that both sides count. The copy arrives with the wrong number, fails to authenticate, and the receiver answers bad_record_mac.",
        "attack.keyTheft": "Forward secrecy: an eavesdropper recorded everything. Now it obtains the server's private key. With RSA key exchange the premaster was encrypted to that key, so the whole recorded session opens. With (EC)DHE the key only signed the parameters; the ephemeral secrets are gone.",
        "attack.seed": "The client's random values came from a generator seeded with little entropy (clock and process id). The eavesdropper regenerates client_random for each guess until one matches what it saw on the wire; the same generator then gives it the premaster.",
        "knowledge.afterKeyExchange": "Who knows what, once the key exchange is complete",
        "knowledge.afterFinished": "Who knows what, once both Finished messages checked out",
        "knowledge.soFar": "Who knows what so far",
        "knowledge.atTheEnd": "Who knows what at the end of the run",
        "pki.chain": "Chain validation, link by link: each certificate's signature is checked with its issuer's public key (Hash1, the digest of the TBSCertificate, must equal Hash2, the digest recovered from the signature), its validity against the simulated clock, the CA flag and path length of each issuer, and the key usage and extended key usage; the leaf must name the host.",
        "trust.proceed": "proceed (valid, and the user explicitly trusted the anchor)",
        "trust.unspecified": "unspecified — valid, with no user setting either way (the usual success)",
        "trust.recoverableTrustFailure": "recoverable trust failure (invalid, but a user or policy could choose to trust it)",
        "trust.fatalTrustFailure": "fatal trust failure (invalid in a way nobody may override)",
        // Where an attacker sits (AttackEvent.position).
        "position.mitm": "the client's connection to {host} ends at the attacker {address} (a spoofed DNS answer or a rogue access point); the attacker opens its own connection to the real server and relays",
        "position.onPath": "the attacker sits on the path between client and server and can change, drop or add segments",
        // How an attacker or the eavesdropper obtained a secret (AttackEvent.learned).
        "how.mitm.decrypted": "decrypted with the keys it shares with the client",
        "how.mitm.plain": "read: plain HTTP has no encryption",
        "how.mitm.cookie": "read from the relayed request",
        "how.premaster.decrypted": "decrypted the recorded ClientKeyExchange with the stolen private key",
        "how.premaster.regenerated": "regenerated: the same generator, seeded {seed}, drew it right after client_random",
        "how.master.randoms.decrypted": "PRF over the decrypted premaster and the recorded randoms",
        "how.master.randoms.regenerated": "PRF over the regenerated premaster and the recorded randoms",
        "how.master.sessionHash.decrypted": "PRF over the decrypted premaster and the session hash of the recorded handshake messages (extended master secret)",
        "how.master.sessionHash.regenerated": "PRF over the regenerated premaster and the session hash of the recorded handshake messages (extended master secret)",
        "how.master.resumed": "the resumed session's master secret, already recovered from an earlier connection",
        "how.keyBlock": "key block expanded from the master secret",
        "how.appData": "decrypted the recorded application data",
        "how.cookie": "read from the decrypted request",
        // Why an attempt failed (AttackEvent.failed).
        "failed.noHandshake": "no TLS handshake in the recording",
        "failed.noClientKeyExchange": "the recording holds no ClientKeyExchange (an abbreviated handshake reuses an older master secret the eavesdropper does not have)",
        "failed.notDecrypted": "the ClientKeyExchange did not decrypt with the stolen key",
        "failed.forwardSecrecy": "{suite} uses ephemeral {kind} keys: the ClientKeyExchange is the client's public value, not a ciphertext, so the stolen RSA key does not decrypt it (it only signed the ServerKeyExchange). Both private values were erased after the handshake: forward secrecy",
        "failed.noClientHello": "no ClientHello in the recording",
        "failed.ephemeralFromSeed": "the seed is known, but reproducing an ephemeral (EC)DH key is not modelled here",
        "failed.regeneratedDidNotOpen": "the regenerated premaster did not open the records",
        "failed.noSeed": "no seed in the searched space reproduces client_random",
        // Why a receiver dropped a message unprocessed (TraceEvent.dropped).
        "dropped.afterAlertSent": "the {receiver} read it after it had sent the fatal alert {alert} and processed nothing more",
        "dropped.afterAlertReceived": "the {receiver} read it after it had received the fatal alert {alert} and processed nothing more",
        "dropped.stoppedReading": "the {receiver} had stopped reading TLS records",
        "dropped.connectionEnded": "the connection ended before the record reached the {receiver}",
        // The outcome section.
        "outcome.failedAfterHandshake": "The handshake completed, then the {side} sent the fatal alert {alert} and ended the connection.",
        "outcome.failed": "The handshake failed: the {side} sent the fatal alert {alert}.",
        "outcome.why": "Why: {cause}",
        "outcome.plainHTTP": "Plain HTTP: no TLS at all; the response arrived, and every byte crossed the wire readable.",
        "outcome.noResponse": "The run ended before any response arrived.",
        "outcome.success": "Success: {version}, {suite}{ems}{alpn}.",
        "outcome.ems": ", extended master secret",
        "outcome.alpn": ", application protocol {protocol} (ALPN)",
        "outcome.http2Error": "HTTP/2 connection error: the {side} ended the connection with GOAWAY {code} ({why}).",
        "outcome.sameMaster": "Both sides derived the same master secret {master}.",
        "outcome.oneSided": "Success on the {side} side (the peer is a real program, so only this side is traced): {version}, {suite}{ems}{alpn}.",
        "outcome.oneSidedFailed": "The handshake completed on the {side} side ({version}, {suite}{ems}{alpn}), but the exchange then failed: {why}.",
        "outcome.exchangeFailed": "The connection failed: {why}.",
        "outcome.incomplete": "The run ended before the handshake finished.",
        "outcome.connection": "connection {number}: {outcome}{resumed}{master}",
        "outcome.resumed": " (resumed session)",
        "outcome.connectionMaster": ", master secret {master}",
        "knowledge.measured": "The eavesdropper column is measured, not assumed: a value counts as known when its exact bytes crossed the wire.",
        "knowledge.afterwards": "The afterwards column is what the eavesdropper learned after the run (a stolen key or a guessed seed), counted only when the bytes it decrypted or derived equal the real ones.",
        "knowledge.attacker": "The attacker column is what a man in the middle knows: the secrets of its own session with the client, and whatever the client sends through it.",
        "stats.roundTrips": "Each round trip is a client message that has to wait for the server's answer before the client can go on. TCP's handshake costs one, a full TLS handshake two, an abbreviated one (resumption) one, each request on its own one — pipelining and HTTP/2 send several requests in one — and the close one more (the client's FIN waits for the server's).",
        "phase.h2": "HTTP/2 replaces HTTP/1.x's text with binary frames inside the same TLS application data: every request gets its own stream on one connection, so none waits for another.",
        "phase.h2c": "HTTP/2 in the clear: binary frames straight on TCP. Binary is not secret — anyone on the path can parse the frames and undo the header compression.",
        "h2.chosen.tls": "Over TLS both sides must agree on HTTP/2 before the first byte of it: the client offers \"h2\" in the ALPN extension of its ClientHello and the server confirms it in its ServerHello.",
        "h2.chosen.h2c": "Without TLS there is no ALPN: a client that already knows the server speaks HTTP/2 starts with the preface straight away (prior knowledge).",
        "h2.preface": "The preface is a fixed string chosen so that most HTTP/1.x servers reject it as a request, so talking HTTP/2 to one fails at once instead of being misread; SETTINGS must follow it (RFC 9113 §3.4).",
        "h2.settings": "SETTINGS announces this side's limits (streams at once, flow-control window, whether it accepts server push); the peer acknowledges with an empty SETTINGS ACK.",
        "h2.settingsAck": "SETTINGS ACK: the peer's settings are now in force.",
        "h2.goawayError": "GOAWAY with an error code ends the HTTP/2 connection because of that error (a connection error, RFC 9113 §5.4.1): the sender processes nothing more. Streams above the last-stream-id it names were not processed and may be retried elsewhere.",
        "h2.headers": "HEADERS carries a request's or response's header fields, compressed with HPACK: fields in the static table (like :method GET) take one byte; new fields are sent as literals and added to a dynamic table — one per direction, the sender's encoder and the receiver's decoder keeping the same entries in step.",
        "h2.hpack": "HPACK at work: this header block repeats fields an earlier one sent (:authority, cookie, …), now each a one-byte index into the dynamic table — the block is a fraction of the first.",
        "h2.data": "DATA frames carry the bodies. The server sends the responses' frames in turn, stream by stream: a slow or long response no longer holds up the others (no head-of-line blocking at the HTTP level; TCP still delivers bytes in order).",
        "h2.windowUpdate": "Flow control is credit-based: a sender may send DATA only while it has window — credit the receiver granted (65535 bytes to start with, per stream and for the whole connection). The receiver grants more with WINDOW_UPDATE as it consumes the data; with no credit left the sender waits.",
        "h2.push": "Server push: before the response that will need it, the server promises a resource the client did not ask for yet (PUSH_PROMISE with the request it stands for), then sends it on a new even-numbered stream.",
        "h2.goaway": "GOAWAY with NO_ERROR ends the HTTP/2 connection gracefully: its last-stream-id is the highest stream the peer opened that the sender may have processed (0 when the peer opened none — a client's peer opens only pushed streams), so the peer knows any higher stream was not processed and may be retried elsewhere.",
        "knowledge.http2": "Over h2c the cookie and the request never cross the wire as text: HPACK sent indices and Huffman codes. The eavesdropper still knows them — it parsed the frames and ran its own HPACK decoder over the recorded bytes, which needs no secret.",
        "stats.http2": "HTTP/2 sends every request at once on its own stream, like pipelining, but the responses may interleave in any order. HPACK shrinks the repeated headers: after the first request, fields both sides have seen cost one byte each.",
        "phase.closePlain": "No TLS here, so there is no close_notify: TCP closes each direction on its own with FIN and ACK — four messages, because the side that receives a FIN may still have data to send.",
        "phase.close": "close_notify tells the peer that no more data will follow, so a truncation attack is detected; then TCP closes each direction with FIN and ACK.",
    ])
}
