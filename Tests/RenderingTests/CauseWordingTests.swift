import PKI
import Simulation
import Trace
@testable import Rendering
import Testing
import TCPSim
import TLSEngine

/// The alert causes are worded by the catalogue alone from the engine's typed reasons (the engine and
/// PKI keep no English of their own), for an example of every reason, in English (the JSON contract's
/// `cause`) and, differently, in Chinese.
@Suite("Alert causes worded from the catalogue")
struct CauseWordingTests {
    static let misbehaved: [PeerMisbehaved] = [
        .nullCompressionNotOffered, .renegotiationInfoNotEmpty(checkedBy: .client), .renegotiationInfoNotEmpty(checkedBy: .server),
        .emptyServerNameList, .serverNameNotHostName(offset: 4, byte: 0), .pointFormatsLackUncompressed([ECPointFormat(rawValue: 1)]),
        .suiteNotOffered(.TLS_RSA_WITH_AES_128_GCM_SHA256, version: .tls12), .compressionNotNull(CompressionMethod(rawValue: 1)),
        .extensionNotOffered(.serverName), .applicationProtocolNotOffered([.h2, .http11]),
        .resumedSessionDiffers(suite: .TLS_RSA_WITH_AES_128_GCM_SHA256, version: .tls12), .extendedMasterSecretChangedOnResumption,
        .extendedMasterSecretDroppedOnResumption,
        .malformedChangeCipherSpec(.length(2)), .malformedChangeCipherSpec(.value(7)),
        .encryptThenMACWithAEAD(.TLS_RSA_WITH_AES_128_GCM_SHA256), .encryptThenMACChangedOnResumption,
        .unusableDHPrime, .dhGeneratorOutOfRange, .invalidDHPublicValue(inServerKeyExchange: true, reason: .atMostOne),
        .invalidDHPublicValue(inServerKeyExchange: false, reason: .notInPrimeOrderSubgroup), .groupNotOffered(.secp256r1),
        .invalidECDHPublicKey(inServerKeyExchange: true, reason: .notOnCurve), .invalidECDHPublicKey(inServerKeyExchange: false, reason: .lowOrder),
        .serverKeyExchangeSchemeNotOffered(nil), .serverKeyExchangeSchemeNotOffered(.rsaPKCS1SHA256),
        .serverKeyExchangeSignatureInvalid, .certificateVerifySchemeNotRequested(.ecdsaSHA1, requested: [.ecdsaSECP256r1SHA256, .rsaPKCS1SHA256]),
        .certificateVerifySchemeNotRequested(nil, requested: [.rsaPKCS1SHA256]), .certificateVerifySignatureInvalid,
        .finishedMismatch, .recordVersionMismatch(.handshake, got: .tls10, negotiated: .tls12), .undefinedAlertLevel(7),
        .tooManyEmptyRecords(limit: 32), .tooManyWarningAlerts(limit: 4), .truncated(state: .expectFinished, bufferedBytes: 3),
    ]
    static let incompatible: [PeerIncompatible] = [
        .dhPrimeTooSmall(bits: 1024, minimum: 2048), .noCommonSuite(.tls12), .noAcceptableFiniteFieldGroup(offered: [.ffdhe8192]), .dhGroupNotOffered(group: "modp2048", bits: 2048, offered: [.ffdhe2048]),
        .noCommonApplicationProtocol(offered: [.h2], supported: [.http11]),
        .noSupportedVersionInCommon(offered: [.tls12], lowest: .tls10, highest: .tls11), .clientVersionTooLow(.tls10, lowest: .tls12),
        .serverVersionUnacceptable(.tls10, minimum: .tls12, maximum: .tls12), .rsaModulusTooSmall,
        .clientCertificateChallengeCancelled, .handshakeIncomplete(state: .expectServerHello),
    ]
    static let badRecordMAC: [BadRecordMACReason] = [
        .gcmRecordTooShort(needed: 24, got: 3), .gcmTagMismatch, .cbcRecordTooShort(length: 5), .cbcDecryptionFailed,
        .cbcPaddingOrMACMismatch(mac: "HMAC-SHA256"), .encryptThenMACRecordTooShort(length: 5, mac: "HMAC-SHA1"),
        .encryptThenMACMismatch(mac: "HMAC-SHA1"), .encryptThenMACPaddingMalformed,
        .chaChaRecordTooShort(needed: 16, got: 3), .poly1305TagMismatch,
    ]
    static let decode: [DecodeError] = [
        .truncated(field: "ClientHello.random", needed: 32, available: 3), .trailingBytes(field: "Finished", count: 2),
        .lengthOutOfRange(field: "cipher_suites", length: 1, min: 2, max: 65534), .malformed(field: "record.length", reason: .zeroLengthFragment(.handshake)),
        .illegalParameter(field: "curve_params.curve_type", reason: .curveTypeNotNamed(.explicitPrime)), .duplicateExtension(.serverName), .recordOverflow(length: 20000, limit: 16384),
        .unexpectedContentType(99), .sslv2ClientHello, .handshakeMessageTooLarge(length: 1 << 20, limit: 65536),
        .needsKeyExchange(.serverKeyExchange, reason: .rsaHasNoServerKeyExchange),
    ]

    static var errors: [TLSError] {
        misbehaved.map(TLSError.peerMisbehaved) + incompatible.map(TLSError.peerIncompatible)
            + badRecordMAC.map { TLSError.recordProtection(.badRecordMAC($0)) } + decode.map(TLSError.invalidMessage)
            + [.inappropriateMessage(expected: .inState(.expectServerHello), got: .handshake(.finished)), .recordProtection(.recordOverflow(length: 20000)),
               .recordProtection(.sequenceNumberExhausted), .recordProtection(.invalidKeys(.explicitIVInTLS10)), .certificateRejected(.expired, .noEvaluator),
               .alertReceived(.fatal(.handshakeFailure)), .internalError(.rsaEncryptionFailed)]
    }

    @Test func theExamplesCoverEveryReason() {
        #expect(Set(Self.misbehaved.map(\.kind)) == Set(PeerMisbehaved.Kind.allCases))
        #expect(Set(Self.incompatible.map(\.kind)) == Set(PeerIncompatible.Kind.allCases))
        #expect(Set(Self.decode.map(\.kind)) == Set(DecodeError.Kind.allCases))
        let reasons = Set(Self.errors.compactMap(\.reason).map { reason -> TLSFailureReason in
            if case .certificateRefused = reason { return .certificateRefused(.expired) } else { return reason }
        })
        let expected = Set(TLSFailureReason.allCases.map { reason -> TLSFailureReason in
            if case .certificateRefused = reason { return .certificateRefused(.expired) } else { return reason }
        })
        #expect(reasons == expected)
    }

    /// A sentence of the catalogue: worded (no key, no unfilled placeholder), not the engine's
    /// debugging identifier.
    static func isWorded(_ text: String, identifier: String) -> Bool {
        !text.isEmpty && !text.contains("{") && text != identifier
            && !["misbehaved.", "incompatible.", "decode.", "account.", "cause.", "badRecordMAC."].contains { text.hasPrefix($0) }
    }

    /// The engine keeps no English: the JSON Lines `cause` is the catalogue's, for every reason.
    @Test func englishComesFromTheCatalogue() {
        let causes: [AlertCause] = [.close, .replyToCloseNotify, .renegotiationRefused, .handshakeCanceled] + Self.errors.map(AlertCause.failure)
        for cause in causes {
            let english = Explanations.english.alertCause(cause)
            // A failure's words are never its identifier (the close causes are one word either way).
            guard case .failure = cause else {
                #expect(Self.isWorded(english, identifier: ""), "\(cause): \(english)")
                continue
            }
            #expect(Self.isWorded(english, identifier: cause.description), "\(cause): \(english)")
        }
        // Lines the engine used to hold, now the catalogue's alone (RFC 5246 §7.2.2, RFC 7301 §3.2, §7.4.8).
        #expect(Explanations.english.alertCause(.failure(.peerMisbehaved(.finishedMismatch)))
                == "decrypt_error: the peer's Finished.verify_data does not match")
        #expect(Explanations.english.alertCause(.failure(.peerIncompatible(.noCommonApplicationProtocol(offered: [.h2], supported: [.http11]))))
                == "no_application_protocol: the client offers the application protocols h2; the server speaks only http/1.1 (RFC 7301 §3.2)")
        #expect(Explanations.english.alertCause(.failure(.peerMisbehaved(.certificateVerifySchemeNotRequested(.ecdsaSHA1, requested: [.ecdsaSECP256r1SHA256]))))
                == "illegal_parameter: CertificateVerify signed with ecdsa_sha1, which the server's CertificateRequest did not list (it listed ecdsa_secp256r1_sha256)")
        #expect(Explanations.english.alertCause(.failure(.peerIncompatible(.dhPrimeTooSmall(bits: 512, minimum: 1024))))
                == "handshake_failure: dh_p has 512 bits, fewer than the client's minimum of 1024 (OpenSSL: dh key too small)")
        #expect(Explanations.english.alertCause(.failure(.recordProtection(.badRecordMAC(.encryptThenMACRecordTooShort(length: 5, mac: "HMAC-SHA1")))))
                == "bad_record_mac: an encrypt-then-MAC record of 5 bytes cannot hold IV, a block and the HMAC-SHA1")
    }

    static let accounts: [CertificateAccount] = [
        .chainValidated(checks: 12, pathLength: 2, anchor: "CN=Root"),
        .checkFailed(ChainCheck(kind: .anchor, depth: 0, subject: "CN=x", passed: false,
                                finding: .noPathToAnchor(issuer: "CN=Root", stores: [.systemRoots, .appAnchors]))),
        .chainNotTrusted(.recoverableTrustFailure), .chainNotTrusted(.fatalTrustFailure), .acceptedWithoutChecks, .notChecked(subject: "CN=x"),
        .noCertificate(sentBy: .server), .noCertificate(sentBy: .client), .clientCertificateRequired,
        .unparsable(index: 1, error: .malformedCertificate(.notOfType(field: "TBSCertificate", type: "SEQUENCE"))), .unsupportedKey(key: "Ed25519"),
        .keyDoesNotFitSuite(.TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256, needsEC: true, key: "RSA 2048"),
        .keyDoesNotFitSuite(.TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256, needsEC: false, key: "EC P-256"), .noEvaluator,
    ]

    @Test func certificateAccountsInBothLanguages() {
        for account in Self.accounts {
            let english = Explanations.english.certificateAccount(account)
            #expect(Self.isWorded(english, identifier: account.description), "\(account): \(english)")
            let chinese = Explanations.chinese.certificateAccount(account)
            #expect(chinese != english && Self.isWorded(chinese, identifier: account.description), "\(account): \(chinese)")
        }
        #expect(Explanations.english.certificateAccount(Self.accounts[0]) == "12 checks passed along a path of 2 up to the anchor CN=Root")
    }

    /// Every chain check of every built-in run: its finding is worded in English and, differently, in
    /// Chinese (PKI holds no words of its own).
    @Test func chainCheckFindings() throws {
        var worded = 0
        for run in BuiltInRun.allCases {
            for event in Simulation(try run.setup(seed: 1)).run().events {
                guard case .chainValidation(let v) = event.kind else { continue }
                for check in v.result.checks {
                    worded += 1
                    let english = Explanations.english.chainCheckDetail(check)
                    #expect(Self.isWorded(english, identifier: check.description), "\(run.rawValue): \(check)")
                    #expect(Explanations.chinese.chainCheckDetail(check) != english, "\(run.rawValue): \(check)")
                }
            }
        }
        #expect(worded > 0)
    }

    @Test func hostNameFindings() {
        let findings: [NameFinding] = [
            .ipAddressMatches(ip: "192.0.2.10"), .ipAddressNotListed(ip: "192.0.2.11", listed: ["192.0.2.10"]),
            .noDNSName(host: "example.com"), .dnsNameMatches(pattern: "*.example.com", host: "www.example.com"),
            .noDNSNameMatches(host: "mail.example.com", names: ["example.com", "www.example.com"]),
        ]
        let english = [
            "iPAddress SAN 192.0.2.10 matches",
            "IP 192.0.2.11 is not among the iPAddress SANs [192.0.2.10] (DNS names and CN never match an IP)",
            "no dNSName in subjectAltName; RFC 9525 ignores the CN, so example.com cannot match",
            "dNSName *.example.com matches www.example.com",
            "mail.example.com matches none of the dNSName SANs [example.com, www.example.com]",
        ]
        for (finding, line) in zip(findings, english) {
            let check = ChainCheck(kind: .name, depth: 0, subject: "x", passed: false, finding: .name(finding))
            #expect(Explanations.english.chainCheckDetail(check) == line)
            #expect(Explanations.chinese.chainCheckDetail(check) != line)
        }
    }

    /// The network's drop reasons: English as TCPSim names them, Chinese translated.
    @Test func dropReasons() {
        let reasons: [TCPDropReason] = [.scriptedLoss, .randomLoss, .noRoute, .backlogFull, .malformed]
        for reason in reasons {
            let key = "tcp.dropReason.\(String(describing: reason))"
            #expect(Explanations.english(key) == reason.rawValue)
            #expect(Explanations.chinese(key).map { $0 != reason.rawValue } == true, "\(key)")
        }
    }

    @Test func chineseWordsEveryReason() {
        let causes: [AlertCause] = [.close, .replyToCloseNotify, .renegotiationRefused, .handshakeCanceled] + Self.errors.map(AlertCause.failure)
        for cause in causes {
            let chinese = Explanations.chinese.alertCause(cause)
            #expect(chinese != Explanations.english.alertCause(cause) && chinese != cause.description, "\(cause): not translated")
            #expect(!chinese.contains("misbehaved.") && !chinese.contains("incompatible.") && !chinese.contains("decode."), "\(chinese)")
        }
    }
}
