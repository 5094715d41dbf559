import PKI
import Testing
@testable import TLSEngine

/// The engine's failures are named reasons, each answered by one alert from one table. This test
/// lists every reason with the alert RFC 5246 §7.2.2 (and the RFC that adds the rule) prescribes, so
/// a change to the table is a deliberate change here too.
@Suite("Named failure reasons and their alerts")
struct AlertTableTests {
    static let misbehaved: [(PeerMisbehaved, AlertDescription)] = [
        (.nullCompressionNotOffered, .illegalParameter),
        (.renegotiationInfoNotEmpty(checkedBy: .client), .handshakeFailure),        // RFC 5746 §3.4
        (.renegotiationInfoNotEmpty(checkedBy: .server), .handshakeFailure),        // RFC 5746 §3.6
        (.emptyServerNameList, .decodeError),                                        // RFC 6066 §3 (vector too short)
        (.serverNameNotHostName(offset: 4, byte: 0), .illegalParameter),             // RFC 6066 §3 (GnuTLS: 47)
        (.pointFormatsLackUncompressed([]), .illegalParameter),                      // RFC 8422 §5.1.2
        (.suiteNotOffered(.TLS_RSA_WITH_AES_128_GCM_SHA256, version: .tls12), .illegalParameter),
        (.compressionNotNull(CompressionMethod(rawValue: 1)), .illegalParameter),
        (.extensionNotOffered(.serverName), .unsupportedExtension),                  // RFC 5246 §7.4.1.4
        (.applicationProtocolNotOffered([.h2]), .illegalParameter),                  // RFC 7301 §3.2
        (.resumedSessionDiffers(suite: .TLS_RSA_WITH_AES_128_GCM_SHA256, version: .tls12), .illegalParameter),
        (.extendedMasterSecretChangedOnResumption, .handshakeFailure),               // RFC 7627 §5.3
        (.extendedMasterSecretDroppedOnResumption, .handshakeFailure),               // RFC 7627 §5.3 (OpenSSL 3.0: alert 40)
        (.malformedChangeCipherSpec(.length(2)), .unexpectedMessage),               // OpenSSL's SSL_R_BAD_CHANGE_CIPHER_SPEC
        (.malformedChangeCipherSpec(.value(2)), .unexpectedMessage),
        (.encryptThenMACWithAEAD(.TLS_RSA_WITH_AES_128_GCM_SHA256), .illegalParameter), // RFC 7366 §3
        (.encryptThenMACChangedOnResumption, .handshakeFailure),                     // RFC 7366 §3.1
        (.unusableDHPrime, .illegalParameter),
        (.dhGeneratorOutOfRange, .illegalParameter),
        (.invalidDHPublicValue(inServerKeyExchange: true, reason: .atMostOne), .illegalParameter),
        (.groupNotOffered(.secp256r1), .illegalParameter),
        (.invalidECDHPublicKey(inServerKeyExchange: false, reason: .notOnCurve), .illegalParameter),
        (.serverKeyExchangeSchemeNotOffered(nil), .illegalParameter),
        (.serverKeyExchangeSignatureInvalid, .decryptError),                         // RFC 5246 §7.2.2
        (.certificateVerifySchemeNotRequested(.ecdsaSHA1, requested: [.ecdsaSECP256r1SHA256]), .illegalParameter),
        (.certificateVerifySignatureInvalid, .decryptError),
        (.finishedMismatch, .decryptError),                                          // RFC 5246 §7.4.9
        (.recordVersionMismatch(.handshake, got: .tls10, negotiated: .tls12), .protocolVersion),
        (.undefinedAlertLevel(7), .illegalParameter),
        (.tooManyEmptyRecords(limit: 32), .unexpectedMessage),
        (.tooManyWarningAlerts(limit: 4), .unexpectedMessage),
        (.truncated(state: .expectFinished, bufferedBytes: 3), .decodeError),
    ]

    static let incompatible: [(PeerIncompatible, AlertDescription)] = [
        (.dhPrimeTooSmall(bits: 1024, minimum: 2048), .handshakeFailure),
        (.noCommonSuite(.tls12), .handshakeFailure),                                 // RFC 5246 §7.4.1.3
        (.noCommonApplicationProtocol(offered: [.h2], supported: [.http11]), .noApplicationProtocol), // RFC 7301 §3.2
        (.noSupportedVersionInCommon(offered: [.tls12], lowest: .tls10, highest: .tls11), .protocolVersion), // RFC 8446 §4.2.1
        (.clientVersionTooLow(.tls10, lowest: .tls12), .protocolVersion),            // RFC 5246 Appendix E.1
        (.serverVersionUnacceptable(.tls10, minimum: .tls12, maximum: .tls12), .protocolVersion),
        (.rsaModulusTooSmall, .insufficientSecurity),
        (.noAcceptableFiniteFieldGroup(offered: [.ffdhe8192]), .insufficientSecurity),   // RFC 7919 §4
        (.dhGroupNotOffered(group: "modp2048", bits: 2048, offered: [.ffdhe2048]), .insufficientSecurity), // RFC 7919 §3
        (.clientCertificateChallengeCancelled, .userCanceled),
        (.handshakeIncomplete(state: .expectServerHello), .handshakeFailure),
    ]

    /// Every alert the engine sends for a failure, with its definition (RFC 5246 §7.2.2, or RFC 8446
    /// §6.2 / the RFC that defines it) and, by hand, the reasons that definition covers. Every reason
    /// (``TLSFailureReason/allCases``) must be listed exactly once.
    static let byDefinition: [(AlertDescription, definition: String, reasons: [TLSFailureReason])] = [
        (.unexpectedMessage, "An inappropriate message was received. (RFC 5246 §7.2.2)",
         [.inappropriateMessage, .invalidMessage(.unexpectedContentType), .invalidMessage(.sslv2ClientHello),
          .invalidMessage(.needsKeyExchange), .peerMisbehaved(.tooManyEmptyRecords), .peerMisbehaved(.tooManyWarningAlerts),
          .peerMisbehaved(.malformedChangeCipherSpec)]),
        (.decodeError, "A message could not be decoded because some field was out of the specified range or the length of the message was incorrect. (RFC 5246 §7.2.2)",
         [.invalidMessage(.truncated), .invalidMessage(.trailingBytes), .invalidMessage(.lengthOutOfRange),
          .invalidMessage(.malformed), .invalidMessage(.handshakeMessageTooLarge),
          .peerMisbehaved(.emptyServerNameList), .peerMisbehaved(.truncated)]),
        (.illegalParameter, "A field in the handshake was out of range or inconsistent with other fields. (RFC 5246 §7.2.2)",
         [.invalidMessage(.illegalParameter), .invalidMessage(.duplicateExtension),
          .peerMisbehaved(.nullCompressionNotOffered), .peerMisbehaved(.pointFormatsLackUncompressed),
          .peerMisbehaved(.serverNameNotHostName),
          .peerMisbehaved(.suiteNotOffered), .peerMisbehaved(.compressionNotNull), .peerMisbehaved(.applicationProtocolNotOffered),
          .peerMisbehaved(.resumedSessionDiffers), .peerMisbehaved(.unusableDHPrime), .peerMisbehaved(.dhGeneratorOutOfRange),
          .peerMisbehaved(.invalidDHPublicValue), .peerMisbehaved(.groupNotOffered), .peerMisbehaved(.invalidECDHPublicKey),
          .peerMisbehaved(.serverKeyExchangeSchemeNotOffered), .peerMisbehaved(.certificateVerifySchemeNotRequested),
          .peerMisbehaved(.undefinedAlertLevel), .peerMisbehaved(.encryptThenMACWithAEAD)]),
        (.recordOverflow, "A TLSCiphertext record was received that had a length more than 2^14+2048 bytes, or a record decrypted to a TLSCompressed record with more than 2^14+1024 bytes. (RFC 5246 §7.2.2)",
         [.invalidMessage(.recordOverflow), .recordProtection(.recordOverflow)]),
        (.badRecordMAC, "This alert is returned if a record is received with an incorrect MAC. ... also be returned when a TLSCiphertext decrypted in an invalid way. (RFC 5246 §7.2.2)",
         [.recordProtection(.badRecordMAC)]),
        (.handshakeFailure, "Reception of a handshake_failure alert message indicates that the sender was unable to negotiate an acceptable set of security parameters given the options available. (RFC 5246 §7.2.2; RFC 5746 §3.4/§3.6, RFC 7627 §5.3, RFC 7366 §3.1 name it for their rules; §7.4.6 for a required certificate not sent)",
         [.peerIncompatible(.dhPrimeTooSmall), .peerIncompatible(.noCommonSuite), .peerIncompatible(.handshakeIncomplete),
          .peerMisbehaved(.renegotiationInfoNotEmpty), .peerMisbehaved(.extendedMasterSecretChangedOnResumption),
          .peerMisbehaved(.extendedMasterSecretDroppedOnResumption),
          .peerMisbehaved(.encryptThenMACChangedOnResumption), .certificateRefused(.noCertificate)]),
        (.unsupportedExtension, "including any extensions in a ServerHello or Certificate not first offered in the corresponding ClientHello (RFC 8446 §6.2; RFC 5246 §7.4.1.4)",
         [.peerMisbehaved(.extensionNotOffered)]),
        (.decryptError, "A handshake cryptographic operation failed, including being unable to correctly verify a signature or validate a Finished message. (RFC 5246 §7.2.2)",
         [.peerMisbehaved(.serverKeyExchangeSignatureInvalid), .peerMisbehaved(.certificateVerifySignatureInvalid),
          .peerMisbehaved(.finishedMismatch), .certificateRefused(.signatureInvalid)]),
        (.protocolVersion, "The protocol version the client has attempted to negotiate is recognized but not supported. (RFC 5246 §7.2.2; RFC 8446 §4.2.1)",
         [.peerIncompatible(.noSupportedVersionInCommon), .peerIncompatible(.clientVersionTooLow),
          .peerIncompatible(.serverVersionUnacceptable), .peerMisbehaved(.recordVersionMismatch)]),
        (.insufficientSecurity, "Returned instead of handshake_failure when a negotiation has failed specifically because the server requires ciphers more secure than those supported by the client. (RFC 5246 §7.2.2; RFC 7919 §4; RFC 7919 §3 for a group the client did not name)",
         [.peerIncompatible(.rsaModulusTooSmall), .peerIncompatible(.noAcceptableFiniteFieldGroup), .peerIncompatible(.dhGroupNotOffered)]),
        (.noApplicationProtocol, "the server ... supports none of the protocols advertised by the client (RFC 7301 §3.2)",
         [.peerIncompatible(.noCommonApplicationProtocol)]),
        (.userCanceled, "This handshake is being canceled for some reason unrelated to a protocol failure. (RFC 5246 §7.2.2)",
         [.peerIncompatible(.clientCertificateChallengeCancelled)]),
        (.internalError, "An internal error unrelated to the peer or the correctness of the protocol (such as a memory allocation failure) makes it impossible to continue. (RFC 5246 §7.2.2)",
         [.internalError, .recordProtection(.invalidKeys), .recordProtection(.sequenceNumberExhausted)]),
        (.badCertificate, "A certificate was corrupt, contained signatures that did not verify correctly, etc. (RFC 5246 §7.2.2; OpenSSL: CERT_NOT_YET_VALID, EE_KEY_TOO_SMALL, CA_MD_TOO_WEAK, HOSTNAME_MISMATCH, a verify callback's refusal)",
         [.certificateRefused(.unparsable), .certificateRefused(.notYetValid), .certificateRefused(.weakAlgorithm),
          .certificateRefused(.leafIsCA), .certificateRefused(.nameMismatch), .certificateRefused(.refusedByPolicy)]),
        (.unsupportedCertificate, "A certificate was of an unsupported type. (RFC 5246 §7.2.2; OpenSSL: INVALID_PURPOSE)",
         [.certificateRefused(.extendedKeyUsageUnsuitable), .certificateRefused(.keyUsageUnsuitable), .certificateRefused(.unsupportedKey)]),
        (.certificateExpired, "A certificate has expired or is not currently valid. (RFC 5246 §7.2.2; OpenSSL: CERT_HAS_EXPIRED)",
         [.certificateRefused(.expired)]),
        (.unknownCA, "A valid certificate chain or partial chain was received, but the certificate was not accepted because the CA certificate could not be located or couldn't be matched with a known, trusted CA. (RFC 5246 §7.2.2)",
         [.certificateRefused(.noPath), .certificateRefused(.untrustedAnchor), .certificateRefused(.issuerNotCA),
          .certificateRefused(.pathLengthExceeded), .certificateRefused(.chainTooLong)]),
        (.certificateUnknown, "Some other (unspecified) issue arose in processing the certificate, rendering it unacceptable. (RFC 5246 §7.2.2)",
         [.certificateRefused(.notEvaluated), .certificateRefused(.unhandledCriticalExtension),
          .certificateRefused(.issuerCannotSignCertificates), .certificateRefused(.nameConstraintViolated),
          .certificateRefused(.profileViolated)]),
        (.accessDenied, "A valid certificate was received, but when access control was applied, the sender decided not to proceed with negotiation. (RFC 5246 §7.2.2)",
         [.certificateRefused(.subjectNotAllowed)]),
    ]

    @Test func everyReasonIsListedOnceUnderItsAlertsDefinition() {
        let listed = Self.byDefinition.flatMap(\.reasons)
        #expect(listed.count == Set(listed).count, "a reason is listed under two alerts")
        #expect(Set(listed) == Set(TLSFailureReason.allCases),
                "not listed: \(Set(TLSFailureReason.allCases).subtracting(listed)); unknown: \(Set(listed).subtracting(TLSFailureReason.allCases))")
        for (alert, definition, reasons) in Self.byDefinition {
            #expect(!definition.isEmpty && AlertDescription.names[alert.rawValue] != nil)
            for reason in reasons {
                #expect(TLSAlertTable.alert(for: reason) == alert, "\(reason): \(definition)")
            }
        }
    }

    /// No reason of the engine's is answered with close_notify or a reserved or warning-only code.
    @Test func noFailureIsAnsweredWithANonFatalCode() {
        let notFatal: Set<AlertDescription> = [.closeNotify, .decryptionFailedReserved, .noCertificateReserved,
                                               .exportRestrictionReserved, .noRenegotiation]
        for reason in TLSFailureReason.allCases {
            #expect(!notFatal.contains(TLSAlertTable.alert(for: reason)), "\(reason)")
        }
    }

    /// An error value's reason is its case's: the instances above name the reasons the table lists.
    @Test func errorsNameTheirReason() {
        for (reason, _) in Self.misbehaved { #expect(TLSError.peerMisbehaved(reason).reason == .peerMisbehaved(reason.kind)) }
        for (reason, _) in Self.incompatible { #expect(TLSError.peerIncompatible(reason).reason == .peerIncompatible(reason.kind)) }
        #expect(Set(Self.misbehaved.map(\.0.kind)) == Set(PeerMisbehaved.Kind.allCases))
        #expect(Set(Self.incompatible.map(\.0.kind)) == Set(PeerIncompatible.Kind.allCases))
        #expect(TLSError.certificateRejected(.expired, .acceptedWithoutChecks).alert == .certificateExpired)
        #expect(TLSError.invalidMessage(.duplicateExtension(.serverName)).reason == .invalidMessage(.duplicateExtension))
        #expect(TLSError.alertReceived(Alert(level: .fatal, description: .handshakeFailure)).reason == nil)
        #expect(TLSError.alertReceived(Alert(level: .fatal, description: .handshakeFailure)).alert == nil)
    }

    @Test func everyReasonHasItsAlert() {
        for (reason, alert) in Self.misbehaved {
            #expect(reason.alert == alert, "\(reason)")
            #expect(TLSError.peerMisbehaved(reason).alert == alert)
        }
        for (reason, alert) in Self.incompatible {
            #expect(reason.alert == alert, "\(reason)")
            #expect(TLSError.peerIncompatible(reason).alert == alert)
        }
    }

    /// The engine holds no sentences: interpolated, a reason is its case name and values (a debugging
    /// identifier), one of its own; the catalogue words it (`CauseWordingTests`).
    @Test func everyReasonHasAnIdentifierOfItsOwn() {
        let lines = Self.misbehaved.map { "\($0.0)" } + Self.incompatible.map { "\($0.0)" }
        #expect(lines.allSatisfy { !$0.isEmpty && !$0.contains(" the ") })
        #expect(Set(lines).count == lines.count, "two reasons share an identifier")
        #expect(TLSError.peerMisbehaved(.finishedMismatch).description == "decrypt_error: finishedMismatch")
    }
}
