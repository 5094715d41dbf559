import Foundation
import Rendering
import Simulation
import TLSCrypto
import TLSEngine
import Testing
import Trace

/// `tlslab run chacha20` (issue #39): ECDHE_RSA with ChaCha20-Poly1305, whose ladder shows a record's
/// nonce built from the key block's IV and the sequence number (RFC 7905 §2), in both languages.
@Suite("Built-in run: chacha20")
struct ChaCha20RunTests {
    static func trace(seed: UInt64 = 1) throws -> Trace { Simulation(try BuiltInRun.chacha20.setup(seed: seed)).run() }

    @Test func negotiatesChaCha20AndExplainsTheNonce() throws {
        let trace = try Self.trace()
        let text = TextRenderer(verbosity: .normal, width: 100, color: false).render(trace).joined(separator: "\n")
        #expect(text.contains("TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256"))
        let flat = text.split(whereSeparator: { $0 == "\n" || $0 == "│" || $0 == " " }).joined(separator: " ")
        #expect(flat.contains("sequence number 1, as values. ChaCha20-Poly1305 nonce = IV XOR padded sequence number"), "\(flat)")
        #expect(flat.contains("XOR 000000000000000000000001 ="))
        #expect(flat.contains("Why a second AEAD"))
        #expect(!flat.contains("AES-GCM nonce = salt"), "the GCM sentence is not said of a ChaCha20 record")
        // The nonce shown is the IV XOR 1: its last byte differs from the IV's by one bit.
        let tls = trace.events.compactMap { if case .tls(let e) = $0.kind { return e } else { return nil } }
        let keys = try #require(tls.compactMap { e -> KeyBlock? in
            if case .derived(.keyBlock(_, _, _, let keys)) = e { return keys } else { return nil }
        }.first)
        #expect(keys.clientWriteIV.count == 12 && keys.clientWriteKey.count == 32)
        var nonce = keys.clientWriteIV
        nonce[11] ^= 1
        #expect(flat.contains(Hex.string(nonce)), "the client's second record's nonce: \(Hex.string(nonce))")
    }

    @Test func chineseSaysItToo() throws {
        let text = TextRenderer(verbosity: .normal, width: 100, color: false, explanations: .chinese)
            .render(try Self.trace()).joined(separator: "\n")
        let flat = text.split(whereSeparator: { $0 == "\n" || $0 == "│" || $0 == " " }).joined()
        #expect(flat.contains("ChaCha20-Poly1305nonce=IVXOR补齐的序号"), "\(flat.prefix(400))")
        #expect(flat.contains("为什么要有第二种AEAD"))
    }
}
