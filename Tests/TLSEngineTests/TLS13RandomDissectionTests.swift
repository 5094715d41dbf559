import Testing
@testable import TLSEngine

/// A TLS 1.3 hello's random is 32 opaque bytes (RFC 8446 §4.1.2, §4.1.3, §B.3.1 `opaque Random[32]`):
/// a dissection must not read its first four bytes as TLS 1.2's gmt_unix_time (RFC 5246 §7.4.1.2),
/// and a HelloRetryRequest's random is the fixed SHA-256("HelloRetryRequest").
@Suite("Dissection: a TLS 1.3 random is not a time")
struct TLS13RandomDissectionTests {
    static func serverHello(random: [UInt8], extensions: [UInt8]?) -> [UInt8] {
        var body: [UInt8] = [0x03, 0x03] + random + [0x00, 0x13, 0x01, 0x00]
        if let extensions { body += [UInt8(extensions.count >> 8), UInt8(extensions.count & 0xff)] + extensions }
        return [0x02, 0x00, UInt8(body.count >> 8), UInt8(body.count & 0xff)] + body
    }

    @Test func helloRetryRequestRandomIsTheConstant() throws {
        // supported_versions 0304, key_share selected_group x25519 (RFC 8446 §4.1.4).
        let hrr = Self.serverHello(random: TLS13HelloValues.helloRetryRequestRandom,
                                   extensions: [0x00, 0x2b, 0x00, 0x02, 0x03, 0x04, 0x00, 0x33, 0x00, 0x02, 0x00, 0x1d])
        let dissection = Dissector().dissectHandshakeMessages(hrr)
        let names = dissection.fields.flatMap(\.all).map(\.name)
        #expect(!names.contains { $0.contains("gmt_unix_time") }, "\(dissection)")
        let random = try #require(dissection.fields.flatMap(\.all).first { $0.name == "random" })
        #expect(random.length == 32 && random.isLeaf)
        #expect(random.value == .text(Hex.string(TLS13HelloValues.helloRetryRequestRandom)))
        #expect(random.notes == [.helloRetryRequestRandom])
        #expect(dissection.leaves.reduce(0) { $0 + $1.length } == hrr.count, "the leaves still cover every byte")
    }

    @Test func tls13ServerHelloRandomIsOpaque() throws {
        let random = (0..<32).map { UInt8($0) }
        let share: [UInt8] = [0x00, 0x1d, 0x00, 0x20] + [UInt8](repeating: 9, count: 32)
        let extensions: [UInt8] = [0x00, 0x2b, 0x00, 0x02, 0x03, 0x04, 0x00, 0x33, 0x00, UInt8(share.count)] + share
        let dissection = Dissector().dissectHandshakeMessages(Self.serverHello(random: random, extensions: extensions))
        #expect(!dissection.fields.flatMap(\.all).contains { $0.name.contains("gmt_unix_time") }, "\(dissection)")
        let field = try #require(dissection.fields.flatMap(\.all).first { $0.name == "random" })
        #expect(field.notes == [.tls13Random] && field.value == .text(Hex.string(random)))
    }

    @Test func tls12ServerHelloKeepsGMTUnixTime() throws {
        let dissection = Dissector().dissectHandshakeMessages(Self.serverHello(random: [UInt8](repeating: 1, count: 32), extensions: nil))
        #expect(dissection.leaves.contains { $0.name == "random.gmt_unix_time" }, "\(dissection)")
        #expect(!dissection.notes.contains { $0.note == .tls13Random || $0.note == .helloRetryRequestRandom })
    }
}
