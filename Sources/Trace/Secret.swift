/// A value the knowledge table follows and an attacker or the eavesdropper can learn: the
/// handshake's randoms and secrets (RFC 5246 §8.1, §6.3), the session's write keys, and the HTTP
/// exchange they protect. The renderers name each one in the reader's language.
public enum Secret: String, Sendable, Hashable, CaseIterable {
    // The raw values are the stable identifiers JSON Lines has always written in `secret`.
    case clientRandom = "client_random"
    case serverRandom = "server_random"
    case preMasterSecret = "premaster secret"
    case masterSecret = "master secret"
    case clientWriteKey = "client_write_key"
    case serverWriteKey = "server_write_key"
    case httpCookie = "HTTP cookie"
    case httpRequest = "HTTP request"
    case httpResponse = "HTTP response"
    // TLS 1.3 (RFC 8446 §7.1): the (EC)DHE shared secret and the key schedule's secrets, by the
    // key schedule's names, prefixed tls13_ (JSON `learned` identifiers).
    case sharedSecret = "tls13_shared_secret"
    case handshakeSecret = "tls13_handshake_secret"
    case clientHandshakeTrafficSecret = "tls13_client_handshake_traffic_secret"
    case serverHandshakeTrafficSecret = "tls13_server_handshake_traffic_secret"
    case tls13MasterSecret = "tls13_master_secret"
    case clientApplicationTrafficSecret = "tls13_client_application_traffic_secret_0"
    case serverApplicationTrafficSecret = "tls13_server_application_traffic_secret_0"
    /// The key of 0-RTT data (RFC 8446 §2.3), on a connection that sent early data.
    case clientEarlyTrafficSecret = "tls13_client_early_traffic_secret"

    /// HTTP text (a request, a response, a cookie line) rather than key material.
    public var isHTTPText: Bool {
        switch self {
        case .httpCookie, .httpRequest, .httpResponse: return true
        default: return false
        }
    }
}
