import Crypto
import Testing
import TLSCrypto
@testable import TLSEngine

/// The dissector reads protected CBC records by the negotiated MAC order: MAC-then-encrypt as
/// IV ‖ block_ciphered (RFC 5246 §6.2.3.2), encrypt-then-MAC as IV ‖ ciphertext ‖ MAC (RFC 7366 §3).
/// The split is checked by recomputing the MAC with swift-crypto's HMAC over the fields the
/// dissector names, under the MAC key the engine derived.
@Suite("Dissector: encrypt-then-MAC records")
struct DissectorEncryptThenMACTests {
    /// One connection's bytes per direction, and the key block.
    struct Wire {
        var clientToServer: [UInt8] = []
        var serverToClient: [UInt8] = []
        var keys: KeyBlock?
    }

    static func wire(suite: CipherSuite, etm: Bool, seed: UInt64) throws -> Wire {
        var config = try Harness.clientConfiguration(seed: seed, suites: [suite])
        config.offerEncryptThenMAC = etm
        var client = TLSClient(configuration: config)
        var server = TLSServer(configuration: try Harness.serverConfiguration(seed: seed))
        var wire = Wire()
        func note(_ events: [TLSEvent]) {
            for case .derived(.keyBlock(_, _, _, let keys)) in events { wire.keys = keys }
        }
        var step = client.start()
        for _ in 0 ..< 10 {
            note(step.events)
            guard !step.output.isEmpty else { break }
            wire.clientToServer += step.output
            step = server.receive(step.output)
            note(step.events)
            guard !step.output.isEmpty else { break }
            wire.serverToClient += step.output
            step = client.receive(step.output)
        }
        #expect(client.isConnected && server.isConnected)
        let request = try client.sendApplicationData(Array("GET / HTTP/1.1\r\n\r\n".utf8))
        wire.clientToServer += request.output
        _ = server.receive(request.output)
        let response = try server.sendApplicationData(Array("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nhi".utf8))
        wire.serverToClient += response.output
        _ = client.receive(response.output)
        let expected = etm && suite.parameters?.isAEAD == false  // RFC 7366 §3: never with AEAD
        #expect(client.usesEncryptThenMAC == expected && server.usesEncryptThenMAC == expected)
        return wire
    }

    static func hmac(_ mac: MACAlgorithm, key: [UInt8], _ data: [UInt8]) -> [UInt8] {
        let key = SymmetricKey(data: key)
        switch mac {
        case .hmacSHA1: return Array(HMAC<Insecure.SHA1>.authenticationCode(for: data, using: key))
        case .hmacSHA256: return Array(HMAC<SHA256>.authenticationCode(for: data, using: key))
        case .hmacSHA384: return Array(HMAC<SHA384>.authenticationCode(for: data, using: key))
        case .none: return []
        }
    }

    /// The records after the ChangeCipherSpec, with their leaves.
    static func protectedRecords(_ d: Dissection) -> [DissectedField] {
        guard let ccs = d.fields.firstIndex(where: { $0.value == .text(ContentType.changeCipherSpec.description) }) else { return [] }
        return Array(d.fields[(ccs + 1)...])
    }

    @Test("a ServerHello with encrypt_then_mac: IV ‖ ciphertext ‖ MAC, and the MAC verifies over what precedes it",
          arguments: [CipherSuite.TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA, .TLS_RSA_WITH_AES_256_CBC_SHA256,
                      .TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA384])
    func serverStream(suite: CipherSuite) throws {
        let parameters = try #require(suite.parameters)
        let wire = try Self.wire(suite: suite, etm: true, seed: 70)
        let keys = try #require(wire.keys)
        let d = Dissector().dissectRecords(wire.serverToClient)
        #expect(leavesCoverExactly(d.leaves, count: wire.serverToClient.count))
        #expect(d.notes.allSatisfy { ["ciphertext", "MAC", "handshake_fragment"].contains($0.field) }, "\(d.notes)")
        let records = Self.protectedRecords(d)
        #expect(records.count == 2)  // Finished, then the response
        for (seq, record) in records.enumerated() {
            let leaves = record.leaves
            #expect(leaves.map(\.name) == ["type", "version", "length", "IV", "ciphertext", "MAC"])
            let iv = try #require(leaves.first { $0.name == "IV" })
            let ciphertext = try #require(leaves.first { $0.name == "ciphertext" })
            let mac = try #require(leaves.first { $0.name == "MAC" })
            #expect(iv.length == 16 && ciphertext.length % 16 == 0 && mac.length == parameters.macLength)
            // RFC 7366 §3: MAC(seq_num ‖ type ‖ version ‖ length ‖ IV ‖ ENC(…)), length of IV and ciphertext.
            let sent = Array(wire.serverToClient[iv.offset ..< ciphertext.offset + ciphertext.length])
            let header: [UInt8] = [0, 0, 0, 0, 0, 0, 0, UInt8(seq)] + Array(wire.serverToClient[record.offset ..< record.offset + 3])
                + [UInt8(sent.count >> 8), UInt8(sent.count & 0xff)]
            #expect(Self.hmac(parameters.mac, key: keys.serverWriteMACKey, header + sent)
                == Array(wire.serverToClient[mac.offset ..< mac.offset + mac.length]), "record \(seq)")
        }
    }

    @Test("without the extension the same suite reads MAC-then-encrypt; the client stream needs the setting")
    func otherOrderAndClientStream() throws {
        let suite = CipherSuite.TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA
        let plain = try Self.wire(suite: suite, etm: false, seed: 71)
        for record in Self.protectedRecords(Dissector().dissectRecords(plain.serverToClient)) {
            #expect(record.leaves.map(\.name) == ["type", "version", "length", "IV", "block_ciphered"])
        }
        // The client's bytes hold no ServerHello: the suite and the MAC order come from the caller.
        let etm = try Self.wire(suite: suite, etm: true, seed: 72)
        let keys = try #require(etm.keys)
        let told = Dissector(cipherSuite: suite, encryptThenMAC: true).dissectRecords(etm.clientToServer)
        #expect(leavesCoverExactly(told.leaves, count: etm.clientToServer.count))
        let records = Self.protectedRecords(told)
        #expect(records.count == 2)
        for (seq, record) in records.enumerated() {
            let leaves = record.leaves
            #expect(leaves.map(\.name) == ["type", "version", "length", "IV", "ciphertext", "MAC"])
            let mac = try #require(leaves.last)
            let iv = leaves[3]
            let sent = Array(etm.clientToServer[iv.offset ..< mac.offset])
            let header: [UInt8] = [0, 0, 0, 0, 0, 0, 0, UInt8(seq)] + Array(etm.clientToServer[record.offset ..< record.offset + 3])
                + [UInt8(sent.count >> 8), UInt8(sent.count & 0xff)]
            #expect(Self.hmac(.hmacSHA1, key: keys.clientWriteMACKey, header + sent)
                == Array(etm.clientToServer[mac.offset ..< mac.offset + mac.length]))
        }
        // Not told, the client stream's CBC records read as MAC-then-encrypt.
        let untold = Dissector(cipherSuite: suite).dissectRecords(etm.clientToServer)
        #expect(Self.protectedRecords(untold).allSatisfy { $0.leaves.last?.name == "block_ciphered" })
        // An AEAD suite ignores the setting.
        let gcm = try Self.wire(suite: .TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256, etm: true, seed: 73)
        let aead = Dissector(cipherSuite: .TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256, encryptThenMAC: true).dissectRecords(gcm.clientToServer)
        #expect(Self.protectedRecords(aead).allSatisfy { $0.leaves.last?.name == "aead_ciphertext" })
    }

    @Test("a fragment that cannot hold IV, whole blocks and the MAC is named bad_record_mac, every byte still covered")
    func malformedFragments() {
        let suite = CipherSuite.TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256  // 16-byte IV and blocks, 32-byte MAC
        let ccs = TLSRecord(contentType: .changeCipherSpec, fragment: [1]).encoded
        for length in [0, 1, 16, 31, 47, 48, 63, 64, 65, 79, 80, 81, 95, 96] {
            let record = TLSRecord(contentType: .applicationData, fragment: [UInt8](repeating: 0xab, count: length)).encoded
            let d = Dissector(cipherSuite: suite, encryptThenMAC: true).dissectRecords(ccs + record)
            #expect(leavesCoverExactly(d.leaves, count: ccs.count + record.count), "length \(length)")
            let wellFormed = length >= 64 && (length - 32) % 16 == 0
            let names = Self.protectedRecords(d).first?.leaves.map(\.name) ?? []
            if wellFormed {
                #expect(names == ["type", "version", "length", "IV", "ciphertext", "MAC"], "length \(length)")
            } else if length > 0 {
                #expect(names.last == "encrypt_then_mac_fragment", "length \(length)")
                #expect(d.refusals == [.recordProtection(.badRecordMAC(.encryptThenMACRecordTooShort(length: length, mac: "HMAC-SHA256")))], "length \(length)")
                #expect(d.refusals.first?.alert == .badRecordMAC)
            }
        }
    }
}
