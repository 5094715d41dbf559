import Foundation
import Testing
import TLSCrypto
@testable import TLSEngine

/// Full handshakes client ↔ server in memory: every suite × one-way/mutual × EMS on/off.
@Suite("Engine handshakes")
struct EngineHandshakeTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var suite: CipherSuite
        var mutual: Bool
        var ems: Bool
        var testDescription: String { "\(suite) \(mutual ? "mutual" : "one-way") EMS \(ems ? "on" : "off")" }
    }

    static let cases: [Case] = CipherSuite.allImplemented.flatMap { suite in
        [false, true].flatMap { mutual in [false, true].map { Case(suite: suite, mutual: mutual, ems: $0) } }
    }

    @Test("full handshake, data both ways, close_notify", arguments: cases)
    func fullHandshake(_ c: Case) throws {
        var client = try Harness.clientConfiguration(seed: 7, suites: [c.suite])
        var server = try Harness.serverConfiguration(seed: 7)
        client.offerExtendedMasterSecret = c.ems
        if c.mutual {
            client.identity = try Harness.clientIdentity()
            server.clientAuthentication = .require
        }
        let run = Harness.run(client: client, server: server)
        #expect(run.outcome == .connected, "\(run.outcome)")
        #expect(run.client.negotiatedSuite == c.suite)
        #expect(run.server.negotiatedSuite == c.suite)
        #expect(run.client.negotiatedVersion == .tls12)
        #expect(run.client.usesExtendedMasterSecret == c.ems)
        #expect(run.server.usesExtendedMasterSecret == c.ems)
        #expect(run.client.masterSecret != nil)
        #expect(run.client.masterSecret == run.server.masterSecret)
        #expect(run.client.keyBlock == run.server.keyBlock)
        #expect(run.server.peerCertificateChain.first == (c.mutual ? EngineFixtures.clientCertificate : nil))
        #expect(String(decoding: run.serverReceived, as: UTF8.self).hasPrefix("GET / HTTP/1.1"))
        #expect(String(decoding: run.clientReceived, as: UTF8.self).hasSuffix("hi"))
        #expect(run.client.stateName == .closed)
        #expect(run.server.stateName == .closed)
        // The server's messages read like RFC 5246 §7.3.
        let serverTypes = run.messages.filter { $0.flow == .serverToClient }.map(\.type)
        var expected: [HandshakeType] = [.serverHello, .certificate]
        if c.suite.parameters?.keyExchange != .rsa { expected.append(.serverKeyExchange) }
        if c.mutual { expected.append(.certificateRequest) }
        expected += [.serverHelloDone, .finished]
        #expect(serverTypes == expected)
        let clientTypes = run.messages.filter { $0.flow == .clientToServer }.map(\.type)
        #expect(clientTypes == (c.mutual ? [.clientHello, .certificate, .clientKeyExchange, .certificateVerify, .finished]
                                          : [.clientHello, .clientKeyExchange, .finished]))
    }

    @Test("requested but absent client certificate: allowed with .request, handshake_failure with .require")
    func clientCertificateAbsent() throws {
        var server = try Harness.serverConfiguration(seed: 3)
        server.clientAuthentication = .request
        let ok = Harness.run(client: try Harness.clientConfiguration(seed: 3), server: server)
        #expect(ok.outcome == .connected)
        #expect(ok.messages.contains { $0.flow == .clientToServer && $0.type == .certificate })
        server.clientAuthentication = .require
        let refused = Harness.run(client: try Harness.clientConfiguration(seed: 3), server: server)
        #expect(refused.outcome == .failed(sender: .server, alert: .handshakeFailure))
        #expect(refused.client.failureAlert == .fatal(.handshakeFailure))
    }

    @Test("a client that cancels the client-certificate challenge ends the handshake with user_canceled")
    func clientCertificateChallengeCancelled() throws {
        var server = try Harness.serverConfiguration(seed: 3)
        server.clientAuthentication = .request
        var client = try Harness.clientConfiguration(seed: 3)
        client.cancelsCertificateRequest = true
        let cancelled = Harness.run(client: client, server: server)
        #expect(cancelled.outcome == .failed(sender: .client, alert: .userCanceled))
        #expect(!cancelled.messages.contains { $0.flow == .clientToServer && $0.type == .certificate })
        server.clientAuthentication = .none
        let unasked = Harness.run(client: client, server: server)
        #expect(unasked.outcome == .connected, "no CertificateRequest, no challenge to cancel")
    }

    @Test("a rejected server certificate ends the handshake with the evaluator's alert")
    func rejectedCertificate() throws {
        var client = try Harness.clientConfiguration(seed: 4)
        client.certificateEvaluator = FixtureEvaluator(leaf: EngineFixtures.caCertificate,
                                                       key: try #require(EngineFixtures.serverKey).publicKey)
        let run = Harness.run(client: client, server: try Harness.serverConfiguration(seed: 4))
        #expect(run.outcome == .failed(sender: .client, alert: .badCertificate))
        #expect(run.server.failureAlert == .fatal(.badCertificate))
    }

    @Test("TLS 1.0 and 1.1 when one side is limited; SSL 3.0 and too-old versions refused")
    func versions() throws {
        for version in [ProtocolVersion.tls10, .tls11] {
            var client = try Harness.clientConfiguration(seed: 5)
            client.minimumVersion = .tls10
            var server = try Harness.serverConfiguration(seed: 5)
            server.minimumVersion = .tls10
            server.maximumVersion = version
            let run = Harness.run(client: client, server: server)
            #expect(run.outcome == .connected, "\(version): \(run.outcome)")
            #expect(run.client.negotiatedVersion == version)
            #expect(run.client.negotiatedSuite == .TLS_RSA_WITH_AES_128_CBC_SHA)
            #expect(run.client.masterSecret == run.server.masterSecret)
            #expect(!run.serverReceived.isEmpty && !run.clientReceived.isEmpty)

            // The client limited to the old version, the server insisting on TLS 1.2 (the ATS lesson).
            var oldClient = try Harness.clientConfiguration(seed: 5)
            oldClient.minimumVersion = .tls10
            oldClient.maximumVersion = version
            let refused = Harness.run(client: oldClient, server: try Harness.serverConfiguration(seed: 5))
            #expect(refused.outcome == .failed(sender: .server, alert: .protocolVersion))

            // The server limited, the client insisting on TLS 1.2.
            var oldServer = try Harness.serverConfiguration(seed: 5)
            oldServer.minimumVersion = .tls10
            oldServer.maximumVersion = version
            let clientRefuses = Harness.run(client: try Harness.clientConfiguration(seed: 5), server: oldServer)
            #expect(clientRefuses.outcome == .failed(sender: .client, alert: .protocolVersion))
        }
        // An SSL 3.0 ClientHello.
        var server = TLSServer(configuration: try Harness.serverConfiguration(seed: 6))
        let hello = ClientHello(clientVersion: .ssl30, random: Random([UInt8](repeating: 1, count: 32)),
                                cipherSuites: [.TLS_RSA_WITH_AES_128_CBC_SHA])
        let step = server.receive(TLSRecord(contentType: .handshake, version: .ssl30,
                                            fragment: HandshakeMessage.clientHello(hello).encoded).encoded)
        #expect(server.failureAlert == .fatal(.protocolVersion))
        #expect(step.output == TLSRecord(contentType: .alert, version: .tls12, fragment: [2, 70]).encoded)
    }

    @Test("mutual TLS in TLS 1.0 and 1.1: CertificateVerify without algorithm, MD5 ‖ SHA-1 signature")
    func legacyMutualTLS() throws {
        for version in [ProtocolVersion.tls10, .tls11] {
            var client = try Harness.clientConfiguration(seed: 8)
            client.minimumVersion = .tls10
            client.maximumVersion = version
            client.identity = try Harness.clientIdentity()
            var server = try Harness.serverConfiguration(seed: 8)
            server.minimumVersion = .tls10
            server.clientAuthentication = .require
            let run = Harness.run(client: client, server: server)
            #expect(run.outcome == .connected, "\(version): \(run.outcome)")
            #expect(run.server.peerCertificateChain.first == EngineFixtures.clientCertificate)
            var verify: CertificateVerify?
            var verifyBytes: [UInt8] = []
            for case .handshakeSent(.certificateVerify(let cv), let bytes) in run.clientEvents { verify = cv; verifyBytes = bytes }
            let cv = try #require(verify)
            // RFC 4346 §7.4.8: no SignatureAndHashAlgorithm, just signature<0..2^16-1>.
            #expect(cv.signature.algorithm == nil)
            #expect(verifyBytes.count == 4 + 2 + 256 && verifyBytes[4...5] == [1, 0])
            let checked = run.serverEvents.compactMap { e -> SignatureTrace? in
                if case .signature(let s) = e, s.purpose == .certificateVerify { return s } else { return nil }
            }
            #expect(checked.count == 1 && checked.first?.valid == true && checked.first?.scheme == nil)
            // The signature opens to 00 01 FF…FF 00 ‖ MD5(messages) ‖ SHA-1(messages), no DigestInfo.
            let key = try #require(EngineFixtures.clientKey).publicKey
            let signed = try #require(checked.first).signedData
            let opened = try BigInt(bigEndian: cv.signature.signature).power(key.publicExponent, modulus: key.modulus)
                .bigEndianBytes(width: 256)
            let hashes = HashAlgorithm.md5.digest(signed) + HashAlgorithm.sha1.digest(signed)
            #expect(opened == [0, 1] + [UInt8](repeating: 0xff, count: 256 - 3 - 36) + [0] + hashes)

            // A signature over other bytes is refused: decrypt_error.
            var badClient = client
            badClient.random = HMACDRBG(seed: 8 &* 2 &+ 1)
            let index = run.messages.firstIndex { $0.type == .certificateVerify && $0.flow == .clientToServer }
            let message = try #require(index.map { run.messages[$0] })
            var badServer = server
            badServer.random = HMACDRBG(seed: 8 &* 2)
            let tampered = Harness.run(client: badClient, server: badServer,
                                       flip: BitFlip(flow: .clientToServer, index: message.index, bit: 8 * 100), exchangeData: false)
            #expect(tampered.outcome == .failed(sender: .server, alert: .decryptError))
        }
    }

    @Test("no suite in common → handshake_failure")
    func noCommonSuite() throws {
        let client = try Harness.clientConfiguration(seed: 8, suites: [.TLS_RSA_WITH_AES_128_GCM_SHA256])
        let server = try Harness.serverConfiguration(seed: 8, suites: [.TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256])
        let run = Harness.run(client: client, server: server)
        #expect(run.outcome == .failed(sender: .server, alert: .handshakeFailure))
        #expect(run.client.stateName == .failed)
    }

    @Test("session resumption by session_id: abbreviated handshake, server's Finished first")
    func resumption() throws {
        let cache = TLSSessionCache()
        var server = try Harness.serverConfiguration(seed: 9)
        server.sessionCache = cache
        let first = Harness.run(client: try Harness.clientConfiguration(seed: 9), server: server)
        #expect(first.outcome == .connected)
        let session = try #require(first.client.session)
        #expect(session.sessionID.count == 32)
        #expect(cache.count == 1)

        var client = try Harness.clientConfiguration(seed: 10)
        client.session = session
        server.random = HMACDRBG(seed: 11)
        let second = Harness.run(client: client, server: server)
        #expect(second.outcome == .connected, "\(second.outcome)")
        #expect(second.client.isResumed && second.server.isResumed)
        #expect(second.client.masterSecret == session.masterSecret)
        #expect(second.client.keyBlock == second.server.keyBlock)
        #expect(second.client.keyBlock != first.client.keyBlock, "new randoms give new keys")
        #expect(second.messages.map(\.type) == [.clientHello, .serverHello, .finished, .finished])
        #expect(second.messages.map(\.flow) == [.clientToServer, .serverToClient, .serverToClient, .clientToServer])
        #expect(second.serverEvents.contains { if case .sessionResumed = $0 { return true } else { return false } })
        #expect(!second.serverReceived.isEmpty)

        // An unknown session ID falls back to a full handshake.
        var stranger = try Harness.clientConfiguration(seed: 12)
        stranger.session = TLSSession(sessionID: [UInt8](repeating: 7, count: 32), version: .tls12,
                                      cipherSuite: session.cipherSuite, masterSecret: session.masterSecret,
                                      extendedMasterSecret: true)
        let full = Harness.run(client: stranger, server: server)
        #expect(full.outcome == .connected)
        #expect(!full.client.isResumed)
    }

    @Test("ServerKeyExchange signature: rsa_pkcs1_sha256 by default, the client's first choice otherwise")
    func signatureChoice() throws {
        let run = Harness.run(client: try Harness.clientConfiguration(seed: 13, suites: [.TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256]),
                              server: try Harness.serverConfiguration(seed: 13))
        let schemes = run.clientEvents.compactMap { e -> SignatureScheme? in
            if case .signature(let t) = e, t.purpose == .serverKeyExchange { return t.scheme }
            return nil
        }
        #expect(schemes == [.rsaPKCS1SHA256])
        #expect(SignatureSchemes.choose(peerOffer: [.rsaPSSRSAESHA256, .rsaPKCS1SHA256], ours: SignatureSchemes.defaultOffer)
                == .rsaPSSRSAESHA256)
        #expect(SignatureSchemes.choose(peerOffer: nil, ours: SignatureSchemes.defaultOffer) == .rsaPKCS1SHA1)
        #expect(SignatureSchemes.choose(peerOffer: [.ed25519], ours: SignatureSchemes.defaultOffer) == nil)
    }

    @Test("events: state changes in RFC order, derived values with inputs, records with crypto details")
    func events() throws {
        let run = Harness.run(client: try Harness.clientConfiguration(seed: 14, suites: [.TLS_DHE_RSA_WITH_AES_128_GCM_SHA256]),
                              server: try Harness.serverConfiguration(seed: 14))
        #expect(run.outcome == .connected)
        let states = run.clientEvents.compactMap { e -> TLSStateName? in
            if case .stateChanged(_, _, let to) = e { return to } else { return nil }
        }
        #expect(Array(states.prefix(6)) == [.expectServerHello, .expectCertificate, .expectServerKeyExchange,
                                           .expectCertificateRequestOrServerHelloDone, .expectChangeCipherSpec,
                                           .expectFinished])
        #expect(states.contains(.connected))
        var dh: (p: [UInt8], z: [UInt8])?
        var master: [UInt8]?
        for case .derived(let value) in run.clientEvents {
            switch value {
            case let .dhAgreement(p, _, group, _, _, _, z):
                #expect(group == "modp2048")
                dh = (p, z)
            case let .masterSecret(pre, label, _, _, m):
                #expect(label == "extended master secret")
                #expect(pre == dh?.z)
                master = m
            default: break
            }
        }
        #expect(dh?.p == DHGroup.modp2048.p.bigEndianBytes)
        #expect(master == run.client.masterSecret)
        let protected = run.clientEvents.compactMap { e -> RecordTrace? in
            if case .recordSent(let t) = e, t.crypto != nil { return t } else { return nil }
        }
        #expect(protected.first?.contentType == .handshake)
        #expect(protected.first?.crypto?.sequenceNumber == 0)
        #expect(protected.dropFirst().first?.crypto?.sequenceNumber == 1)
    }
}
