/// A rule of the protocol the peer broke, by name: each reason knows its alert (RFC 5246 §7.2.2)
/// in one switch, so the reasons can be enumerated and tested, and a renderer can word them. It holds
/// no words of its own: the catalogue (`Explanations`, en and zh) words every case; interpolated,
/// it shows its case name and values (a debugging identifier).
public enum PeerMisbehaved: Sendable, Hashable {
    // The hellos (RFC 5246 §7.4.1).
    /// The ClientHello does not list the null compression method (§7.4.1.2).
    case nullCompressionNotOffered
    /// A renegotiation_info extension with content in an initial handshake (RFC 5746 §3.4 client, §3.6 server).
    case renegotiationInfoNotEmpty(checkedBy: TLSRole)
    /// A server_name extension whose list is empty (RFC 6066 §3: at least one entry).
    case emptyServerNameList
    /// A host_name in server_name with a byte no DNS host name holds (a NUL, a control, a space, a raw
    /// UTF-8 byte), at `offset` (RFC 6066 §3: an ASCII DNS host name).
    case serverNameNotHostName(offset: Int, byte: UInt8)
    /// ec_point_formats without `uncompressed` from a client offering RFC 8422 curves (§5.1.2).
    case pointFormatsLackUncompressed([ECPointFormat])
    /// The server chose a suite the client did not offer for that version.
    case suiteNotOffered(CipherSuite, version: ProtocolVersion)
    /// The server chose a compression method other than null.
    case compressionNotNull(CompressionMethod)
    /// The server answered an extension the client did not send (RFC 5246 §7.4.1.4).
    case extensionNotOffered(ExtensionType)
    /// The server's ALPN answer is not one protocol the client offered (RFC 7301 §3.2).
    case applicationProtocolNotOffered([ProtocolName])
    /// An abbreviated handshake with another suite or version than the session had (§7.3).
    case resumedSessionDiffers(suite: CipherSuite, version: ProtocolVersion)
    /// Extended master secret on one of the resumed session and the new hellos only (RFC 7627 §5.3).
    case extendedMasterSecretChangedOnResumption
    /// A session made with the extended master secret offered in a ClientHello without it: RFC 7627
    /// §5.3, "the server MUST abort the abbreviated handshake".
    case extendedMasterSecretDroppedOnResumption
    /// A ChangeCipherSpec record that is not the one byte 1 (RFC 5246 §7.1).
    case malformedChangeCipherSpec(ChangeCipherSpecFault)
    /// encrypt_then_mac in a ServerHello that chose an AEAD suite (RFC 7366 §3: never with AEAD).
    case encryptThenMACWithAEAD(CipherSuite)
    /// Encrypt-then-MAC on one of the resumed session and the new ServerHello only (RFC 7366 §3.1).
    case encryptThenMACChangedOnResumption

    // The key exchange and authentication.
    /// dh_p is even or too short to be a usable prime.
    case unusableDHPrime
    /// dh_g outside 1 < g < p-1.
    case dhGeneratorOutOfRange
    /// A DH public value that fails validation; `inServerKeyExchange` for the server's dh_Ys.
    case invalidDHPublicValue(inServerKeyExchange: Bool, reason: DHPublicValueFault)
    /// The server chose a curve the client did not offer.
    case groupNotOffered(NamedGroup)
    /// An ECDH public key that fails validation; `inServerKeyExchange` for the server's point.
    case invalidECDHPublicKey(inServerKeyExchange: Bool, reason: ECDHPublicKeyFault)
    /// The ServerKeyExchange signature uses a scheme the client did not offer (nil: none given).
    case serverKeyExchangeSchemeNotOffered(SignatureScheme?)
    case serverKeyExchangeSignatureInvalid
    /// CertificateVerify uses a scheme the server's CertificateRequest did not list (RFC 5246 §7.4.8):
    /// the scheme that arrived (nil: none given) and the schemes the request listed.
    case certificateVerifySchemeNotRequested(SignatureScheme?, requested: [SignatureScheme])
    case certificateVerifySignatureInvalid
    /// Finished.verify_data differs from what this side computed (§7.4.9).
    case finishedMismatch

    // The record layer and alerts.
    /// A record whose version is not the one the hellos agreed on.
    case recordVersionMismatch(ContentType, got: ProtocolVersion, negotiated: ProtocolVersion)
    /// An alert whose level is neither warning(1) nor fatal(2) (§7.2).
    case undefinedAlertLevel(UInt8)
    /// More empty records in a row than ``IncomingLimits`` allows (a CPU-exhaustion pattern).
    case tooManyEmptyRecords(limit: Int)
    /// More warning alerts in a row than ``IncomingLimits`` allows (CVE-2016-8610 class).
    case tooManyWarningAlerts(limit: Int)
    /// The peer stopped sending with part of a record or handshake message buffered.
    case truncated(state: TLSStateName, bufferedBytes: Int)

    /// The alert this reason is answered with, from the engine's one table (``TLSAlertTable``).
    public var alert: AlertDescription { TLSAlertTable.alert(for: .peerMisbehaved(kind)) }

    /// A byte as 0x followed by two hex digits.
    public static func hex(_ byte: UInt8) -> String { "0x" + Hex.string([byte]) }
}

/// Something the peer wants that this side does not offer or allow, by name, with its alert.
public enum PeerIncompatible: Sendable, Hashable {
    /// The server's DH prime is below the client's minimum (OpenSSL: "dh key too small").
    case dhPrimeTooSmall(bits: Int, minimum: Int)
    /// No cipher suite both sides accept for the version.
    case noCommonSuite(ProtocolVersion)
    /// RFC 7919 §4: the client named finite-field groups, none of them acceptable, and offered no
    /// other suite the server accepts.
    case noAcceptableFiniteFieldGroup(offered: [NamedGroup])
    /// RFC 7919 §3: the client named finite-field groups and the server's ServerKeyExchange carries
    /// another group (a named one not offered, or the server's own), which the client's policy refuses.
    case dhGroupNotOffered(group: String, bits: Int, offered: [NamedGroup])
    /// ALPN: nothing in common (RFC 7301 §3.2).
    case noCommonApplicationProtocol(offered: [ProtocolName], supported: [ProtocolName])
    /// supported_versions lists nothing this server speaks (RFC 8446 §4.2.1).
    case noSupportedVersionInCommon(offered: [ProtocolVersion], lowest: ProtocolVersion, highest: ProtocolVersion)
    /// ClientHello.client_version is below what the server accepts.
    case clientVersionTooLow(ProtocolVersion, lowest: ProtocolVersion)
    /// The server chose a version outside the client's range.
    case serverVersionUnacceptable(ProtocolVersion, minimum: ProtocolVersion, maximum: ProtocolVersion)
    /// The server's RSA key is too small to carry a PKCS#1 v1.5 premaster.
    case rsaModulusTooSmall
    /// The application cancelled the client-certificate challenge.
    case clientCertificateChallengeCancelled
    /// The peer stopped sending before the handshake could complete.
    case handshakeIncomplete(state: TLSStateName)

    /// The alert this reason is answered with, from the engine's one table (``TLSAlertTable``).
    public var alert: AlertDescription { TLSAlertTable.alert(for: .peerIncompatible(kind)) }
}

/// What was wrong with a ChangeCipherSpec record.
public enum ChangeCipherSpecFault: Sendable, Hashable {
    /// Not one byte long.
    case length(Int)
    /// One byte, not 1.
    case value(UInt8)
}
