/// How a TLS 1.2 server picks the protocol version of a connection from a ClientHello.
///
/// Without supported_versions: RFC 5246 Appendix E.1 — the lower of the client's
/// `client_version` and the server's highest, refused below the server's lowest (and below TLS 1.0).
/// With supported_versions (RFC 8446 §4.2.1, Appendix D.2): the server "MUST NOT use the
/// ClientHello.legacy_version value for version negotiation"; it picks the highest version in the
/// client's list that it speaks, and answers protocol_version when there is none (a TLS 1.3-only
/// client learns that the server does not speak 1.3, rather than getting handshake_failure).
enum VersionNegotiation {
    /// RFC 8446 §4.2.1: `ProtocolVersion versions<2..254>;` in a ClientHello, or nil when absent.
    static func supportedVersions(in extensions: [TLSExtension]) throws(TLSError) -> [ProtocolVersion]? {
        guard let ext = extensions.first(where: { $0.type == .supportedVersions }) else { return nil }
        var reader = ByteReader(ext.data)
        do {
            let list = try reader.readList(of: ProtocolVersion.self, lengthBytes: 1, min: 2, max: 254,
                                           elementSize: 2, field: "supported_versions.versions")
            try reader.expectEnd(field: "supported_versions")
            return list
        } catch {
            throw .invalidMessage(error)
        }
    }

    static func select(clientVersion: ProtocolVersion, extensions: [TLSExtension],
                       minimum: ProtocolVersion, maximum: ProtocolVersion) throws(TLSError) -> ProtocolVersion {
        let lowest = max(minimum, .tls10), highest = min(maximum, .tls12)
        if let offered = try supportedVersions(in: extensions) {
            // Unknown values (GREASE, TLS 1.3 and later, DTLS) are not versions this server speaks.
            guard let chosen = offered.filter({ $0 >= lowest && $0 <= highest }).max() else {
                throw .peerIncompatible(.noSupportedVersionInCommon(offered: offered, lowest: lowest, highest: highest))
            }
            return chosen
        }
        // RFC 5246 Appendix E.1: answer with the highest version both support; SSL 3.0 is refused.
        let version = min(clientVersion, maximum)
        guard version >= .tls10, version >= minimum else {
            throw .peerIncompatible(.clientVersionTooLow(clientVersion, lowest: lowest))
        }
        return version
    }
}
