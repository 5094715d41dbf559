import Foundation
import Testing
import TestSupport
@testable import TLSEngine

/// Live handshakes between OpenSSL's s_client and s_server on loopback (bounded in time); we
/// decode what s_client printed with `-msg`.
@Suite("OpenSSL cross-check", .serialized,
       CrossCheckRequirement.trait(OpenSSLPeer.available, missing: "openssl is not on the PATH"))
struct OpenSSLCrossCheckTests {
    /// Decodes every handshake message, learning the key exchange from the ServerHello.
    static func decodeAll(_ entries: [OpenSSLPeer.Entry]) throws -> [(sent: Bool, message: HandshakeMessage, bytes: [UInt8])] {
        var ctx = HandshakeDecodingContext()
        var out: [(Bool, HandshakeMessage, [UInt8])] = []
        for entry in entries where entry.label.hasPrefix("Handshake") {
            let message = try HandshakeMessage(decoding: entry.bytes, context: ctx)
            if case let .serverHello(sh) = message { ctx.keyExchange = sh.cipherSuite.parameters?.keyExchange }
            out.append((entry.sent, message, entry.bytes))
        }
        return out
    }

    @Test("default ECDHE handshake: every message decodes and re-encodes exactly")
    func ecdhe() throws {
        let entries = try OpenSSLPeer.handshake()
        let messages = try Self.decodeAll(entries)
        for m in messages { #expect(m.message.encoded == m.bytes) }
        #expect(messages.map(\.message.type).prefix(6) == [.clientHello, .serverHello, .certificate, .serverKeyExchange,
                                                            .serverHelloDone, .clientKeyExchange])

        guard case let .clientHello(ch)? = messages.first?.message else { Issue.record("no ClientHello"); return }
        #expect(ch.clientVersion == .tls12)
        #expect(ch.cipherSuites.contains(.TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256))
        #expect(ch.cipherSuites.contains(.TLS_EMPTY_RENEGOTIATION_INFO_SCSV))
        let exts = ch.extensions ?? []
        #expect(exts.first(ofType: .serverName) == .serverName([ServerName(hostName: "localhost")]))
        for type: ExtensionType in [.ecPointFormats, .supportedGroups, .sessionTicket, .encryptThenMAC,
                                    .extendedMasterSecret, .signatureAlgorithms] {
            #expect(exts.contains(type: type), "OpenSSL's ClientHello has \(type)")
        }
        if case let .supportedGroups(groups)? = exts.first(ofType: .supportedGroups) {
            #expect(groups.contains(.x25519) && groups.contains(.secp256r1))
        }

        guard case let .serverHello(sh) = messages[1].message else { Issue.record("no ServerHello"); return }
        #expect(sh.cipherSuite.parameters?.keyExchange == .ecdheRSA)
        guard case let .serverKeyExchange(ske) = messages[3].message, case let .ecdhe(params) = ske.params else {
            Issue.record("no ECDHE ServerKeyExchange"); return
        }
        #expect(params.namedGroup == .x25519 && params.point.count == 32)
        // OpenSSL signs with RSA-PSS unless the client offers only PKCS#1 (see the field notes).
        #expect(ske.signedParams.algorithm == .rsaPSSRSAESHA256)
        #expect(ske.signedParams.signature.count == 256)
        #expect(ske.paramsBytes == [3, 0, 29, 32] + params.point)
        guard case let .clientKeyExchange(.ecdhe(point)) = messages[5].message else { Issue.record("no CKE"); return }
        #expect(point.count == 32)
        #expect(messages.contains { if case let .finished(f) = $0.message { return f.verifyData.count == 12 } else { return false } })

        // The server's plaintext records, rebuilt from s_client's RecordHeader + message pairs,
        // go through RecordReader and HandshakeReassembler in small chunks and through the dissector.
        var wire: [UInt8] = []
        let received = entries.filter { !$0.sent }
        var i = 0
        while i + 1 < received.count, received[i].label.hasPrefix("RecordHeader"), received[i + 1].label.hasPrefix("Handshake") {
            wire += received[i].bytes + received[i + 1].bytes
            i += 2
        }
        var reader = RecordReader()
        var reassembler = HandshakeReassembler()
        var raws: [RawHandshakeMessage] = []
        for start in stride(from: 0, to: wire.count, by: 7) {
            reader.append(wire[start ..< min(start + 7, wire.count)])
            for record in try reader.drain() {
                reassembler.append(record.fragment)
                raws += try reassembler.drain()
            }
        }
        let serverMessages = messages.filter { !$0.sent }.map(\.bytes)
        #expect(raws.map(\.bytes) == Array(serverMessages.prefix(raws.count)))
        #expect(raws.count >= 4)
        let dissection = Dissector().dissectRecords(wire)
        #expect(leavesCoverExactly(dissection.leaves, count: wire.count))
        #expect(dissection.notes.allSatisfy { $0.note.kind == .notModelled }, "\(dissection.notes)")
        #expect(dissection.leaves.contains { $0.name == "params.curve_params.namedcurve" && $0.value == "x25519 (0x001d)" })
    }

    @Test("DHE handshake: ServerDHParams and dh_Yc decode and re-encode exactly")
    func dhe() throws {
        let entries = try OpenSSLPeer.handshake(serverArgs: ["-cipher", "DHE-RSA-AES128-GCM-SHA256"])
        let messages = try Self.decodeAll(entries)
        for m in messages { #expect(m.message.encoded == m.bytes) }
        guard let ske = messages.compactMap({ if case let .serverKeyExchange(s) = $0.message { return s } else { return nil } }).first,
              case let .dhe(params) = ske.params else {
            Issue.record("no DHE ServerKeyExchange"); return
        }
        #expect(params.p.count == 256)  // a 2048-bit group
        #expect(params.g == [2])
        #expect(params.ys.count <= 256)
        let cke = messages.compactMap { if case let .clientKeyExchange(c) = $0.message { return c } else { return nil } }.first
        guard case let .dhe(yc)? = cke else { Issue.record("no DHE ClientKeyExchange"); return }
        #expect(!yc.isEmpty && yc.count <= 256)
    }
}
