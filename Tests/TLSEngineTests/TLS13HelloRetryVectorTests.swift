import Foundation
import PKI
import Testing
import TestSupport
import TLSCrypto
@testable import TLSEngine

/// RFC 8448 §5, "HelloRetryRequest" (Tests/Fixtures/rfc8448/vectors.json, section5): the client
/// shares X25519, the server wants secp256r1 and answers with a HelloRetryRequest carrying a cookie;
/// the second ClientHello shares P-256 and echoes the cookie. Reproduced from the RFC's stated inputs
/// (the P-256 private keys, the messages): the HelloRetryRequest read and written back byte for byte,
/// the synthetic message_hash transcript (RFC 8446 §4.4.1), every secret, key and IV, the server's
/// encrypted flight and the client's Finished record byte for byte, the server's CertificateVerify,
/// and the close_notify records; then TLSLab's own server and client on the RFC's messages.
@Suite("TLS 1.3 HelloRetryRequest (RFC 8446 §4.1.4, §4.4.1; RFC 8448 §5)")
struct TLS13HelloRetryVectorTests {
    static func section5() throws -> [String: [UInt8]] {
        let url = Fixtures.directory.appendingPathComponent("rfc8448/vectors.json")
        let root = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any]
        let section = try #require(root?["section5"] as? [String: String])
        return section.compactMapValues(Hex.bytes)
    }

    struct NotThatMessage: Error {}

    static let context = HandshakeDecodingContext(version: .tls12, verifyDataLength: 32)

    static func serverHello(_ bytes: [UInt8]) throws -> ServerHello {
        guard case .serverHello(let hello) = try HandshakeMessage(decoding: bytes, context: context) else {
            throw NotThatMessage()
        }
        return hello
    }

    static func clientHello(_ bytes: [UInt8]) throws -> ClientHello {
        guard case .clientHello(let hello) = try HandshakeMessage(decoding: bytes, context: context) else {
            throw NotThatMessage()
        }
        return hello
    }

    /// The extension data of `type` in a hello's extensions.
    static func data(_ extensions: [TLSExtension]?, _ type: ExtensionType) -> [UInt8]? {
        if case .unknown(_, let data)? = extensions?.first(ofType: type) { return data }
        return nil
    }

    @Test("The HelloRetryRequest: the constant random, secp256r1 in key_share, a 114-byte cookie, read and written back unchanged")
    func helloRetryRequestMessage() throws {
        let v = try Self.section5()
        let bytes = try #require(v["hello_retry_request"])
        let hrr = try Self.serverHello(bytes)
        #expect(HandshakeMessage.serverHello(hrr).encoded == bytes)
        #expect(hrr.random.bytes == TLS13HelloValues.helloRetryRequestRandom, "SHA-256(\"HelloRetryRequest\") (RFC 8446 §4.1.3)")
        #expect(hrr.cipherSuite == CipherSuite(rawValue: TLS13CipherSuite.aes128GCMSHA256.rawValue))
        #expect(try KeyShare(extensionData: try #require(Self.data(hrr.extensions, .keyShare)), in: .helloRetryRequest)
                == .selectedGroup(.secp256r1))
        #expect(try SupportedVersions(extensionData: try #require(Self.data(hrr.extensions, .supportedVersions)), inClientHello: false)
                == .selected(.tls13))
        let cookie = try #require(Self.data(hrr.extensions, .cookie))
        #expect(cookie.count == 2 + 114 && Int(cookie[0]) << 8 | Int(cookie[1]) == 114, "opaque cookie<1..2^16-1> (RFC 8446 §4.2.2)")

        // The second ClientHello: the same random and suites, a P-256 share, the cookie echoed
        // (§4.1.2, §4.2.2), padded to 512 bytes; it too writes back unchanged.
        let first = try Self.clientHello(try #require(v["client_hello_1"]))
        let second = try Self.clientHello(try #require(v["client_hello_2"]))
        #expect(HandshakeMessage.clientHello(second).encoded == v["client_hello_2"])
        #expect(second.random == first.random && second.cipherSuites == first.cipherSuites)
        #expect(Self.data(second.extensions, .cookie) == cookie)
        #expect(try KeyShare(extensionData: try #require(Self.data(first.extensions, .keyShare)), in: .clientHello)
                == .clientShares([KeyShareEntry(group: .x25519, keyExchange: Array(try #require(Self.data(first.extensions, .keyShare)).suffix(32)))]))
        #expect(try KeyShare(extensionData: try #require(Self.data(second.extensions, .keyShare)), in: .clientHello)
                == .clientShares([KeyShareEntry(group: .secp256r1, keyExchange: try #require(v["client_p256_public"]))]))
        #expect(v["client_hello_2"]?.count == 512)
    }

    @Test("From the P-256 private keys and the messages: message_hash, every secret, key and IV, both Finished, the records")
    func keyScheduleAndRecords() throws {
        let v = try Self.section5()
        #expect(v.count == 35, "every value of the fixture's section5 reads as hex")
        func b(_ key: String) -> [UInt8] { v[key] ?? [] }
        let hash = TLS13Hash.sha256

        // Each side's P-256 share, from its private key; both reach the RFC's shared secret.
        let client = try ECDHKeyPair(curve: .secp256r1, privateKey: b("client_p256_private"))
        let server = try ECDHKeyPair(curve: .secp256r1, privateKey: b("server_p256_private"))
        #expect(client.publicKeyBytes == b("client_p256_public") && server.publicKeyBytes == b("server_p256_public"))
        let shared = try client.sharedSecret(peerPublicKey: server.publicKeyBytes)
        let serverShared = try server.sharedSecret(peerPublicKey: client.publicKeyBytes)
        #expect(shared == b("shared_secret") && serverShared == shared)

        // §4.4.1: ClientHello1 is replaced by message_hash (254), a 3-byte length 32 and Hash(ClientHello1).
        let messageHash = TLS13Connection.handshakeBytes(.messageHash, hash.digest(b("client_hello_1")))
        #expect(Array(messageHash.prefix(4)) == [0xfe, 0x00, 0x00, 0x20] && messageHash.count == 36)
        let toServerHello = messageHash + b("hello_retry_request") + b("client_hello_2") + b("server_hello")
        let helloHash = hash.digest(toServerHello)
        #expect(helloHash == b("hello_transcript_hash"))
        // Hashing ClientHello1 itself instead would give other keys: the substitution is what makes them.
        #expect(hash.digest(b("client_hello_1") + toServerHello.dropFirst(messageHash.count)) != helloHash)

        let early = TLS13KeySchedule.Early(hash: hash)
        #expect(early.earlySecret == b("early_secret"))
        var handshake = early.handshake(sharedSecret: shared)
        #expect(handshake.handshakeSecret == b("handshake_secret"))
        let traffic = handshake.trafficSecrets(helloHash: helloHash)
        #expect(traffic.client == b("client_handshake_traffic_secret") && traffic.server == b("server_handshake_traffic_secret"))
        let serverKeys = TLS13TrafficKeys(secret: traffic.server, hash: hash, keyLength: 16)
        #expect(serverKeys.key == b("server_handshake_key") && serverKeys.iv == b("server_handshake_iv"))
        let clientKeys = TLS13TrafficKeys(secret: traffic.client, hash: hash, keyLength: 16)
        #expect(clientKeys.key == b("client_handshake_key") && clientKeys.iv == b("client_handshake_iv"))
        #expect(handshake.steps.first { $0.secret == .derivedFromEarlySecret }?.value == b("derived_for_handshake"))

        // The server's flight (EncryptedExtensions, Certificate, CertificateVerify, Finished) in one
        // record: opened, and sealed again byte for byte.
        let flight = b("server_flight")
        var serverSender = try TLS13RecordProtector(aead: .aes128GCM, keys: serverKeys)
        let sealedFlight = try serverSender.seal(contentType: .handshake, content: flight)
        #expect(sealedFlight.record == b("server_flight_record"))
        var clientReceiver = try TLS13RecordProtector(aead: .aes128GCM, keys: serverKeys)
        let opened = try clientReceiver.open(encryptedRecord: Array(b("server_flight_record").dropFirst(5)))
        #expect(opened.contentType == .handshake && opened.content == flight)

        // The flight's messages: the server's Finished is the HMAC over the transcript up to its CertificateVerify.
        var messages: [[UInt8]] = []
        var at = 0
        while at + 4 <= flight.count {
            let length = Int(flight[at + 1]) << 16 | Int(flight[at + 2]) << 8 | Int(flight[at + 3])
            messages.append(Array(flight[at ..< at + 4 + length]))
            at += 4 + length
        }
        #expect(messages.map { $0[0] } == [8, 11, 15, 20] && at == flight.count)
        let toCertificateVerify = toServerHello + messages[0] + messages[1] + messages[2]
        #expect(Array(messages[3].dropFirst(4)) == hash.finishedVerifyData(baseKey: traffic.server, transcriptHash: hash.digest(toCertificateVerify)))

        // The CertificateVerify: RSA-PSS by the certificate's key over 64 spaces, the server context
        // string, 0 and the transcript hash through Certificate — a transcript that starts with message_hash.
        var certificateReader = ByteReader(Array(messages[1].dropFirst(4)))
        let der = try TLS13CertificateMessage(from: &certificateReader).certificateList[0]
        let key = try #require(VerificationKey(subjectPublicKeyInfoDER: try X509Certificate(der: der).publicKey.der)?.rsa)
        guard case .certificateVerify(let verify) = try HandshakeMessage(decoding: messages[2], context: Self.context) else {
            Issue.record("not a CertificateVerify"); return
        }
        let signed = TLS13CertificateVerifyContent.signedContent(signer: .server, transcriptHash: hash.digest(toServerHello + messages[0] + messages[1]))
        #expect(key.verifyPSS(signature: verify.signature.signature, message: signed, hash: .sha256, saltLength: 32))

        // Master secret, application traffic secrets, keys and IVs, exporter.
        var master = handshake.master()
        #expect(master.masterSecret == b("master_secret"))
        #expect(master.steps.first { $0.secret == .derivedFromHandshakeSecret }?.value == b("derived_for_master"))
        let toServerFinished = toCertificateVerify + messages[3]
        let serverFinishedHash = hash.digest(toServerFinished)
        #expect(serverFinishedHash == b("server_finished_transcript_hash"))
        let application = master.applicationTrafficSecrets(serverFinishedHash: serverFinishedHash)
        #expect(application.client == b("client_application_traffic_secret") && application.server == b("server_application_traffic_secret"))
        #expect(master.exporterMasterSecret(serverFinishedHash: serverFinishedHash) == b("exporter_master_secret"))
        let serverApplication = TLS13TrafficKeys(secret: application.server, hash: hash, keyLength: 16)
        #expect(serverApplication.key == b("server_application_key") && serverApplication.iv == b("server_application_iv"))
        let clientApplication = TLS13TrafficKeys(secret: application.client, hash: hash, keyLength: 16)
        #expect(clientApplication.key == b("client_application_key") && clientApplication.iv == b("client_application_iv"))

        // The client's Finished, computed here (the RFC prints only its record), sealed byte for byte.
        let clientFinished = TLS13Connection.handshakeBytes(.finished, hash.finishedVerifyData(baseKey: traffic.client, transcriptHash: serverFinishedHash))
        var clientSender = try TLS13RecordProtector(aead: .aes128GCM, keys: clientKeys)
        let sealedFinished = try clientSender.seal(contentType: .handshake, content: clientFinished)
        #expect(sealedFinished.record == b("client_finished_record"))
        let resumption = master.resumptionMasterSecret(clientFinishedHash: hash.digest(toServerFinished + clientFinished))
        #expect(resumption == b("resumption_master_secret"))

        // close_notify from each side, the first record under its application key.
        let closeNotify: [UInt8] = [1, 0]
        var clientAlert = try TLS13RecordProtector(aead: .aes128GCM, keys: clientApplication)
        let sealedClientAlert = try clientAlert.seal(contentType: .alert, content: closeNotify)
        #expect(sealedClientAlert.record == b("client_alert_record"))
        var serverAlert = try TLS13RecordProtector(aead: .aes128GCM, keys: serverApplication)
        let sealedServerAlert = try serverAlert.seal(contentType: .alert, content: closeNotify)
        #expect(sealedServerAlert.record == b("server_alert_record"))
    }

    /// The RFC's first ClientHello as one record, as its client sent it (16 03 01).
    static func record(_ message: [UInt8], version: UInt8 = 1) -> [UInt8] {
        [0x16, 0x03, version, UInt8(message.count >> 8), UInt8(message.count & 0xff)] + message
    }

    @Test("TLSLab's server, wanting only secp256r1, answers the RFC's first ClientHello with a HelloRetryRequest as the RFC's")
    func ourServerAsksForP256() throws {
        let v = try Self.section5()
        let first = try #require(v["client_hello_1"])
        let key = try #require(EngineFixtures.serverKey)
        var configuration = TLS13ServerConfiguration(identity: TLSIdentity(certificateChain: [ECDSAHandshakeTests.certificate], key: .rsa(key)),
                                                     suites: [.aes128GCMSHA256], groups: [.secp256r1])
        configuration.middleboxCompatibility = false
        var server = TLS13Server(configuration: configuration, random: HMACDRBG(seed: 8448))
        let step = server.receive(Self.record(first))
        #expect(step.alertSent == nil)
        // The transcript restarts with Hash(ClientHello1) (§4.4.1) and the server names secp256r1.
        #expect(step.events.contains { if case .transcriptRestarted(let h) = $0 { h == TLS13Hash.sha256.digest(first) } else { false } })
        #expect(step.events.contains { if case .helloRetryRequested(.secp256r1) = $0 { true } else { false } })
        let output = step.output
        #expect(Array(output.prefix(3)) == [0x16, 0x03, 0x03])
        let ours = try Self.serverHello(Array(output.dropFirst(5)))
        let theirs = try Self.serverHello(try #require(v["hello_retry_request"]))
        // The same fixed fields and the same answers; this server keeps no cookie (it holds its state).
        #expect(ours.random == theirs.random && ours.cipherSuite == theirs.cipherSuite && ours.sessionID == theirs.sessionID
                && ours.serverVersion == theirs.serverVersion)
        for type in [ExtensionType.keyShare, .supportedVersions] {
            #expect(Self.data(ours.extensions, type) == Self.data(theirs.extensions, type), "\(type)")
        }
        #expect(Self.data(ours.extensions, .cookie) == nil)
    }

    @Test("TLSLab's client answers the RFC's HelloRetryRequest: same random, a P-256 share, the cookie echoed, message_hash in its transcript")
    func ourClientAnswersTheRetry() throws {
        let v = try Self.section5()
        let key = try #require(EngineFixtures.serverKey)
        // The handshake stops before any certificate: the evaluator is never asked.
        var configuration = TLS13ClientConfiguration(serverName: "server", evaluator: ECDSAHandshakeTests.ECFixture(key: .rsa(key.publicKey)),
                                                     groups: [.x25519, .secp256r1], keyShareGroups: [.x25519])
        configuration.suites = [.aes128GCMSHA256]
        configuration.middleboxCompatibility = false
        var client = TLS13Client(configuration: configuration, random: HMACDRBG(seed: 5))
        let hello = client.start()
        let first = Array(hello.output.dropFirst(5))
        let step = client.receive(Self.record(try #require(v["hello_retry_request"]), version: 3))
        #expect(step.alertSent == nil)
        #expect(step.events.contains { if case .transcriptRestarted(let h) = $0 { h == TLS13Hash.sha256.digest(first) } else { false } })
        let second = try Self.clientHello(Array(step.output.dropFirst(5)))
        let firstHello = try Self.clientHello(first)
        let theirs = try Self.serverHello(try #require(v["hello_retry_request"]))
        #expect(second.random == firstHello.random && second.sessionID == firstHello.sessionID)
        #expect(Self.data(second.extensions, .cookie) == Self.data(theirs.extensions, .cookie), "the cookie echoed (RFC 8446 §4.2.2)")
        guard case .clientShares(let shares)? = try Self.data(second.extensions, .keyShare).map({ try KeyShare(extensionData: $0, in: .clientHello) }) else {
            Issue.record("no key_share"); return
        }
        #expect(shares.map(\.group) == [.secp256r1] && shares[0].keyExchange.count == 65)
    }
}
