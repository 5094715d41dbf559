import Testing
import TLSCrypto
@testable import TLSEngine

/// The TLS 1.3 events carry what each calculation took (#33), so that a page can show it as a step to
/// redo: the key share's private key, own and peer public values; each key-schedule step's HMAC key,
/// IKM and HkdfLabel; each traffic secret's value; each Finished MAC's base key, finished_key and
/// transcript hash. Redone here from those values with the crypto module's primitives, each gives the
/// value the engine used, and the values are the ones on the wire.
@Suite("TLS 1.3 events carry the inputs of each calculation (RFC 8446 §4.4.4, §7.1, §7.3, §7.4)")
struct TLS13CalculationEventTests {
    @Test(arguments: [NamedGroup.x25519, .secp256r1])
    func theKeyShareCarriesItsPrivateKeyAndBothPublicValues(group: NamedGroup) throws {
        var p = try TLS13HandshakeTests.parties(seed: 71, clientGroups: [group], shares: [group], serverGroups: [group])
        let events = TLS13HandshakeTests.run(&p)
        typealias Share = (value: [UInt8], privateKey: [UInt8], publicKey: [UInt8], peer: [UInt8])
        func share(_ events: [TLS13Event]) -> Share? {
            events.compactMap { e -> Share? in
                if case .sharedSecret(_, let v, let k, let pub, let peer) = e { (v, k, pub, peer) } else { nil }
            }.first
        }
        let client = try #require(share(events.client)), server = try #require(share(events.server))
        #expect(client.peer == server.publicKey && server.peer == client.publicKey)
        #expect(client.value == server.value)
        let curve = try #require(ECDHEKeyExchange.curve(for: group))
        for side in [client, server] {
            let pair = try ECDHKeyPair(curve: curve, privateKey: side.privateKey)
            #expect(pair.publicKeyBytes == side.publicKey)
            #expect(try pair.sharedSecret(peerPublicKey: side.peer) == side.value)
        }
        // The public values are the ones the key_share entries carried (RFC 8446 §4.2.8).
        let keyShares = events.client.compactMap { if case .keyShareGenerated(_, let k) = $0 { k } else { nil } }
        #expect(keyShares.last == client.publicKey)
    }

    @Test func everyStepCarriesWhatItWasComputedFrom() throws {
        var p = try TLS13HandshakeTests.parties(seed: 72)
        let events = TLS13HandshakeTests.run(&p)
        for side in [events.client, events.server] {
            let steps = side.compactMap { if case .keySchedule(let s) = $0 { s } else { nil } }
            #expect(steps.count >= 10)
            var values: [TLS13Secret: [UInt8]] = [:]
            for step in steps {
                switch step.derivation {
                case .extract(let salt, _):
                    let ikm = try #require(step.inputKeyingMaterial)
                    #expect(step.hash.extract(salt: step.key, ikm: ikm) == step.value, "\(step.secret)")
                    if let salt { #expect(values[salt] == step.key, "\(step.secret): its salt is \(salt)") }
                case .deriveSecret(let from, let label, _, let transcriptHash):
                    #expect(step.hkdfLabel == HKDFLabel(length: step.hash.length, label: label, context: transcriptHash).bytes)
                    #expect(step.hash.expand(prk: step.key, info: try #require(step.hkdfLabel), length: step.hash.length) == step.value)
                    #expect(values[from] == step.key, "\(step.secret) from \(from)")
                case .expandLabel(let from, _, _):
                    #expect(step.hash.expand(prk: step.key, info: try #require(step.hkdfLabel), length: step.hash.length) == step.value)
                    #expect(values[from] == step.key)
                }
                values[step.secret] = step.value
            }
            // Each traffic key and IV expands the secret the event names (RFC 8446 §7.3).
            for case .trafficKeysInstalled(_, let name, 0, let keys, let secret, let hash) in side {
                #expect(values[name] == secret, "\(name)")
                #expect(TLS13TrafficKeys(secret: secret, hash: hash, keyLength: keys.key.count, ivLength: keys.iv.count) == keys)
            }
        }
    }

    @Test func eachFinishedMACIsTheFinishedOnTheWire() throws {
        var p = try TLS13HandshakeTests.parties(seed: 73)
        let events = TLS13HandshakeTests.run(&p)
        func macs(_ events: [TLS13Event]) -> [TLS13FinishedMAC] { events.compactMap { if case .finishedComputed(let m) = $0 { m } else { nil } } }
        let client = macs(events.client), server = macs(events.server)
        // Each side computes both Finished MACs: its own to send, the peer's to check.
        #expect(Set(client.map(\.baseKey)) == [.clientHandshakeTrafficSecret, .serverHandshakeTrafficSecret])
        #expect(Set(client) == Set(server))
        for mac in client {
            #expect(mac.finishedKey == mac.hash.expandLabel(secret: mac.baseKeyValue, label: "finished", context: [], length: mac.hash.length))
            #expect(mac.verifyData == mac.hash.hmac(key: mac.finishedKey, mac.transcriptHash))
            // The Finished message sent carries it (RFC 8446 §4.4.4: type 20, then verify_data).
            let sent = mac.baseKey == .clientHandshakeTrafficSecret ? events.client : events.server
            #expect(sent.contains { if case .handshakeSent(.finished, let bytes) = $0 { Array(bytes.dropFirst(4)) == mac.verifyData } else { false } })
        }
        #expect(events.client.contains { if case .finishedChecked(let e, let r) = $0 { e == r && server.contains { $0.verifyData == e } } else { false } })
    }
}
