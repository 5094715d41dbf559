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

/// What a server knows when it settles the application protocol, once it has picked the version
/// and cipher suite: what the client offered, what the server speaks, and its ordering rule.
public struct ApplicationProtocolSituation: Sendable {
    public var offered: [ProtocolName]
    public var supported: [ProtocolName]
    public var selection: ApplicationProtocolSelection
    public var version: ProtocolVersion
    public var suite: CipherSuite

    public init(offered: [ProtocolName], supported: [ProtocolName], selection: ApplicationProtocolSelection,
                version: ProtocolVersion, suite: CipherSuite) {
        self.offered = offered
        self.supported = supported
        self.selection = selection
        self.version = version
        self.suite = suite
    }

    /// RFC 7301 §3.2's choice by `selection`, nil when nothing is in common.
    public var choice: ProtocolName? { selection.select(offered: offered, supported: supported) }

    /// The protocol the server answers with: RFC 7301 §3.2's ``choice``, then `strategy`'s final say
    /// (nil from it keeps the choice); nil when nothing is in common. Both versions decide with it.
    public func decided(by strategy: ApplicationProtocolStrategy) -> ProtocolName? {
        guard let chosen = choice else { return nil }
        return strategy(self) ?? chosen
    }
}

/// How a server picks the application protocol (``TLSServerConfiguration/applicationProtocolStrategy``):
/// called once the version and suite are fixed, and only when client and server have a protocol in
/// common; returns one of those (nil: the plain ``ApplicationProtocolSituation/choice``). An
/// application protocol with its own demands on the connection supplies its rule here.
public typealias ApplicationProtocolStrategy = @Sendable (ApplicationProtocolSituation) -> ProtocolName?
