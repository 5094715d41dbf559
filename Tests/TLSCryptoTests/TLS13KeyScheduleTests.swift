import Crypto
import Foundation
import Testing
import TLSCrypto
import TestSupport

/// RFC 8448's example handshakes (Tests/Fixtures/rfc8448/vectors.json): §3, the simple 1-RTT
/// handshake, from its X25519 private keys and its handshake messages to every secret, key, IV
/// and both Finished values; §4, the resumption from §3's ticket, to its binder and early secret.
@Suite("TLS 1.3 key schedule (RFC 8446 §7.1, RFC 8448 §3–§4)")
struct TLS13KeyScheduleTests {
    static let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/rfc8448/vectors.json")

    static func section(_ name: String) throws -> [String: String] {
        let root = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any]
        return try #require(root?[name] as? [String: String])
    }

    struct Section3 {
        let v: [String: String]
        init() throws { v = try TLS13KeyScheduleTests.section("section3") }
        subscript(_ key: String) -> [UInt8] { Hex.bytes(v[key] ?? "not in the fixture") }
    }

    @Test("HkdfLabel is length ‖ \"tls13 \" + label ‖ context, as RFC 8448 prints its info")
    func hkdfLabelLayout() {
        let empty = TLS13Hash.sha256.digest([])
        #expect(HKDFLabel(length: 32, label: "derived", context: empty).bytes
                == Hex.bytes("00 20 0d 74 6c 73 31 33 20 64 65 72 69 76 65 64 20") + empty)
        #expect(HKDFLabel(length: 16, label: "key", context: []).bytes == Hex.bytes("00 10 09 74 6c 73 31 33 20 6b 65 79 00"))
        #expect(HKDFLabel(length: 12, label: "iv", context: []).bytes == Hex.bytes("00 0c 08 74 6c 73 31 33 20 69 76 00"))
    }

    @Test("§3: the X25519 exchange, every secret, key, IV and both Finished values")
    func simpleHandshake() throws {
        let s = try Section3()
        // The (EC)DHE input: both sides reach the same shared secret.
        let clientKey = try Curve25519.KeyAgreement.PrivateKey(rawRepresentation: s["client_x25519_private"])
        #expect(Array(clientKey.publicKey.rawRepresentation) == s["client_x25519_public"])
        let serverPublic = try Curve25519.KeyAgreement.PublicKey(rawRepresentation: s["server_x25519_public"])
        let shared = try clientKey.sharedSecretFromKeyAgreement(with: serverPublic).withUnsafeBytes { Array($0) }
        #expect(shared == s["shared_secret"])

        // Early and handshake secrets.
        let early = TLS13KeySchedule.Early(hash: .sha256)
        #expect(early.earlySecret == s["early_secret"])
        var handshake = early.handshake(sharedSecret: shared)
        #expect(handshake.handshakeSecret == s["handshake_secret"])

        // The traffic secrets over ClientHello…ServerHello, from the messages themselves.
        let hash = TLS13Hash.sha256
        let helloHash = hash.digest(s["client_hello"] + s["server_hello"])
        #expect(helloHash == s["transcript_hash_client_hello_server_hello"])
        let hsTraffic = handshake.trafficSecrets(helloHash: helloHash)
        #expect(hsTraffic.client == s["client_handshake_traffic_secret"])
        #expect(hsTraffic.server == s["server_handshake_traffic_secret"])
        let serverHandshakeKeys = TLS13TrafficKeys(secret: hsTraffic.server, hash: hash, keyLength: 16)
        #expect(serverHandshakeKeys.key == s["server_handshake_write_key"])
        #expect(serverHandshakeKeys.iv == s["server_handshake_write_iv"])
        let clientHandshakeKeys = TLS13TrafficKeys(secret: hsTraffic.client, hash: hash, keyLength: 16)
        #expect(clientHandshakeKeys.key == s["client_handshake_write_key"])
        #expect(clientHandshakeKeys.iv == s["client_handshake_write_iv"])

        // The server's Finished: HMAC over the transcript up to its CertificateVerify.
        let toCertificateVerify = s["client_hello"] + s["server_hello"] + s["encrypted_extensions"]
            + s["certificate"] + s["certificate_verify"]
        #expect(hash.finishedKey(baseKey: hsTraffic.server) == s["server_finished_key"])
        let serverVerifyData = hash.finishedVerifyData(baseKey: hsTraffic.server, transcriptHash: hash.digest(toCertificateVerify))
        #expect(Array(s["server_finished"].dropFirst(4)) == serverVerifyData)

        // Master secret and application traffic secrets over ClientHello…server Finished.
        var master = handshake.master()
        #expect(master.masterSecret == s["master_secret"])
        let toServerFinished = toCertificateVerify + s["server_finished"]
        let serverFinishedHash = hash.digest(toServerFinished)
        #expect(serverFinishedHash == s["transcript_hash_to_server_finished"])
        let appTraffic = master.applicationTrafficSecrets(serverFinishedHash: serverFinishedHash)
        #expect(appTraffic.client == s["client_application_traffic_secret_0"])
        #expect(appTraffic.server == s["server_application_traffic_secret_0"])
        #expect(master.exporterMasterSecret(serverFinishedHash: serverFinishedHash) == s["exporter_master_secret"])
        let serverAppKeys = TLS13TrafficKeys(secret: appTraffic.server, hash: hash, keyLength: 16)
        #expect(serverAppKeys.key == s["server_application_write_key"] && serverAppKeys.iv == s["server_application_write_iv"])
        let clientAppKeys = TLS13TrafficKeys(secret: appTraffic.client, hash: hash, keyLength: 16)
        #expect(clientAppKeys.key == s["client_application_write_key"] && clientAppKeys.iv == s["client_application_write_iv"])

        // The client's Finished (keyed by its own handshake traffic secret), then resumption.
        #expect(hash.finishedKey(baseKey: hsTraffic.client) == s["client_finished_key"])
        #expect(Array(s["client_finished"].dropFirst(4))
                == hash.finishedVerifyData(baseKey: hsTraffic.client, transcriptHash: serverFinishedHash))
        let clientFinishedHash = hash.digest(toServerFinished + s["client_finished"])
        #expect(clientFinishedHash == s["transcript_hash_to_client_finished"])
        let resumption = master.resumptionMasterSecret(clientFinishedHash: clientFinishedHash)
        #expect(resumption == s["resumption_master_secret"])
        #expect(hash.resumptionPSK(resumptionMasterSecret: resumption, ticketNonce: s["ticket_nonce"]) == s["resumption_psk"])

        // The schedule kept its steps in order, each with what it came from.
        #expect(master.steps.map(\.secret) == [
            .earlySecret, .derivedFromEarlySecret, .handshakeSecret,
            .clientHandshakeTrafficSecret, .serverHandshakeTrafficSecret,
            .derivedFromHandshakeSecret, .masterSecret,
            .clientApplicationTrafficSecret0, .serverApplicationTrafficSecret0,
            .exporterMasterSecret, .resumptionMasterSecret,
        ])
        #expect(master.steps[0].derivation == .extract(salt: nil, ikm: .zeros))
        #expect(master.steps[2].derivation == .extract(salt: .derivedFromEarlySecret, ikm: .sharedSecret))
        #expect(master.steps[3].derivation == .deriveSecret(from: .handshakeSecret, label: "c hs traffic",
                                                             through: .serverHello, transcriptHash: helloHash))
        #expect(master.steps[6].derivation == .extract(salt: .derivedFromHandshakeSecret, ikm: .zeros))
        #expect(master.steps.first { $0.secret == .derivedFromHandshakeSecret }?.value == s["derived_from_handshake_secret"])
        #expect(master.steps.first { $0.secret == .derivedFromEarlySecret }?.value == s["derived_from_early_secret"])
    }

    @Test("§4: a resumption PSK gives the binder key, the binder and the early traffic secret")
    func resumedHandshake() throws {
        let v = try Self.section("section4")
        func b(_ key: String) -> [UInt8] { Hex.bytes(v[key] ?? "not in the fixture") }
        var early = TLS13KeySchedule.Early(hash: .sha256, preSharedKey: b("psk"))
        let binderKey = early.binderKey(resumption: true)
        #expect(binderKey == b("resumption_binder_key"))
        // The binder is a Finished computed with the binder key over the partial ClientHello.
        #expect(TLS13Hash.sha256.finishedVerifyData(baseKey: binderKey, transcriptHash: b("transcript_hash_partial_client_hello"))
                == b("psk_binder"))
        #expect(early.clientEarlyTrafficSecret(clientHelloHash: b("transcript_hash_client_hello")) == b("client_early_traffic_secret"))
        // An external PSK's binder key differs: one kind cannot pass for the other (RFC 8446 §7.1).
        #expect(early.binderKey(resumption: false) != binderKey)
        #expect(early.steps.first?.derivation == .extract(salt: nil, ikm: .preSharedKey))
    }

    @Test("HKDF-Expand agrees with swift-crypto's HKDF for both hashes and many lengths")
    func expandAgreesWithSwiftCrypto() {
        var generator = SplitMix64(seed: 8446)
        for length in [1, 12, 16, 31, 32, 33, 48, 64, 100, 255] {
            let prk = (0..<48).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let info = (0..<20).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let ours256 = TLS13Hash.sha256.expand(prk: prk, info: info, length: length)
            let theirs256 = HKDF<SHA256>.expand(pseudoRandomKey: SymmetricKey(data: prk), info: info, outputByteCount: length)
            #expect(ours256 == theirs256.withUnsafeBytes { Array($0) })
            let ours384 = TLS13Hash.sha384.expand(prk: prk, info: info, length: length)
            let theirs384 = HKDF<SHA384>.expand(pseudoRandomKey: SymmetricKey(data: prk), info: info, outputByteCount: length)
            #expect(ours384 == theirs384.withUnsafeBytes { Array($0) })
        }
    }

    @Test("Every secret with a key-log label has the label Wireshark reads")
    func keyLogLabels() {
        #expect(TLS13Secret.clientHandshakeTrafficSecret.keyLogLabel == "CLIENT_HANDSHAKE_TRAFFIC_SECRET")
        #expect(TLS13Secret.serverApplicationTrafficSecret0.keyLogLabel == "SERVER_TRAFFIC_SECRET_0")
        #expect(TLS13Secret.masterSecret.keyLogLabel == nil)
        #expect(Set(TLS13Secret.allCases.compactMap(\.keyLogLabel)).count == 7)
    }
}
