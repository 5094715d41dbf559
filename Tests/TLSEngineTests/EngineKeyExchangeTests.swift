import Foundation
import Testing
import TLSCrypto
@testable import TLSEngine

/// Key-exchange rules: the client checks the server's (EC)DHE values even under a valid signature,
/// a bad signature is decrypt_error, and a corrupted RSA premaster takes the countermeasure.
@Suite("Engine key exchange")
struct EngineKeyExchangeTests {
    /// The server's first flight with its ServerKeyExchange parameters replaced and re-signed with
    /// the real server key (so only the value check can catch them).
    static func clientReceivingResigned(suite: CipherSuite, clientGroups: [NamedGroup] = [.x25519, .secp256r1],
                                        resign: Bool = true,
                                        _ change: (ServerKeyExchange.Params) -> ServerKeyExchange.Params) throws -> TLSStep {
        var config = try Harness.clientConfiguration(seed: 21, suites: [suite])
        config.supportedGroups = clientGroups
        var client = TLSClient(configuration: config)
        var server = TLSServer(configuration: try Harness.serverConfiguration(seed: 21))
        let hello = client.start()
        let flight = server.receive(hello.output)
        var clientRandom: [UInt8] = [], serverRandom: [UInt8] = []
        for case .handshakeSent(.clientHello(let ch), _) in hello.events { clientRandom = ch.random.bytes }
        var bytes: [UInt8] = []
        for case .handshakeSent(let message, let encoded) in flight.events {
            switch message {
            case .serverHello(let sh):
                serverRandom = sh.random.bytes
                bytes += encoded
            case .serverKeyExchange(let ske):
                let params = change(ske.params)
                var w = ByteWriter()
                params.encode(to: &w)
                let scheme = try #require(ske.signedParams.algorithm)
                let signature = resign
                    ? try SignatureSchemes.sign(clientRandom + serverRandom + w.bytes, scheme: scheme,
                                                key: try #require(EngineFixtures.serverKey), random: HMACDRBG(seed: 1))
                    : ske.signedParams.signature
                bytes += HandshakeMessage.serverKeyExchange(ServerKeyExchange(
                    params: params, signedParams: DigitallySigned(algorithm: scheme, signature: signature))).encoded
            default:
                bytes += encoded
            }
        }
        return client.receive(TLSRecord(contentType: .handshake, fragment: bytes).encoded)
    }

    static func alert(_ step: TLSStep) -> AlertDescription? {
        for case .alertSent(let a, _) in step.events where a.isFatal { return a.alertDescription }
        return nil
    }

    @Test("DHE: Ys of 1, p-1 or ≥ p or outside the subgroup, or g outside 1 < g < p-1 → illegal_parameter; a small p → handshake_failure")
    func dheValues() throws {
        let suite = CipherSuite.TLS_DHE_RSA_WITH_AES_128_GCM_SHA256
        let p = DHGroup.modp2048.p
        for ys in [BigInt.one, p - .one, p, p + .one] {
            let step = try Self.clientReceivingResigned(suite: suite) { params in
                guard case .dhe(var dh) = params else { return params }
                dh.ys = ys.bigEndianBytes
                return .dhe(dh)
            }
            #expect(Self.alert(step) == .illegalParameter, "Ys = \(ys)")
        }
        // In range but outside the prime-order subgroup: p − Ys has order 2q (−1 is not a square
        // modulo a safe prime p ≡ 7 mod 8), so Ys^q ≠ 1 — OpenSSL's client refuses it (SSL_R_BAD_DH_VALUE).
        let negated = try Self.clientReceivingResigned(suite: suite) { params in
            guard case .dhe(var dh) = params else { return params }
            dh.ys = (p - BigInt(bigEndian: dh.ys)).bigEndianBytes
            return .dhe(dh)
        }
        #expect(Self.alert(negated) == .illegalParameter)
        #expect(Self.misbehaved(negated) == .invalidDHPublicValue(inServerKeyExchange: true, reason: .notInPrimeOrderSubgroup),
                "\(String(describing: Self.misbehaved(negated)))")
        // g must be a generator candidate: 0, 1, p-1 and p are refused before the public value.
        for g in [BigInt.zero, .one, p - .one, p] {
            let step = try Self.clientReceivingResigned(suite: suite) { params in
                guard case .dhe(var dh) = params else { return params }
                dh.g = g == .zero ? [0] : g.bigEndianBytes
                return .dhe(dh)
            }
            #expect(Self.alert(step) == .illegalParameter, "g = \(g)")
            #expect(Self.misbehaved(step) == .dhGeneratorOutOfRange, "g = \(g)")
        }
        // A 512-bit prime, below the client's 1024-bit minimum: OpenSSL's client refuses it with
        // handshake_failure (SSL_R_DH_KEY_TOO_SMALL in tls_process_ske_dhe), and so does ours.
        let small = try BigInt.randomPrime(bits: 512, using: HMACDRBG(seed: 5))
        let step = try Self.clientReceivingResigned(suite: suite) { params in
            .dhe(ServerDHParams(p: small.bigEndianBytes, g: [2], ys: [4]))
        }
        #expect(Self.alert(step) == .handshakeFailure)
        guard case .failure(.peerIncompatible(.dhPrimeTooSmall(bits: let bits, minimum: 1024)))? = Self.cause(step) else {
            Issue.record("\(String(describing: Self.cause(step)))")
            return
        }
        #expect(bits < 1024)
    }

    static func cause(_ step: TLSStep) -> AlertCause? {
        for case .alertSent(let a, let cause) in step.events where a.isFatal { return cause }
        return nil
    }

    /// The rule the peer broke, when the fatal alert answers one.
    static func misbehaved(_ step: TLSStep) -> PeerMisbehaved? {
        if case .failure(.peerMisbehaved(let reason))? = cause(step) { return reason }
        return nil
    }

    /// The server receives the client's flight with its ClientKeyExchange replaced.
    static func serverReceiving(_ replacement: ClientKeyExchange, suite: CipherSuite,
                                clientGroups: [NamedGroup] = [.x25519, .secp256r1]) throws -> TLSStep {
        var config = try Harness.clientConfiguration(seed: 25, suites: [suite])
        config.supportedGroups = clientGroups
        var client = TLSClient(configuration: config)
        var server = TLSServer(configuration: try Harness.serverConfiguration(seed: 25))
        let flight = client.receive(server.receive(client.start().output).output)
        var bytes: [UInt8] = []
        for case .handshakeSent(let message, let encoded) in flight.events {
            bytes += message.type == .clientKeyExchange ? HandshakeMessage.clientKeyExchange(replacement).encoded : encoded
            if message.type == .clientKeyExchange { break }
        }
        return server.receive(TLSRecord(contentType: .handshake, fragment: bytes).encoded)
    }

    @Test("server: a bad dh_Yc (0, 1, p-1, p, or outside the prime-order subgroup) → illegal_parameter")
    func badClientDHValue() throws {
        let p = DHGroup.modp2048.p
        for yc in [BigInt.zero, .one, p - .one, p] {
            let step = try Self.serverReceiving(.dhe(yc: yc == .zero ? [0] : yc.bigEndianBytes),
                                                suite: .TLS_DHE_RSA_WITH_AES_128_GCM_SHA256)
            #expect(Self.alert(step) == .illegalParameter, "Yc = \(yc)")
            guard case .invalidDHPublicValue(inServerKeyExchange: false, reason: _)? = Self.misbehaved(step) else {
                Issue.record("Yc = \(yc): \(String(describing: Self.cause(step)))")
                continue
            }
        }
        // p − 2 is in range but not a square mod p (p ≡ 7 mod 8): outside the subgroup of order q.
        let outside = try Self.serverReceiving(.dhe(yc: (p - BigInt(2)).bigEndianBytes), suite: .TLS_DHE_RSA_WITH_AES_128_GCM_SHA256)
        #expect(Self.alert(outside) == .illegalParameter)
        #expect(Self.misbehaved(outside) == .invalidDHPublicValue(inServerKeyExchange: false, reason: .notInPrimeOrderSubgroup),
                "\(String(describing: Self.cause(outside)))")
    }

    @Test("server: a client ECDHE point off the curve, of the wrong size or of low order → illegal_parameter")
    func badClientECPoint() throws {
        let suite = CipherSuite.TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256
        let offCurve = try Self.serverReceiving(.ecdhe(point: [4] + [UInt8](repeating: 1, count: 64)), suite: suite,
                                                clientGroups: [.secp256r1])
        #expect(Self.alert(offCurve) == .illegalParameter)
        let compressed = try Self.serverReceiving(.ecdhe(point: [2] + [UInt8](repeating: 1, count: 32)), suite: suite,
                                                  clientGroups: [.secp256r1])
        #expect(Self.alert(compressed) == .illegalParameter)
        let short = try Self.serverReceiving(.ecdhe(point: [UInt8](repeating: 9, count: 31)), suite: suite,
                                             clientGroups: [.x25519])
        #expect(Self.alert(short) == .illegalParameter)
        // RFC 7748 §6.1: the all-zero point gives an all-zero shared secret, which is refused.
        let lowOrder = try Self.serverReceiving(.ecdhe(point: [UInt8](repeating: 0, count: 32)), suite: suite,
                                                clientGroups: [.x25519])
        #expect(Self.alert(lowOrder) == .illegalParameter)
        for step in [offCurve, compressed, short, lowOrder] {
            guard case .invalidECDHPublicKey(inServerKeyExchange: false, reason: _)? = Self.misbehaved(step) else {
                Issue.record("\(String(describing: Self.cause(step)))")
                continue
            }
        }
    }

    @Test("a ServerKeyExchange whose parameters changed after signing → decrypt_error")
    func badSignature() throws {
        for suite in [CipherSuite.TLS_DHE_RSA_WITH_AES_128_GCM_SHA256, .TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256] {
            let step = try Self.clientReceivingResigned(suite: suite, resign: false) { params in
                switch params {
                case .dhe(var dh): dh.ys[5] ^= 1; return .dhe(dh)
                case .ecdhe(var ec): ec.point[5] ^= 1; return .ecdhe(ec)
                }
            }
            #expect(Self.alert(step) == .decryptError, "\(suite)")
        }
    }

    @Test("ECDHE: a curve the client did not offer, or a point off the curve → illegal_parameter")
    func ecdheValues() throws {
        let suite = CipherSuite.TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256
        let other = try Self.clientReceivingResigned(suite: suite, clientGroups: [.x25519]) { _ in
            .ecdhe(ServerECDHParams(namedGroup: .secp256r1, point: [4] + [UInt8](repeating: 1, count: 64)))
        }
        #expect(Self.alert(other) == .illegalParameter)
        let offCurve = try Self.clientReceivingResigned(suite: suite, clientGroups: [.secp256r1]) { _ in
            .ecdhe(ServerECDHParams(namedGroup: .secp256r1, point: [4] + [UInt8](repeating: 1, count: 64)))
        }
        #expect(Self.alert(offCurve) == .illegalParameter)
    }

    @Test("ffdhe2048 is selectable; the client recognises the group")
    func ffdhe2048() throws {
        var server = try Harness.serverConfiguration(seed: 22)
        server.dhGroup = .ffdhe2048
        let run = Harness.run(client: try Harness.clientConfiguration(seed: 22, suites: [.TLS_DHE_RSA_WITH_AES_128_CBC_SHA256]),
                              server: server)
        #expect(run.outcome == .connected)
        let groups = run.clientEvents.compactMap { e -> String? in
            if case .derived(.dhAgreement(_, _, let group, _, _, _, _)) = e { return group } else { return nil }
        }
        #expect(groups == ["ffdhe2048"])
    }

    @Test("DHE exponent size: 256 bits by default, full size when configured, on each side independently")
    func dheExponentSize() throws {
        func exponentBits(serverSize: DHKeyPair.ExponentSize?, clientSize: DHKeyPair.ExponentSize?) throws -> (server: Int, client: Int) {
            var server = try Harness.serverConfiguration(seed: 25)
            server.dhGroup = .ffdhe2048
            if let serverSize { server.dhExponentSize = serverSize }
            var client = try Harness.clientConfiguration(seed: 25, suites: [.TLS_DHE_RSA_WITH_AES_128_GCM_SHA256])
            if let clientSize { client.dhExponentSize = clientSize }
            let run = Harness.run(client: client, server: server)
            #expect(run.outcome == .connected)
            func bits(_ events: [TLSEvent]) throws -> Int {
                let exponents = events.compactMap { e -> [UInt8]? in
                    if case .derived(.dhAgreement(_, _, _, let x, _, _, _)) = e { return x } else { return nil }
                }
                return BigInt(bigEndian: try #require(exponents.first)).bitWidth
            }
            return (try bits(run.serverEvents), try bits(run.clientEvents))
        }
        let defaults = try exponentBits(serverSize: nil, clientSize: nil)
        #expect(defaults.server <= 256 && defaults.server > 200 && defaults.client <= 256 && defaults.client > 200)
        // Full size: uniform below p − 1, so (with overwhelming probability) far above 256 bits.
        let full = try exponentBits(serverSize: .full, clientSize: .full)
        #expect(full.server > 2000 && full.client > 2000)
        let mixed = try exponentBits(serverSize: .full, clientSize: nil)
        #expect(mixed.server > 2000 && mixed.client <= 256)
    }

    @Test("RSA: a corrupted encrypted premaster → countermeasure event, handshake fails only at Finished")
    func rsaCountermeasure() throws {
        for bit in [0, 800, 2047] {
            let run = Harness.run(client: try Harness.clientConfiguration(seed: 23, suites: [.TLS_RSA_WITH_AES_128_GCM_SHA256]),
                                  server: try Harness.serverConfiguration(seed: 23),
                                  flip: BitFlip(flow: .clientToServer, index: 1, bit: 6 * 8 + bit), exchangeData: false)
            #expect(run.outcome == .failed(sender: .server, alert: .badRecordMAC), "bit \(bit): \(run.outcome)")
            let applied = run.serverEvents.contains { if case .countermeasureApplied = $0 { return true } else { return false } }
            #expect(applied, "bit \(bit)")
        }
        // The client's view of the padded block: 00 02, nonzero padding, 00, then 03 03 ‖ 46 bytes.
        let run = Harness.run(client: try Harness.clientConfiguration(seed: 24, suites: [.TLS_RSA_WITH_AES_128_GCM_SHA256]),
                              server: try Harness.serverConfiguration(seed: 24))
        for case .derived(.rsaPreMasterEncryption(let pre, let em, let c, let bits, let n, let e)) in run.clientEvents {
            #expect(bits == 2048 && c.count == 256 && em.count == 256)
            // The key it was raised with is the server certificate's (RFC 8017 §5.1.1: c = EM^e mod n).
            #expect(n.count == 256 && n.first.map { $0 >= 0x80 } == true && e == [0x01, 0x00, 0x01])
            #expect(em.prefix(2) == [0, 2] && em[em.count - 49] == 0 && !em[2..<(em.count - 49)].contains(0))
            #expect(Array(em.suffix(48)) == pre && pre.prefix(2) == [3, 3])
        }
        let decrypted = run.serverEvents.compactMap { e -> [UInt8]? in
            if case .derived(.rsaPreMasterDecryption(_, let d, _)) = e { return d } else { return nil }
        }
        #expect(decrypted.count == 1)
        #expect(!run.serverEvents.contains { if case .countermeasureApplied = $0 { return true } else { return false } })
    }
}

/// RFC 5246 §7.4.7.1's version check, and RSA-PSS signatures inside a whole handshake.
@Suite("Engine key exchange: RSA version check and PSS")
struct EngineRSAVersionAndPSSTests {
    static func handshakeBytes(_ step: TLSStep) -> [[UInt8]] {
        step.events.compactMap { if case .handshakeSent(_, let bytes) = $0 { return bytes } else { return nil } }
    }

    /// A client that offers TLS 1.2 (03 03) in its ClientHello but puts 03 01 in a correctly padded
    /// premaster, and keys its own ChangeCipherSpec and Finished with that premaster. Without the
    /// countermeasure the server would agree and connect; with it, the server goes on with a
    /// random premaster, says why, and only the Finished fails: bad_record_mac, because the
    /// server's read keys differ and the GCM tag of the encrypted Finished does not verify.
    @Test("RSA premaster with version 03 01 after a 03 03 ClientHello → countermeasure names it; bad_record_mac at Finished")
    func premasterVersionRollback() throws {
        let suite = CipherSuite.TLS_RSA_WITH_AES_128_GCM_SHA256
        var client = TLSClient(configuration: try Harness.clientConfiguration(seed: 26, suites: [suite]))
        var server = TLSServer(configuration: try Harness.serverConfiguration(seed: 26))
        let hello = client.start()
        let flight = server.receive(hello.output)
        var clientHello: ClientHello?
        for case .handshakeSent(.clientHello(let ch), _) in hello.events { clientHello = ch }
        let ch = try #require(clientHello)
        #expect(ch.clientVersion == .tls12)
        var serverRandom: [UInt8] = []
        for case .handshakeSent(.serverHello(let sh), _) in flight.events { serverRandom = sh.random.bytes }

        let preMaster: [UInt8] = [3, 1] + HMACDRBG(seed: 99).bytes(count: 46)
        let serverKey = try #require(EngineFixtures.serverKey)
        let encrypted = try serverKey.publicKey.encryptPKCS1v15(preMaster, using: HMACDRBG(seed: 98))
        #expect(try serverKey.decryptPKCS1v15(encrypted) == preMaster, "correctly padded")
        let cke = HandshakeMessage.clientKeyExchange(.rsa(encryptedPreMasterSecret: encrypted)).encoded

        // The rogue client's own view: same transcript, keys from the 03 01 premaster.
        var rogue = ConnectionContext(role: .client, random: HMACDRBG(seed: 97))
        rogue.clientRandom = ch.random.bytes
        rogue.serverRandom = serverRandom
        rogue.extendedMasterSecret = true
        try rogue.fix(suite: try #require(suite.parameters), version: .tls12)
        for m in Self.handshakeBytes(hello) + Self.handshakeBytes(flight) { rogue.transcript.append(m) }
        rogue.sendHandshake(.clientKeyExchange(.rsa(encryptedPreMasterSecret: encrypted)))
        try rogue.flush()
        let rogueSecret = try rogue.deriveMasterSecret(preMasterSecret: preMaster, suite: try #require(suite.parameters))
        try rogue.sendChangeCipherSpec(switchingTo: try rogue.deriveKeys(rogueSecret).write)
        try rogue.sendFinished(rogueSecret)
        let rogueStep = rogue.takeStep()
        #expect(rogueStep.records.first?.fragment == cke)

        // ClientKeyExchange alone: no alert yet, the countermeasure is recorded with the version.
        let afterKeyExchange = server.receive(rogueStep.records[0].encoded)
        #expect(afterKeyExchange.records.isEmpty)
        #expect(server.stateName == .expectChangeCipherSpec)
        let reasons = afterKeyExchange.events.compactMap { e -> PremasterDecryptionFault? in
            if case .countermeasureApplied(let reason) = e { return reason } else { return nil }
        }
        #expect(reasons == [.versionMismatch(found: .tls10, offered: .tls12)], "\(reasons)")
        for case .derived(.rsaPreMasterDecryption(_, let decrypted, let used)) in afterKeyExchange.events {
            #expect(decrypted == preMaster, "the block decrypted fine")
            // RFC 5246 §7.4.7.1: client_version ‖ M[2..47] — the decrypted bytes under the offered version.
            #expect(used == [3, 3] + preMaster.dropFirst(2), "the offered version in front of the decrypted bytes 2–47")
        }
        #expect(server.masterSecret != rogue.masterSecret)

        // ChangeCipherSpec and Finished: the Finished record does not open.
        let atFinished = server.receive(rogueStep.records.dropFirst().flatMap(\.encoded))
        #expect(EngineKeyExchangeTests.alert(atFinished) == .badRecordMAC)
        #expect(server.failureAlert == .fatal(.badRecordMAC))
    }

    /// The peer lists rsa_pss_rsae_sha256 first (as OpenSSL does): the server signs its
    /// ServerKeyExchange with PSS and the client its CertificateVerify, and each side verifies.
    @Test("rsa_pss_rsae_sha256 first: ServerKeyExchange and CertificateVerify are PSS, and verify",
          arguments: [CipherSuite.TLS_DHE_RSA_WITH_AES_128_GCM_SHA256, .TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256])
    func pss(_ suite: CipherSuite) throws {
        let pssFirst: [SignatureScheme] = [.rsaPSSRSAESHA256, .rsaPKCS1SHA256, .rsaPKCS1SHA384]
        var client = try Harness.clientConfiguration(seed: 27, suites: [suite])
        client.signatureAlgorithms = pssFirst
        client.identity = try Harness.clientIdentity()
        var server = try Harness.serverConfiguration(seed: 27)
        server.signatureAlgorithms = pssFirst
        server.clientAuthentication = .require
        let run = Harness.run(client: client, server: server)
        #expect(run.outcome == .connected)

        func signatures(_ events: [TLSEvent]) -> [SignatureTrace] {
            events.compactMap { if case .signature(let s) = $0 { return s } else { return nil } }
        }
        let serverKey = try #require(EngineFixtures.serverKey).publicKey
        let clientKey = try #require(EngineFixtures.clientKey).publicKey
        // Each signature is made by one side and checked by the other, all PSS and valid.
        for (events, checker) in [(run.clientEvents, TLSRole.client), (run.serverEvents, .server)] {
            let traces = signatures(events)
            #expect(traces.map(\.purpose) == [.serverKeyExchange, .certificateVerify], "\(checker)")
            for trace in traces {
                #expect(trace.scheme == .rsaPSSRSAESHA256 && trace.valid, "\(checker): \(trace.purpose)")
                let key = trace.signer == .server ? serverKey : clientKey
                #expect(key.verifyPSS(signature: trace.signature, message: trace.signedData, hash: .sha256, saltLength: 32))
                #expect(!key.verifyPKCS1v15(signature: trace.signature, message: trace.signedData, hash: .sha256))
            }
        }
        // On the wire: SignatureAndHashAlgorithm 08 04 in both messages.
        for case .handshakeSent(let message, _) in run.serverEvents + run.clientEvents {
            switch message {
            case .serverKeyExchange(let ske): #expect(ske.signedParams.algorithm == .rsaPSSRSAESHA256)
            case .certificateVerify(let cv): #expect(cv.signature.algorithm == .rsaPSSRSAESHA256)
            // The request lists the ECDSA schemes first (OpenSSL's order); the first RSA one is PSS.
            case .certificateRequest(let cr):
                #expect(cr.supportedSignatureAlgorithms?.first { $0.isRSAPKCS1 || $0.isRSAPSS } == .rsaPSSRSAESHA256)
            default: break
            }
        }
    }
}
