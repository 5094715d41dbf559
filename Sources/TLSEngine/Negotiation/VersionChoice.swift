/// Which protocol version a side that speaks both TLS 1.2 and TLS 1.3 settled on, and the rule that
/// decided it (RFC 8446 §4.2.1, Appendix D.1 and D.2). The server decides from the ClientHello; the
/// client learns the server's decision from the ServerHello.
public struct VersionChoice: Sendable, Hashable {
    /// The side that recorded the choice.
    public var role: TLSRole
    /// The version that speaks from here on.
    public var version: ProtocolVersion
    public var reason: Reason

    public init(role: TLSRole, version: ProtocolVersion, reason: Reason) {
        self.role = role
        self.version = version
        self.reason = reason
    }

    public enum Reason: Sendable, Hashable {
        /// Server: supported_versions lists 03 04 and this server speaks TLS 1.3 (RFC 8446 §4.2.1:
        /// the server picks from the client's list and ignores legacy_version).
        case clientOffersTLS13(offered: [ProtocolVersion])
        /// Server: supported_versions is present without 03 04: the highest version in the list that
        /// the server speaks (RFC 8446 §4.2.1).
        case clientOffersOnlyOlder(offered: [ProtocolVersion])
        /// Server: the client lists 03 04 but TLS 1.3 is turned off here: the TLS 1.2 engine picks.
        case tls13Disabled(offered: [ProtocolVersion])
        /// Server: no supported_versions: a client of TLS 1.2 or earlier, so legacy_version decides
        /// as RFC 5246 Appendix E.1 says (RFC 8446 §4.2.1, Appendix D.2).
        case noSupportedVersions(legacyVersion: ProtocolVersion)
        /// Client: the ServerHello carries supported_versions selecting 03 04 (RFC 8446 §4.1.3, §4.2.1).
        case serverSelectsTLS13
        /// Client: the ServerHello has no supported_versions, so its legacy_version is the version
        /// (RFC 8446 §4.1.3, Appendix D.1).
        case serverHelloWithoutSupportedVersions(serverVersion: ProtocolVersion)
    }
}

/// The RFC 8446 §4.1.3 downgrade sentinel a server that speaks TLS 1.3 writes in the last 8 bytes
/// of ServerHello.random when it negotiates an older version.
public struct DowngradeSentinel: Sendable, Hashable {
    /// The version negotiated (TLS 1.2, or 1.1 and below).
    public var version: ProtocolVersion
    /// The 8 bytes written: "DOWNGRD" then 01 (TLS 1.2) or 00 (TLS 1.1 and below).
    public var bytes: [UInt8]
    /// The whole ServerHello.random, sentinel included.
    public var serverRandom: [UInt8]

    /// The sentinel for `version` (RFC 8446 §4.1.3).
    public static func bytes(for version: ProtocolVersion) -> [UInt8] {
        version >= .tls12 ? TLS13HelloValues.downgradeToTLS12 : TLS13HelloValues.downgradeToTLS11OrBelow
    }

    /// `random` with its last 8 bytes replaced by the sentinel for `version`.
    public static func apply(to random: [UInt8], version: ProtocolVersion) -> DowngradeSentinel {
        let sentinel = bytes(for: version)
        return DowngradeSentinel(version: version, bytes: sentinel, serverRandom: Array(random.prefix(random.count - sentinel.count)) + sentinel)
    }

    /// True when `random` ends with either sentinel (what a TLS 1.3 client checks).
    public static func isPresent(in random: [UInt8]) -> Bool {
        let tail = Array(random.suffix(8))
        return tail == TLS13HelloValues.downgradeToTLS12 || tail == TLS13HelloValues.downgradeToTLS11OrBelow
    }
}

extension VersionChoice.Reason {
    /// The identifier JSON Lines writes in `reason`.
    public var identifier: String {
        switch self {
        case .clientOffersTLS13: return "client_offers_tls13"
        case .clientOffersOnlyOlder: return "client_offers_only_older"
        case .tls13Disabled: return "tls13_disabled"
        case .noSupportedVersions: return "no_supported_versions"
        case .serverSelectsTLS13: return "server_selects_tls13"
        case .serverHelloWithoutSupportedVersions: return "server_hello_without_supported_versions"
        }
    }
}
