import Foundation
import TestSupport
import HTTP2
@testable import Rendering
import TCPSim
import TLSEngine
import Testing
import Trace
import Trust

/// The real OpenSSL 3.0 handshake from Tests/Fixtures/tls12-vectors.json, carried over the
/// simulated TCP connection, written as a pcap with a key log: tshark must see a clean TCP
/// conversation (checksums validated, no malformed or warning items) and, with the key log,
/// decrypt both Finished messages and the application data.
@Suite("pcap and key log, checked by tshark")
struct PcapTsharkTests {
    static let client = IPv4Address(10, 0, 0, 1)
    static let server = IPv4Address(10, 0, 0, 2)

    struct Vector {
        var messages: [[UInt8]]
        var clientRandom: [UInt8]
        var master: [UInt8]
        var clientFinishedRecord: [UInt8]
        var serverFinishedRecord: [UInt8]
        var appDataRecord: [UInt8]
    }

    static func vector() throws -> Vector {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/tls12-vectors.json")
        let root = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any]
        let v = root?["rsa_kx_openssl_real"] as? [String: Any] ?? [:]
        func bytes(_ key: String) -> [UInt8] { Hex.bytes(v[key] as? String ?? "") ?? [] }
        let messages = (v["handshake_messages_in_order(hex, each with 4-byte header)"] as? [String] ?? []).map { Hex.bytes($0) ?? [] }
        let outputs = v["outputs"] as? [String: Any] ?? [:]
        return Vector(messages: messages, clientRandom: bytes("client_random"),
                      master: Hex.bytes(outputs["master_secret"] as? String ?? "") ?? [],
                      clientFinishedRecord: bytes("client_encrypted_finished_record"),
                      serverFinishedRecord: bytes("server_encrypted_finished_record"),
                      appDataRecord: bytes("client_app_data_record(plaintext \"hello oracle\\n\")"))
    }

    static func record(_ type: UInt8, _ fragment: [UInt8]) -> [UInt8] {
        [type, 3, 3, UInt8(fragment.count >> 8), UInt8(fragment.count & 0xff)] + fragment
    }

    /// Runs the conversation and returns every packet as first sent, plus retransmissions.
    static func capture(loss: Bool) throws -> [PcapWriter.Packet] {
        let v = try vector()
        #expect(v.messages.count == 5)
        let net = TCPNetwork(random: TCPSeededRandom(seed: 42))
        net.addHost(client)
        net.addHost(server)
        net.setLinks(between: client, and: server, TCPLink(latency: TCPDuration.milliseconds(10)))
        if loss { net.addFault(TCPFaultRule(from: client, to: server, nth: 3, .drop)) }
        try net.listen(on: server, port: 443)
        let c = try net.connect(from: client, to: TCPEndpoint(server, 443))
        net.runUntilIdle()
        guard let s = net.accept(on: server, port: 443) else {
            Issue.record("no connection accepted")
            return []
        }
        let ccs = record(20, [1])
        let flights: [(TCPConnectionID, [UInt8])] = [
            (c, record(22, v.messages[0])),
            (s, record(22, v.messages[1] + v.messages[2] + v.messages[3])),
            (c, record(22, v.messages[4]) + ccs + v.clientFinishedRecord),
            (s, ccs + v.serverFinishedRecord),
            (c, v.appDataRecord),
        ]
        for (id, bytes) in flights {
            try net.write(id, bytes)
            net.runUntilIdle()
        }
        try net.close(c)
        net.runUntilIdle()
        try net.close(s)
        net.runUntilIdle()
        return net.takeEvents().compactMap { event in
            guard case .sent(let p) = event.kind else { return nil }
            return PcapWriter.Packet(timeMicroseconds: event.time, source: p.source, destination: p.destination,
                                     payload: p.segment.encoded(source: p.source, destination: p.destination))
        }
    }

    static func tshark(_ args: [String]) throws -> String? {
        guard let tool = ExternalTool.find("tshark") else { return nil }
        return try ExternalTool.run(tool, args).stdoutText
    }
    @Test(arguments: [PcapWriter.LinkType.ethernet, .rawIPv4], [false, true])
    func tsharkDecodesAndDecrypts(link: PcapWriter.LinkType, loss: Bool) throws {
        let v = try Self.vector()
        let packets = try Self.capture(loss: loss)
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tlslab-pcap-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let pcap = dir.appendingPathComponent("run.pcap"), keylog = dir.appendingPathComponent("keys.log")
        try Data(PcapWriter(linkType: link).file(packets)).write(to: pcap)
        try KeyLogWriter.text([.init(clientRandom: v.clientRandom, masterSecret: v.master)]).write(to: keylog, atomically: true, encoding: .utf8)

        let checks = ["-o", "tcp.check_checksum:TRUE", "-o", "ip.check_checksum:TRUE"]
        guard let problems = try Self.tshark(["-r", pcap.path] + checks + ["-Y", "_ws.malformed || _ws.expert.severity>=warning"]) else {
            print("skipped: tshark is not installed (apt-get install tshark)")
            return
        }
        let flagged = problems.split(separator: "\n").filter { line in
            // a deliberately lost segment is expected to show as a retransmission / previous segment not captured
            !(loss && (line.contains("Retransmission") || line.contains("previous segment") || line.contains("Out-Of-Order")
                       || line.contains("Dup ACK") || line.contains("ACKed unseen")))
        }
        #expect(flagged.isEmpty, "tshark flagged: \(flagged.prefix(5))")

        // The handshake as tshark reads it, in clear.
        let handshake = try Self.tshark(["-r", pcap.path] + checks + ["-Y", "tls.handshake.type", "-T", "fields",
                                         "-e", "tls.handshake.type"]) ?? ""
        let types = handshake.split(separator: "\n").flatMap { $0.split(separator: ",") }.compactMap { Int($0) }
        #expect(types.prefix(5) == [1, 2, 11, 14, 16])

        // With the key log: both Finished messages and the application data decrypt.
        let finishedFrames = try Self.tshark(["-r", pcap.path, "-o", "tls.keylog_file:\(keylog.path)", "-Y",
                                              "tls.handshake.type == 20", "-T", "fields", "-e", "frame.number"]) ?? ""
        #expect(finishedFrames.split(separator: "\n").count == 2, "tshark should decrypt both Finished messages")
        let app = try Self.tshark(["-r", pcap.path, "-o", "tls.keylog_file:\(keylog.path)", "-x"]) ?? ""
        #expect(app.contains("hello oracle"), "application data not decrypted")
        // The decrypted Finished messages as tshark shows them: header 14 00 00 0c + verify_data.
        #expect(app.contains("14 00 00 0c 05 97 02 cd 3b f4 17 5d 63 a8 eb d9"), "client Finished not decrypted")
        #expect(app.contains("14 00 00 0c 2c c0 33 4f 6f cc 99 53 44 de 4a 3c"), "server Finished not decrypted")
        // Without the key log nothing decrypts.
        let blind = try Self.tshark(["-r", pcap.path, "-x"]) ?? ""
        #expect(!blind.contains("hello oracle"))
    }

    @Test func ipv4HeaderChecksumAndFraming() {
        let packet = PcapWriter.Packet(timeMicroseconds: 1_500_000, source: Self.client, destination: Self.server, payload: [1, 2, 3])
        let ip = PcapWriter.ipv4Packet(packet, identification: 7)
        #expect(ip.count == 23)
        #expect(InternetChecksum.compute(Array(ip.prefix(20))) == 0)  // a valid header sums to zero
        let file = PcapWriter(linkType: .ethernet, epochSeconds: 100).file([packet])
        #expect(Array(file.prefix(4)) == [0xd4, 0xc3, 0xb2, 0xa1])
        #expect(file.count == 24 + 16 + 14 + 23)
        #expect(file[24] == 101 && file[28] == 0x20 && file[29] == 0xa1 && file[30] == 0x07)  // 101 s, 500000 µs
    }

    @Test func keyLogFormat() {
        let text = KeyLogWriter.text([.init(clientRandom: [UInt8](repeating: 0xab, count: 32), masterSecret: [UInt8](repeating: 1, count: 48)),
                                      .init(clientRandom: [1], masterSecret: [2])])
        let lines = text.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines[1] == "CLIENT_RANDOM " + String(repeating: "ab", count: 32) + " " + String(repeating: "01", count: 48))
    }
}
