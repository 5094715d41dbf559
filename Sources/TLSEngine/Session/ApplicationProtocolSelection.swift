/// How a server picks one application protocol from the client's ALPN offer (RFC 7301 §3.2).
public enum ApplicationProtocolSelection: String, Sendable, Hashable, CaseIterable {
    /// RFC 7301 §3.2: "the server SHOULD select the most highly preferred protocol that it supports
    /// and that is also advertised by the client" — the first of the server's list the client offers
    /// (OpenSSL's `SSL_select_next_proto`, and `s_server -alpn`, do the same).
    case serverPreference
    /// The first of the client's list the server supports (the client's order wins).
    case clientPreference

    /// The protocol chosen, or nil when the lists have nothing in common (the server then answers
    /// with the fatal alert no_application_protocol, RFC 7301 §3.2).
    public func select(offered: [ProtocolName], supported: [ProtocolName]) -> ProtocolName? {
        switch self {
        case .serverPreference: return supported.first(where: offered.contains)
        case .clientPreference: return offered.first(where: supported.contains)
        }
    }
}
