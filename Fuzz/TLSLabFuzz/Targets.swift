import Foundation
import PKI
import RealPeer
import Scenarios
import HTTP2
import Simulation
import Trace
import Trust
import TCPSim
import TLSCrypto
import TLSEngine

/// The fuzz targets: each takes arbitrary bytes and must return without trapping, hanging or
/// growing memory without bound. Errors thrown by the code under test are expected.
enum FuzzTargets {
    static let names = ["record", "handshake", "server", "client", "dissect", "x509", "scenario", "hpack", "http2", "tcp",
                        "tls13server", "tls13client"]

    /// The server's identity, read once from the repository's engine fixtures (run from the package root).
    nonisolated(unsafe) static var identity: TLSIdentity?

    static func loadIdentity() {
        let dir = "Tests/Fixtures/engine/"
        guard let cert = FileManager.default.contents(atPath: dir + "server.cert.der"),
              let keyPEM = try? String(contentsOfFile: dir + "server.key.pem", encoding: .utf8),
              let key = try? RSAPrivateKey(pem: keyPEM) else { return }
        identity = TLSIdentity(certificateChain: [[UInt8](cert)], privateKey: key)
    }

    static func run(_ name: String, _ bytes: [UInt8]) {
        switch name {
        case "record":
            // The record layer: any split of the bytes, records until an error or the end.
            var reader = RecordReader()
            let cut = bytes.isEmpty ? 0 : Int(bytes[0]) % (bytes.count + 1)
            reader.append(bytes[..<cut])
            _ = try? reader.drain()
            reader.append(bytes[cut...])
            _ = try? reader.drain()
        case "handshake":
            // Handshake framing and every message decoder, under each key exchange's context.
            var reassembler = HandshakeReassembler()
            reassembler.append(bytes)
            guard let messages = try? reassembler.drain() else { return }
            let contexts = [HandshakeDecodingContext()] + [CipherSuite.TLS_RSA_WITH_AES_128_GCM_SHA256,
                                                           .TLS_DHE_RSA_WITH_AES_128_GCM_SHA256,
                                                           .TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256].map { HandshakeDecodingContext(negotiated: $0) }
            for message in messages { for context in contexts { _ = try? message.decode(context: context) } }
        case "server":
            // The server's state machine from its first state: bytes as a client would send them.
            guard let identity else { return }
            var configuration = TLSServerConfiguration(identity: identity, random: HMACDRBG(seed: 1))
            // With ticket keys, a SessionTicket extension's ticket is opened (RFC 5077 §4 layout checks).
            configuration.sessionTicketKeys = SessionTicketKeys(random: HMACDRBG(seed: 3))
            var server = TLSServer(configuration: configuration)
            _ = server.receive(bytes)
            _ = server.receiveEndOfStream()
        case "client":
            // The client after its ClientHello: bytes as a server would answer.
            var clientConfiguration = TLSClientConfiguration(certificateEvaluator: AcceptAnyCertificate(), random: HMACDRBG(seed: 2))
            // Asking for a ticket lets a ServerHello's SessionTicket and a NewSessionTicket through.
            clientConfiguration.offerSessionTicket = true
            var client = TLSClient(configuration: clientConfiguration)
            _ = client.start()
            _ = client.receive(bytes)
            _ = client.receiveEndOfStream()
        case "dissect":
            let dissector = Dissector()
            // Work and memory linear in the input (issue #38 defect 10: a message in tiny records once
            // made fields × records): at most 64 fields per input byte, in every reading.
            func fieldCount(_ fields: [DissectedField]) -> Int { fields.reduce(fields.count) { $0 + fieldCount($1.children) } }
            let records = dissector.dissectRecords(bytes)
            let messages = dissector.dissectHandshakeMessages(bytes)
            let count = fieldCount(records.fields) + fieldCount(records.reassembled) + fieldCount(messages.fields)
            if count > 64 * (bytes.count + 8) { fatalError("\(count) fields for \(bytes.count) bytes: not linear") }
            // Protected CBC records in both MAC orders (RFC 5246 §6.2.3.2, RFC 7366 §3), after a ChangeCipherSpec.
            // The same bytes read as TLS 1.3 from the start (RFC 8446: its messages and protected records).
            let tls13 = Dissector(context: HandshakeDecodingContext(version: .tls13))
            _ = tls13.dissectRecords(bytes)
            _ = tls13.dissectHandshakeMessages(bytes)
            let changeCipherSpec: [UInt8] = [20, 3, 3, 0, 1, 1]
            for etm in [false, true] {
                _ = Dissector(cipherSuite: .TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA, encryptThenMAC: etm)
                    .dissectRecords(changeCipherSpec + bytes)
            }
        case "x509":
            _ = try? X509Certificate(der: bytes)
        case "scenario":
            _ = try? ScenarioParser.parse(data: bytes, file: "fuzz.yaml")
        case "hpack":
            var decoder = HPACKDecoder()
            _ = try? decoder.decode(bytes)
            _ = try? decoder.decode(bytes)  // again, with the dynamic table the first block left
            // Bounded (issue #38 defect 7): what is kept never exceeds the limit, however the block
            // expands, and the table ends as the unbounded decoder's does.
            var bounded = HPACKDecoder(), unbounded = HPACKDecoder()
            let limit = 1_024
            if let kept = try? bounded.decode(bytes, maxListSize: limit) {
                let size = kept.fields.reduce(0) { $0 + $1.size }
                if size > limit { fatalError("kept \(size) octets of header list past the \(limit) limit") }
                if kept.summary.listSize > limit, kept.summary.discardedBeyond == nil { fatalError("a list past the limit not marked discarded") }
                if let all = try? unbounded.decode(bytes), all.summary.listSize != kept.summary.listSize || bounded.table != unbounded.table {
                    fatalError("the bounded decoder's count or table differs from the unbounded one's")
                }
            }
        case "http2":
            // Both roles of the one HTTP/2 engine: a server reading a client, a client reading a server.
            var configuration = HTTP2Connection.Configuration()
            configuration.respond = { _, _ in ([HPACKHeaderField(":status", "200")], []) }
            var server = HTTP2Connection(server: configuration)
            _ = server.receive(Array(HTTP2Frame.clientPreface) + bytes)
            var client = HTTP2Connection(client: HTTP2Connection.Configuration(),
                                         requests: [HTTP2Connection.Request(fields: [HPACKHeaderField(":method", "GET"),
                                             HPACKHeaderField(":scheme", "https"), HPACKHeaderField(":path", "/")])])
            _ = client.start()
            _ = client.receive(bytes)
            var rest = bytes[...]
            while let (_, consumed) = try? HTTP2Frame.decode(rest), consumed > 0 { rest = rest.dropFirst(consumed) }
        case "tls13server":
            // The TLS 1.3 server from its first state (a ClientHello, a second one after a
            // HelloRetryRequest, the client's Finished), and the 1.3 extension and message readers.
            guard let identity else { return }
            var server = TLS13Server(configuration: TLS13ServerConfiguration(identity: identity, groups: [.x25519]), random: HMACDRBG(seed: 1))
            _ = server.receive(bytes)
            _ = try? KeyShare(extensionData: bytes, in: .clientHello)
            _ = try? SupportedVersions(extensionData: bytes, inClientHello: true)
            _ = try? PSKKeyExchangeModes(extensionData: bytes)
            var r = ByteReader(bytes)
            _ = try? TLS13CertificateMessage(from: &r)
        case "tls13client":
            // The TLS 1.3 client after its ClientHello: bytes as a server would answer (ServerHello
            // or HelloRetryRequest, then protected records it cannot open without the keys).
            var client = TLS13Client(configuration: TLS13ClientConfiguration(serverName: "localhost", evaluator: AcceptAnyCertificate()),
                                     random: HMACDRBG(seed: 2))
            _ = client.start()
            _ = client.receive(bytes)
            _ = try? KeyShare(extensionData: bytes, in: .serverHello)
            _ = try? KeyShare(extensionData: bytes, in: .helloRetryRequest)
            var r = ByteReader(bytes)
            _ = try? EncryptedExtensions(from: &r)
        case "tcp":
            let a = IPv4Address(10, 0, 0, 1), b = IPv4Address(10, 0, 0, 2)
            _ = try? TCPSegment.decode(bytes, source: a, destination: b, verifyChecksum: false)
            _ = try? TCPSegment.decode(bytes, source: a, destination: b)
        default:
            break
        }
    }
}
