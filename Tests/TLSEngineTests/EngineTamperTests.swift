import Foundation
import Testing
import TLSCrypto
@testable import TLSEngine

/// An attacker flips one bit of one handshake message in flight: the handshake must fail with an
/// alert — never a crash, never a silent success. Debug: every 97th bit; TLSLAB_HEAVY=1: all.
@Suite("Engine tamper")
struct EngineTamperTests {
    static let heavy = ProcessInfo.processInfo.environment["TLSLAB_HEAVY"] == "1"
    static let suites: [CipherSuite] = [.TLS_RSA_WITH_AES_128_GCM_SHA256, .TLS_DHE_RSA_WITH_AES_128_GCM_SHA256,
                                        .TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256]

    /// The alerts a flipped bit in each message kind may cause (which one depends on the field hit):
    /// - anything covered by Finished only (randoms, unused list entries) → decrypt_error at the
    ///   Finished check, or bad_record_mac when the keys themselves differ (a corrupted RSA
    ///   premaster takes the RFC 5246 §7.4.7.1 countermeasure, so the server's keys differ);
    /// - structure (lengths, vectors) → decode_error; type bytes → unexpected_message;
    /// - chosen values the peer did not offer → illegal_parameter / handshake_failure /
    ///   protocol_version / unsupported_extension;
    /// - the certificate → bad_certificate; the ServerKeyExchange signature → decrypt_error.
    static func allowed(_ type: HandshakeType, flow: Flow) -> Set<AlertDescription> {
        let finishedOnly: Set<AlertDescription> = [.decryptError, .badRecordMAC]
        let structure: Set<AlertDescription> = [.decodeError, .unexpectedMessage]
        switch type {
        case .clientHello:
            return finishedOnly.union(structure).union([.handshakeFailure, .protocolVersion, .illegalParameter])
        case .serverHello:
            return finishedOnly.union(structure).union([.illegalParameter, .protocolVersion, .unsupportedExtension,
                                                       .handshakeFailure])
        case .certificate:
            // A flipped bit in the CA certificate (not checked by the fixture evaluator) only
            // changes the transcript: with EMS the keys differ (bad_record_mac).
            return structure.union(finishedOnly).union([.badCertificate, .handshakeFailure])
        case .serverKeyExchange:
            return structure.union([.decryptError, .illegalParameter])
        case .serverHelloDone:
            return structure
        case .clientKeyExchange:
            return finishedOnly.union(structure).union([.illegalParameter])
        case .finished:
            return [.badRecordMAC]
        default:
            return structure.union(finishedOnly)
        }
    }

    static func sweep(suite: CipherSuite, stride step: Int) throws -> [String: Int] {
        let client = try Harness.clientConfiguration(seed: 42, suites: [suite])
        let server = try Harness.serverConfiguration(seed: 42)
        let clean = Harness.run(client: client, server: server, exchangeData: false)
        #expect(clean.outcome == .connected)
        var histogram: [String: Int] = [:]
        var bit = 0
        for message in clean.messages {
            let bits = message.byteCount * 8
            while bit < bits {
                let flip = BitFlip(flow: message.flow, index: message.index, bit: bit)
                // Fresh generators: the same seed gives the same messages, so the flip hits the same field.
                let run = Harness.run(client: try Harness.clientConfiguration(seed: 42, suites: [suite]),
                                      server: try Harness.serverConfiguration(seed: 42), flip: flip, exchangeData: false)
                switch run.outcome {
                case .connected:
                    Issue.record("\(suite): flipping bit \(bit) of \(message.type) went unnoticed")
                case .stalled:
                    // Only a length that grew can make a receiver wait for bytes that never come:
                    // the last message of a flight, bits of its 3-byte length.
                    #expect((8..<32).contains(bit), "\(suite): \(message.type) bit \(bit) stalled")
                    histogram["\(message.type): stalled", default: 0] += 1
                case let .failed(_, alert):
                    #expect(allowed(message.type, flow: message.flow).contains(alert),
                            "\(suite): \(message.type) bit \(bit) → \(alert)")
                    histogram["\(message.type): \(alert)", default: 0] += 1
                }
                bit += step
            }
            bit -= bits
        }
        return histogram
    }

    @Test("sampled bit flips (every 97th bit) fail with the expected alert", arguments: suites)
    func sampled(_ suite: CipherSuite) throws {
        let histogram = try Self.sweep(suite: suite, stride: 97)
        #expect(!histogram.isEmpty)
    }

    @Test("every bit of every handshake message", .enabled(if: heavy), arguments: suites)
    func exhaustive(_ suite: CipherSuite) throws {
        _ = try Self.sweep(suite: suite, stride: 1)
    }
}
