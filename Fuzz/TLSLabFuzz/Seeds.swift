import Foundation
import PKI
import RealPeer
import HTTP2
import Simulation
import Trace
import Trust
import TCPSim
import TLSCrypto
import TLSEngine

/// Seed corpora from real bytes: an in-memory handshake between our client and server, the
/// repository's certificates and lessons, HPACK and HTTP/2 frames our codecs write, TCP segments.
enum FuzzSeeds {
    static func write(to directory: String) throws {
        var seeds: [String: [[UInt8]]] = [:]
        guard let identity = FuzzTargets.identity else { throw CocoaError(.fileReadNoSuchFile) }
        // One full handshake per key exchange: the client's and the server's flights.
        for (i, suite) in [CipherSuite.TLS_RSA_WITH_AES_128_GCM_SHA256, .TLS_DHE_RSA_WITH_AES_128_GCM_SHA256,
                           .TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256, .TLS_RSA_WITH_AES_128_CBC_SHA].enumerated() {
            var client = TLSClient(configuration: TLSClientConfiguration(certificateEvaluator: AcceptAnyCertificate(),
                                                                         random: HMACDRBG(seed: UInt64(10 + i)), cipherSuites: [suite],
                                                                         serverName: "localhost"))
            var server = TLSServer(configuration: TLSServerConfiguration(identity: identity, random: HMACDRBG(seed: UInt64(20 + i))))
            var toServer = client.start().output
            var clientFlights: [[UInt8]] = [], serverFlights: [[UInt8]] = []
            var handshakeBytes: [UInt8] = []
            for _ in 0 ..< 6 where !toServer.isEmpty {
                clientFlights.append(toServer)
                let s = server.receive(toServer)
                for case .handshakeSent(_, let bytes) in s.events { handshakeBytes += bytes }
                guard !s.output.isEmpty else { break }
                serverFlights.append(s.output)
                toServer = client.receive(s.output).output
            }
            seeds["server", default: []] += [clientFlights.first ?? [], Array(clientFlights.joined())]
            seeds["client", default: []] += [serverFlights.first ?? []]
            seeds["record", default: []] += [Array(clientFlights.joined()), Array(serverFlights.joined())]
            seeds["dissect", default: []] += [serverFlights.first ?? [], clientFlights.first ?? []]
            seeds["handshake", default: []] += [handshakeBytes]
        }
        // TLS 1.3: a full handshake and one with a HelloRetryRequest (the client shares P-256, the server wants X25519).
        for (i, shares) in [[NamedGroup.x25519], [.secp256r1]].enumerated() {
            var client = TLS13Client(configuration: TLS13ClientConfiguration(serverName: "localhost", evaluator: AcceptAnyCertificate(),
                                                                             groups: [.secp256r1, .x25519], keyShareGroups: shares),
                                     random: HMACDRBG(seed: UInt64(40 + i)))
            var server = TLS13Server(configuration: TLS13ServerConfiguration(identity: identity, groups: [.x25519]), random: HMACDRBG(seed: UInt64(50 + i)))
            var toServer = client.start().output
            var clientFlights: [[UInt8]] = [], serverFlights: [[UInt8]] = []
            for _ in 0..<4 where !toServer.isEmpty {
                clientFlights.append(toServer)
                let s = server.receive(toServer)
                serverFlights.append(s.output)
                toServer = client.receive(s.output).output
            }
            seeds["tls13server", default: []] += [clientFlights.first ?? [], Array(clientFlights.joined())]
            seeds["tls13client", default: []] += [serverFlights.first ?? []]
            seeds["dissect", default: []] += [serverFlights.first ?? [], clientFlights.first ?? []]
        }
        seeds["x509"] = identity.certificateChain
        for name in ["ca.cert.der", "client.cert.der"] {
            if let d = FileManager.default.contents(atPath: "Tests/Fixtures/engine/" + name) { seeds["x509", default: []].append([UInt8](d)) }
        }
        let lessons = (FileManager.default.enumerator(atPath: "Scenarios")?.allObjects as? [String] ?? [])
            .filter { $0.hasSuffix(".yaml") }.sorted().prefix(12)
        seeds["scenario"] = lessons.compactMap { FileManager.default.contents(atPath: "Scenarios/" + $0).map { [UInt8]($0) } }
        var encoder = HPACKEncoder()
        let fields = [HPACKHeaderField(":method", "GET"), HPACKHeaderField(":scheme", "https"),
                      HPACKHeaderField(":path", "/"), HPACKHeaderField(":authority", "localhost"),
                      HPACKHeaderField("user-agent", "tlslab-fuzz"), HPACKHeaderField("cookie", "session=42")]
        let block = encoder.encode(fields).block
        // A small header bomb (issue #38 defect 7): a 400-octet literal added to the table, then
        // named again 600 times with one-octet indexed representations (index 62).
        let bomb: [UInt8] = [0x40, 0x06] + Array("x-bomb".utf8) + HPACKInteger.encode(400, prefixBits: 7)
            + [UInt8](repeating: 0x61, count: 400) + [UInt8](repeating: 0xBE, count: 600)
        seeds["hpack"] = [block, encoder.encode(fields).block, bomb]
        let settings = HTTP2Frame(streamID: 0, payload: .settings([])).encoded
        let headers = HTTP2Frame(streamID: 1, flags: [.endHeaders, .endStream], payload: .headers(block: block, priority: nil)).encoded
        seeds["http2"] = [settings, settings + headers]
        let a = IPv4Address(10, 0, 0, 1), b = IPv4Address(10, 0, 0, 2)
        let syn = TCPSegment(sourcePort: 40_000, destinationPort: 443, seq: SeqNumber(1000), flags: [.syn], window: 65_535, mss: 1460)
        let data = TCPSegment(sourcePort: 40_000, destinationPort: 443, seq: SeqNumber(1001), ack: SeqNumber(2001),
                              flags: [.psh], window: 65_535, payload: Array("hello".utf8))
        seeds["tcp"] = [syn.encoded(source: a, destination: b), data.encoded(source: a, destination: b)]

        for (target, inputs) in seeds {
            let dir = "\(directory)/\(target)"
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            for (i, input) in inputs.enumerated() where !input.isEmpty {
                try Data(input).write(to: URL(fileURLWithPath: "\(dir)/seed-\(i)"))
            }
        }
        print("wrote seeds for \(seeds.keys.sorted().joined(separator: ", ")) under \(directory)")
    }
}
