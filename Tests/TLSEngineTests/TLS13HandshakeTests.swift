import Foundation
import Testing
import TestSupport
import TLSCrypto
@testable import TLSEngine

/// The TLS 1.3 client and server talking to each other in memory (RFC 8446 §2): the 1-RTT
/// handshake with an RSA-PSS or ECDSA signature, a HelloRetryRequest when the client guessed the
/// wrong group, the certificate refused, and any changed byte of the server's flight detected.
@Suite("TLS 1.3 handshake between TLSLab's client and server (RFC 8446)")
struct TLS13HandshakeTests {
    struct Parties {
        var client: TLS13Client
        var server: TLS13Server
    }

    static func parties(seed: UInt64, ecdsa: Bool = false, clientGroups: [NamedGroup] = [.x25519, .secp256r1],
                        shares: [NamedGroup] = [.x25519], serverGroups: [NamedGroup] = [.x25519, .secp256r1],
                        suites: [TLS13CipherSuite] = [.aes128GCMSHA256, .aes256GCMSHA384, .chacha20Poly1305SHA256],
                        trusted: Bool = true) throws -> Parties {
        let key: SigningKey
        let verification: VerificationKey
        if ecdsa {
            let k = try ECDSAPrivateKey.generate(curve: .p256, using: HMACDRBG(seed: 500 + seed))
            (key, verification) = (.ecdsa(k), .ecdsa(k.publicKey))
        } else {
            let k = try #require(EngineFixtures.serverKey)
            (key, verification) = (.rsa(k), .rsa(k.publicKey))
        }
        let certificate: [UInt8] = ECDSAHandshakeTests.certificate
        let evaluator = ECDSAHandshakeTests.ECFixture(key: verification)
        var clientConfiguration = TLS13ClientConfiguration(serverName: "example.com", evaluator: evaluator, groups: clientGroups, keyShareGroups: shares)
        clientConfiguration.suites = suites
        let server = TLS13ServerConfiguration(identity: TLSIdentity(certificateChain: [trusted ? certificate : Array("another".utf8)], key: key),
                                              groups: serverGroups)
        return Parties(client: TLS13Client(configuration: clientConfiguration, random: HMACDRBG(seed: seed * 2 + 1)),
                       server: TLS13Server(configuration: server, random: HMACDRBG(seed: seed * 2 + 2)))
    }

    /// Runs the handshake to its end; `tamper` may change the server's bytes once.
    static func run(_ p: inout Parties, tamper: ((inout [UInt8]) -> Void)? = nil) -> (client: [TLS13Event], server: [TLS13Event]) {
        let hello = p.client.start()
        var clientEvents: [TLS13Event] = hello.events, serverEvents: [TLS13Event] = []
        var toServer = hello.output
        var tamper = tamper
        for _ in 0..<6 where !toServer.isEmpty {
            let s = p.server.receive(toServer)
            serverEvents += s.events
            var toClient = s.output
            if let change = tamper, !toClient.isEmpty { change(&toClient); tamper = nil }
            let c = p.client.receive(toClient)
            clientEvents += c.events
            toServer = c.output
        }
        return (clientEvents, serverEvents)
    }

    @Test("1-RTT with RSA-PSS and with ECDSA: both sides connect, agree on every secret, exchange data", arguments: [false, true])
    func fullHandshake(ecdsa: Bool) throws {
        for seed in UInt64(1)...8 {
            var p = try Self.parties(seed: seed, ecdsa: ecdsa)
            let events = Self.run(&p)
            #expect(p.client.state == .connected && p.server.state == .connected, "seed \(seed)")
            #expect(p.client.keyScheduleSteps == p.server.keyScheduleSteps, "both sides derived the same schedule")
            #expect(p.client.keyScheduleSteps.map(\.secret).contains(.resumptionMasterSecret))
            #expect(events.client.contains { if case .certificateVerifyChecked(_, _, _, true) = $0 { true } else { false } })
            #expect(!events.client.contains { if case .helloRetryRequested = $0 { true } else { false } })

            let request = p.client.send(Array("GET / HTTP/1.1\r\n\r\n".utf8))
            #expect(Array(request.output.prefix(3)) == [23, 3, 3], "application data looks like any TLS 1.2 record")
            #expect(p.server.receive(request.output).applicationData == Array("GET / HTTP/1.1\r\n\r\n".utf8))
            let response = p.server.send(Array("HTTP/1.1 200 OK\r\n\r\n".utf8))
            #expect(p.client.receive(response.output).applicationData == Array("HTTP/1.1 200 OK\r\n\r\n".utf8))
        }
    }

    @Test("The ClientHello says 03 03 and 03 01 where 1.2 code looks; the real offer is in supported_versions")
    func helloVersions() throws {
        var p = try Self.parties(seed: 3)
        let hello = p.client.start().output
        #expect(Array(hello.prefix(3)) == [22, 3, 1], "the first ClientHello's record version is 03 01 (§5.1)")
        #expect(Array(hello[9...10]) == [3, 3], "legacy_version 03 03 (§4.1.2)")
        let flight = p.server.receive(hello)
        #expect(Array(flight.output[9...10]) == [3, 3], "the ServerHello also says 03 03")
        // After the ServerHello (and the dummy ChangeCipherSpec) every record is application_data 03 03.
        var r = RecordReader()
        r.append(flight.output)
        let records = try r.drain()
        #expect(records.map(\.contentType.rawValue) == [22, 20, 23, 23, 23, 23])
    }

    @Test("Each suite is negotiated in the server's order, and its AEAD protects the records", arguments: TLS13CipherSuite.allCases)
    func eachSuite(suite: TLS13CipherSuite) throws {
        var p = try Self.parties(seed: 11, suites: [suite])
        _ = Self.run(&p)
        #expect(p.client.negotiatedSuite == suite && p.server.state == .connected)
        let secret = try #require(p.client.keyScheduleSteps.first { $0.secret == .masterSecret }?.value)
        #expect(secret.count == suite.hash.length)
    }

    @Test("HelloRetryRequest: the client shared P-256, the server wants X25519; the transcript restarts with message_hash")
    func helloRetryRequest() throws {
        var p = try Self.parties(seed: 5, clientGroups: [.secp256r1, .x25519], shares: [.secp256r1], serverGroups: [.x25519])
        let events = Self.run(&p)
        #expect(p.client.state == .connected && p.server.state == .connected)
        #expect(events.client.contains { if case .helloRetryRequested(.x25519) = $0 { true } else { false } })
        #expect(events.server.contains { if case .transcriptRestarted = $0 { true } else { false } })
        let clientHellos = events.client.filter { if case .handshakeSent(.clientHello, _) = $0 { true } else { false } }
        #expect(clientHellos.count == 2)
        #expect(p.client.keyScheduleSteps == p.server.keyScheduleSteps)
    }

    @Test("A chain the client does not trust ends the handshake with the refusal's alert, before any key is used")
    func untrustedCertificate() throws {
        var p = try Self.parties(seed: 6, trusted: false)
        let events = Self.run(&p)
        #expect(p.client.state == .closed && p.server.state != .connected)
        #expect(events.client.contains { if case .alertSent(let a) = $0 { a.isFatal } else { false } })
        #expect(!events.client.contains { if case .handshakeCompleted = $0 { true } else { false } })
        // The client's alert went out in the clear (its write keys change only with its own flight);
        // the server reads it as an alert rather than answering unexpected_message.
        #expect(events.server.contains { if case .alertReceived(let a) = $0 { a.isFatal } else { false } })
        #expect(!events.server.contains { if case .alertSent = $0 { true } else { false } })
    }

    @Test("Any changed byte of the server's answer stops the client, except the plaintext records' legacy_record_version, which §5.1 says to ignore")
    func tamperedServerFlight() throws {
        var generator = SplitMix64(seed: 13)
        var ignoredHits = 0
        for trial in 0..<80 {
            var p = try Self.parties(seed: UInt64(100 + trial), ecdsa: trial % 2 == 0)
            var position = 0
            var ignored = false
            let events = Self.run(&p) { bytes in
                // The version bytes of the records sent in the clear (ServerHello, ChangeCipherSpec).
                var clearVersionBytes: Set<Int> = []
                var offset = 0
                while offset + 5 <= bytes.count {
                    let length = Int(bytes[offset + 3]) << 8 | Int(bytes[offset + 4])
                    if bytes[offset] != 23 { clearVersionBytes.formUnion([offset + 1, offset + 2]) }
                    offset += 5 + length
                }
                // Every fourth trial aims at one of them; the others at any byte.
                position = trial % 4 == 3 ? clearVersionBytes.sorted()[trial % clearVersionBytes.count]
                                          : Int.random(in: 0..<bytes.count, using: &generator)
                ignored = clearVersionBytes.contains(position)
                bytes[position] ^= position == 1 || bytes[position] != 3 ? 0x04 : UInt8.random(in: 1...255, using: &generator)
            }
            if ignored {
                ignoredHits += 1
                #expect(p.client.state == .connected, "trial \(trial): the ignored version byte \(position) stopped the client")
                continue
            }
            #expect(p.client.state != .connected, "trial \(trial): byte \(position) changed and still connected")
            let alerted = events.client.contains { if case .alertSent(let a) = $0 { a.isFatal } else { false } }
            #expect(alerted || p.client.state != .closed, "trial \(trial)")
        }
        #expect(ignoredHits >= 20)
    }

    @Test("A server that is not offered TLS 1.3 refuses; a 1.3 client that meets the DOWNGRD sentinel refuses")
    func versionsAndDowngrade() throws {
        // A TLS 1.2 ServerHello whose random ends with the TLS 1.2 sentinel.
        var p = try Self.parties(seed: 9)
        _ = p.client.start()
        let random = Array(repeating: UInt8(7), count: 24) + TLS13HelloValues.downgradeToTLS12
        let hello = ServerHello(serverVersion: .tls12, random: Random(random), sessionID: [],
                                cipherSuite: .TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256, extensions: [])
        let record = TLSRecord(contentType: .handshake, fragment: HandshakeMessage.serverHello(hello).encoded).encoded
        let step = p.client.receive(record)
        #expect(step.alertSent?.alertDescription == .illegalParameter)
        #expect(step.events.contains { if case .downgradeDetected = $0 { true } else { false } })
    }

    @Test("KeyUpdate: the client moves its keys on and asks the server to; data flows under generation 1 both ways")
    func keyUpdate() throws {
        var p = try Self.parties(seed: 21)
        _ = Self.run(&p)
        let update = p.client.updateKeys(requestUpdate: true)
        let answer = p.server.receive(update.output)
        #expect(answer.events.contains { if case .keyUpdateReceived(true) = $0 { true } else { false } })
        #expect(answer.events.contains { if case .keyUpdateSent(false) = $0 { true } else { false } })
        let back = p.client.receive(answer.output)
        #expect(back.events.contains { if case .trafficKeysInstalled(.read, _, 1, _, _, _) = $0 { true } else { false } })
        #expect(p.server.receive(p.client.send([1, 2, 3]).output).applicationData == [1, 2, 3])
        #expect(p.client.receive(p.server.send([4, 5]).output).applicationData == [4, 5])
    }

    @Test("CertificateVerify with ECDSA P-384 and P-521 (each with its curve's hash) and with Ed25519 (RFC 8446 §4.2.3)")
    func otherSignatureKeys() throws {
        let p384 = try ECDSAPrivateKey.generate(curve: .p384, using: HMACDRBG(seed: 31))
        let p521 = try ECDSAPrivateKey.generate(curve: .p521, using: HMACDRBG(seed: 32))
        let ed25519 = try Ed25519PrivateKey(seed: HMACDRBG(seed: 33).bytes(count: 32))
        let keys: [(SigningKey, SignatureScheme)] = [(.ecdsa(p384), .ecdsaSECP384r1SHA384), (.ecdsa(p521), .ecdsaSECP521r1SHA512),
                                                     (.ed25519(ed25519), .ed25519)]
        for (index, (key, scheme)) in keys.enumerated() {
            let evaluator = ECDSAHandshakeTests.ECFixture(key: key.publicKey)
            var client = TLS13Client(configuration: TLS13ClientConfiguration(serverName: "example.com", evaluator: evaluator),
                                     random: HMACDRBG(seed: UInt64(40 + index)))
            var server = TLS13Server(configuration: TLS13ServerConfiguration(identity: TLSIdentity(certificateChain: [ECDSAHandshakeTests.certificate], key: key)),
                                     random: HMACDRBG(seed: UInt64(50 + index)))
            var p = Parties(client: client, server: server)
            let events = Self.run(&p)
            client = p.client
            server = p.server
            #expect(client.state == .connected && server.state == .connected, "\(scheme)")
            #expect(events.client.contains { if case .certificateVerifyChecked(scheme, _, _, true) = $0 { true } else { false } }, "\(scheme)")
        }
    }

    @Test("Key shares on each group: X25519, P-256, P-384 and P-521 (RFC 8446 §4.2.8.2: the uncompressed point)",
          arguments: [NamedGroup.x25519, .secp256r1, .secp384r1, .secp521r1])
    func eachGroup(group: NamedGroup) throws {
        var p = try Self.parties(seed: 61, clientGroups: [group], shares: [group], serverGroups: [group])
        let events = Self.run(&p)
        #expect(p.client.state == .connected && p.server.state == .connected, "\(group)")
        let shared = events.client.compactMap { if case .sharedSecret(let g, let v, _, _, _) = $0 { (g, v) } else { nil } }
        #expect(shared.count == 1 && shared.first?.0 == group)
        #expect(shared.first?.1 == events.server.compactMap { if case .sharedSecret(_, let v, _, _, _) = $0 { v } else { nil } }.first)
    }
}
