/// The TLS 1.3 lessons (`version: "1.3"` in a scenario file): why a TLS 1.2 key is refused in a 1.3
/// world, with the RFC 8446 rule that removed what it sets, and what the expectations TLS 1.3
/// lessons lean on mean (the version, the group, a HelloRetryRequest, a PSK, what the eavesdropper reads).
extension Explanations {
    static let englishTLS13Lessons: [String: String] = [
        "html.index.topic.tls13": "The TLS 1.3 handshake",
        "cli.compareCommand.html": "Also write the comparison as one self-contained HTML page: the table, why, who knows which secret, and both ladders phase beside phase.",
        "scenario.tls13.versionRange": "contradiction: version \"1.3\" fixes this side at TLS 1.3 (supported_versions, RFC 8446 §4.2.1); {key} chooses among TLS 1.0–1.2 and plays no part in a 1.3 lesson",
        "scenario.tls13.ems": "contradiction: extended_master_secret (RFC 7627) is not a TLS 1.3 extension (RFC 8446 §4.2): every secret of the 1.3 key schedule already hashes the transcript (§7.1)",
        "scenario.tls13.dhGroup": "contradiction: TLS 1.3 has no ServerKeyExchange and no server-chosen Diffie-Hellman prime (RFC 8446 §1.2): the group is one of the named supported_groups, its share sent in key_share (§4.2.7, §4.2.8); use server.groups",
        "scenario.tls13.minDHBits": "contradiction: TLS 1.3 has no server-chosen Diffie-Hellman prime to bound, only named groups (RFC 8446 §4.2.7); use client.groups",
        "scenario.tls13.alpn": "contradiction: TLSLab's TLS 1.3 engine does not send ALPN, so {side}.alpn would never be sent; ALPN is shown in TLS 1.2 lessons",
        "scenario.tls13.h2": "contradiction: HTTP/2 over TLS is chosen with ALPN (RFC 9113 §3.2), which TLSLab's TLS 1.3 engine does not send; use mode keep-alive or http/1.0",
        "scenario.tls13.resumptionTicket": "contradiction: TLS 1.3 replaced session IDs and RFC 5077 session tickets with one PSK exchange (RFC 8446 §1.2, §2.2); write resumption: true, a PSK from the server's NewSessionTicket",
        "scenario.tls13.earlyCCS": "contradiction: a TLS 1.3 peer drops a ChangeCipherSpec record of the single byte 01 that arrives after the first ClientHello and before the peer's Finished (RFC 8446 §5), so the early ChangeCipherSpec attack (CVE-2014-0224) has nothing to act on",
        "scenario.tls13.attack": "contradiction: attacker {kind} is not modelled for version \"1.3\"; expected one of: eavesdropper, steal_server_key, mitm",
        "scenario.tls13.keyOnlyFor13": "key '{key}' applies to version \"1.3\" only (TLS 1.3 names its groups in supported_groups and sends key_share, RFC 8446 §4.2.7, §4.2.8); add version: \"1.3\" at the top level",
        "scenario.tls13.rsaSuite": "{suite} uses RSA key transport, which TLS 1.3 removed (RFC 8446 §1.2: static RSA and Diffie-Hellman suites are gone, every key exchange is ephemeral); expected one of: {list}",
        "scenario.tls13.cbcSuite": "{suite} protects records with CBC and HMAC, which TLS 1.3 removed (RFC 8446 §1.2: only AEAD algorithms remain); expected one of: {list}",
        "scenario.tls13.tls12Suite": "{suite} is a TLS 1.2 suite: a TLS 1.3 suite names only the AEAD and the hash, and the key exchange is negotiated apart, in supported_groups and key_share (RFC 8446 §4.1.1, §B.4); expected one of: {list}",
        "scenario.tls13.listedTwice": "contradiction: {name} is listed twice",
        "scenario.tls13.noGroup": "expected at least one group",
        "scenario.tls13.shareNotOffered": "contradiction: key_share offers {group}, which client.groups does not list; each share must be for a group in supported_groups (RFC 8446 §4.2.8)",
        "scenario.tls13.withoutTLS": "contradiction: version \"1.3\" is a TLS version and this run has tls: false",
        "expect.meaning.version13": "both sides spoke TLS 1.3: the ServerHello keeps legacy_version 03 03 and names 03 04 in supported_versions, the only place a TLS 1.3 ServerHello gives its version (RFC 8446 §4.1.3, §4.2.1).",
        "expect.meaning.group": "the (EC)DHE shared secret came from two ephemeral {group} public values: the key_share entries in TLS 1.3 (RFC 8446 §4.2.8), the ServerKeyExchange and ClientKeyExchange points in TLS 1.2 (RFC 8422 §5.4).",
        "expect.meaning.helloRetryRequest": "the first ClientHello had no key share for the group the server chose, so the server answered with a HelloRetryRequest naming that group and the client sent a second ClientHello: one round trip more (RFC 8446 §4.1.1, §4.1.4).",
        "expect.meaning.noHelloRetryRequest": "the client's first key share was for a group the server accepts, so the handshake took one round trip (RFC 8446 §2, §4.1.1).",
        "expect.meaning.pskAccepted": "the server accepted the PSK the client offered from its ticket (pre_shared_key in its ServerHello), so that handshake sent no Certificate and no CertificateVerify: the binder and Finished prove both sides hold the PSK (RFC 8446 §2.2, §4.2.11).",
        "expect.meaning.reads.serverName": "the server's name travels in the clear in the ClientHello's server_name, sent before any key exists (RFC 6066 §3; RFC 8446 §4.1.2).",
        "expect.meaning.reads.certificateInClear": "the server's Certificate crossed the wire in the clear, as in every TLS 1.2 full handshake (RFC 5246 §7.4.2).",
        "expect.meaning.reads.certificateEncrypted": "the server's Certificate never crossed the wire as it is: in TLS 1.3 it follows ServerHello under the server handshake traffic key (RFC 8446 §2, §4.4.2).",
    ]
}
