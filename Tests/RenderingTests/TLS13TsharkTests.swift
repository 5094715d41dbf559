import Foundation
@testable import Rendering
import TCPSim
import TLSCrypto
import TLSEngine
import Testing
import TestSupport

/// A TLS 1.3 handshake between TLSLab's client and server (in memory, engine only), carried over
/// the simulated TCP connection and written as a pcap with the TLS 1.3 key log: tshark must read
/// a clean conversation, see only ClientHello and ServerHello in clear, and with the key log
/// decrypt every protected record — EncryptedExtensions, Certificate, CertificateVerify, both
/// Finished messages and the application data.
@Suite("TLS 1.3 pcap and key log, checked by tshark")
struct TLS13TsharkTests {
    struct AcceptAll: PeerCertificateEvaluator {
        let key: VerificationKey
        func evaluate(chain: [[UInt8]], role: TLSRole, serverName: String?) -> CertificateDecision {
            .accept(leafPublicKey: key, summary: .acceptedWithoutChecks)
        }
    }

    static var tshark: String? {
        (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":").map { "\($0)/tshark" }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    @Test(CrossCheckRequirement.trait(tshark != nil, missing: "tshark is not installed"), arguments: TLS13CipherSuite.allCases)
    func tsharkDecryptsEveryRecord(suite: TLS13CipherSuite) throws {
        // The engine fixtures' certificate (localhost) and RSA key: tshark parses the Certificate message.
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures/engine")
        let certificate = try Array(Data(contentsOf: fixtures.appendingPathComponent("server.cert.der")))
        let key = try RSAPrivateKey(pem: String(contentsOf: fixtures.appendingPathComponent("server.key.pem"), encoding: .utf8))
        var client = TLS13Client(configuration: TLS13ClientConfiguration(serverName: "localhost", evaluator: AcceptAll(key: .rsa(key.publicKey)),
                                                                         suites: [suite]), random: HMACDRBG(seed: 78))
        var server = TLS13Server(configuration: TLS13ServerConfiguration(identity: TLSIdentity(certificateChain: [certificate], privateKey: key),
                                                                         suites: [suite]), random: HMACDRBG(seed: 79))
        // The byte streams, flight by flight.
        var flights: [(fromClient: Bool, bytes: [UInt8])] = []
        var toServer = client.start().output
        while !toServer.isEmpty {
            flights.append((true, toServer))
            let answer = server.receive(toServer).output
            if !answer.isEmpty { flights.append((false, answer)) }
            toServer = client.receive(answer).output
        }
        #expect(client.state == .connected && server.state == .connected)
        flights.append((true, client.send(Array("GET /hello-tls13 HTTP/1.1\r\n\r\n".utf8)).output))
        flights.append((false, server.send(Array("HTTP/1.1 200 OK\r\nContent-Length: 14\r\n\r\nhello from 1.3".utf8)).output))

        let a = IPv4Address(10, 0, 0, 1), b = IPv4Address(10, 0, 0, 2)
        let net = TCPNetwork(random: TCPSeededRandom(seed: 13))
        net.addHost(a)
        net.addHost(b)
        net.setLinks(between: a, and: b, TCPLink(latency: TCPDuration.milliseconds(10)))
        try net.listen(on: b, port: 443)
        let c = try net.connect(from: a, to: TCPEndpoint(b, 443))
        net.runUntilIdle()
        let s = try #require(net.accept(on: b, port: 443))
        for flight in flights {
            try net.write(flight.fromClient ? c : s, flight.bytes)
            net.runUntilIdle()
        }
        let packets = net.takeEvents().compactMap { event -> PcapWriter.Packet? in
            guard case .sent(let p) = event.kind else { return nil }
            return PcapWriter.Packet(timeMicroseconds: event.time, source: p.source, destination: p.destination,
                                     payload: p.segment.encoded(source: p.source, destination: p.destination))
        }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tlslab-13-pcap-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { if ProcessInfo.processInfo.environment["TLSLAB_KEEP"] == nil { try? FileManager.default.removeItem(at: dir) } else { print("kept \(dir.path)") } }
        let pcap = dir.appendingPathComponent("run.pcap"), keylog = dir.appendingPathComponent("keys.log")
        try Data(PcapWriter().file(packets)).write(to: pcap)
        let log = KeyLogWriter.text(tls13: [.init(clientRandom: client.clientRandom, secrets: client.keyScheduleSteps)])
        try log.write(to: keylog, atomically: true, encoding: .utf8)
        #expect(log.contains("CLIENT_HANDSHAKE_TRAFFIC_SECRET ") && log.contains("SERVER_TRAFFIC_SECRET_0 "))

        func run(_ args: [String]) throws -> String {
            try ExternalTool.run(try #require(Self.tshark), ["-r", pcap.path, "-o", "tcp.check_checksum:TRUE"] + args, timeout: 120).stdoutText
        }
        func handshakeTypes(_ extra: [String]) throws -> [Int] {
            try run(extra + ["-Y", "tls.handshake.type", "-T", "fields", "-e", "tls.handshake.type"])
                .split(separator: "\n").flatMap { $0.split(separator: ",") }.compactMap { Int($0) }
        }
        #expect(try run(["-Y", "_ws.malformed || _ws.expert.severity>=warning"]).isEmpty)
        // Without keys: only the hellos are readable; the certificate travels encrypted.
        #expect(try handshakeTypes([]) == [1, 2])
        // With the key log: every handshake message and the data.
        let keyed = ["-o", "tls.keylog_file:\(keylog.path)"]
        let types = try handshakeTypes(keyed)
        #expect(types == [1, 2, 8, 11, 15, 20, 20], "\(types)")
        // The decrypted application data of both directions, read by tshark's HTTP dissector.
        let http = try run(keyed + ["-Y", "http", "-T", "fields", "-e", "http.request.uri", "-e", "http.response.code", "-e", "http.file_data"])
        #expect(http.contains("/hello-tls13"), "the client's data not decrypted: \(http)")
        #expect(http.contains("200") && (http.contains("hello from 1.3") || http.contains(Hex.string(Array("hello from 1.3".utf8)))),
                "the server's data not decrypted: \(http)")
    }
}
