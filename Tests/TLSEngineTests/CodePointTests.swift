import Testing
@testable import TLSEngine

@Suite("Code points and cipher-suite metadata")
struct CodePointTests {
    @Test("unknown values round-trip and print as unknown(0x…)")
    func unknown() throws {
        let suite = CipherSuite(rawValue: 0x1234)
        #expect(suite.description == "unknown(0x1234)")
        #expect(try CipherSuite(decoding: suite.encoded) == suite)
        #expect(ExtensionType(rawValue: 0xfe0d).description == "unknown(0xfe0d)")
        #expect(ContentType(rawValue: 0x42).description == "unknown(0x42)")
        #expect(NamedGroup(rawValue: 0x11ec).description == "unknown(0x11ec)")
    }

    /// RFC 8701 §2: 0x?A?A (both high nibbles equal) in the 16-bit registries it names; a dissection
    /// records an unnamed value as a number, never as words.
    @Test("GREASE values are told apart; unnamed values are recorded as numbers")
    func grease() {
        let greased = (0 ... 15).map { UInt32($0 << 12 | 0x0a00 | $0 << 4 | 0x0a) }
        #expect(greased.first == 0x0a0a && greased.last == 0xfafa)
        for registry in [CodePointRegistry.cipherSuite, .extensionType, .namedGroup, .signatureScheme, .protocolVersion] {
            #expect(greased.allSatisfy(registry.isGREASE), "\(registry)")
            #expect(![0x0a1a, 0x1a0a, 0x0a0b, 0x00d4, 0xabab, 0x0a0a0a].contains(where: registry.isGREASE), "\(registry)")
        }
        #expect(!CodePointRegistry.contentType.isGREASE(0x0a0a) && !CodePointRegistry.alertDescription.isGREASE(0x0a))
        #expect(FieldValue.codePoint(CipherSuite(rawValue: 0x00d4)) == .unnamed(UnnamedNumber(registry: .cipherSuite, number: 0xd4, shown: "0x00d4")))
        #expect(FieldValue.codePoint(NamedGroup.x25519) == .text("x25519 (0x001d)"))
        #expect(FieldValue.codePointLabel(ContentType(rawValue: 0x42)) == .unnamed(UnnamedNumber(registry: .contentType, number: 0x42, shown: "0x42")))
        #expect(UnnamedNumber(ExtensionType(rawValue: 0x2a2a)).isGREASE && !UnnamedNumber(ExtensionType(rawValue: 0x2a2b)).isGREASE)
    }

    @Test("protocol versions have their names")
    func versions() {
        #expect(ProtocolVersion.ssl30.description == "SSL 3.0")
        #expect(ProtocolVersion.tls10.description == "TLS 1.0")
        #expect(ProtocolVersion.tls11.description == "TLS 1.1")
        #expect(ProtocolVersion.tls12.description == "TLS 1.2")
        #expect(ProtocolVersion(major: 3, minor: 3) == .tls12)
        #expect(ProtocolVersion.tls12.encoded == [3, 3])
        #expect(ProtocolVersion.ssl30 < .tls12)
    }

    /// RFC 5246 §7.2 (plus RFC 7507, RFC 6066, RFC 7301 and RFC 8446 §6 additions), value and name.
    @Test("every RFC 5246 alert description is named")
    func alerts() {
        let rfc: [(UInt8, String)] = [
            (0, "close_notify"), (10, "unexpected_message"), (20, "bad_record_mac"),
            (21, "decryption_failed_RESERVED"), (22, "record_overflow"), (30, "decompression_failure"),
            (40, "handshake_failure"), (41, "no_certificate_RESERVED"), (42, "bad_certificate"),
            (43, "unsupported_certificate"), (44, "certificate_revoked"), (45, "certificate_expired"),
            (46, "certificate_unknown"), (47, "illegal_parameter"), (48, "unknown_ca"), (49, "access_denied"),
            (50, "decode_error"), (51, "decrypt_error"), (60, "export_restriction_RESERVED"),
            (70, "protocol_version"), (71, "insufficient_security"), (80, "internal_error"),
            (86, "inappropriate_fallback"), (90, "user_canceled"), (100, "no_renegotiation"),
            (110, "unsupported_extension"), (112, "unrecognized_name"), (120, "no_application_protocol"),
            (109, "missing_extension"), (113, "bad_certificate_status_response"), (115, "unknown_psk_identity"),
            (116, "certificate_required"),
        ]
        for (value, name) in rfc {
            #expect(AlertDescription(rawValue: value).name == name)
        }
        #expect(AlertDescription.names.count == rfc.count)
    }

    @Test("IANA names of the implemented suites and their parameters")
    func suites() throws {
        let expected: [(CipherSuite, UInt16, String, KeyExchangeAlgorithm, BulkCipher, MACAlgorithm, PRFHash, Int)] = [
            (.TLS_RSA_WITH_AES_128_CBC_SHA, 0x002f, "TLS_RSA_WITH_AES_128_CBC_SHA", .rsa, .aes128CBC, .hmacSHA1, .sha256, 72),
            (.TLS_RSA_WITH_AES_128_GCM_SHA256, 0x009c, "TLS_RSA_WITH_AES_128_GCM_SHA256", .rsa, .aes128GCM, .none, .sha256, 40),
            (.TLS_RSA_WITH_AES_256_GCM_SHA384, 0x009d, "TLS_RSA_WITH_AES_256_GCM_SHA384", .rsa, .aes256GCM, .none, .sha384, 72),
            (.TLS_DHE_RSA_WITH_AES_128_GCM_SHA256, 0x009e, "TLS_DHE_RSA_WITH_AES_128_GCM_SHA256", .dheRSA, .aes128GCM, .none, .sha256, 40),
            (.TLS_DHE_RSA_WITH_AES_128_CBC_SHA256, 0x0067, "TLS_DHE_RSA_WITH_AES_128_CBC_SHA256", .dheRSA, .aes128CBC, .hmacSHA256, .sha256, 96),
            (.TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256, 0xc02f, "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256", .ecdheRSA, .aes128GCM, .none, .sha256, 40),
            (.TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384, 0xc030, "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384", .ecdheRSA, .aes256GCM, .none, .sha384, 72),
        ]
        // Beyond the default offer: key blocks are 2 × (MAC key + AES key), RFC 5246 §6.3.
        let cbc: [(CipherSuite, UInt16, String, KeyExchangeAlgorithm, BulkCipher, MACAlgorithm, PRFHash, Int)] = [
            (.TLS_DHE_RSA_WITH_AES_128_CBC_SHA, 0x0033, "TLS_DHE_RSA_WITH_AES_128_CBC_SHA", .dheRSA, .aes128CBC, .hmacSHA1, .sha256, 72),
            (.TLS_RSA_WITH_AES_256_CBC_SHA, 0x0035, "TLS_RSA_WITH_AES_256_CBC_SHA", .rsa, .aes256CBC, .hmacSHA1, .sha256, 104),
            (.TLS_DHE_RSA_WITH_AES_256_CBC_SHA, 0x0039, "TLS_DHE_RSA_WITH_AES_256_CBC_SHA", .dheRSA, .aes256CBC, .hmacSHA1, .sha256, 104),
            (.TLS_RSA_WITH_AES_128_CBC_SHA256, 0x003c, "TLS_RSA_WITH_AES_128_CBC_SHA256", .rsa, .aes128CBC, .hmacSHA256, .sha256, 96),
            (.TLS_RSA_WITH_AES_256_CBC_SHA256, 0x003d, "TLS_RSA_WITH_AES_256_CBC_SHA256", .rsa, .aes256CBC, .hmacSHA256, .sha256, 128),
            (.TLS_DHE_RSA_WITH_AES_256_CBC_SHA256, 0x006b, "TLS_DHE_RSA_WITH_AES_256_CBC_SHA256", .dheRSA, .aes256CBC, .hmacSHA256, .sha256, 128),
            (.TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA, 0xc013, "TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA", .ecdheRSA, .aes128CBC, .hmacSHA1, .sha256, 72),
            (.TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA, 0xc014, "TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA", .ecdheRSA, .aes256CBC, .hmacSHA1, .sha256, 104),
            (.TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256, 0xc027, "TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256", .ecdheRSA, .aes128CBC, .hmacSHA256, .sha256, 96),
            (.TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA384, 0xc028, "TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA384", .ecdheRSA, .aes256CBC, .hmacSHA384, .sha384, 160),
        ]
        // ECDSA-authenticated (RFC 8422 §6, RFC 5289 §3.2): offered and accepted only when asked for.
        let ecdsa: [(CipherSuite, UInt16, String, KeyExchangeAlgorithm, BulkCipher, MACAlgorithm, PRFHash, Int)] = [
            (.TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256, 0xc02b, "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256", .ecdheECDSA, .aes128GCM, .none, .sha256, 40),
            (.TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384, 0xc02c, "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384", .ecdheECDSA, .aes256GCM, .none, .sha384, 72),
            (.TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256, 0xcca9, "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256", .ecdheECDSA, .chaCha20Poly1305, .none, .sha256, 88),
            (.TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA256, 0xc023, "TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA256", .ecdheECDSA, .aes128CBC, .hmacSHA256, .sha256, 96),
            (.TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA384, 0xc024, "TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA384", .ecdheECDSA, .aes256CBC, .hmacSHA384, .sha384, 160),
            (.TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA, 0xc009, "TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA", .ecdheECDSA, .aes128CBC, .hmacSHA1, .sha256, 72),
            (.TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA, 0xc00a, "TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA", .ecdheECDSA, .aes256CBC, .hmacSHA1, .sha256, 104),
        ]
        // RFC 7905 ChaCha20-Poly1305 (88-byte key block: two 32-byte keys, two 12-byte IVs) and RFC 5288
        // AES-256-GCM with DHE (the SHA-384 PRF), beyond the default offer.
        let aead: [(CipherSuite, UInt16, String, KeyExchangeAlgorithm, BulkCipher, MACAlgorithm, PRFHash, Int)] = [
            (.TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256, 0xcca8, "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256", .ecdheRSA, .chaCha20Poly1305, .none, .sha256, 88),
            (.TLS_DHE_RSA_WITH_AES_256_GCM_SHA384, 0x009f, "TLS_DHE_RSA_WITH_AES_256_GCM_SHA384", .dheRSA, .aes256GCM, .none, .sha384, 72),
            (.TLS_DHE_RSA_WITH_CHACHA20_POLY1305_SHA256, 0xccaa, "TLS_DHE_RSA_WITH_CHACHA20_POLY1305_SHA256", .dheRSA, .chaCha20Poly1305, .none, .sha256, 88),
        ]
        #expect(CipherSuite.additionalAEAD.map(\.rawValue) == aead.map(\.1))
        #expect(Set(CipherSuite.additionalCBC) == Set(cbc.map(\.0)))
        #expect(CipherSuite.allImplemented == CipherSuite.implemented + CipherSuite.additionalAEAD + CipherSuite.additionalCBC)
        #expect(CipherSuite.implementedECDSA.map(\.rawValue) == ecdsa.map(\.1))
        #expect(CipherSuite.allImplementedWithECDSA == CipherSuite.implementedECDSA + CipherSuite.allImplemented)
        #expect(CipherSuite.offerWithECDSA == Array(CipherSuite.implementedECDSA.prefix(2)) + CipherSuite.implemented)
        for (suite, raw, name, kx, cipher, mac, prf, keyBlock) in cbc + ecdsa + aead {
            #expect(suite.rawValue == raw && suite.description == name)
            let p = try #require(suite.parameters)
            #expect(p.keyExchange == kx && p.cipher == cipher && p.mac == mac && p.prfHash == prf, "\(name)")
            #expect(p.keyBlockLength() == keyBlock, "\(name)")
        }
        for (suite, raw, name, kx, cipher, mac, prf, keyBlock) in expected {
            #expect(suite.rawValue == raw)
            #expect(suite.description == name)
            let p = try #require(suite.parameters)
            #expect(p.keyExchange == kx && p.cipher == cipher && p.mac == mac && p.prfHash == prf)
            #expect(p.isAEAD == cipher.isAEAD)
            #expect(p.isForwardSecret == (kx != .rsa))
            // The vector's AES-128-GCM key block is 40 bytes and AES-128-CBC-SHA256's is 96.
            #expect(p.keyBlockLength() == keyBlock, "\(name)")
            #expect(p.verifyDataLength == 12)
        }
        #expect(Set(CipherSuite.implemented) == Set(expected.map(\.0)))
        #expect(CipherSuite(rawValue: 0x1303).description == "TLS_CHACHA20_POLY1305_SHA256")
        #expect(CipherSuite(rawValue: 0x1303).parameters == nil, "a TLS 1.3 suite is named, not implemented")
        #expect(CipherSuite.TLS_EMPTY_RENEGOTIATION_INFO_SCSV.isSignalingValue)
        // TLS 1.0 CBC takes its first IV from the key block (RFC 2246 §6.3).
        #expect(CipherSuite.TLS_RSA_WITH_AES_128_CBC_SHA.parameters?.keyBlockLength(version: .tls10) == 104)
    }

    @Test("SignatureScheme and SignatureAndHashAlgorithm are two readings of the same bytes")
    func signatureSchemes() throws {
        #expect(SignatureScheme.rsaPKCS1SHA256.hashAndSignature == SignatureAndHashAlgorithm(hash: .sha256, signature: .rsa))
        #expect(SignatureScheme.rsaPSSRSAESHA256.hashAndSignature.hash == .intrinsic)
        #expect(SignatureScheme.rsaPSSRSAESHA256.description == "rsa_pss_rsae_sha256")
        #expect(SignatureScheme.rsaPSSRSAESHA256.isRSAPSS && !SignatureScheme.rsaPSSRSAESHA256.isRSAPKCS1)
        #expect(SignatureScheme.rsaPKCS1SHA1.isRSAPKCS1)
        let pair = SignatureAndHashAlgorithm(hash: .sha384, signature: .rsa)
        #expect(pair.scheme == .rsaPKCS1SHA384)
        #expect(try SignatureAndHashAlgorithm(decoding: pair.encoded) == pair)
        #expect(pair.encoded == SignatureScheme.rsaPKCS1SHA384.encoded)
        // The wire code names the one hash function TLSLab computes with (TLSCrypto's HashAlgorithm).
        #expect(pair.hash.function == .sha384 && SignatureScheme.rsaPKCS1SHA1.hashAndSignature.hash.function == .sha1)
        #expect(SignatureScheme.rsaPSSRSAESHA256.hashAndSignature.hash.function == nil, "intrinsic: no separate hash byte")
        #expect(pair.hash.function.map { $0.digest([0x61]).count } == 48)
        for name in ["rsa_pkcs1_sha1", "rsa_pkcs1_sha256", "rsa_pkcs1_sha384", "rsa_pkcs1_sha512",
                     "rsa_pss_rsae_sha256", "rsa_pss_rsae_sha384", "rsa_pss_rsae_sha512",
                     "ecdsa_secp256r1_sha256", "ecdsa_secp384r1_sha384", "ed25519"] {
            #expect(SignatureScheme.names.values.contains(name), "\(name)")
        }
    }

    @Test("named groups and other registries")
    func registries() {
        #expect(NamedGroup.x25519.rawValue == 29 && NamedGroup.secp256r1.rawValue == 23 && NamedGroup.secp384r1.rawValue == 24)
        #expect(NamedGroup.ffdhe2048.rawValue == 256 && NamedGroup.ffdhe3072.rawValue == 257 && NamedGroup.ffdhe4096.rawValue == 258)
        #expect(NamedGroup.ffdhe3072.isFiniteField && !NamedGroup.x25519.isFiniteField)
        #expect(ExtensionType.renegotiationInfo.rawValue == 0xff01 && ExtensionType.extendedMasterSecret.rawValue == 23)
        #expect(HandshakeType.clientKeyExchange.description == "client_key_exchange")
        #expect(ContentType.applicationData.description == "application_data")
        #expect(ECPointFormat.uncompressed.description == "uncompressed")
    }

    @Test("errors map to the RFC's alerts")
    func alertMapping() {
        #expect(DecodeError.truncated(field: "x", needed: 2, available: 1).alert == .decodeError)
        #expect(DecodeError.trailingBytes(field: "x", count: 1).alert == .decodeError)
        #expect(DecodeError.lengthOutOfRange(field: "x", length: 0, min: 1, max: 2).alert == .decodeError)
        #expect(DecodeError.illegalParameter(field: "x", reason: .noTLSCipherSuiteInSSLv2Hello).alert == .illegalParameter)
        #expect(DecodeError.duplicateExtension(.serverName).alert == .illegalParameter)
        #expect(DecodeError.recordOverflow(length: 1, limit: 0).alert == .recordOverflow)
        #expect(DecodeError.unexpectedContentType(0).alert == .unexpectedMessage)
    }
}
