import Foundation
import Testing
import TLSCrypto
@testable import TLSEngine

/// An attacker flips one bit of one handshake message in flight: the handshake must fail with a
/// fatal alert — never a crash, never a silent success, never a silent stall (a side left waiting
/// gets end of stream, see `Harness.run`). The `Dissector` names the field the bit hit, and each
/// message type × field class expects one or two alerts, from a named side, for a stated reason.
///
/// Debug: every bit of each message header, the first and last bit of every field, and every
/// 61st bit. TLSLAB_HEAVY=1: every bit of every message, one seed per key exchange kind.
@Suite("Engine tamper")
struct EngineTamperTests {
    static let heavy = ProcessInfo.processInfo.environment["TLSLAB_HEAVY"] == "1"

    /// One handshake configuration per key-exchange kind, plus mutual TLS and a CBC suite.
    struct Kind: CustomStringConvertible, Sendable {
        var name: String
        var suite: CipherSuite
        var mutual = false
        /// Both sides speak ALPN: the client offers h2 and http/1.1, the server prefers h2.
        var alpn = false

        var description: String { name }
        var keyExchange: KeyExchangeAlgorithm { suite.parameters?.keyExchange ?? .rsa }

        func configurations() throws -> (TLSClientConfiguration, TLSServerConfiguration) {
            var client = try Harness.clientConfiguration(seed: 42, suites: [suite])
            var server = try Harness.serverConfiguration(seed: 42)
            if mutual {
                client.identity = try Harness.clientIdentity()
                server.clientAuthentication = .require
            }
            if alpn {
                client.applicationProtocols = [.h2, .http11]
                server.applicationProtocols = [.h2, .http11]
            }
            return (client, server)
        }
    }

    static let kinds: [Kind] = [
        Kind(name: "RSA", suite: .TLS_RSA_WITH_AES_128_GCM_SHA256),
        Kind(name: "DHE", suite: .TLS_DHE_RSA_WITH_AES_128_GCM_SHA256),
        Kind(name: "ECDHE", suite: .TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256),
        Kind(name: "ECDHE mutual TLS", suite: .TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256, mutual: true),
        Kind(name: "RSA CBC", suite: .TLS_RSA_WITH_AES_128_CBC_SHA),
        Kind(name: "ECDHE CBC SHA-384", suite: .TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA384),
        Kind(name: "DHE CBC SHA-1", suite: .TLS_DHE_RSA_WITH_AES_256_CBC_SHA),
        Kind(name: "ECDHE ALPN", suite: .TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256, alpn: true),
    ]

    /// What may happen, and why.
    struct Expectation {
        var outcomes: Set<Outcome>
        var reason: String
    }

    /// The field a bit hit, from the `Dissector`'s leaf: its name (`random.random_bytes`,
    /// `certificate_list[0]`, `extensions[3].extension_type`) and decoded value.
    struct Hit {
        var name: String
        var value: String
        var byte: Int
        var bit: Int
        var original: UInt8

        var flipped: UInt8 { original ^ UInt8(1 << (bit % 8)) }
        func named(_ suffix: String) -> Bool { name == suffix || name.hasSuffix("." + suffix) }
    }

    /// The alert for one flipped field. Names are RFC 5246 §7.2.2's; "receiver" is the side the
    /// message went to. EMS is on in every configuration, so anything that only changes the
    /// transcript before ClientKeyExchange changes the master secret.
    static func expected(_ hit: Hit, in message: InFlightMessage, kind: Kind) -> Expectation {
        let receiver: TLSRole = message.flow == .clientToServer ? .server : .client
        func from(_ role: TLSRole, _ alerts: AlertDescription...) -> Set<Outcome> {
            Set(alerts.map { .failed(sender: role, alert: $0) })
        }
        // A change only the transcript sees: with mutual TLS the server's CertificateVerify check
        // fails first (the client signed other bytes): decrypt_error; else the EMS session hash
        // differs, so the keys do: the server cannot open the client's Finished: bad_record_mac.
        let transcript = kind.mutual
            ? Expectation(outcomes: from(.server, .decryptError), reason: "only the transcript differs; CertificateVerify signed other bytes")
            : Expectation(outcomes: from(.server, .badRecordMAC), reason: "only the transcript differs; with EMS the keys differ, the client's Finished does not open")
        func adding(_ e: Expectation, _ extra: Set<Outcome>, _ why: String) -> Expectation {
            Expectation(outcomes: e.outcomes.union(extra), reason: e.reason + "; or " + why)
        }

        if message.isProtected {
            return Expectation(outcomes: from(receiver, .badRecordMAC),
                               reason: "a protected record: the GCM tag or the CBC MAC/padding fails (RFC 5246 §6.2.3)")
        }
        // The 4-byte handshake header (RFC 5246 §7.4).
        if hit.name == "msg_type" {
            if hit.flipped == HandshakeType.helloRequest.rawValue && receiver == .client {
                return Expectation(outcomes: from(.client, .decodeError),
                                   reason: "a HelloRequest, ignored while negotiating, but this one has a body")
            }
            return Expectation(outcomes: from(receiver, .unexpectedMessage), reason: "a message type this state does not expect")
        }
        if hit.name == "length" {
            return Expectation(outcomes: from(receiver, .decodeError, .unexpectedMessage),
                               reason: "the message is cut short or runs into the next one (decode_error), its tail is read as a message of a type not expected here (unexpected_message), or bytes that never come are waited for until end of stream (decode_error)")
        }
        if hit.name.hasSuffix(".length") || hit.name.hasSuffix("_list.length") {
            return Expectation(outcomes: from(receiver, .decodeError), reason: "a vector length no longer fits its contents")
        }
        if hit.name.hasPrefix("random.") {
            return kind.keyExchange == .rsa
                ? Expectation(outcomes: from(.server, .badRecordMAC), reason: "a random feeds the key block: the client's Finished does not open")
                : Expectation(outcomes: from(.client, .decryptError), reason: "the randoms are signed in ServerKeyExchange (RFC 5246 §7.4.3)")
        }

        switch message.type {
        case .clientHello:
            switch true {
            case hit.named("client_version"):
                return adding(adding(transcript, from(.client, .protocolVersion), "a lower version the client does not accept in ServerHello"),
                              from(.server, .protocolVersion), "below TLS 1.0, refused at once")
            case hit.name.hasPrefix("cipher_suites["):
                return Expectation(outcomes: from(.server, .handshakeFailure).union(from(.client, .illegalParameter)),
                                   reason: "no suite in common, or the server picks a suite the client never offered")
            case hit.name.hasPrefix("compression_methods["):
                return Expectation(outcomes: from(.server, .illegalParameter), reason: "null compression is no longer offered")
            case hit.named("ec_point_format_list[0]"):
                return Expectation(outcomes: from(.server, .illegalParameter), reason: "no uncompressed point format (RFC 8422 §5.1.2)")
            case hit.named("name_type"):
                return Expectation(outcomes: from(.server, .decodeError), reason: "only host_name (0) is defined (RFC 6066 §3)")
            case hit.name.contains("host_name"):
                // "localhost" with one bit flipped: another letter (the server goes on, only Finished can
                // notice), or a byte no DNS host name holds, refused at once (RFC 6066 §3, issue #38).
                return adding(transcript, from(.server, .illegalParameter), "a byte no DNS host name holds (RFC 6066 §3)")
            case hit.named("extension_type"):
                if hit.value.contains("extended_master_secret") {
                    let emsGone = Expectation(outcomes: from(.server, .decryptError).union(transcript.outcomes),
                                              reason: "EMS is no longer offered: same keys, only the Finished differs (decrypt_error)")
                    guard kind.suite.parameters?.isAEAD == false else { return emsGone }
                    // 0x0017 with its low bit flipped is 0x0016, encrypt_then_mac: with a CBC suite the server
                    // echoes it, and the client, which never offered it, refuses (RFC 5246 §7.4.1.4, RFC 7366 §2).
                    return adding(emsGone, from(.client, .unsupportedExtension),
                                  "or it now reads encrypt_then_mac, which the server echoes for a CBC suite and the client never offered")
                }
                return adding(transcript, from(.server, .illegalParameter, .decodeError),
                              "the new type duplicates one present (illegal_parameter) or cannot read this body (decode_error)")
            case hit.name.contains("supported_signature_algorithms["):
                return adding(transcript, from(.client, .illegalParameter), "the server signs with a scheme the client never offered")
            default:
                // host_name, named_group_list and protocol_name_list entries: the server goes on with
                // other values (for ALPN another offered protocol); only Finished can notice.
                return transcript
            }
        case .serverHello:
            switch true {
            case hit.named("server_version"):
                return Expectation(outcomes: from(.client, .protocolVersion), reason: "a version outside the client's range")
            case hit.named("cipher_suite"):
                return Expectation(outcomes: from(.client, .illegalParameter), reason: "a suite the client did not offer")
            case hit.named("compression_method"):
                return Expectation(outcomes: from(.client, .illegalParameter), reason: "a compression method the client did not offer")
            case hit.name.contains("protocol_name_list["):
                return Expectation(outcomes: from(.client, .illegalParameter),
                                   reason: "the ALPN choice is now a name the client did not offer (RFC 7301 §3.2)")
            case hit.named("extension_type"):
                return Expectation(outcomes: from(.client, .unsupportedExtension, .decodeError),
                                   reason: "an extension the client did not offer (RFC 5246 §7.4.1.4), or one it offered whose body does not decode")
            default:
                return transcript
            }
        case .certificate:
            if hit.name.hasPrefix("certificate_list[0]") {
                return Expectation(outcomes: from(receiver, .badCertificate), reason: "the leaf certificate is not the one the evaluator accepts")
            }
            // The CA certificate is not evaluated: only the transcript differs.
            if receiver == .server {
                return Expectation(outcomes: from(.server, .decryptError), reason: "CertificateVerify covers the client's Certificate")
            }
            return transcript
        case .serverKeyExchange:
            if hit.named("algorithm") {
                return Expectation(outcomes: from(.client, .illegalParameter, .decryptError),
                                   reason: "a scheme the client did not offer, or another offered one the signature does not verify under")
            }
            if hit.named("curve_type") {
                return Expectation(outcomes: from(.client, .illegalParameter, .decodeError), reason: "only named_curve (3) is allowed (RFC 8422 §5.4)")
            }
            return Expectation(outcomes: from(.client, .decryptError),
                               reason: "the signature over client_random ‖ server_random ‖ params no longer verifies")
        case .certificateRequest:
            // The TLS 1.2 request lists [rsa_sign, ecdsa_sign]; the client's key is RSA.
            if hit.name.hasPrefix("certificate_types[0]") {
                return Expectation(outcomes: from(.server, .handshakeFailure),
                                   reason: "without rsa_sign the client sends no certificate, which the server requires")
            }
            if hit.name.hasPrefix("certificate_types[") {
                return Expectation(outcomes: from(.server, .decryptError),
                                   reason: "rsa_sign is still there, so the client signs; CertificateVerify covers the changed ecdsa_sign byte")
            }
            return adding(Expectation(outcomes: from(.server, .decryptError), reason: "CertificateVerify covers CertificateRequest"),
                          from(.server, .illegalParameter), "the client signs with a scheme the server did not request")
        case .clientKeyExchange:
            if kind.mutual {
                return Expectation(outcomes: from(.server, .decryptError), reason: "CertificateVerify covers ClientKeyExchange")
            }
            switch kind.keyExchange {
            case .rsa:
                return Expectation(outcomes: from(.server, .badRecordMAC),
                                   reason: "the RFC 5246 §7.4.7.1 countermeasure: a random premaster, so the client's Finished does not open")
            case .dheRSA:
                return Expectation(outcomes: from(.server, .badRecordMAC, .illegalParameter),
                                   reason: "another premaster (bad_record_mac), or Yc out of 1 < Yc < p-1 (illegal_parameter)")
            case .ecdheRSA, .ecdheECDSA:
                return Expectation(outcomes: from(.server, .badRecordMAC, .illegalParameter),
                                   reason: "another X25519 premaster (bad_record_mac), or an unusable point (illegal_parameter)")
            }
        case .certificateVerify:
            if hit.named("algorithm") {
                return Expectation(outcomes: from(.server, .illegalParameter, .decryptError),
                                   reason: "a scheme the server did not request, or a requested one the signature does not verify under")
            }
            return Expectation(outcomes: from(.server, .decryptError), reason: "the signature no longer verifies")
        default:
            return Expectation(outcomes: [], reason: "no field of \(message.type) should be left after its header")
        }
    }

    /// The bits to flip in one message: all of them, or a sample.
    static func bits(of message: InFlightMessage, leaves: [DissectedField], exhaustive: Bool) -> [Int] {
        let count = message.byteCount * 8
        if exhaustive { return Array(0..<count) }
        var chosen = Set(stride(from: 0, to: count, by: 61))
        if !message.isProtected { chosen.formUnion(0..<min(32, count)) }
        for leaf in leaves where leaf.length > 0 {
            chosen.insert(leaf.offset * 8)
            chosen.insert(leaf.end * 8 - 1)
        }
        return chosen.filter { $0 < count }.sorted()
    }

    static func sweep(_ kind: Kind, exhaustive: Bool) throws -> [String: Int] {
        let (client, server) = try kind.configurations()
        let clean = Harness.run(client: client, server: server, exchangeData: false)
        #expect(clean.outcome == .connected)
        let dissector = Dissector(context: HandshakeDecodingContext(version: .tls12, keyExchange: kind.keyExchange, verifyDataLength: 12),
                                  cipherSuite: kind.suite)
        var histogram: [String: Int] = [:]
        for message in clean.messages {
            let leaves = message.isProtected ? [] : dissector.dissectHandshakeMessages(message.bytes).leaves
            for bit in bits(of: message, leaves: leaves, exhaustive: exhaustive) {
                let byte = bit / 8
                let leaf = leaves.first { $0.offset <= byte && byte < $0.end }
                let hit = Hit(name: leaf?.name ?? "encrypted_fragment", value: leaf?.value.description ?? "", byte: byte, bit: bit,
                              original: message.bytes[byte])
                let expectation = expected(hit, in: message, kind: kind)
                // Fresh generators: the same seed gives the same messages, so the flip hits the same field.
                let (c, s) = try kind.configurations()
                let run = Harness.run(client: c, server: s, flip: BitFlip(flow: message.flow, index: message.index, bit: bit),
                                      exchangeData: false)
                let label = "\(kind) \(message.type) \(hit.name) bit \(bit % 8) of byte \(byte)"
                switch run.outcome {
                case .connected:
                    Issue.record("\(label): the flip went unnoticed")
                case .stalled:
                    Issue.record("\(label): stalled even after end of stream")
                case .failed:
                    #expect(expectation.outcomes.contains(run.outcome),
                            "\(label): \(run.outcome), expected \(expectation.outcomes.map(\.description).sorted()) because \(expectation.reason)")
                }
                histogram["\(message.type) \(hit.name): \(run.outcome)", default: 0] += 1
            }
        }
        return histogram
    }

    @Test("sampled bit flips fail with the alert named for the field hit", arguments: kinds)
    func sampled(_ kind: Kind) throws {
        let histogram = try Self.sweep(kind, exhaustive: false)
        #expect(histogram.count > 20)
    }

    @Test("every bit of every handshake message", .enabled(if: heavy), arguments: kinds)
    func exhaustive(_ kind: Kind) throws {
        _ = try Self.sweep(kind, exhaustive: true)
    }

    @Test("a handshake that stops: end of stream is decode_error mid-message, handshake_failure between messages")
    func endOfStream() throws {
        var client = TLSClient(configuration: try Harness.clientConfiguration(seed: 43))
        var server = TLSServer(configuration: try Harness.serverConfiguration(seed: 43))
        let flight = server.receive(client.start().output)
        // Half of the server's flight (one record, so nothing can be read yet), then nothing.
        _ = client.receive(Array(flight.output.prefix(flight.output.count / 2)))
        let cut = client.receiveEndOfStream()
        #expect(client.failureAlert == .fatal(.decodeError))
        #expect(cut.records.count == 1)
        #expect(cut.events.contains { if case .endOfStream(.expectServerHello, let n) = $0 { return n == flight.output.count / 2 } else { return false } })

        // The server, after its flight, hears nothing more: handshake_failure, nothing buffered.
        let silent = server.receiveEndOfStream()
        #expect(server.failureAlert == .fatal(.handshakeFailure))
        #expect(silent.events.contains { if case .endOfStream(.expectClientKeyExchange, 0) = $0 { return true } else { return false } })

        // Once connected, end of stream is only recorded.
        let run = Harness.run(client: try Harness.clientConfiguration(seed: 44), server: try Harness.serverConfiguration(seed: 44),
                              exchangeData: false)
        var connected = run.client
        let after = connected.receiveEndOfStream()
        #expect(after.records.isEmpty && connected.isConnected)
        #expect(run.endOfStreamDelivered.isEmpty, "a clean handshake never needs end of stream")
        // A client that has not started has nothing to fail.
        var idle = TLSClient(configuration: try Harness.clientConfiguration(seed: 45))
        let nothing = idle.receiveEndOfStream()
        #expect(nothing.records.isEmpty && idle.stateName == .start)
    }
}

