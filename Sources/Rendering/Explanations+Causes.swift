import PKI
import TLSEngine

/// Why a side sent an alert, worded from the catalogue: the engine's named failure reasons with their
/// typed values (``AlertCause``, ``TLSError``). The English texts are the JSON Lines `cause` field;
/// where the engine keeps an English `description` for debugging, it is the same line except for the
/// reasons `Explanations+EngineReasons.swift` words (CauseWordingTests).
extension Explanations {
    /// The alert's cause in this catalogue's language.
    public func alertCause(_ cause: AlertCause) -> String {
        switch cause {
        case .close: return say("cause.close")
        case .replyToCloseNotify: return say("cause.replyToCloseNotify")
        case .renegotiationRefused: return say("cause.renegotiationRefused")
        case .handshakeCanceled: return say("cause.handshakeCanceled")
        case .failure(let error): return failure(error)
        case .tls13(.downgrade): return say("cause.tls13.downgrade")
        case .tls13(let failure): return tls13Failure(failure)
        }
    }

    /// A failure in one line, as the alert's cause.
    public func failure(_ error: TLSError) -> String {
        switch error {
        case let .inappropriateMessage(expected, got):
            return inappropriateMessage(expected: expected, got: got)
        case .invalidMessage(let e):
            return say("failure.invalidMessage", ["error": decodeError(e)])
        case .recordProtection(.badRecordMAC(let why)):
            return say("failure.badRecordMAC", ["why": badRecordMAC(why)])
        case .recordProtection(.recordOverflow(let length)):
            return say("failure.recordOverflow", ["length": "\(length)"])
        case .recordProtection(.sequenceNumberExhausted):
            return say("failure.sequenceNumberExhausted")
        case .recordProtection(.invalidKeys(let why)):
            return say("failure.invalidKeys", ["why": recordKeysFault(why)])
        case .peerIncompatible(let reason):
            return say("failure.peer", ["alert": "\(reason.alert)", "reason": incompatible(reason)])
        case .peerMisbehaved(let reason):
            return say("failure.peer", ["alert": "\(reason.alert)", "reason": misbehaved(reason)])
        case let .certificateRejected(refusal, why):
            return say("failure.certificateRejected", ["alert": "\(TLSAlertTable.alert(for: refusal))", "why": certificateAccount(why)])
        case .alertReceived(let alert):
            return say("failure.alertReceived", ["alert": "\(alert)"])
        case .internalError(let why):
            return say("failure.internalError", ["why": internalFailure(why)])
        }
    }

    /// What a certificate decision rests on, in one line.
    public func certificateAccount(_ account: CertificateAccount) -> String {
        switch account {
        case let .chainValidated(checks, pathLength, anchor):
            return say("account.chainValidated", ["checks": "\(checks)", "length": "\(pathLength)", "anchor": anchor])
        case .checkFailed(let check):
            return say("account.checkFailed", ["kind": self(CatalogueKey.chainKind(check.kind)) ?? check.kind.rawValue,
                                               "depth": "\(check.depth)", "subject": check.subject, "detail": chainCheckDetail(check)])
        case .chainNotTrusted(let result): return say("account.chainNotTrusted", ["result": result.rawValue])
        case .acceptedWithoutChecks: return say("account.acceptedWithoutChecks")
        case .notChecked(let subject): return say("account.notChecked", ["subject": subject])
        case .noCertificate(let role): return say(role == .client ? "account.noCertificate.client" : "account.noCertificate.server")
        case .clientCertificateRequired: return say("account.clientCertificateRequired")
        case let .unparsable(index, error): return say("account.unparsable", ["index": "\(index)", "error": pkiError(error)])
        case .unsupportedKey(let key): return say("account.unsupportedKey", ["key": key])
        case let .keyDoesNotFitSuite(suite, needsEC, key):
            return say(needsEC ? "account.keyDoesNotFitSuite.ec" : "account.keyDoesNotFitSuite.rsa", ["suite": "\(suite)", "key": key])
        case .noEvaluator: return say("account.noEvaluator")
        case let .decidedBy(reasons, failure): return policyDecision(reasons, firstFailure: failure)
        }
    }

    func badRecordMAC(_ why: BadRecordMACReason) -> String {
        switch why {
        case let .gcmRecordTooShort(needed, got): return say("badRecordMAC.gcmRecordTooShort", ["needed": "\(needed)", "got": "\(got)"])
        case .gcmTagMismatch: return say("badRecordMAC.gcmTagMismatch")
        case .cbcRecordTooShort(let length): return say("badRecordMAC.cbcRecordTooShort", ["length": "\(length)"])
        case .cbcDecryptionFailed: return say("badRecordMAC.cbcDecryptionFailed")
        case .cbcPaddingOrMACMismatch(let mac): return say("badRecordMAC.cbcPaddingOrMACMismatch", ["mac": mac])
        case let .encryptThenMACRecordTooShort(length, mac):
            return say("badRecordMAC.encryptThenMACRecordTooShort", ["length": "\(length)", "mac": mac])
        case .encryptThenMACMismatch(let mac): return say("badRecordMAC.encryptThenMACMismatch", ["mac": mac])
        case .encryptThenMACPaddingMalformed: return say("badRecordMAC.encryptThenMACPaddingMalformed")
        case let .chaChaRecordTooShort(needed, got): return say("badRecordMAC.chaChaRecordTooShort", ["needed": "\(needed)", "got": "\(got)"])
        case .poly1305TagMismatch: return say("badRecordMAC.poly1305TagMismatch")
        }
    }

    func decodeError(_ e: DecodeError) -> String {
        switch e {
        case let .truncated(field, needed, available):
            return say("decode.truncated", ["field": field, "needed": "\(needed)", "available": "\(available)"])
        case let .trailingBytes(field, count): return say("decode.trailingBytes", ["field": field, "count": "\(count)"])
        case let .lengthOutOfRange(field, length, min, max):
            return say("decode.lengthOutOfRange", ["field": field, "length": "\(length)", "min": "\(min)", "max": "\(max)"])
        case let .malformed(field, reason): return say("decode.malformed", ["field": field, "reason": malformedReason(reason)])
        case let .illegalParameter(field, reason):
            return say("decode.illegalParameter", ["field": field, "reason": illegalParameterReason(reason)])
        case .duplicateExtension(let type): return say("decode.duplicateExtension", ["extension": "\(type)"])
        case let .recordOverflow(length, limit): return say("decode.recordOverflow", ["length": "\(length)", "limit": "\(limit)"])
        case .unexpectedContentType(let raw): return say("decode.unexpectedContentType", ["type": "\(raw)"])
        case .sslv2ClientHello: return say("decode.sslv2ClientHello")
        case let .handshakeMessageTooLarge(length, limit):
            return say("decode.handshakeMessageTooLarge", ["length": "\(length)", "limit": "\(limit)"])
        case let .needsKeyExchange(type, reason):
            return say("decode.needsKeyExchange", ["type": type.messageName, "reason": keyExchangeUnavailable(reason)])
        }
    }

    func misbehaved(_ reason: PeerMisbehaved) -> String {
        switch reason {
        case .renegotiationInfoNotEmpty(let role):
            return say(role == .client ? "misbehaved.renegotiationInfoNotEmpty.client" : "misbehaved.renegotiationInfoNotEmpty.server")
        case .pointFormatsLackUncompressed(let formats): return say("misbehaved.pointFormatsLackUncompressed", ["formats": "\(formats)"])
        case let .suiteNotOffered(suite, version): return say("misbehaved.suiteNotOffered", ["suite": "\(suite)", "version": "\(version)"])
        case .compressionNotNull(let method): return say("misbehaved.compressionNotNull", ["method": "\(method)"])
        case .extensionNotOffered(let type): return say("misbehaved.extensionNotOffered", ["extension": "\(type)"])
        case .applicationProtocolNotOffered(let chosen):
            return say("misbehaved.applicationProtocolNotOffered", ["protocols": chosen.map(\.description).joined(separator: ", ")])
        case let .resumedSessionDiffers(suite, version): return say("misbehaved.resumedSessionDiffers", ["suite": "\(suite)", "version": "\(version)"])
        case .malformedChangeCipherSpec(.length(let n)): return say("misbehaved.malformedChangeCipherSpec.length", ["length": "\(n)"])
        case .malformedChangeCipherSpec(.value(let v)): return say("misbehaved.malformedChangeCipherSpec.value", ["value": "\(v)"])
        case .encryptThenMACWithAEAD(let suite): return say("misbehaved.encryptThenMACWithAEAD", ["suite": "\(suite)"])
        case let .invalidDHPublicValue(inSKE, why):
            return say(inSKE ? "misbehaved.invalidDHPublicValue.serverKeyExchange" : "misbehaved.invalidDHPublicValue.peer", ["reason": dhPublicValueFault(why)])
        case .groupNotOffered(let group): return say("misbehaved.groupNotOffered", ["group": "\(group)"])
        case let .invalidECDHPublicKey(inSKE, why):
            return say(inSKE ? "misbehaved.invalidECDHPublicKey.serverKeyExchange" : "misbehaved.invalidECDHPublicKey.peer", ["reason": ecdhPublicKeyFault(why)])
        case .serverKeyExchangeSchemeNotOffered(let scheme):
            return scheme.map { say("misbehaved.serverKeyExchangeSchemeNotOffered", ["scheme": "\($0)"]) } ?? say("misbehaved.serverKeyExchangeSchemeNotOffered.none")
        case let .certificateVerifySchemeNotRequested(scheme, requested):
            let listed = requested.map { "\($0)" }.joined(separator: ", ")
            return scheme.map { say("misbehaved.certificateVerifySchemeNotRequested.scheme", ["scheme": "\($0)", "requested": listed]) }
                ?? say("misbehaved.certificateVerifySchemeNotRequested.none", ["requested": listed])
        case let .recordVersionMismatch(type, got, negotiated):
            return say("misbehaved.recordVersionMismatch", ["type": "\(type)", "got": "\(got)", "negotiated": "\(negotiated)"])
        case .undefinedAlertLevel(let level): return say("misbehaved.undefinedAlertLevel", ["level": "\(level)"])
        case .tooManyEmptyRecords(let limit): return say("misbehaved.tooManyEmptyRecords", ["limit": "\(limit)"])
        case .tooManyWarningAlerts(let limit): return say("misbehaved.tooManyWarningAlerts", ["limit": "\(limit)"])
        case let .truncated(state, buffered): return say("misbehaved.truncated", ["state": "\(state)", "bytes": "\(buffered)"])
        case .extendedMasterSecretDroppedOnResumption: return say("misbehaved.extendedMasterSecretDroppedOnResumption")
        case let .serverNameNotHostName(offset, byte):
            return say("misbehaved.serverNameNotHostName", ["byte": PeerMisbehaved.hex(byte), "offset": "\(offset)"])
        case .nullCompressionNotOffered: return say("misbehaved.nullCompressionNotOffered")
        case .emptyServerNameList: return say("misbehaved.emptyServerNameList")
        case .extendedMasterSecretChangedOnResumption: return say("misbehaved.extendedMasterSecretChangedOnResumption")
        case .encryptThenMACChangedOnResumption: return say("misbehaved.encryptThenMACChangedOnResumption")
        case .unusableDHPrime: return say("misbehaved.unusableDHPrime")
        case .dhGeneratorOutOfRange: return say("misbehaved.dhGeneratorOutOfRange")
        case .serverKeyExchangeSignatureInvalid: return say("misbehaved.serverKeyExchangeSignatureInvalid")
        case .certificateVerifySignatureInvalid: return say("misbehaved.certificateVerifySignatureInvalid")
        case .finishedMismatch: return say("misbehaved.finishedMismatch")
        }
    }

    func incompatible(_ reason: PeerIncompatible) -> String {
        func list<T: CustomStringConvertible>(_ items: [T]) -> String { items.map(\.description).joined(separator: ", ") }
        switch reason {
        case let .dhPrimeTooSmall(bits, minimum): return say("incompatible.dhPrimeTooSmall", ["bits": "\(bits)", "minimum": "\(minimum)"])
        case .noCommonSuite(let version): return say("incompatible.noCommonSuite", ["version": "\(version)"])
        case .noAcceptableFiniteFieldGroup(let offered): return say("incompatible.noAcceptableFiniteFieldGroup", ["groups": list(offered)])
        case let .dhGroupNotOffered(group, bits, offered):
            return say("incompatible.dhGroupNotOffered", ["group": group, "bits": "\(bits)", "groups": list(offered)])
        case let .noCommonApplicationProtocol(offered, supported):
            return say("incompatible.noCommonApplicationProtocol", ["offered": list(offered), "supported": list(supported)])
        case let .noSupportedVersionInCommon(offered, lowest, highest):
            return say("incompatible.noSupportedVersionInCommon", ["offered": list(offered), "lowest": "\(lowest)", "highest": "\(highest)"])
        case let .clientVersionTooLow(version, lowest): return say("incompatible.clientVersionTooLow", ["version": "\(version)", "lowest": "\(lowest)"])
        case let .serverVersionUnacceptable(version, minimum, maximum):
            return say("incompatible.serverVersionUnacceptable", ["version": "\(version)", "minimum": "\(minimum)", "maximum": "\(maximum)"])
        case .handshakeIncomplete(let state): return say("incompatible.handshakeIncomplete", ["state": "\(state)"])
        case .rsaModulusTooSmall: return say("incompatible.rsaModulusTooSmall")
        case .clientCertificateChallengeCancelled: return say("incompatible.clientCertificateChallengeCancelled")
        }
    }

    private func say(_ key: String, _ values: [String: String] = [:]) -> String { self(key, values) ?? key }

    /// The English texts of the causes (the engine's words, moved here).
    static let englishCauses: [String: String] = [
        "cause.close": "close",
        "cause.replyToCloseNotify": "reply to close_notify",
        "cause.renegotiationRefused": "renegotiation is not supported",
        "cause.handshakeCanceled": "the handshake is canceled for a reason unrelated to a protocol failure",
        "failure.invalidMessage": "malformed: {error}",
        "failure.badRecordMAC": "bad_record_mac: {why}",
        "failure.recordOverflow": "record_overflow: {length} bytes",
        "failure.sequenceNumberExhausted": "the 64-bit record sequence number would wrap",
        "failure.invalidKeys": "invalid record keys: {why}",
        "failure.peer": "{alert}: {reason}",
        "failure.certificateRejected": "certificate rejected ({alert}): {why}",
        "failure.alertReceived": "peer sent alert {alert}",
        "failure.internalError": "internal error: {why}",
        "tcp.dropReason.scriptedLoss": "scripted loss",
        "tcp.dropReason.randomLoss": "random loss",
        "tcp.dropReason.noRoute": "no route to host",
        "tcp.dropReason.backlogFull": "listen backlog full",
        "tcp.dropReason.malformed": "malformed segment",
        "account.chainValidated": "{checks} checks passed along a path of {length} up to the anchor {anchor}",
        "account.checkFailed": "{kind} check failed at depth {depth} ({subject}): {detail}",
        "account.chainNotTrusted": "the chain is not trusted ({result})",
        "account.acceptedWithoutChecks": "accepted without any check",
        "account.notChecked": "policy none: the chain was NOT checked ({subject})",
        "account.noCertificate.server": "the server sent no certificate",
        "account.noCertificate.client": "the client sent no certificate",
        "account.clientCertificateRequired": "a client certificate is required",
        "account.unparsable": "certificate {index} does not parse: {error}",
        "account.unsupportedKey": "the leaf key is {key}, but TLSLab's suites need RSA or EC P-256/P-384",
        "account.keyDoesNotFitSuite.ec": "{suite} needs an EC certificate key, the server's is {key}",
        "account.keyDoesNotFitSuite.rsa": "{suite} needs an RSA certificate key, the server's is {key}",
        "account.noEvaluator": "no evaluator for client certificates",
        "badRecordMAC.gcmRecordTooShort": "a GCM record needs at least {needed} bytes, got {got}",
        "badRecordMAC.gcmTagMismatch": "the AES-GCM tag does not verify (wrong key, sequence number or tampered bytes)",
        "badRecordMAC.cbcRecordTooShort": "a CBC record of {length} bytes cannot hold IV, MAC and padding",
        "badRecordMAC.cbcDecryptionFailed": "AES-CBC decryption failed",
        "badRecordMAC.cbcPaddingOrMACMismatch": "the padding or the {mac} of the record does not verify",
        "badRecordMAC.encryptThenMACRecordTooShort": "an encrypt-then-MAC record of {length} bytes cannot hold IV, a block and the {mac}",
        "badRecordMAC.encryptThenMACMismatch": "the {mac} over IV and ciphertext does not verify (checked before decrypting)",
        "badRecordMAC.encryptThenMACPaddingMalformed": "the padding of an encrypt-then-MAC record is malformed",
        "decode.truncated": "{field}: truncated (needs {needed} bytes, {available} remain)",
        "decode.trailingBytes": "{field}: {count} unexpected trailing byte(s)",
        "decode.lengthOutOfRange": "{field}: length {length} outside <{min}..{max}>",
        "decode.malformed": "{field}: {reason}",
        "decode.illegalParameter": "{field}: illegal parameter: {reason}",
        "decode.duplicateExtension": "duplicate extension {extension}",
        "decode.recordOverflow": "record length {length} exceeds {limit}",
        "decode.unexpectedContentType": "unknown record content type {type}",
        "decode.sslv2ClientHello": "SSL 2.0-compatible CLIENT-HELLO where only TLS records may come (a server accepts one only as a client's first bytes)",
        "decode.handshakeMessageTooLarge": "handshake message of {length} bytes exceeds the limit of {limit}",
        "decode.needsKeyExchange": "{type}: {reason}",
        "misbehaved.nullCompressionNotOffered": "the client does not offer the null compression method",
        "misbehaved.renegotiationInfoNotEmpty.client": "renegotiation_info must be empty in an initial handshake (RFC 5746 §3.4)",
        "misbehaved.renegotiationInfoNotEmpty.server": "renegotiation_info must be empty in an initial handshake (RFC 5746 §3.6)",
        "misbehaved.emptyServerNameList": "the ClientHello's server_name extension is empty (RFC 6066 §3: at least one name)",
        "misbehaved.serverNameNotHostName": "the server_name host_name has byte {byte} at offset {offset}, which no DNS host name holds (RFC 6066 §3: ASCII letters, digits, hyphens and dots)",
        "misbehaved.pointFormatsLackUncompressed": "ec_point_formats {formats} lacks uncompressed (RFC 8422 §5.1.2)",
        "misbehaved.suiteNotOffered": "the server chose {suite}, which the client did not offer for {version}",
        "misbehaved.compressionNotNull": "compression method {method}",
        "misbehaved.extensionNotOffered": "the server sent {extension}, which the client did not offer",
        "misbehaved.applicationProtocolNotOffered": "the server chose the application protocol {protocols}, which the client did not offer (RFC 7301 §3.2)",
        "misbehaved.resumedSessionDiffers": "the resumed session had {suite} and {version}",
        "misbehaved.extendedMasterSecretChangedOnResumption": "extended_master_secret differs from the resumed session (RFC 7627 §5.3)",
        "misbehaved.extendedMasterSecretDroppedOnResumption": "the offered session used the extended master secret and this ClientHello does not offer it: the server MUST abort the abbreviated handshake (RFC 7627 §5.3)",
        "misbehaved.malformedChangeCipherSpec.length": "a change_cipher_spec record of {length} bytes; RFC 5246 §7.1 allows the one byte 1",
        "misbehaved.malformedChangeCipherSpec.value": "change_cipher_spec value {value}; RFC 5246 §7.1 allows only 1",
        "misbehaved.encryptThenMACWithAEAD": "encrypt_then_mac answered with {suite}, an AEAD suite (RFC 7366 §3)",
        "misbehaved.encryptThenMACChangedOnResumption": "encrypt_then_mac differs from the resumed session (RFC 7366 §3.1)",
        "misbehaved.unusableDHPrime": "dh_p is not a usable prime",
        "misbehaved.dhGeneratorOutOfRange": "dh_g must satisfy 1 < g < p-1",
        "misbehaved.invalidDHPublicValue.serverKeyExchange": "dh_Ys: {reason}",
        "misbehaved.invalidDHPublicValue.peer": "peer DH value: {reason}",
        "misbehaved.groupNotOffered": "the server chose {group}, which the client did not offer",
        "misbehaved.invalidECDHPublicKey.serverKeyExchange": "server ECDH point: {reason}",
        "misbehaved.invalidECDHPublicKey.peer": "peer ECDH key: {reason}",
        "misbehaved.serverKeyExchangeSchemeNotOffered": "ServerKeyExchange signed with {scheme}, which the client did not offer",
        "misbehaved.serverKeyExchangeSchemeNotOffered.none": "ServerKeyExchange signed with no algorithm, which the client did not offer",
        "misbehaved.serverKeyExchangeSignatureInvalid": "the ServerKeyExchange signature does not verify",
        "misbehaved.certificateVerifySchemeNotRequested": "CertificateVerify uses a scheme the server did not request",
        "misbehaved.certificateVerifySignatureInvalid": "the CertificateVerify signature does not verify",
        "misbehaved.finishedMismatch": "the peer's Finished.verify_data does not match",
        "misbehaved.recordVersionMismatch": "a {type} record with version {got} after the hellos agreed on {negotiated}",
        "misbehaved.undefinedAlertLevel": "an alert with the undefined level {level} (RFC 5246 §7.2: warning(1) or fatal(2))",
        "misbehaved.tooManyEmptyRecords": "more than {limit} empty records in a row",
        "misbehaved.tooManyWarningAlerts": "more than {limit} warning alerts in a row",
        "misbehaved.truncated": "the peer stopped sending in {state} with {bytes} bytes of an incomplete record or handshake message buffered",
        "incompatible.dhPrimeTooSmall": "dh_p has {bits} bits, fewer than the client's minimum of {minimum} (OpenSSL: dh key too small)",
        "incompatible.noCommonSuite": "no cipher suite in common for {version}",
        "incompatible.noAcceptableFiniteFieldGroup": "the client names only the finite-field groups {groups}, none acceptable, and no other suite in common (RFC 7919 §4)",
        "incompatible.dhGroupNotOffered": "the server's DH group ({group}, {bits} bits) is none of the groups the client named ({groups}); the client's policy refuses it (RFC 7919 §3)",
        "incompatible.noCommonApplicationProtocol": "the client offers the application protocols {offered}; the server speaks only {supported} (RFC 7301 §3.2)",
        "incompatible.noSupportedVersionInCommon": "the client's supported_versions lists {offered}; the server speaks {lowest} to {highest} (RFC 8446 §4.2.1)",
        "incompatible.clientVersionTooLow": "the client offers at most {version}; the server needs at least {lowest}",
        "incompatible.serverVersionUnacceptable": "the server chose {version}; the client accepts {minimum}…{maximum}",
        "incompatible.rsaModulusTooSmall": "RSA modulus too small",
        "incompatible.clientCertificateChallengeCancelled": "the application cancelled the client-certificate challenge",
        "incompatible.handshakeIncomplete": "the peer stopped sending in {state}; the handshake cannot complete",
    ]
}

extension Explanations {
    /// A TLS 1.3 failure in one line (RFC 8446 §6.2 names the alert each one sends).
    public func tls13Failure(_ failure: TLS13Failure) -> String {
        let alert = ["alert": "\(failure.alert)"]
        switch failure {
        case .decode(let e): return say("failure.invalidMessage", ["error": decodeError(e)])
        case .record(.authenticationFailed): return say("cause.tls13.record.authenticationFailed")
        case .record(.recordOverflow(let length)): return say("failure.recordOverflow", ["length": "\(length)"])
        case .record(.tooShort(let length)): return say("cause.tls13.record.tooShort", ["length": "\(length)"])
        case .record(.noContentType): return say("cause.tls13.record.noContentType")
        case .record(.sequenceNumberExhausted): return say("failure.sequenceNumberExhausted")
        case .record(.invalidKeys): return say("cause.tls13.record.invalidKeys")
        case .unexpectedMessage(let type, let state): return say("cause.tls13.unexpectedMessage", ["message": "\(type)", "state": state.rawValue])
        case .unexpectedRecord(let type, let state): return say("cause.tls13.unexpectedRecord", ["type": "\(type)", "state": state.rawValue])
        case .emptyServerCertificate: return say("cause.tls13.emptyServerCertificate")
        case .emptyHandshakeRecord: return say("cause.tls13.emptyHandshakeRecord")
        case .emptyProtectedRecord(let type): return say("cause.tls13.emptyProtectedRecord", ["type": "\(type)"])
        case .noCommonParameters: return say("cause.tls13.noCommonParameters")
        case .illegalParameter(let rule): return say("cause.tls13.illegalParameter", ["rule": tls13IllegalParameter(rule)])
        case .missingExtension(let type): return say("cause.tls13.missingExtension", ["extension": "\(type)"])
        case .unsupportedExtension(let type): return say("cause.tls13.unsupportedExtension", ["extension": "\(type)"])
        case .certificateRequired: return say("cause.tls13.certificateRequired")
        case .certificateRefused(let refusal, let account): return self.failure(.certificateRejected(refusal, account))
        case .verificationFailed: return say("cause.tls13.verificationFailed")
        case .pskBinderInvalid: return say("cause.tls13.pskBinderInvalid")
        case .downgrade: return say("cause.tls13.downgrade")
        case .badKeyShare: return say("cause.tls13.badKeyShare")
        case .tooMuchEarlyData(let received, let limit): return say("cause.tls13.tooMuchEarlyData", ["received": "\(received)", "limit": "\(limit)"])
        case .noCommonApplicationProtocol: return say("cause.tls13.noCommonApplicationProtocol")
        case .tooManyEmptyRecords(let limit): return say("cause.tls13.tooManyEmptyRecords", ["limit": "\(limit)"].merging(alert) { a, _ in a })
        case .tooManyKeyUpdates(let limit): return say("cause.tls13.tooManyKeyUpdates", ["limit": "\(limit)"])
        case .handshakeDataAfterKeyChange: return say("cause.tls13.handshakeDataAfterKeyChange")
        case .internalError: return say("cause.tls13.internalError")
        }
    }
}
