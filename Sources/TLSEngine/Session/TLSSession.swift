/// What a full handshake leaves behind for resumption by session_id (RFC 5246 §7.3, §7.4.1.2) or
/// by session ticket (RFC 5077):
/// the ID, the negotiated version and suite, and the master secret.
public struct TLSSession: Sendable, Hashable {
    public var sessionID: [UInt8]
    public var version: ProtocolVersion
    public var cipherSuite: CipherSuite
    public var masterSecret: [UInt8]
    /// True when the master secret is an extended one (RFC 7627 §5.3: resumption must agree).
    public var extendedMasterSecret: Bool
    /// True when the session's records were encrypt-then-MAC (RFC 7366 §3.1: a resumption keeps it).
    public var encryptThenMAC: Bool
    /// The ticket the server issued for this session (RFC 5077 §3.3), which the client offers to
    /// resume it; nil when resumption is by session ID only.
    public var ticket: [UInt8]? = nil
    /// The ticket's ticket_lifetime_hint in seconds (0: none given), for the driver that keeps it.
    public var ticketLifetimeHint: UInt32 = 0
    /// Server side: the driver's clock reading at the full handshake that made this session (nil
    /// when the driver gave none); its age is measured from it (``SessionLifetime``).
    public var establishedAt: SessionTime? = nil

    public init(sessionID: [UInt8], version: ProtocolVersion, cipherSuite: CipherSuite,
                masterSecret: [UInt8], extendedMasterSecret: Bool, encryptThenMAC: Bool = false) {
        self.encryptThenMAC = encryptThenMAC
        self.sessionID = sessionID
        self.version = version
        self.cipherSuite = cipherSuite
        self.masterSecret = masterSecret
        self.extendedMasterSecret = extendedMasterSecret
    }
}
