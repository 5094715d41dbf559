import TLSCrypto
import TLSEngine

/// The engine's typed reasons worded from the catalogue: an unexpected message (what was awaited,
/// what came), this side's internal failures, unusable record keys, the decoder's field rules, a
/// peer's refused (EC)DH public value and the RSA premaster countermeasure. Each sentence says the
/// rule, where it is stated and what it protects against. The English texts are below; the Chinese
/// ones in `Explanations+zhEngineReasons.swift`.
extension Explanations {
    /// An unexpected message: the rule that expected something else, with what arrived.
    func inappropriateMessage(expected: ExpectedMessage, got: ArrivedMessage) -> String {
        var values = ["got": arrivedMessage(got)]
        let key: String
        switch expected {
        case .inState(let state):
            key = "inappropriate.inState"
            values["accepts"] = Self.acceptsKey(state).flatMap { self($0) } ?? Self.awaitedMessage[state] ?? state.rawValue
        case .restOfHandshakeMessage: key = "inappropriate.restOfHandshakeMessage"
        case .changeCipherSpecAtMessageBoundary: key = "inappropriate.changeCipherSpecAtMessageBoundary"
        case .serverKeyExchange(let kx):
            key = "inappropriate.serverKeyExchange"
            values["kx"] = kx.rawValue
        case .keyExchangeMessage(let kx):
            key = "inappropriate.keyExchangeMessage"
            values["kx"] = kx.rawValue
        }
        return word(key, values)
    }

    /// What arrived, in a few words (message and content-type names stay as the RFC spells them).
    func arrivedMessage(_ got: ArrivedMessage) -> String {
        switch got {
        case .handshake(let type): return type.messageName
        case .content(let type): return word("arrived.content", ["type": "\(type)"])
        case let .keyExchangeParameters(kind, message):
            let key = switch kind {
            case .finiteFieldDH: "arrived.parameters.finiteFieldDH"
            case .ellipticCurveDH: "arrived.parameters.ellipticCurveDH"
            case .rsaEncryptedPreMasterSecret: "arrived.parameters.rsaEncryptedPreMasterSecret"
            }
            return word(key, ["message": message.messageName])
        }
    }

    /// This side's own failure (answered with internal_error).
    func internalFailure(_ failure: InternalFailure) -> String {
        switch failure {
        case let .versionRangeUnusable(minimum, maximum):
            return word("internal.versionRangeUnusable", ["minimum": "\(minimum)", "maximum": "\(maximum)"])
        case .applicationProtocolOfferUnencodable: return word("internal.applicationProtocolOfferUnencodable")
        case .rsaKeyTransportWithoutRSAKey: return word("internal.rsaKeyTransportWithoutRSAKey")
        case let .schemeDoesNotFitKey(scheme, ecdsa):
            return word(ecdsa ? "internal.schemeDoesNotFitKey.ecdsa" : "internal.schemeDoesNotFitKey.rsa", ["scheme": "\(scheme)"])
        case let .rsaModulusTooSmallForMD5SHA1(modulus, needed):
            return word("internal.rsaModulusTooSmallForMD5SHA1", ["modulus": "\(modulus)", "needed": "\(needed)"])
        case .signingFailed(let scheme):
            return scheme.map { word("internal.signingFailed", ["scheme": "\($0)"]) } ?? word("internal.signingFailed.legacy")
        case .ephemeralKeyGenerationFailed(let kx): return word("internal.ephemeralKeyGenerationFailed", ["kx": kx.rawValue])
        case .keyAgreementFailed(let kx): return word("internal.keyAgreementFailed", ["kx": kx.rawValue])
        case .rsaEncryptionFailed: return word("internal.rsaEncryptionFailed")
        case .sessionTicketEncryptionFailed: return word("internal.sessionTicketEncryptionFailed")
        case .keySchedule(let error): return keyScheduleError(error)
        case .applicationDataBeforeHandshake: return word("internal.applicationDataBeforeHandshake")
        }
    }

    func keyScheduleError(_ error: KeyScheduleError) -> String {
        switch error {
        case let .keyBlockTooShort(have, need): return word("internal.keySchedule.keyBlockTooShort", ["have": "\(have)", "need": "\(need)"])
        case .invalidRandomLength(let n): return word("internal.keySchedule.invalidRandomLength", ["length": "\(n)"])
        case .invalidMasterSecretLength(let n): return word("internal.keySchedule.invalidMasterSecretLength", ["length": "\(n)"])
        case .transcriptHashNotSelected: return word("internal.keySchedule.transcriptHashNotSelected")
        case .transcriptHashAlreadySelected: return word("internal.keySchedule.transcriptHashAlreadySelected")
        }
    }

    /// Record keys or a nonce that do not fit the cipher.
    func recordKeysFault(_ fault: RecordKeysFault) -> String {
        switch fault {
        case let .writeKeyLength(have, need): return word("recordKeys.writeKeyLength", ["have": "\(have)", "need": "\(need)"])
        case let .macKeyLength(have, need): return word("recordKeys.macKeyLength", ["have": "\(have)", "need": "\(need)"])
        case let .fixedIVLength(have, aead): return word(aead ? "recordKeys.fixedIVLength.aead" : "recordKeys.fixedIVLength.cbc", ["have": "\(have)"])
        case let .gcmExplicitNonceLength(have, need): return word("recordKeys.gcmExplicitNonceLength", ["have": "\(have)", "need": "\(need)"])
        case let .cbcExplicitIVLength(have, need): return word("recordKeys.cbcExplicitIVLength", ["have": "\(have)", "need": "\(need)"])
        case .explicitIVInTLS10: return word("recordKeys.explicitIVInTLS10")
        case .cipherRefusedKey(let aead): return word(aead ? "recordKeys.cipherRefusedKey.aead" : "recordKeys.cipherRefusedKey.cbc")
        case .chaChaIVLength(let have): return word("recordKeys.chaChaIVLength", ["have": "\(have)"])
        case .explicitNonceWithChaCha(let have): return word("recordKeys.explicitNonceWithChaCha", ["have": "\(have)"])
        case .chaChaRefusedKey: return word("recordKeys.chaChaRefusedKey")
        }
    }

    /// A field whose value the RFC does not allow (decode_error).
    func malformedReason(_ reason: MalformedReason) -> String {
        switch reason {
        case .zeroLengthFragment(let type): return word("malformed.zeroLengthFragment", ["type": "\(type)"])
        case .recordMajorVersion(let major): return word("malformed.recordMajorVersion", ["major": "\(major)"])
        case .changeCipherSpecValue(let value): return word("malformed.changeCipherSpecValue", ["value": "\(value)"])
        case .unknownServerNameType(let type): return word("malformed.unknownServerNameType", ["type": "\(type)"])
        case .serverProtocolNameCount(let count): return word("malformed.serverProtocolNameCount", ["count": "\(count)"])
        case .sslv2MessageType(let type): return word("malformed.sslv2MessageType", ["type": "\(type)"])
        case let .ticketStateFlags(ems, etm): return word("malformed.ticketStateFlags", ["ems": "\(ems)", "etm": "\(etm)"])
        }
    }

    /// A field out of range or inconsistent (illegal_parameter).
    func illegalParameterReason(_ reason: IllegalParameterReason) -> String {
        switch reason {
        case .noTLSCipherSuiteInSSLv2Hello: return word("illegal.noTLSCipherSuiteInSSLv2Hello")
        case .curveTypeNotNamed(let type): return word("illegal.curveTypeNotNamed", ["type": "\(type)"])
        case .duplicateKeyShareGroup: return word("illegal.duplicateKeyShareGroup")
        }
    }

    /// Why a key-exchange message could not be read.
    func keyExchangeUnavailable(_ reason: KeyExchangeUnavailable) -> String {
        switch reason {
        case .notKnownYet: return word("needsKeyExchange.notKnownYet")
        case .rsaHasNoServerKeyExchange: return word("needsKeyExchange.rsaHasNoServerKeyExchange")
        }
    }

    /// A peer's DH public value refused.
    func dhPublicValueFault(_ fault: DHPublicValueFault) -> String {
        switch fault {
        case .atMostOne: return word("dhPublicValue.atMostOne")
        case .atLeastPMinusOne: return word("dhPublicValue.atLeastPMinusOne")
        case let .longerThanPrime(bytes, limit): return word("dhPublicValue.longerThanPrime", ["bytes": "\(bytes)", "limit": "\(limit)"])
        case .notInPrimeOrderSubgroup: return word("dhPublicValue.notInPrimeOrderSubgroup")
        }
    }

    /// A peer's ECDH public key refused.
    func ecdhPublicKeyFault(_ fault: ECDHPublicKeyFault) -> String {
        switch fault {
        case let .wrongLength(have, need): return word("ecdhPublicKey.wrongLength", ["have": "\(have)", "need": "\(need)"])
        case .notUncompressed(let byte): return word("ecdhPublicKey.notUncompressed", ["format": Self.hexByte(byte)])
        case .notOnCurve: return word("ecdhPublicKey.notOnCurve")
        case .lowOrder: return word("ecdhPublicKey.lowOrder")
        }
    }

    /// Why the server went on with a random premaster secret (RFC 5246 §7.4.7.1).
    public func premasterDecryptionFault(_ fault: PremasterDecryptionFault) -> String {
        switch fault {
        case .notPKCS1Block: return word("countermeasure.notPKCS1Block")
        case .wrongLength(let n): return word("countermeasure.wrongLength", ["length": "\(n)"])
        case let .versionMismatch(found, offered):
            return word("countermeasure.versionMismatch", [
                "found": "\(Self.hexByte(found.major)) \(Self.hexByte(found.minor))", "foundName": "\(found)",
                "offered": "\(Self.hexByte(offered.major)) \(Self.hexByte(offered.minor))", "offeredName": "\(offered)"])
        }
    }

    /// The catalogue's words for what a state accepts, when one message's name does not say it.
    static func acceptsKey(_ state: TLSStateName) -> String? {
        switch state {
        case .start: "accepts.start"
        case .expectCertificate: "accepts.expectCertificate"
        case .expectCertificateRequestOrServerHelloDone: "accepts.expectCertificateRequestOrServerHelloDone"
        case .expectClientCertificate: "accepts.expectClientCertificate"
        case .connected: "accepts.connected"
        case .closed: "accepts.closed"
        case .failed: "accepts.failed"
        default: nil
        }
    }

    /// The one message a state waits for, where its name says it all (the others are worded in
    /// the catalogue's `accepts.*` entries).
    static let awaitedMessage: [TLSStateName: String] = [
        .expectServerHello: HandshakeType.serverHello.messageName, .expectServerKeyExchange: HandshakeType.serverKeyExchange.messageName,
        .expectServerHelloDone: HandshakeType.serverHelloDone.messageName, .expectNewSessionTicket: HandshakeType.newSessionTicket.messageName,
        .expectClientHello: HandshakeType.clientHello.messageName, .expectClientKeyExchange: HandshakeType.clientKeyExchange.messageName,
        .expectCertificateVerify: HandshakeType.certificateVerify.messageName, .expectChangeCipherSpec: "ChangeCipherSpec",
        .expectFinished: HandshakeType.finished.messageName,
    ]

    static func hexByte(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16)
        return byte < 16 ? "0" + digits : digits
    }

    private func word(_ key: String, _ values: [String: String] = [:]) -> String { self(key, values) ?? key }

    /// The English texts of the engine's typed reasons.
    static let englishEngineReasons: [String: String] = [
        "inappropriate.inState": "unexpected {got}: what this side accepts here is {accepts}. RFC 5246 §7.4 requires the handshake messages in the order of §7.3 and makes a message out of order fatal; state machines that let a message be skipped or slip in were attacked exactly so (SKIP-TLS and FREAK, Beurdouche et al. 2015)",
        "inappropriate.restOfHandshakeMessage": "{got} arrived in the middle of a handshake message split over records: the rest of that message must come first. RFC 8446 §5.1 states the rule (handshake messages “MUST NOT be interleaved with other record types”), which TLSLab applies to TLS 1.2 too, so that nothing slips in between the parts of a message",
        "inappropriate.changeCipherSpecAtMessageBoundary": "{got} arrived while handshake messages sent before it were still waiting to be processed: it must follow the last message of its flight (RFC 5246 §7.3), since what comes after it is read with the new keys (§7.1); RFC 8446 §5.1 states the rule that handshake messages must not span a key change",
        "inappropriate.serverKeyExchange": "{got} arrived without the ServerKeyExchange a {kx} suite requires: the server sends its signed ephemeral parameters there (RFC 5246 §7.4.3, RFC 8422 §5.4). A client that went on without them would lose forward secrecy (OpenSSL's CVE-2014-3572: ECDHE silently downgraded to ECDH)",
        "inappropriate.keyExchangeMessage": "{got} does not belong to the negotiated {kx} key exchange: the cipher suite's key exchange fixes each message's form (RFC 5246 §7.4.3, §7.4.7; RSA has no ServerKeyExchange at all), so one exchange's parameters are never read as another's (the cross-protocol attack of Mavrogiannopoulos et al. 2012, and FREAK)",
        "accepts.start": "no message (it has not started)",
        "accepts.expectCertificate": "the server's Certificate",
        "accepts.expectCertificateRequestOrServerHelloDone": "CertificateRequest or ServerHelloDone",
        "accepts.expectClientCertificate": "the client's Certificate",
        "accepts.connected": "application data (a renegotiation request is declined with no_renegotiation)",
        "accepts.closed": "no message any more",
        "accepts.failed": "no message any more",
        "arrived.content": "a record of type {type}",
        "arrived.parameters.finiteFieldDH": "a {message} carrying DH parameters",
        "arrived.parameters.ellipticCurveDH": "a {message} carrying ECDH parameters",
        "arrived.parameters.rsaEncryptedPreMasterSecret": "a {message} carrying an RSA-encrypted premaster secret",
        "internal.versionRangeUnusable": "the client's version range {minimum}…{maximum} is empty or below TLS 1.0, so it has no client_version to offer (RFC 5246 §7.4.1.2)",
        "internal.applicationProtocolOfferUnencodable": "the ALPN offer cannot be encoded: RFC 7301 §3.1 allows 1 to 255 bytes per protocol name and at most 65535 in all",
        "internal.rsaKeyTransportWithoutRSAKey": "RSA key transport encrypts to the server's RSA key, and there is none (RFC 5246 §7.4.7.1)",
        "internal.schemeDoesNotFitKey.ecdsa": "{scheme} cannot sign with an ECDSA key: the scheme names the key type (RFC 5246 §7.4.1.4.1)",
        "internal.schemeDoesNotFitKey.rsa": "{scheme} cannot sign with an RSA key: the scheme names the key type (RFC 5246 §7.4.1.4.1)",
        "internal.rsaModulusTooSmallForMD5SHA1": "an RSA modulus of {modulus} bytes cannot hold the 36-byte MD5 ‖ SHA-1 block with its PKCS #1 padding ({needed} bytes needed, RFC 4346 §4.7)",
        "internal.signingFailed": "signing with {scheme} failed",
        "internal.signingFailed.legacy": "the TLS 1.0/1.1 MD5 ‖ SHA-1 signature failed",
        "internal.ephemeralKeyGenerationFailed": "the {kx} ephemeral key pair could not be made (a broken random source or group)",
        "internal.keyAgreementFailed": "the {kx} agreement failed in this side's own arithmetic, after the peer's value passed its checks",
        "internal.rsaEncryptionFailed": "RSA encryption of the premaster secret failed (RFC 5246 §7.4.7.1)",
        "internal.sessionTicketEncryptionFailed": "AES-CBC refused the session-ticket key or IV (RFC 5077 §4)",
        "internal.keySchedule.keyBlockTooShort": "the key block has {have} bytes, the suite needs {need} (RFC 5246 §6.3)",
        "internal.keySchedule.invalidRandomLength": "a hello random must be 32 bytes, not {length} (RFC 5246 §7.4.1.2)",
        "internal.keySchedule.invalidMasterSecretLength": "a master secret must be 48 bytes, not {length} (RFC 5246 §8.1)",
        "internal.keySchedule.transcriptHashNotSelected": "the handshake hash was asked for before the cipher suite chose its hash (RFC 5246 §7.4.9)",
        "internal.keySchedule.transcriptHashAlreadySelected": "the handshake hash was already chosen and cannot change (RFC 5246 §7.4.9)",
        "internal.applicationDataBeforeHandshake": "the application asked to send data before the handshake completed: application data travels only under the negotiated keys (RFC 5246 §10)",
        "recordKeys.writeKeyLength": "the write key is {have} bytes, the suite needs {need} (RFC 5246 §6.3)",
        "recordKeys.macKeyLength": "the MAC key is {have} bytes, the suite needs {need} (RFC 5246 §6.3)",
        "recordKeys.fixedIVLength.aead": "a fixed IV of {have} bytes, where AES-GCM takes a 4-byte salt (RFC 5288 §3)",
        "recordKeys.fixedIVLength.cbc": "a fixed IV of {have} bytes does not fit AES-CBC: TLS 1.0 chains from a 16-byte IV out of the key block (RFC 2246 §6.3), TLS 1.1 and later send each record's IV (RFC 5246 §6.2.3.2)",
        "recordKeys.gcmExplicitNonceLength": "a GCM nonce_explicit is {need} bytes, not {have} (RFC 5288 §3)",
        "recordKeys.cbcExplicitIVLength": "a CBC explicit IV is one {need}-byte block, not {have} bytes (RFC 5246 §6.2.3.2)",
        "recordKeys.explicitIVInTLS10": "TLS 1.0 chains CBC IVs, so there is no explicit IV to give (RFC 2246 §6.2.3.2; that predictable IV is what BEAST exploited)",
        "recordKeys.cipherRefusedKey.aead": "AES-GCM refused the key or nonce",
        "recordKeys.cipherRefusedKey.cbc": "AES-CBC refused the key or IV",
        "malformed.zeroLengthFragment": "an empty {type} record: RFC 5246 §6.2.1 says implementations “MUST NOT send zero-length fragments of Handshake, Alert, or ChangeCipherSpec content types” (only application data may be empty, against traffic analysis), so every such record carries part of a message",
        "malformed.recordMajorVersion": "major version {major}, not 3: the bytes are not a TLS record (TLS 1.0 to 1.2 are 3.1 to 3.3, RFC 5246 Appendix E), so they are not read as one",
        "malformed.changeCipherSpecValue": "value {value}; RFC 5246 §7.1 defines only change_cipher_spec(1)",
        "malformed.unknownServerNameType": "name_type {type}: RFC 6066 §3 defines only host_name(0), and a name's encoding depends on its type, so the rest cannot be read",
        "malformed.serverProtocolNameCount": "the ServerHello's ALPN answer names {count} protocols; RFC 7301 §3.1 says it “MUST contain exactly one ProtocolName”, the one the server chose",
        "malformed.sslv2MessageType": "msg_type {type} is not CLIENT-HELLO (1), the only SSL 2.0 message a TLS server accepts (RFC 5246 Appendix E.2)",
        "malformed.ticketStateFlags": "the ticket's flags are {ems} and {etm}, not 0 or 1 (TLSLab's ticket state, after RFC 5077 §4's recommended layout)",
        "illegal.noTLSCipherSuiteInSSLv2Hello": "every cipher spec is an SSL 2.0 one and none a TLS suite (RFC 5246 Appendix E.2: TLS suites follow a zero byte); SSL 2.0 itself is never negotiated (RFC 6176)",
        "illegal.duplicateKeyShareGroup": "two key_share entries for the same group: RFC 8446 §4.2.8 allows one share per group, so the server cannot be left to guess which one the client means",
        "illegal.curveTypeNotNamed": "curve_type {type}, not named_curve: RFC 8422 §5.4 deprecates explicit curves, so a server cannot make the client compute on a curve of its own choosing",
        "needsKeyExchange.notKnownYet": "its body depends on the key exchange, which no cipher suite has fixed yet (RFC 5246 §7.4.3, §7.4.7)",
        "needsKeyExchange.rsaHasNoServerKeyExchange": "RSA key transport has no ServerKeyExchange: RFC 5246 §7.4.3 says “It is not legal to send the ServerKeyExchange message for the following key exchange methods: RSA, DH_DSS, DH_RSA”; a client that took one could be led to encrypt to a weak temporary key (FREAK, 2015)",
        "dhPublicValue.atMostOne": "the value is 0 or 1, and RFC 7919 §5.1 requires 1 < y < p-1: the shared secret would be 0 or 1 whatever the private exponent, known to anyone",
        "dhPublicValue.atLeastPMinusOne": "the value is p-1 or larger, and RFC 7919 §5.1 requires 1 < y < p-1: (p-1)^x is 1 or p-1, a secret anyone can guess, and a value of p or more is not a number modulo p at all",
        "dhPublicValue.longerThanPrime": "the value has {bytes} bytes, more than p's {limit} (RFC 5246 §7.4.3: dh_Ys is a number below p)",
        "dhPublicValue.notInPrimeOrderSubgroup": "the value is in range but outside the group's prime-order subgroup (y^q mod p ≠ 1, NIST SP 800-56A Rev. 3 §5.6.2.3.1): agreeing on it would reveal whether this side's private exponent is even (small-subgroup confinement, Lim and Lee 1997)",
        "ecdhPublicKey.wrongLength": "{have} bytes, where the curve's public key has {need} (RFC 8422 §5.4.1; 32 bytes for X25519, RFC 7748 §5)",
        "ecdhPublicKey.notUncompressed": "point format 0x{format}, not uncompressed (0x04): RFC 8422 §5.1.2 allows only the uncompressed form",
        "ecdhPublicKey.notOnCurve": "the point is not on the curve: RFC 8422 §5.11 requires checking the curve equation, or an invalid-curve attack recovers the private key from the answers",
        "ecdhPublicKey.lowOrder": "an X25519 key of low order makes the shared secret all zeros, which RFC 8422 §5.11 (after RFC 7748 §6.1) requires refusing: anyone would know that secret",
        "countermeasure.notPKCS1Block": "the ciphertext does not decrypt to a PKCS #1 v1.5 block",
        "countermeasure.wrongLength": "the decrypted premaster is {length} bytes, not 48",
        "countermeasure.versionMismatch": "the premaster's version is {found} ({foundName}), the ClientHello offered {offered} ({offeredName})",
    ]
}
