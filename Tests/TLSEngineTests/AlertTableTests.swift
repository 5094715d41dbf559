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
        (.pointFormatsLackUncompressed([]), .illegalParameter),                      // RFC 8422 §5.1.2
        (.suiteNotOffered(.TLS_RSA_WITH_AES_128_GCM_SHA256, version: .tls12), .illegalParameter),
        (.compressionNotNull(CompressionMethod(rawValue: 1)), .illegalParameter),
        (.extensionNotOffered(.serverName), .unsupportedExtension),                  // RFC 5246 §7.4.1.4
        (.applicationProtocolNotOffered([.h2]), .illegalParameter),                  // RFC 7301 §3.2
        (.resumedSessionDiffers(suite: .TLS_RSA_WITH_AES_128_GCM_SHA256, version: .tls12), .illegalParameter),
        (.extendedMasterSecretChangedOnResumption, .handshakeFailure),               // RFC 7627 §5.3
        (.malformedChangeCipherSpec(.length(2)), .unexpectedMessage),               // OpenSSL's SSL_R_BAD_CHANGE_CIPHER_SPEC
        (.malformedChangeCipherSpec(.value(2)), .unexpectedMessage),
        (.encryptThenMACWithAEAD(.TLS_RSA_WITH_AES_128_GCM_SHA256), .illegalParameter), // RFC 7366 §3
        (.encryptThenMACChangedOnResumption, .handshakeFailure),                     // RFC 7366 §3.1
        (.unusableDHPrime, .illegalParameter),
        (.dhGeneratorOutOfRange, .illegalParameter),
        (.invalidDHPublicValue(inServerKeyExchange: true, reason: "y = 1"), .illegalParameter),
        (.groupNotOffered(.secp256r1), .illegalParameter),
        (.invalidECDHPublicKey(inServerKeyExchange: false, reason: "not on the curve"), .illegalParameter),
        (.serverKeyExchangeSchemeNotOffered(nil), .illegalParameter),
        (.serverKeyExchangeSignatureInvalid, .decryptError),                         // RFC 5246 §7.2.2
        (.certificateVerifySchemeNotRequested, .illegalParameter),
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

    @Test func everyReasonSaysSomethingOfItsOwn() {
        let lines = Self.misbehaved.map(\.0.description) + Self.incompatible.map(\.0.description)
        #expect(lines.allSatisfy { !$0.isEmpty })
        #expect(Set(lines).count == lines.count, "two reasons share a description")
        #expect(TLSError.peerMisbehaved(.finishedMismatch).description == "decrypt_error: the peer's Finished.verify_data does not match")
    }
}
