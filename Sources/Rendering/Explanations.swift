import HTTP2
import Languages
import Trace

/// Every sentence the text renderer says about a step, in one catalogue keyed by step kind, so a
/// second language is a new table, not a code change.
public struct Explanations: Sendable {
    public var text: [String: String]
    /// The language the catalogue is written in.
    public var language: Language

    public init(text: [String: String], language: Language = .en) {
        self.text = text
        self.language = language
    }

    public func callAsFunction(_ key: String) -> String? { text[key] }

    /// The text of a key the code names, its `{name}` placeholders filled in: what a surface says
    /// instead of looking a key up and falling back to words of its own. Every key written in the
    /// sources is in the English and the Chinese catalogue (`CatalogueKeyLiteralTests`), so this
    /// never falls back; if a key went missing, the key itself would show, never silent English.
    public func phrase(_ key: String, _ values: [String: String] = [:]) -> String { self(key, values) ?? key }

    /// The catalogue's text for `key` with its `{name}` placeholders filled in; nil when the
    /// catalogue has no such key.
    public func callAsFunction(_ key: String, _ values: [String: String]) -> String? {
        guard let template = text[key] else { return nil }
        return values.isEmpty ? template : Self.filling(template, with: values, spacingHan: language == .zh)
    }

    /// `template` with each `{name}` that `values` names replaced by its value, in one pass: a
    /// value is never searched again for placeholders (a peer's text holding "{seq}" stays as sent).
    /// `spacingHan`: one space where a value's Latin letter or digit would touch a Han character of
    /// the sentence (or the reverse): the Chinese spacing rule (review-zh rule d) for values the
    /// catalogue cannot know, such as "CA 标志" in Chinese and "keyCertSign" in English filling the
    /// same `{kind}` ("深度 1 的 keyCertSign 检查").
    static func filling(_ template: String, with values: [String: String], spacingHan: Bool = false) -> String {
        var out = ""
        out.reserveCapacity(template.utf8.count + 32)
        var rest = template[...]
        while let open = rest.firstIndex(of: "{") {
            out += rest[..<open]
            let afterOpen = rest.index(after: open)
            guard let close = rest[afterOpen...].firstIndex(of: "}"), let value = values[String(rest[afterOpen..<close])] else {
                out += "{"
                rest = rest[afterOpen...]
                continue
            }
            rest = rest[rest.index(after: close)...]
            var filled = value
            if spacingHan {
                if let last = out.last, let first = value.first,
                   isHan(last) && isLatinOrDigit(first) || isLatinOrDigit(last) && isHan(first) { filled = " " + filled }
                if let next = rest.first, let end = value.last,
                   isHan(next) && isLatinOrDigit(end) || isLatinOrDigit(next) && isHan(end) { filled += " " }
            }
            out += filled
        }
        out += rest
        return out
    }

    static func isHan(_ c: Character) -> Bool {
        c.unicodeScalars.first.map { (0x4E00 ... 0x9FFF).contains($0.value) || (0x3400 ... 0x4DBF).contains($0.value) } ?? false
    }

    static func isLatinOrDigit(_ c: Character) -> Bool { c.isASCII && (c.isLetter || c.isNumber) }

    /// A sentence the simulation named by key (its key and values when the catalogue lacks it).
    /// Values of the placeholders that name a party (`receiver`, `side`, `actor`, `sender`) are
    /// `Actor` raw values: they are worded too ("client" → "客户端").
    public func sentence(_ s: Sentence) -> String {
        var values = s.values
        for key in Self.partyPlaceholders { if let v = values[key] { values[key] = actorName(v) } }
        return self(s.key, values) ?? s.description
    }

    static let partyPlaceholders = ["receiver", "side", "actor", "sender", "signer"]

    /// A party's name ("client", "server", "eavesdropper"…: `actor.<name>`), itself when unknown.
    public func actorName(_ rawValue: String) -> String { Actor(rawValue: rawValue).flatMap { text[CatalogueKey.actor($0)] } ?? rawValue }

    /// The catalogue in `language`.
    public static func catalogue(for language: Language) -> Explanations { language.explanations }

    public static let english = Explanations(text: englishTables.reduce(into: [:]) { all, table in all.merge(table) { first, _ in first } })

    /// The English catalogue's tables, one per file (`CatalogueTests` checks that no key is in two).
    static var englishTables: [[String: String]] { [englishCore, englishPhaseNames, lessonCatalogue, walkthroughCatalogue, englishLabels, htmlCatalogue, englishCauses, englishResumption, englishTrust, englishChainChecks, englishEngineReasons, englishDrivers, englishSockets, englishHTTP2Problems, englishExchange, englishFiles, englishRecords, englishSuites, englishChaCha, englishCLI, englishTLS13, englishDissect, englishTLS13Resumption, englishTLS13ClientAuth, englishCompare, englishVersionNegotiation, englishInputProblems, englishLessonChecks, englishTLS13Lessons, englishTLS13EarlyData, englishTLS13AntiReplay, englishTLS13IllegalParameter, englishSignatureInput, englishHTMLCalculations, englishPKIErrors, englishBuiltInPKI, englishRunProblems, englishBench, englishBenchFailures, englishSignatureFaults, englishCLISummaries, englishYAMLProblems, englishLessonReceivedNothing] }

    /// The sentences of a TLS run over TCP: messages, key schedule, alerts, attacks, knowledge, outcome, HTTP/2, closing.
    static let englishCore: [String: String] = [
        "phase.tcp": "TCP first opens a connection with three messages: each side proposes its starting sequence number and the other acknowledges it, so each learns that the other can both send and receive — and a stale SYN from an earlier connection cannot open a new one, because the client refuses an acknowledgment of a SYN it never sent (RFC 9293 §3.5).",
        "tcp.syn": "SYN: the {sender} proposes its initial sequence number (ISN). SYN takes one unit of sequence space.",
        "tcp.synack": "SYN-ACK: the {sender} acknowledges the {receiver}'s ISN + 1 and proposes its own ISN.",
        "tcp.synack.stale": "SYN-ACK: the {sender} acknowledges the old duplicate SYN (ack = its seq {seq} + 1), not a SYN the {receiver} sent on this connection, and proposes its own ISN.",
        "tcp.ack3": "ACK: the {sender} acknowledges the {receiver}'s SYN (ack = {receiver} ISN + 1). The {sender} has been ESTABLISHED since the SYN-ACK arrived; the {receiver} becomes ESTABLISHED when this ACK reaches it.",
        "tcp.fin": "FIN: this side has nothing more to send; the FIN takes one sequence number, so the answer acknowledges it + 1. Each direction closes on its own: the other side may keep sending (a half-close) until it sends its own FIN. If it has nothing left to send, its FIN can ride on the same segment as its ACK and the close takes three segments; if its ACK goes first, the close takes four.",
        "tcp.retransmit": "Retransmission: no ACK came back before the retransmission timer fired, so the segment is sent again with the same sequence number.",
        "tcp.drop": "The network lost this segment.",
        "tcp.intercepted": "The {receiver} on the path keeps this segment of the {sender}'s: the {side} never receives it as sent. What travels on to the {side} is the {receiver}'s changed copy, the next row.",
        "tcp.forwarded": "The {sender} sends the {receiver} its own changed copy of the {side}'s segment, in place of the original. It keeps the {side}'s address and port as the source and computes a new checksum: the checksum covers the header and the data (RFC 9293 §3.1) but says nothing about who wrote them, so the {receiver}'s TCP takes the copy as the {side}'s segment.",
        "phase.tls": "TLS 1.2 handshake: agree on versions and algorithms, authenticate the server by its certificate, agree on a shared secret, and check that nobody changed the messages on the way.",
        "tls.ClientHello": "ClientHello: the {sender} states the highest TLS version it supports and lists the cipher suites and extensions it supports (among them the server name it wants, SNI), with the first random, client_random. The whole message crosses the wire in the clear.",
        "tls.ServerHello": "ServerHello: the {sender} picks the version and one cipher suite, and sends the second random (server_random) in the clear.",
        "tls.Certificate": "Certificate: the {sender}'s certificate chain, leaf first, each certificate signed by the next; the root may be left out, since the {receiver} must already have it. The {receiver} checks each signature up to an anchor it trusts, every validity period, the CA flags and key usages, and that the leaf names the host it asked for. The chain crosses the wire in the clear.",
        "tls.Certificate.client": "Certificate (client): the client's certificate chain, leaf first, sent because the server asked for one in CertificateRequest. The server checks the signatures up to one of the client CAs it accepts, the validity dates, and that the key may be used for client authentication — no host name is involved. The certificate alone proves nothing; the client proves it holds the private key in CertificateVerify. A client with no certificate sends an empty list.",
        "tls.ServerKeyExchange": "ServerKeyExchange: the {sender}'s ephemeral (EC)DH parameters — the group (p and g, or the named curve) and its public value — signed with its certificate's key together with both randoms. The {receiver} checks the signature with the key from the certificate it just validated: the parameters come from the certificate's owner, were made for this handshake (the randoms), and nobody swapped the group on the way. The chosen cipher suite is not covered by this signature; Finished covers it.",
        "tls.CertificateRequest": "CertificateRequest: the {sender} asks the {receiver} for a certificate too (mutual authentication).",
        "tls.ServerHelloDone": "ServerHelloDone: the {sender} has said everything for now and waits for the {receiver}.",
        "tls.NewSessionTicket": "NewSessionTicket (RFC 5077 §3.3): just before its own ChangeCipherSpec — after the client's Finished in a full handshake, right after ServerHello when it resumes a session and renews the ticket (RFC 5077 §3.1, Figures 1 and 2) — the server hands the client a ticket — the session's version, cipher suite and master secret, encrypted and authenticated under a key only the server knows — so that it need not remember the session itself. The client stores the ticket beside the master secret and offers it in the SessionTicket extension of a later ClientHello; a server that can open it resumes with the abbreviated handshake. The message is part of the handshake: the server's Finished covers it.",
        "tls.ClientKeyExchange.rsa": "ClientKeyExchange (RSA): the {sender} made the 48-byte premaster secret — the two bytes of the version it offered in ClientHello.client_version (its highest, not the one the {receiver} chose), then 46 random bytes — and sends it encrypted with the {receiver}'s public key. The version bytes let the {receiver} check them against the client_version of the ClientHello it received: had someone on the path lowered that offer, the two would differ (a version rollback, RFC 5246 §7.4.7.1). Only the private key's owner can read the premaster — today, and also anyone who steals that key later.",
        "tls.ClientKeyExchange.ecdh": "ClientKeyExchange (ECDH): the {sender} sends its own ephemeral public value. Each side combines its private key with the other's public value; the premaster never travels. Each checks what it receives: a P-256 point must lie on the curve, and with X25519 a shared secret of all zeros — what a small-order public value forces — makes it abort the handshake (RFC 8422 §5.11, RFC 7748 §6.1), so a peer cannot force a known premaster.",
        "tls.ClientKeyExchange.dh": "ClientKeyExchange (DH): the {sender} sends its own ephemeral public value. Each side combines its private value with the other's public value; the premaster never travels. Each checks the value it receives first: 1 < y < p-1, and for a named safe-prime group y^q mod p = 1 with q = (p-1)/2, so a forged value outside g's subgroup cannot leak a bit of its private exponent.",
        "tls.CertificateVerify": "CertificateVerify: the {sender} signs the handshake so far with its private key, proving it owns the certificate it sent.",
        "tls.ChangeCipherSpec": "ChangeCipherSpec: from the next record on, this side encrypts and authenticates with the new keys. It is a record type of its own (content type 20), not a handshake message (RFC 5246 §7.1): it only switches the record layer to the keys, so it is not in the Finished hash, and the handshake must itself check that it comes only once the keys exist — after ClientKeyExchange, before Finished. OpenSSL did not: it accepted a ChangeCipherSpec injected early, before the master secret was computed, and switched to keys an on-path attacker could compute too (CVE-2014-0224, 2014).",
        "tls.Finished": "Finished: 12 bytes computed with the PRF from the master secret and a hash of every handshake message so far (the second Finished includes the first), sent under the new keys. ChangeCipherSpec is not a handshake message and is not covered. If anyone changed a handshake message, the two sides compute different values and the handshake fails.",
        "tls.masterSecret": "Both sides now compute the master secret from the premaster and both randoms. The eavesdropper saw the randoms but not the premaster, so it cannot compute it{unless}",
        "tls.masterSecret.ems": "Both sides now compute the master secret from the premaster and the session hash — a hash of every handshake message so far, randoms and certificate included (extended master secret, RFC 7627). The eavesdropper saw those messages but not the premaster, so it cannot compute it{unless}",
        // How else the eavesdropper could get the premaster, by the run's key exchange (RSA or (EC)DHE).
        "tls.masterSecret.unless.rsa": " — unless it gets the premaster some other way: by stealing the server's private key, even later, since the premaster crossed the wire encrypted to that key; or, if the client's generator is predictable, by guessing it.",
        "tls.masterSecret.unless.ephemeral": " — unless it gets the premaster some other way. A stolen server key would not give it: with (EC)DHE that key only signed the parameters, and the premaster came from ephemeral private values that never crossed the wire (forward secrecy). Only a predictable generator (guessing one side's ephemeral private value), or an ephemeral value kept or reused, would give it away.",
        "tls.keyBlock": "The key block is expanded from the master secret with the label \"key expansion\" and the seed server_random‖client_random. That is the opposite order from the master-secret computation; RFC 5246 §6.3 only defines it (it comes from SSL 3.0) — the different labels, not the order, keep the two uses of the PRF apart. The block is then cut into what the cipher suite needs. For an AES-GCM suite that is a write key and a 4-byte implicit IV (the \"salt\") per direction, and no MAC keys: the GCM tag authenticates each record, and each record carries its own 8-byte explicit nonce (RFC 5288 §3).",
        "tls.keyBlock.cbc": "The key block is expanded from the master secret with the label \"key expansion\" and the seed server_random‖client_random (the order comes from SSL 3.0; the labels keep the PRF's uses apart) and cut into a MAC key and a write key for each direction. In TLS 1.2 every CBC record carries its own explicit IV, so no IVs are taken from the block (RFC 5246 §6.2.3.2).",
        "tls.countermeasure": "The premaster did not decrypt correctly (bad PKCS#1 padding, or not 48 bytes). The server does not say so: it carries on with a substitute premaster — the offered version followed by 46 random bytes — exactly as if decryption had worked, so the handshake fails only at Finished, like any wrong key (RFC 5246 §7.4.7.1). Any reaction an attacker could tell apart — a different alert, an error, a different timing — would be a padding oracle: by sending many altered copies of a recorded ClientKeyExchange and watching the answers, it could decrypt that premaster without the private key (Bleichenbacher's attack).",
        "tls.alpn": "ALPN (RFC 7301): the client offers {offered}; the server picks {chosen} inside the handshake, so no extra round trip is needed to switch protocols. The choice travels in the clear, and Finished covers it like every other handshake byte.",
        // Alerts with a plain-language line of their own ("alert.<name>"), shown under the alert.
        "alert.no_application_protocol": "no_application_protocol (120, RFC 7301 §3.2): the client offered only application protocols the server does not speak, so the server ends the handshake rather than pick one the client cannot use.",
        "alert.no_renegotiation": "no_renegotiation (100, RFC 5246 §7.2.2): the peer asked for a new handshake on this connection and this side declines. It is always a warning: the connection goes on with the current keys, and the side that asked decides whether that is acceptable or closes it.",
        "tls.alert": "A fatal alert ends the connection at once: both sides discard its keys, the session can no longer be resumed, and the receiver stops processing the connection's records.",
        "tls.alert.warning": "A warning alert does not end the connection: it tells the peer about a condition the peer may act on, and records keep flowing unless one side decides to close.",
        "phase.http": "The HTTP request and response now travel inside TLS application-data records: encrypted and authenticated with the session keys. An eavesdropper still sees each record's length and timing, so it can tell roughly how big each request and response is.",
        "phase.httpPlain": "The HTTP request and response now travel as plain text straight on TCP: anyone on the path can read every byte, and change it, and nothing tells the receiver.",
        "attack.replayEarlyData": "The attacker on the path records what crosses the wire and can send a copy of it again. It needs no certificate and no key: a ClientHello with 0-RTT data carries everything the server needs to read that data, so a copy of the client's first flight is read again by a server that does not guard against replay (RFC 8446 §2.3, §8).",
        "attack.mitm": "A man in the middle answers the client's connection itself and presents its own certificate. Everything else about TLS works for it: it makes its own keys with each side. In one-way TLS only the client's certificate check stands in the way — a client that trusts any certificate hands it every byte. (With mutual TLS the attacker would also fail the real server's check: it cannot sign CertificateVerify with the client's key.)",
        "attack.onPath": "An attacker on the path (a router, a Wi-Fi access point) sees every segment and can change, drop or add any of them; TCP's checksums do not stop it, because it can recompute them.",
        "attack.tamperHTTP": "The attacker changed one byte of an HTTP message on the wire, keeping its length. Over plain HTTP nothing checks it (TCP's checksum is recomputed by whoever forges the segment), so the receiver reads the altered text; over TLS the byte is ciphertext, and the record's MAC (the AEAD tag) no longer verifies: bad_record_mac.",
        "attack.tamper": "The attacker changed one byte on the wire. TCP cannot notice (the attacker fixes checksums). Which check catches the change depends on what the byte feeds — a signature, the key derivation, or only the Finished hash; the alert below says which one fired.",
        "attack.tamper.signature": "The attacker changed one byte that the server's ServerKeyExchange signature covers — a random, or the (EC)DH parameters. The client checks the signature with the certificate's key before computing any secret; it no longer verifies, and the client sends decrypt_error (RFC 5246 §7.4.3).",
        "attack.tamper.keys": "The attacker changed one byte that goes into the key derivation — a random, the encrypted premaster, or, with extended master secret, any handshake message up to ClientKeyExchange. The two sides now derive different keys, so the first record protected with them, Finished, fails to authenticate: bad_record_mac, before any verify_data is compared (RFC 5246 §8.1, RFC 7627 §4).",
        "attack.tamper.finished": "The attacker changed one byte of a handshake message that does not go into the keys. Both sides still derive the same keys, but each hashes the handshake messages it saw into Finished: the two hashes differ, so the side that checks the other's Finished first finds the wrong verify_data and sends decrypt_error (RFC 5246 §7.4.9).",
        "attack.tamper.certificate": "The attacker changed one byte of the certificate chain, so a signature in it no longer verifies (or a field no longer matches): the client's chain validation fails and it rejects the server before any key is derived.",
        "attack.strip": "A downgrade: the attacker removed suites from the ClientHello, so the server sees only weaker ones and picks one. In TLS 1.2 the handshake messages are not signed as a whole, but Finished covers all of them: the client hashed its real ClientHello, the server the modified copy. Without extended master secret the two Finished values differ (decrypt_error); with it, even the keys differ and the first Finished record does not authenticate (bad_record_mac). Either way the check holds only because the attacker cannot compute the master secret in time — a downgrade to a key exchange it could break during the handshake (the old export suites) would let it forge both Finished messages.",
        "attack.replay": "A replayed record is byte for byte a real one, but it no longer fits the receiver's count. Each side numbers the records it sends and receives with a 64-bit sequence number that never crosses the wire (RFC 5246 §6.1); it goes into the MAC — with AES-GCM, into the additional data the tag authenticates, next to the record's type, version and length (RFC 5246 §6.2.3.3), while the 8-byte explicit nonce travels in the record itself (RFC 5288 §3). The copy arrives when the receiver expects the next number, so its tag does not verify: bad_record_mac. The same count catches a record that was deleted or moved out of order.",
        "attack.keyTheft": "Forward secrecy: an eavesdropper recorded everything. Now it obtains the server's private key. With RSA key exchange the premaster was encrypted to that key, so the whole recorded session opens. With (EC)DHE the key only signed the parameters: the premaster came from ephemeral secrets that both sides erased after the handshake, so the recording stays closed — as long as the server did not reuse its ephemeral key or keep the session's master secret (a session cache, a ticket encrypted with a long-lived key). The stolen key does let the thief impersonate the server from now on.",
        "attack.seed": "The client's random values came from a generator seeded with little entropy (clock and process id). The eavesdropper regenerates client_random for each guess until one matches what it saw on the wire; the same generator then gives it the premaster.",
        "knowledge.afterKeyExchange": "Who knows what, once the key exchange is complete",
        "knowledge.afterFinished": "Who knows what, once both Finished messages checked out",
        "knowledge.soFar": "Who knows what so far",
        "knowledge.atTheEnd": "Who knows what at the end of the run",
        "pki.chain": "Chain validation, link by link: each certificate's signature is checked with its issuer's public key — both kinds start from Hash1, the digest of the TBSCertificate; for an RSA PKCS#1 v1.5 signature, Hash1 must equal Hash2, the digest recovered from the signature with the issuer's public key (RFC 8017 §8.2.2); an ECDSA signature hides no digest to recover: it is a pair of integers (r, s), and the verifier combines Hash1, r, s and the issuer's public point into a curve point whose x-coordinate must equal r modulo the group order (FIPS 186-5 §6.4.2). Then come its validity against the simulated clock, the CA flag, path length and name constraints of each issuer, and the key usage and extended key usage; the leaf must name the host.",
        "trust.proceed": "proceed (valid, and the user explicitly trusted the anchor)",
        "trust.unspecified": "unspecified — valid, with no user setting either way (the usual success)",
        "trust.recoverableTrustFailure": "recoverable trust failure (invalid, but a user or policy could choose to trust it)",
        "trust.fatalTrustFailure": "fatal trust failure (a certificate in the chain is itself defective; changing the evaluation settings will not fix it — this simulator counts a bad signature as such a defect)",
        // Where an attacker sits (AttackEvent.position).
        "position.mitm": "the client's connection to {host} ends at the attacker {address} (a spoofed DNS answer or a rogue access point); the attacker opens its own connection to the real server and relays",
        "position.onPath": "sits on the path between client and server and can change, drop or add segments",
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
        "dropped.recordFailed": "this is the record whose decryption raised {alert}: its tag did not verify under the {receiver}'s keys, so the {receiver} never read the message inside",
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
        "knowledge.measured": "The table counts secrets and messages, measured, not assumed: a value counts as known to the eavesdropper when its exact bytes crossed the wire.",
        "knowledge.changedCopy": "A changed copy is the value the peer received after the attacker altered it in flight; the side that made the random still knows its own, and the two sides now hold different values.",
        "knowledge.serverOwn": "A server's own value: both sides derived this secret, but from inputs that differ after the change in flight, so the server knows a value of its own and not the client's (the row above). The difference shows at the first record protected with these keys: Finished.",
        "knowledge.metadata": "What else crossed the wire in the clear, and the eavesdropper saw:",
        "metadata.endpoints": "addresses and ports",
        "metadata.serverName": "server name (SNI)",
        "metadata.none": "none sent",
        "metadata.chain": "certificate chain",
        "metadata.chainLength": "{count} certificate(s), every byte readable: subjects, issuers, names, validity",
        "metadata.suite": "cipher suite",
        "metadata.group": "key-exchange group",
        "metadata.groupAndPublics": "{group}, with both public values",
        "metadata.clientRecords": "client's records",
        "metadata.serverRecords": "server's records",
        "metadata.records": "{count} application-data record(s) of {lengths} bytes (the header gives each length)",
        "metadata.noRecords": "no application data",
        "knowledge.metadataTLS": "TLS 1.2 hides what is said, not who talks to whom, about which site, or how much.",
        "knowledge.afterwards": "The afterwards column is what the eavesdropper learned after the run (a stolen key or a guessed seed), counted only when the bytes it decrypted or derived equal the real ones.",
        "knowledge.attacker": "The attacker column is what a man in the middle knows: the secrets of its own session with the client, and whatever the client sends through it.",
        "stats.roundTrips": "Each round trip is a client message that has to wait for the server's answer before the client can go on. TCP's handshake costs one, a full TLS handshake two, an abbreviated one (resumption) one, each request on its own one — pipelining and HTTP/2 send several requests in one — and the close one more (the client's FIN waits for the server's).",
        "phase.h2": "HTTP/2 replaces HTTP/1.x's text with binary frames inside the same TLS application data: every request gets its own stream on one connection, so none waits for another.",
        "phase.h2c": "HTTP/2 in the clear: binary frames straight on TCP. Binary is not secret — anyone on the path can parse the frames and undo the header compression.",
        "h2.chosen.tls": "Over TLS both sides must agree on HTTP/2 before the first byte of it: the client offers \"h2\" in the ALPN extension of its ClientHello and the server confirms it in its ServerHello.",
        "h2.chosen.h2c": "Without TLS there is no ALPN: a client that already knows the server speaks HTTP/2 starts with the preface straight away (prior knowledge).",
        "h2.preface": "The preface is a fixed string chosen so that most HTTP/1.x servers reject it as a request, so talking HTTP/2 to one fails at once instead of being misread; SETTINGS must follow it (RFC 9113 §3.4).",
        "h2.settings": "SETTINGS announces this side's limits and preferences: how many streams the peer may open at once, the initial flow-control window of each stream (the connection's own window changes only with WINDOW_UPDATE), and, from a client, whether it accepts server push. The peer acknowledges with an empty SETTINGS ACK.",
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
        "phase.closePlain": "No TLS here, so there is no close_notify: TCP closes each direction on its own with a FIN and its ACK — four segments when the side that receives the first FIN acknowledges it before sending its own, three when it sends its FIN together with its ACK.",
        "phase.close": "close_notify tells the peer that no more data will follow. An attacker can forge a TCP FIN but not this authenticated alert, so a receiver that sees the connection end without close_notify knows the data may have been cut short (a truncation attack) — provided it checks. Then TCP closes each direction with FIN and ACK.",
    ]
}
