import PKI

/// The one table from a failure reason to the alert this side sends (RFC 5246 §7.2.2; the RFCs that
/// add a rule are named beside it). Every other `alert` property in the engine reads this table.
///
/// The certificate refusals follow OpenSSL's X509 error → alert table (`ssl_verify_alarm_type`,
/// OpenSSL 3.0), the same for a client refusing a server's chain and a server refusing a client's:
/// expired → certificate_expired, not yet valid → bad_certificate; no path to an anchor, a
/// self-signed leaf, a CA:FALSE issuer, pathLen exceeded, a chain too long → unknown_ca; EKU or
/// keyUsage unsuitable (INVALID_PURPOSE) → unsupported_certificate; a signature that does not verify
/// → decrypt_error; a weak key or digest, a host name mismatch → bad_certificate; an unhandled
/// critical extension, a CA without keyCertSign, a name-constraint violation and the profile rules
/// (not in that table) → certificate_unknown. TLSLab's own end-entity rule (a CA:TRUE leaf) and an
/// application's refusal of a valid chain (a pin, as a verify callback's refusal) → bad_certificate.
/// The client side was measured against `s_client` (OpenSSLAlertTests).
public enum TLSAlertTable {
    public static func alert(for reason: TLSFailureReason) -> AlertDescription {
        switch reason {
        // RFC 5246 §7.2.2 unexpected_message: "An inappropriate message was received."
        case .inappropriateMessage,
             .invalidMessage(.unexpectedContentType), .invalidMessage(.sslv2ClientHello), .invalidMessage(.needsKeyExchange),
             .peerMisbehaved(.tooManyEmptyRecords), .peerMisbehaved(.tooManyWarningAlerts),
             .peerMisbehaved(.malformedChangeCipherSpec):   // OpenSSL: SSL_R_BAD_CHANGE_CIPHER_SPEC
            return .unexpectedMessage

        // decode_error: "A message could not be decoded because some field was out of the specified
        // range or the length of the message was incorrect."
        case .invalidMessage(.truncated), .invalidMessage(.trailingBytes), .invalidMessage(.lengthOutOfRange),
             .invalidMessage(.malformed), .invalidMessage(.handshakeMessageTooLarge),
             .peerMisbehaved(.emptyServerNameList),          // RFC 6066 §3: server_name_list<1..2^16-1>
             .peerMisbehaved(.truncated):
            return .decodeError

        // illegal_parameter: "A field in the handshake was out of range or inconsistent with other fields."
        case .invalidMessage(.illegalParameter), .invalidMessage(.duplicateExtension),
             .peerMisbehaved(.nullCompressionNotOffered), .peerMisbehaved(.pointFormatsLackUncompressed),
             .peerMisbehaved(.serverNameNotHostName),           // RFC 6066 §3 (GnuTLS; OpenSSL: unrecognized_name)
             .peerMisbehaved(.suiteNotOffered), .peerMisbehaved(.compressionNotNull),
             .peerMisbehaved(.applicationProtocolNotOffered),   // RFC 7301 §3.2
             .peerMisbehaved(.resumedSessionDiffers), .peerMisbehaved(.unusableDHPrime),
             .peerMisbehaved(.dhGeneratorOutOfRange), .peerMisbehaved(.invalidDHPublicValue),
             .peerMisbehaved(.groupNotOffered), .peerMisbehaved(.invalidECDHPublicKey),
             .peerMisbehaved(.serverKeyExchangeSchemeNotOffered), .peerMisbehaved(.certificateVerifySchemeNotRequested),
             .peerMisbehaved(.undefinedAlertLevel),
             .peerMisbehaved(.encryptThenMACWithAEAD):          // RFC 7366 §3
            return .illegalParameter

        // record_overflow: "A TLSCiphertext record was received that had a length more than 2^14+2048 bytes."
        case .invalidMessage(.recordOverflow), .recordProtection(.recordOverflow):
            return .recordOverflow

        // bad_record_mac: "a record is received with an incorrect MAC" (or that does not decrypt).
        case .recordProtection(.badRecordMAC):
            return .badRecordMAC

        // handshake_failure: "unable to negotiate an acceptable set of security parameters given the
        // options available."
        case .peerIncompatible(.dhPrimeTooSmall), .peerIncompatible(.noCommonSuite), .peerIncompatible(.handshakeIncomplete),
             .peerMisbehaved(.renegotiationInfoNotEmpty),              // RFC 5746 §3.4, §3.6
             .peerMisbehaved(.extendedMasterSecretChangedOnResumption), // RFC 7627 §5.3
             .peerMisbehaved(.extendedMasterSecretDroppedOnResumption), // RFC 7627 §5.3 (OpenSSL 3.0: inconsistent extms)
             .peerMisbehaved(.encryptThenMACChangedOnResumption),       // RFC 7366 §3.1
             .certificateRefused(.noCertificate):                       // RFC 5246 §7.4.6
            return .handshakeFailure

        // unsupported_extension: an extension in a ServerHello the client did not offer (RFC 5246 §7.4.1.4).
        case .peerMisbehaved(.extensionNotOffered):
            return .unsupportedExtension

        // decrypt_error: "A handshake cryptographic operation failed, including being unable to
        // correctly verify a signature or validate a Finished message."
        case .peerMisbehaved(.serverKeyExchangeSignatureInvalid), .peerMisbehaved(.certificateVerifySignatureInvalid),
             .peerMisbehaved(.finishedMismatch), .certificateRefused(.signatureInvalid):
            return .decryptError

        // protocol_version: "The protocol version the client has attempted to negotiate is recognized
        // but not supported."
        case .peerIncompatible(.noSupportedVersionInCommon),   // RFC 8446 §4.2.1
             .peerIncompatible(.clientVersionTooLow), .peerIncompatible(.serverVersionUnacceptable),
             .peerMisbehaved(.recordVersionMismatch):
            return .protocolVersion

        // insufficient_security: "the server requires ciphers more secure than those supported by the client."
        case .peerIncompatible(.rsaModulusTooSmall),
             .peerIncompatible(.noAcceptableFiniteFieldGroup),  // RFC 7919 §4
             .peerIncompatible(.dhGroupNotOffered):  // RFC 7919 §3: the client's policy refuses the group
            return .insufficientSecurity

        // no_application_protocol (RFC 7301 §3.2).
        case .peerIncompatible(.noCommonApplicationProtocol):
            return .noApplicationProtocol

        // user_canceled: "This handshake is being canceled for some reason unrelated to a protocol failure."
        case .peerIncompatible(.clientCertificateChallengeCancelled):
            return .userCanceled

        // internal_error: "An internal error unrelated to the peer or the correctness of the protocol."
        case .internalError, .recordProtection(.invalidKeys), .recordProtection(.sequenceNumberExhausted):
            return .internalError

        // bad_certificate: "A certificate was corrupt, contained signatures that did not verify correctly, etc."
        case .certificateRefused(.unparsable), .certificateRefused(.notYetValid), .certificateRefused(.weakAlgorithm),
             .certificateRefused(.leafIsCA), .certificateRefused(.nameMismatch), .certificateRefused(.refusedByPolicy):
            return .badCertificate

        // unsupported_certificate: "A certificate was of an unsupported type."
        case .certificateRefused(.extendedKeyUsageUnsuitable), .certificateRefused(.keyUsageUnsuitable),
             .certificateRefused(.unsupportedKey):
            return .unsupportedCertificate

        // certificate_expired: "A certificate has expired or is not currently valid."
        case .certificateRefused(.expired):
            return .certificateExpired

        // unknown_ca: "the CA certificate could not be located or couldn't be matched with a known,
        // trusted CA."
        case .certificateRefused(.noPath), .certificateRefused(.untrustedAnchor), .certificateRefused(.issuerNotCA),
             .certificateRefused(.pathLengthExceeded), .certificateRefused(.chainTooLong):
            return .unknownCA

        // certificate_unknown: "Some other (unspecified) issue arose in processing the certificate."
        case .certificateRefused(.notEvaluated), .certificateRefused(.unhandledCriticalExtension),
             .certificateRefused(.issuerCannotSignCertificates), .certificateRefused(.nameConstraintViolated),
             .certificateRefused(.profileViolated):
            return .certificateUnknown

        // access_denied: "A valid certificate was received, but when access control was applied, the
        // sender decided not to proceed with negotiation."
        case .certificateRefused(.subjectNotAllowed):
            return .accessDenied
        }
    }

    /// The alert a refused certificate chain is answered with.
    public static func alert(for refusal: CertificateRefusal) -> AlertDescription {
        alert(for: .certificateRefused(refusal))
    }
}
