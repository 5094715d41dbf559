import TLSCrypto

/// RFC 7919 §4: a client that names finite-field groups in supported_groups (code points 256…511,
/// known or not) gets DHE only in one of them; with none the server accepts, no DHE suite.
enum FFDHENegotiation {
    /// The named group of an RFC 7919 group, nil for any other (RFC 3526 MODP, teaching groups).
    static func namedGroup(_ group: DHGroup) -> NamedGroup? {
        switch group.name {
        case DHGroup.ffdhe2048.name: return .ffdhe2048
        case DHGroup.ffdhe3072.name: return .ffdhe3072
        case DHGroup.ffdhe4096.name: return .ffdhe4096
        default: return nil
        }
    }

    static func isFiniteField(_ group: NamedGroup) -> Bool { (256 ... 511).contains(group.rawValue) }

    /// The DHE group for this ClientHello: without FFDHE groups offered, the configured group (RFC
    /// 7919 §4: the server "MAY select a FFDHE group" of its own); with some, the first of the
    /// server's `acceptable` groups the client named, or nil — then no DHE suite may be chosen.
    static func group(offered: [NamedGroup]?, configured: DHGroup, acceptable: [DHGroup]) -> DHGroup? {
        let finiteField = (offered ?? []).filter(isFiniteField)
        guard !finiteField.isEmpty else { return configured }
        return acceptable.first { namedGroup($0).map(finiteField.contains) ?? false }
    }
}
