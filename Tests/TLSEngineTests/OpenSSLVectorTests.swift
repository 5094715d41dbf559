import Testing
@testable import TLSEngine

/// The real OpenSSL 3.0 handshake in Tests/Fixtures/tls12-vectors.json (`rsa_kx_openssl_real`:
/// s_server/s_client on loopback, AES128-GCM-SHA256, EMS disabled, -no_ticket).
@Suite("OpenSSL handshake vector")
struct OpenSSLVectorTests {
    @Test("every message decodes and re-encodes byte for byte")
    func roundTrip() throws {
        let v = try Fixtures.opensslHandshake()
        #expect(v.messages.count == 5)  // the Finished messages travel encrypted
        var ctx = HandshakeDecodingContext()
        for bytes in v.messages {
            let message = try HandshakeMessage(decoding: bytes, context: ctx)
            #expect(message.encoded == bytes)
            #expect(message.raw.bytes == bytes)
            if case let .serverHello(sh) = message {
                ctx = HandshakeDecodingContext(negotiated: sh.cipherSuite, version: sh.serverVersion)
                #expect(ctx.keyExchange == .rsa)
            }
        }
    }

    @Test("decoded fields match the vector")
    func fields() throws {
        let v = try Fixtures.opensslHandshake()
        let ctx = HandshakeDecodingContext(keyExchange: .rsa)
        let types = try v.messages.map { try HandshakeMessage(decoding: $0, context: ctx).type }
        #expect(types == [.clientHello, .serverHello, .certificate, .serverHelloDone, .clientKeyExchange])

        guard case let .clientHello(ch) = try HandshakeMessage(decoding: v.messages[0], context: ctx) else {
            Issue.record("first message is not a ClientHello"); return
        }
        #expect(ch.clientVersion == .tls12)
        #expect(ch.random.bytes == v.clientRandom)
        #expect(ch.sessionID.isEmpty)
        #expect(ch.cipherSuites == [.TLS_RSA_WITH_AES_128_GCM_SHA256, .TLS_EMPTY_RENEGOTIATION_INFO_SCSV])
        #expect(ch.compressionMethods == [.null])
        let exts = ch.extensions ?? []
        // What OpenSSL sent: server_name "localhost", encrypt_then_mac, signature_algorithms.
        #expect(exts.map(\.type) == [.serverName, .encryptThenMAC, .signatureAlgorithms])
        #expect(exts.first(ofType: .serverName) == .serverName([ServerName(hostName: "localhost")]))
        guard case let .signatureAlgorithms(schemes)? = exts.first(ofType: .signatureAlgorithms) else {
            Issue.record("no signature_algorithms"); return
        }
        #expect(schemes.count == 20)
        #expect(schemes.first == .ecdsaSECP256r1SHA256)
        #expect(schemes.contains(.rsaPSSRSAESHA256) && schemes.contains(.rsaPKCS1SHA256))
        #expect(!exts.contains(type: .extendedMasterSecret))

        guard case let .serverHello(sh) = try HandshakeMessage(decoding: v.messages[1], context: ctx) else {
            Issue.record("second message is not a ServerHello"); return
        }
        #expect(sh.serverVersion == .tls12)
        #expect(sh.random.bytes == v.serverRandom)
        #expect(sh.sessionID.count == 32)
        #expect(sh.cipherSuite == .TLS_RSA_WITH_AES_128_GCM_SHA256)
        #expect(sh.cipherSuite.description == "TLS_RSA_WITH_AES_128_GCM_SHA256")
        #expect(sh.extensions == [.renegotiationInfo([])])

        guard case let .certificate(cert) = try HandshakeMessage(decoding: v.messages[2], context: ctx) else {
            Issue.record("third message is not a Certificate"); return
        }
        #expect(cert.certificateList.count == 2)
        #expect(cert.certificateList.allSatisfy { $0.first == 0x30 })  // DER SEQUENCE

        guard case let .clientKeyExchange(.rsa(epms)) = try HandshakeMessage(decoding: v.messages[4], context: ctx) else {
            Issue.record("fifth message is not an RSA ClientKeyExchange"); return
        }
        #expect(epms == v.encryptedPreMaster)

        // The client's Finished as it is before encryption: header 14 00 00 0c, then verify_data.
        let finished = [20, 0, 0, 12] + v.clientVerifyData
        #expect(try HandshakeMessage(decoding: finished, context: ctx) == .finished(Finished(verifyData: v.clientVerifyData)))
    }

    @Test("the handshake reassembles from records of every small size and any TCP chunking")
    func recordsAndChunks() throws {
        let v = try Fixtures.opensslHandshake()
        let stream = v.messages.flatMap { $0 }
        var rng = SeededGenerator(seed: 42)
        for maxFragment in [1, 2, 3, 5, 100, 1000, TLSRecord.maxPlaintextLength] {
            let records = TLSRecord.fragment(stream, contentType: .handshake, maxFragmentLength: maxFragment)
            #expect(records.count == (stream.count + maxFragment - 1) / maxFragment)
            let wire = records.flatMap(\.encoded)
            var reader = RecordReader()
            var reassembler = HandshakeReassembler()
            var got: [RawHandshakeMessage] = []
            var offset = 0
            while offset < wire.count {
                let n = min(rng.int(1 ... 64), wire.count - offset)
                reader.append(wire[offset ..< offset + n])
                offset += n
                for record in try reader.drain() {
                    #expect(record.contentType == .handshake && record.version == .tls12)
                    reassembler.append(record.fragment)
                    got += try reassembler.drain()
                }
            }
            #expect(got.map(\.bytes) == v.messages)
            #expect(!reassembler.hasPartialMessage && reader.bufferedByteCount == 0)
        }
    }
}
