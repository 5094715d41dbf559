/// Why a field's value is not one the RFC allows, where the bytes do not decode (decode_error,
/// RFC 5246 §7.2.2). Each case names its rule; ``DecodeError/malformed(field:reason:)`` carries it.
public enum MalformedReason: Sendable, Hashable {
    /// A Handshake, Alert or ChangeCipherSpec record with no content (RFC 5246 §6.2.1: "MUST NOT
    /// send zero-length fragments of Handshake, Alert, or ChangeCipherSpec content types").
    case zeroLengthFragment(ContentType)
    /// A record whose major version is not 3: not a TLS or SSL 3.0 record (RFC 5246 §6.2.1, Appendix E).
    case recordMajorVersion(UInt8)
    /// A ChangeCipherSpec whose value is not 1 (RFC 5246 §7.1).
    case changeCipherSpecValue(UInt8)
    /// A ServerName of an unknown name_type: RFC 6066 §3 defines only host_name(0), and the name's
    /// encoding depends on its type, so its length cannot be known.
    case unknownServerNameType(UInt8)
    /// A ServerHello ALPN answer that does not name exactly one protocol (RFC 7301 §3.1).
    case serverProtocolNameCount(Int)
    /// An SSL 2.0-compatible hello whose msg_type is not 1 (RFC 5246 Appendix E.2).
    case sslv2MessageType(UInt8)
    /// A session ticket's state whose flag bytes are not 0 or 1 (TLSLab's StatePlaintext, after RFC
    /// 5077 §4's recommended layout).
    case ticketStateFlags(extendedMasterSecret: UInt8, encryptThenMAC: UInt8)
}

/// Why a field's value is out of range or inconsistent (illegal_parameter, RFC 5246 §7.2.2).
public enum IllegalParameterReason: Sendable, Hashable {
    /// An SSL 2.0-compatible hello whose cipher_specs hold no TLS suite (RFC 5246 Appendix E.2: TLS
    /// suites are the specs with a zero first byte; RFC 6176 forbids SSL 2.0 itself).
    case noTLSCipherSuiteInSSLv2Hello
    /// ServerECDHParams with a curve_type other than named_curve (RFC 8422 §5.4: explicit curves
    /// are deprecated).
    case curveTypeNotNamed(ECCurveType)
    /// Two key_share entries for one group in a ClientHello (RFC 8446 §4.2.8).
    case duplicateKeyShareGroup
}

/// Why a key-exchange message could not be read (its body depends on the key exchange).
public enum KeyExchangeUnavailable: Sendable, Hashable {
    /// The cipher suite, and so the key exchange, is not known yet.
    case notKnownYet
    /// RSA key transport has no ServerKeyExchange (RFC 5246 §7.4.3: "It is not legal to send the
    /// ServerKeyExchange message for the following key exchange methods: RSA, DH_DSS, DH_RSA").
    case rsaHasNoServerKeyExchange
}
