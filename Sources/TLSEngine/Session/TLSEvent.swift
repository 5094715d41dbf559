import PKI
import TLSCrypto

/// Everything a client or server did, in order, for the trace, the renderers and the exports.
/// Each derived value carries its inputs, so a renderer can show how it was computed.
public enum TLSEvent: Sendable {
    /// The one state transition function recorded a change (RFC 5246 §7.3 flow).
    case stateChanged(role: TLSRole, from: TLSStateName, to: TLSStateName)
    /// A handshake message written, decoded, with its exact bytes (4-byte header included).
    case handshakeSent(HandshakeMessage, bytes: [UInt8])
    /// A handshake message read, decoded, with its exact bytes (4-byte header included).
    case handshakeReceived(HandshakeMessage, bytes: [UInt8])
    case changeCipherSpecSent
    case changeCipherSpecReceived
    /// A record as sent: content type, plaintext, and (once keys are on) the protection details.
    case recordSent(RecordTrace)
    case recordReceived(RecordTrace)
    /// The hellos fixed version, suite and options.
    case negotiated(NegotiationTrace)
    /// A value derived during the handshake, with its inputs.
    case derived(DerivedValue)
    /// A ServerKeyExchange or CertificateVerify signature made or checked.
    case signature(SignatureTrace)
    /// The certificate evaluator's decision about the peer's chain, with the chain validation it
    /// rests on (every check per link) when the evaluator validated a path.
    case certificateDecision(peer: TLSRole, chainLength: Int, accepted: Bool, detail: CertificateAccount, validation: ChainValidationResult?)
    /// RFC 5246 §7.4.7.1: the RSA premaster did not decrypt to 48 bytes starting with the
    /// client's version; the server went on with a random premaster so only Finished fails.
    case countermeasureApplied(reason: PremasterDecryptionFault)
    /// One direction switched to the new keys (ChangeCipherSpec; sequence number reset to 0).
    case keysActivated(direction: Direction, suite: CipherSuite)
    /// The handshake finished; `resumed` for the abbreviated handshake.
    case handshakeCompleted(resumed: Bool)
    /// A session that can be resumed by its ID (client: keep it; server: cached).
    case sessionEstablished(TLSSession)
    /// The abbreviated handshake resumed this session: its ID and the master secret it reuses (an
    /// abbreviated handshake derives none, so this is the connection's key log secret, RFC 5246 §7.3).
    case sessionResumed(sessionID: [UInt8], masterSecret: [UInt8])
    /// The server did not resume from the ticket the client offered and does a full handshake
    /// instead (RFC 5077 §3.4).
    case sessionTicketRefused(SessionTicketRefusal)
    /// The server found the offered session and does a full handshake by `rule` (RFC 7627 §5.3).
    case resumptionDeclined(ResumptionDeclined)
    /// The server did not resume the offered session (cached or in a ticket) because it is older
    /// than the server's ``SessionLifetime`` (or of unknown age); a full handshake follows.
    case sessionExpired(SessionExpiry)
    /// The client does not offer the session it was given: its ticket's ticket_lifetime_hint has
    /// passed (RFC 5077 §3.3), so it offers neither the ticket nor the session ID — a full handshake.
    case sessionTicketExpired(TicketExpiry)
    case applicationDataSent([UInt8])
    case applicationDataReceived([UInt8])
    /// An alert sent, with why (a failure's named reason, or a close).
    case alertSent(Alert, cause: AlertCause)
    case alertReceived(Alert)
    /// The peer stopped sending (end of stream or the caller's timeout) in `state`, with
    /// `bufferedBytes` of an incomplete record or handshake message waiting. Before the handshake
    /// finished, a fatal alert follows (see ``TLSClient/receiveEndOfStream()``).
    case endOfStream(state: TLSStateName, bufferedBytes: Int)
    /// A TLS 1.3 fact that TLS 1.2 has no counterpart for (RFC 8446): a key-schedule step, a
    /// traffic key installed, a record sealed or opened with its inner content type, a state of
    /// Appendix A, the (EC)DHE shared secret, CertificateVerify and Finished checks. The 1.3
    /// messages, alerts, application data and the certificate decision come as the cases above.
    case tls13(TLS13Event)
    /// A side that speaks TLS 1.2 and 1.3 settled on one, and why (RFC 8446 §4.2.1).
    case versionChosen(VersionChoice)
    /// A server that also speaks TLS 1.3 negotiated an older version and wrote the downgrade
    /// sentinel in the last 8 bytes of ServerHello.random (RFC 8446 §4.1.3).
    case downgradeSentinelWritten(DowngradeSentinel)

    /// Which way records flow, seen from the side that records the event.
    public enum Direction: String, Sendable { case read, write }
}

/// One record: what it carried and how it was protected (RFC 5246 §6.2).
public struct RecordTrace: Sendable, Hashable {
    public var contentType: ContentType
    public var version: ProtocolVersion
    /// The TLSPlaintext fragment.
    public var plaintext: [UInt8]
    /// The whole record as on the wire (header and fragment).
    public var wire: [UInt8]
    /// Nil while the record travels in the clear.
    public var crypto: RecordCryptoDetail?
}

/// What the hellos decided (RFC 5246 §7.4.1.3).
public struct NegotiationTrace: Sendable, Hashable {
    public var version: ProtocolVersion
    public var cipherSuite: CipherSuite
    public var extendedMasterSecret: Bool
    public var resumed: Bool
    public var serverName: String?
    /// The ECDHE curve or DHE group, when there is one.
    public var group: String?
    /// The application protocol ALPN agreed on (RFC 7301), nil when none was negotiated.
    public var applicationProtocol: ProtocolName? = nil
    /// CBC records are encrypt-then-MAC (RFC 7366): the MAC covers IV and ciphertext and is checked first.
    public var encryptThenMAC = false
}

/// A ServerKeyExchange / CertificateVerify signature (RFC 5246 §4.7, §7.4.3, §7.4.8).
public struct SignatureTrace: Sendable, Hashable {
    public enum Purpose: String, Sendable { case serverKeyExchange, certificateVerify }
    public var purpose: Purpose
    public var signer: TLSRole
    /// nil in TLS 1.0/1.1 (no SignatureAndHashAlgorithm).
    public var scheme: SignatureScheme?
    /// The signed bytes (client_random ‖ server_random ‖ params, or the handshake messages).
    public var signedData: [UInt8]
    public var signature: [UInt8]
    /// For a check: whether it verified. A created signature is `true`.
    public var valid: Bool
    /// True where the signer made the signature, false where the peer checked it.
    public var created = false
}

/// Values derived during the handshake, each with its inputs.
public enum DerivedValue: Sendable, Hashable {
    /// RSA (RFC 5246 §7.4.7.1): client_version(2) ‖ random(46), then EM = 00 02 PS 00 premaster
    /// (RFC 8017 §7.2.1) and the ciphertext EM^e mod n, with the server certificate's public key (n, e)
    /// it was raised with (big-endian, as the certificate's RSAPublicKey holds them).
    case rsaPreMasterEncryption(preMasterSecret: [UInt8], paddedBlock: [UInt8], ciphertext: [UInt8], modulusBits: Int,
                                modulus: [UInt8], publicExponent: [UInt8])
    /// The server's view: what it decrypted (nil when decryption failed) and the premaster used.
    case rsaPreMasterDecryption(ciphertext: [UInt8], decrypted: [UInt8]?, preMasterSecret: [UInt8])
    /// Finite-field DH (RFC 5246 §8.1.2): p, g, own x and g^x, the peer's value, Z with leading
    /// zero bytes stripped (the premaster).
    case dhAgreement(p: [UInt8], g: [UInt8], group: String, privateExponent: [UInt8], publicValue: [UInt8],
                     peerPublicValue: [UInt8], preMasterSecret: [UInt8])
    /// ECDH (RFC 8422 §5.10): curve, own private/public key, the peer's key, the shared secret.
    case ecdhAgreement(curve: NamedGroup, privateKey: [UInt8], publicKey: [UInt8], peerPublicKey: [UInt8],
                       preMasterSecret: [UInt8])
    /// Hash(handshake_messages) at one point, with how many transcript bytes it covers.
    case transcriptHash(purpose: String, transcriptLength: Int, hash: [UInt8])
    /// master_secret = PRF(premaster, label, seed)[0..47] (RFC 5246 §8.1, RFC 7627 §4).
    case masterSecret(preMasterSecret: [UInt8], label: String, seed: [UInt8], prf: TLSPRF, masterSecret: [UInt8])
    /// key_block = PRF(master, "key expansion", server_random ‖ client_random), cut (RFC 5246 §6.3).
    case keyBlock(seed: [UInt8], prf: TLSPRF, keyBlock: [UInt8], keys: KeyBlock)
    /// verify_data = PRF(master, label, Hash(handshake_messages))[0..11] (RFC 5246 §7.4.9).
    case verifyData(sender: TLSRole, label: String, handshakeHash: [UInt8], verifyData: [UInt8])
}
