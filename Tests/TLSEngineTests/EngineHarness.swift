import Foundation
import Testing
import TLSCrypto
@testable import TLSEngine

/// The fixture chain (Tests/Fixtures/engine, made by scripts/make-engine-fixtures.sh) and keys.
enum EngineFixtures {
    static let directory = Fixtures.directory.appendingPathComponent("engine")

    static func file(_ name: String) -> [UInt8] {
        (try? Data(contentsOf: directory.appendingPathComponent(name))).map { Array($0) } ?? []
    }

    static let caCertificate = file("ca.cert.der")
    static let serverCertificate = file("server.cert.der")
    static let clientCertificate = file("client.cert.der")

    static let serverKey: RSAPrivateKey? = loadKey("server")
    static let clientKey: RSAPrivateKey? = loadKey("client")

    /// True when the fixture keys loaded (they match the certificates, as the OpenSSL interop test needs).
    static var usesFixtureKeys: Bool { serverKey != nil && clientKey != nil }

    static func loadKey(_ name: String) -> RSAPrivateKey? {
        guard let pem = try? String(contentsOf: directory.appendingPathComponent("\(name).key.pem"), encoding: .utf8) else {
            return nil
        }
        return try? RSAPrivateKey(pem: pem)
    }
}

/// Accepts exactly one leaf certificate and returns the matching key (a stand-in for the PKI layer).
struct FixtureEvaluator: PeerCertificateEvaluator {
    let leaf: [UInt8]
    let key: RSAPublicKey

    func evaluate(chain: [[UInt8]], role: TLSRole, serverName: String?) -> CertificateDecision {
        guard chain.first == leaf else { return .reject(.refusedByPolicy, reason: .decidedBy([], firstFailure: nil)) }
        return .accept(leafPublicKey: .rsa(key), summary: .acceptedWithoutChecks)
    }
}

/// Which way bytes travel.
enum Flow: String, Hashable, Sendable { case clientToServer, serverToClient }

/// One handshake message as it travels: its type and how many bytes an attacker can flip
/// (the message for plaintext records; the whole protected fragment for an encrypted Finished).
struct InFlightMessage: Hashable, Sendable {
    var flow: Flow
    var index: Int
    var type: HandshakeType
    var byteCount: Int
    /// The bytes as sent (message with header; the protected fragment for an encrypted Finished).
    var bytes: [UInt8] = []
    /// True for a record protected after ChangeCipherSpec.
    var isProtected = false
}

/// Flip one bit of the `index`-th handshake message in `flow`.
struct BitFlip: Sendable {
    var flow: Flow
    var index: Int
    var bit: Int
}

/// How a run ended.
enum Outcome: Hashable, CustomStringConvertible {
    case connected
    /// The first fatal alert sent, by whom.
    case failed(sender: TLSRole, alert: AlertDescription)
    /// Neither side finished nor failed, even after end of stream (must never happen).
    case stalled

    var description: String {
        switch self {
        case .connected: return "connected"
        case let .failed(sender, alert): return "\(sender) sent \(alert)"
        case .stalled: return "stalled"
        }
    }
}

struct EngineRun {
    var client: TLSClient
    var server: TLSServer
    var clientEvents: [TLSEvent] = []
    var serverEvents: [TLSEvent] = []
    var messages: [InFlightMessage] = []
    var outcome: Outcome = .stalled
    var clientReceived: [UInt8] = []
    var serverReceived: [UInt8] = []
    /// The sides that were told the peer went silent, in order.
    var endOfStreamDelivered: [TLSRole] = []
}

enum Harness {
    static func serverIdentity() throws -> TLSIdentity {
        TLSIdentity(certificateChain: [EngineFixtures.serverCertificate, EngineFixtures.caCertificate],
                    privateKey: try #require(EngineFixtures.serverKey))
    }

    static func clientIdentity() throws -> TLSIdentity {
        TLSIdentity(certificateChain: [EngineFixtures.clientCertificate, EngineFixtures.caCertificate],
                    privateKey: try #require(EngineFixtures.clientKey))
    }

    static func clientConfiguration(seed: UInt64, suites: [CipherSuite] = CipherSuite.implemented) throws -> TLSClientConfiguration {
        let key = try #require(EngineFixtures.serverKey).publicKey
        return TLSClientConfiguration(certificateEvaluator: FixtureEvaluator(leaf: EngineFixtures.serverCertificate, key: key),
                                      random: HMACDRBG(seed: seed &* 2 &+ 1), cipherSuites: suites,
                                      serverName: "localhost")
    }

    static func serverConfiguration(seed: UInt64, suites: [CipherSuite] = CipherSuite.allImplemented) throws -> TLSServerConfiguration {
        let clientKey = try #require(EngineFixtures.clientKey).publicKey
        return TLSServerConfiguration(identity: try serverIdentity(), random: HMACDRBG(seed: seed &* 2),
                                      cipherSuites: suites,
                                      clientCertificateEvaluator: FixtureEvaluator(leaf: EngineFixtures.clientCertificate, key: clientKey))
    }

    /// Runs the handshake in memory, passing every record across, optionally flipping one bit,
    /// then (when connected) exchanges one request and one response.
    static func run(client clientConfig: TLSClientConfiguration, server serverConfig: TLSServerConfiguration,
                    flip: BitFlip? = nil, exchangeData: Bool = true, serverClock: SessionTime? = nil) -> EngineRun {
        var run = EngineRun(client: TLSClient(configuration: clientConfig), server: TLSServer(configuration: serverConfig))
        var counters: [Flow: Int] = [:]
        var protectedFlows: Set<Flow> = []
        var step = run.client.start()
        var flow = Flow.clientToServer
        for _ in 0..<20 {
            run.record(step.events, from: flow == .clientToServer ? .client : .server)
            var bytes: [UInt8] = []
            for record in step.records {
                var record = record
                inspect(&record, flow: flow, counters: &counters, protectedFlows: &protectedFlows,
                        messages: &run.messages, flip: flip)
                bytes += record.encoded
            }
            if bytes.isEmpty { break }
            if flow == .clientToServer {
                step = serverClock.map { run.server.receive(bytes, at: $0) } ?? run.server.receive(bytes)
                flow = .serverToClient
            } else {
                step = run.client.receive(bytes)
                flow = .clientToServer
            }
        }
        // No bytes move any more. The side that received last and answered nothing waits for bytes
        // that will never come: it gets end of stream first (its alert goes to the peer), then the
        // peer, if that one still waits.
        let silent: TLSRole = flow == .clientToServer ? .client : .server
        endOfStream(&run, first: silent)
        run.outcome = outcome(run)
        if exchangeData, run.outcome == .connected {
            let request = Array("GET / HTTP/1.1\r\nHost: localhost\r\n\r\n".utf8)
            let response = Array("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nhi".utf8)
            if let s = try? run.client.sendApplicationData(request) {
                run.record(s.events, from: .client)
                let r = run.server.receive(s.output)
                run.record(r.events, from: .server)
            }
            if let s = try? run.server.sendApplicationData(response) {
                run.record(s.events, from: .server)
                let r = run.client.receive(s.output)
                run.record(r.events, from: .client)
            }
            let close = run.client.close()
            run.record(close.events, from: .client)
            let reply = run.server.receive(close.output)
            run.record(reply.events, from: .server)
            let end = run.client.receive(reply.output)
            run.record(end.events, from: .client)
        }
        return run
    }

    static func isDone(_ state: TLSStateName) -> Bool { [.connected, .closed, .failed].contains(state) }

    /// Tells each side still inside its handshake that the peer went silent.
    static func endOfStream(_ run: inout EngineRun, first: TLSRole) {
        for role in [first, first == .client ? TLSRole.server : .client] {
            if role == .client, !isDone(run.client.stateName) {
                let step = run.client.receiveEndOfStream()
                run.record(step.events, from: .client)
                run.endOfStreamDelivered.append(.client)
                if !step.output.isEmpty { run.record(run.server.receive(step.output).events, from: .server) }
            } else if role == .server, !isDone(run.server.stateName) {
                let step = run.server.receiveEndOfStream()
                run.record(step.events, from: .server)
                run.endOfStreamDelivered.append(.server)
                if !step.output.isEmpty { run.record(run.client.receive(step.output).events, from: .client) }
            }
        }
    }

    /// Counts handshake messages in a record, and flips the chosen bit.
    static func inspect(_ record: inout TLSRecord, flow: Flow, counters: inout [Flow: Int],
                        protectedFlows: inout Set<Flow>, messages: inout [InFlightMessage], flip: BitFlip?) {
        if record.contentType == .changeCipherSpec { protectedFlows.insert(flow) }
        guard record.contentType == .handshake else { return }
        let protected = protectedFlows.contains(flow)
        if protected {
            let index = counters[flow, default: 0]
            counters[flow] = index + 1
            messages.append(InFlightMessage(flow: flow, index: index, type: .finished, byteCount: record.fragment.count,
                                            bytes: record.fragment, isProtected: true))
            if let flip, flip.flow == flow, flip.index == index, flip.bit / 8 < record.fragment.count {
                record.fragment[flip.bit / 8] ^= UInt8(1 << (flip.bit % 8))
            }
            return
        }
        var offset = 0
        let f = record.fragment
        while offset + 4 <= f.count {
            let length = Int(f[offset + 1]) << 16 | Int(f[offset + 2]) << 8 | Int(f[offset + 3])
            let size = min(4 + length, f.count - offset)
            let index = counters[flow, default: 0]
            counters[flow] = index + 1
            messages.append(InFlightMessage(flow: flow, index: index, type: HandshakeType(rawValue: f[offset]), byteCount: size,
                                            bytes: Array(f[offset ..< offset + size])))
            if let flip, flip.flow == flow, flip.index == index, flip.bit / 8 < size {
                record.fragment[offset + flip.bit / 8] ^= UInt8(1 << (flip.bit % 8))
            }
            offset += size
        }
    }

    static func outcome(_ run: EngineRun) -> Outcome {
        // Only the side that detects a problem sends a fatal alert; the other fails on receiving it.
        for (role, events) in [(TLSRole.client, run.clientEvents), (.server, run.serverEvents)] {
            for event in events {
                if case .alertSent(let alert, _) = event, alert.isFatal {
                    return .failed(sender: role, alert: alert.alertDescription)
                }
            }
        }
        if run.client.isConnected && run.server.isConnected { return .connected }
        return .stalled
    }
}

extension EngineRun {
    mutating func record(_ events: [TLSEvent], from role: TLSRole) {
        for event in events {
            if case .applicationDataReceived(let data) = event {
                if role == .client { clientReceived += data } else { serverReceived += data }
            }
        }
        if role == .client { clientEvents += events } else { serverEvents += events }
    }
}
