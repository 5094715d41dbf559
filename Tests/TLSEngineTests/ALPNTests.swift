import Foundation
import HTTP2
import Testing
import TLSCrypto
@testable import TLSEngine

/// Application-Layer Protocol Negotiation (RFC 7301): the extension's bytes, and what client and
/// server do with it.
@Suite("ALPN (RFC 7301)")
struct ALPNTests {
    // MARK: - Wire

    /// extension_type 16, extension_data = protocol_name_list<2..2^16-1> of ProtocolName<1..2^8-1>:
    /// 00 10 | 00 0e | 00 0c | 02 "h2" | 08 "http/1.1" (RFC 7301 §3.1; the bytes also appear in
    /// `openssl s_client -alpn h2,http/1.1 -msg` output).
    static let knownAnswer: [UInt8] = [0x00, 0x10, 0x00, 0x0e, 0x00, 0x0c,
                                       0x02, 0x68, 0x32,
                                       0x08, 0x68, 0x74, 0x74, 0x70, 0x2f, 0x31, 0x2e, 0x31]

    @Test("known answer: \"h2\", \"http/1.1\" encodes to 00 10 00 0e 00 0c 02 h2 08 http/1.1 and decodes back")
    func knownAnswerBytes() throws {
        let ext = TLSExtension.applicationLayerProtocolNegotiation([.h2, .http11])
        #expect(ext.type == .applicationLayerProtocolNegotiation && ext.type.rawValue == 16)
        #expect(ext.encoded == Self.knownAnswer)
        #expect(try TLSExtension(decoding: Self.knownAnswer) == ext)
        #expect([ext].applicationProtocols == ["h2", "http/1.1"])
        #expect(ExtensionType.applicationLayerProtocolNegotiation.description == "application_layer_protocol_negotiation")
        #expect(ProtocolName.http11.bytes == Array("http/1.1".utf8))
    }

    @Test("round trip of lists from 1 name up to 255-byte names", arguments: [
        [ProtocolName("x")], [.h2], [.h2, .http11, "h3", "spdy/3.1"],
        [ProtocolName(bytes: [UInt8](repeating: 0x61, count: 255)), ProtocolName(bytes: [0x00, 0xff])],
    ])
    func roundTrip(_ names: [ProtocolName]) throws {
        let ext = TLSExtension.applicationLayerProtocolNegotiation(names)
        #expect(try TLSExtension(decoding: ext.encoded) == ext)
        var hello = ClientHello(random: Random([UInt8](repeating: 1, count: 32)),
                                cipherSuites: [.TLS_RSA_WITH_AES_128_GCM_SHA256], extensions: [ext])
        #expect(try ClientHello(decoding: hello.encoded) == hello)
        hello.extensions = [.extendedMasterSecret, ext]
        #expect(try ClientHello(decoding: hello.encoded).extensions?.applicationProtocols == names)
    }

    /// Bytes of an ALPN extension with the given extension_data.
    static func extensionBytes(_ data: [UInt8]) -> [UInt8] {
        [0x00, 0x10, UInt8(data.count >> 8), UInt8(data.count & 0xff)] + data
    }

    @Test("malformed extension_data is a decode_error", arguments: [
        ("empty name", [0x00, 0x04, 0x00, 0x02, 0x68, 0x32] as [UInt8]),
        ("empty name last", [0x00, 0x04, 0x02, 0x68, 0x32, 0x00]),
        ("empty list", [0x00, 0x00]),
        ("no list at all", []),
        ("list of one byte", [0x00, 0x01, 0x02]),
        ("trailing bytes after the list", [0x00, 0x03, 0x02, 0x68, 0x32, 0xff]),
        ("name longer than the list", [0x00, 0x03, 0x05, 0x68, 0x32]),
        ("list longer than the data", [0x00, 0x09, 0x02, 0x68, 0x32]),
    ])
    func malformed(_ c: (String, [UInt8])) {
        let error = decodeError { () throws(DecodeError) in try TLSExtension(decoding: Self.extensionBytes(c.1)) }
        #expect(error?.alert == .decodeError, "\(c.0): \(error.map { "\($0)" } ?? "decoded")")
    }

    static func serverHello(alpn names: [ProtocolName]) -> ServerHello {
        ServerHello(random: Random([UInt8](repeating: 2, count: 32)), cipherSuite: .TLS_RSA_WITH_AES_128_GCM_SHA256,
                    extensions: [.extendedMasterSecret, .applicationLayerProtocolNegotiation(names)])
    }

    @Test("a ServerHello names exactly one protocol: two names are a decode_error, one round-trips")
    func serverHelloCount() throws {
        let one = Self.serverHello(alpn: [.h2])
        #expect(try ServerHello(decoding: one.encoded) == one)
        let two = Self.serverHello(alpn: [.h2, .http11])
        let error = decodeError { () throws(DecodeError) in try ServerHello(decoding: two.encoded) }
        #expect(error?.alert == .decodeError)
        #expect("\(error.map { "\($0)" } ?? "")".contains("serverProtocolNameCount(2)"))
        // A ClientHello may carry several (that is what it is for).
        let hello = ClientHello(random: Random([UInt8](repeating: 1, count: 32)),
                                cipherSuites: [.TLS_RSA_WITH_AES_128_GCM_SHA256],
                                extensions: [.applicationLayerProtocolNegotiation([.h2, .http11])])
        #expect(try ClientHello(decoding: hello.encoded) == hello)
    }

    @Test("the dissector names each protocol and flags a second one in a ServerHello")
    func dissector() {
        let ch = HandshakeMessage.clientHello(ClientHello(random: Random([UInt8](repeating: 1, count: 32)),
                                                           cipherSuites: [.TLS_RSA_WITH_AES_128_GCM_SHA256],
                                                           extensions: [.applicationLayerProtocolNegotiation([.h2, .http11])]))
        let leaves = Dissector().dissectHandshakeMessages(ch.encoded).leaves
        let names = leaves.filter { $0.name.hasSuffix("]") && $0.name.contains("protocol_name_list[") }
        #expect(names.map(\.value) == ["\"h2\"", "\"http/1.1\""], "\(leaves.map(\.name))")
        #expect(names.allSatisfy { $0.notes.isEmpty })
        #expect(leaves.contains { $0.name.hasSuffix("protocol_name_list.length") && $0.value == "12" })

        let sh = HandshakeMessage.serverHello(Self.serverHello(alpn: [.h2, .http11]))
        let shLeaves = Dissector().dissectHandshakeMessages(sh.encoded).leaves
        let second = shLeaves.first { $0.name.hasSuffix("protocol_name_list[1]") }
        // The engine's codec refuses the second name (RFC 7301 §3.1: exactly one), and the note is on it.
        #expect(second?.notes == [.refused(.invalidMessage(.malformed(field: "protocol_name_list", reason: .serverProtocolNameCount(2))))],
                "\(shLeaves.map { "\($0.name) \($0.notes)" })")
    }

    @Test("no_application_protocol is alert 120 and fatal")
    func alert() throws {
        #expect(AlertDescription.noApplicationProtocol.rawValue == 120)
        #expect(AlertDescription.noApplicationProtocol.name == "no_application_protocol")
        #expect(try Alert(decoding: [2, 120]) == .fatal(.noApplicationProtocol))
    }

    @Test("ProtocolName: text or hex, comma lists as openssl -alpn takes them")
    func protocolNames() {
        #expect(ProtocolName.h2.description == "h2")
        #expect(ProtocolName(bytes: [0x00, 0xff]).description == "0x00ff")
        #expect(ProtocolName.list("h2,http/1.1") == [.h2, .http11])
        #expect(ProtocolName.list("h2,,http/1.1") == nil)
        #expect(ProtocolName.list("") == nil)
        #expect(ProtocolName.list(String(repeating: "a", count: 256)) == nil)
        #expect(ProtocolName.list(String(repeating: "a", count: 255))?.first?.bytes.count == 255)
        #expect(ApplicationProtocolSelection.serverPreference.select(offered: ["http/1.1", "h2"], supported: ["h2", "http/1.1"]) == .h2)
        #expect(ApplicationProtocolSelection.clientPreference.select(offered: ["http/1.1", "h2"], supported: ["h2", "http/1.1"]) == .http11)
        #expect(ApplicationProtocolSelection.serverPreference.select(offered: ["h3"], supported: ["h2"]) == nil)
    }

    // MARK: - Negotiation

    /// `http2Rule`: the server is given RFC 9113 §9.2.2's ALPN strategy (as the simulation and
    /// `serve` give it); without it the engine applies RFC 7301 alone.
    static func configurations(client offered: [ProtocolName], server supported: [ProtocolName], seed: UInt64 = 21,
                               suites: [CipherSuite] = CipherSuite.implemented, http2Rule: Bool = true) throws -> (TLSClientConfiguration, TLSServerConfiguration) {
        var client = try Harness.clientConfiguration(seed: seed, suites: suites)
        var server = try Harness.serverConfiguration(seed: seed)
        client.applicationProtocols = offered
        server.applicationProtocols = supported
        if http2Rule { server.applicationProtocolStrategy = HTTP2OverTLS.applicationProtocolStrategy }
        return (client, server)
    }

    static func hellos(_ run: EngineRun) -> (ClientHello?, ServerHello?) {
        let ch = run.clientEvents.compactMap { e -> ClientHello? in
            if case .handshakeSent(.clientHello(let h), _) = e { return h } else { return nil }
        }.first
        let sh = run.serverEvents.compactMap { e -> ServerHello? in
            if case .handshakeSent(.serverHello(let h), _) = e { return h } else { return nil }
        }.first
        return (ch, sh)
    }

    static func negotiated(_ events: [TLSEvent]) -> [NegotiationTrace] {
        events.compactMap { if case .negotiated(let n) = $0 { return n } else { return nil } }
    }

    @Test("overlap: h2 is chosen (http/1.1 with a suite HTTP/2 prohibits), carried in the ServerHello, and reported by both sides", arguments: CipherSuite.implemented)
    func overlap(_ suite: CipherSuite) throws {
        let (client, server) = try Self.configurations(client: [.h2, .http11], server: [.h2, .http11], suites: [suite])
        let run = Harness.run(client: client, server: server)
        #expect(run.outcome == .connected, "\(run.outcome)")
        // RFC 9113 §9.2.2: h2 only over an ephemeral key exchange with an AEAD cipher.
        let params = try #require(suite.parameters)
        let expected: ProtocolName = params.isForwardSecret && params.isAEAD ? .h2 : .http11
        let (ch, sh) = Self.hellos(run)
        #expect(ch?.extensions?.applicationProtocols == [.h2, .http11])
        #expect(sh?.extensions?.applicationProtocols == [expected])
        #expect(run.client.negotiatedApplicationProtocol == expected)
        #expect(run.server.negotiatedApplicationProtocol == expected)
        #expect(Self.negotiated(run.clientEvents).map(\.applicationProtocol) == [expected])
        #expect(Self.negotiated(run.serverEvents).map(\.applicationProtocol) == [expected])
        #expect(String(decoding: run.clientReceived, as: UTF8.self).hasSuffix("hi"), "application data flows")
    }

    @Test("a suite HTTP/2 prohibits: h2 only when the client offers nothing else the server speaks")
    func prohibitedSuiteFallsBack() throws {
        let rsa: [CipherSuite] = [.TLS_RSA_WITH_AES_128_GCM_SHA256]
        let (c1, s1) = try Self.configurations(client: [.h2, .http11], server: [.h2, .http11], suites: rsa)
        #expect(Harness.run(client: c1, server: s1).server.negotiatedApplicationProtocol == .http11)
        let (c2, s2) = try Self.configurations(client: [.h2], server: [.h2, .http11], seed: 23, suites: rsa)
        #expect(Harness.run(client: c2, server: s2).server.negotiatedApplicationProtocol == .h2, "no alternative: h2 stays")
        let (c3, s3) = try Self.configurations(client: [.h2, .http11], server: [.h2], seed: 24, suites: rsa)
        #expect(Harness.run(client: c3, server: s3).server.negotiatedApplicationProtocol == .h2, "the server speaks nothing else")
        let (c4, s4) = try Self.configurations(client: [.h2, .http11], server: [.h2, .http11], seed: 25,
                                               suites: [.TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256])
        #expect(Harness.run(client: c4, server: s4).server.negotiatedApplicationProtocol == .h2)
    }

    @Test("the engine knows nothing of HTTP/2: without a strategy, RFC 7301's choice stands whatever the suite; a strategy has the final say")
    func strategyDecidesAfterTheSuite() throws {
        let rsa: [CipherSuite] = [.TLS_RSA_WITH_AES_128_GCM_SHA256]
        let (c1, s1) = try Self.configurations(client: [.h2, .http11], server: [.h2, .http11], suites: rsa, http2Rule: false)
        #expect(Harness.run(client: c1, server: s1).server.negotiatedApplicationProtocol == .h2)
        var (c2, s2) = try Self.configurations(client: [.h2, .http11], server: [.h2, .http11], seed: 26, suites: rsa, http2Rule: false)
        s2.applicationProtocolStrategy = { situation in
            #expect(situation.suite == .TLS_RSA_WITH_AES_128_GCM_SHA256 && situation.version == .tls12 && situation.choice == .h2)
            return situation.offered.last
        }
        let run = Harness.run(client: c2, server: s2)
        #expect(run.server.negotiatedApplicationProtocol == .http11 && run.client.negotiatedApplicationProtocol == .http11)
    }

    @Test("server preference decides (RFC 7301 §3.2); a client-preference rule would pick the client's first")
    func serverPreference() throws {
        var (client, server) = try Self.configurations(client: [.http11, .h2], server: [.h2, .http11])
        let run = Harness.run(client: client, server: server)
        #expect(run.outcome == .connected)
        #expect(run.client.negotiatedApplicationProtocol == .h2)
        #expect(run.server.negotiatedApplicationProtocol == .h2)

        server.applicationProtocolSelection = .clientPreference
        (client.random, server.random) = (HMACDRBG(seed: 51), HMACDRBG(seed: 52))
        let clientOrder = Harness.run(client: client, server: server)
        #expect(clientOrder.client.negotiatedApplicationProtocol == .http11)

        // Only one in common: that one, whatever the order.
        let (c2, s2) = try Self.configurations(client: ["spdy/3", .http11], server: [.h2, .http11], seed: 22)
        #expect(Harness.run(client: c2, server: s2).client.negotiatedApplicationProtocol == .http11)
    }

    @Test("no overlap: the server sends the fatal alert no_application_protocol (120); both traces show it")
    func noOverlap() throws {
        let (client, server) = try Self.configurations(client: ["h3", "spdy/3"], server: [.h2, .http11])
        let run = Harness.run(client: client, server: server)
        #expect(run.outcome == .failed(sender: .server, alert: .noApplicationProtocol))
        let sent = run.serverEvents.compactMap { e -> (Alert, AlertCause)? in
            if case .alertSent(let a, let cause) = e { return (a, cause) } else { return nil }
        }
        #expect(sent.count == 1)
        #expect(sent.first?.0 == .fatal(.noApplicationProtocol))
        guard case .failure(.peerIncompatible(.noCommonApplicationProtocol(offered: let offered, supported: let supported)))? = sent.first?.1 else {
            Issue.record("\(String(describing: sent.first?.1))")
            return
        }
        #expect(offered == ["h3", "spdy/3"] && supported == [.h2, .http11], "\(offered) \(supported)")
        #expect(run.clientEvents.contains { if case .alertReceived(.fatal(.noApplicationProtocol)) = $0 { return true } else { return false } })
        #expect(run.client.failureAlert == .fatal(.noApplicationProtocol))
        #expect(run.server.failureAlert == .fatal(.noApplicationProtocol))
        #expect(!run.serverEvents.contains { if case .handshakeSent(.serverHello, _) = $0 { return true } else { return false } },
                "the alert replaces the ServerHello")
    }

    @Test("a server without ALPN ignores the client's offer; a client without ALPN offers nothing")
    func unsupportedSides() throws {
        let (client, server) = try Self.configurations(client: [.h2, .http11], server: [])
        let run = Harness.run(client: client, server: server)
        #expect(run.outcome == .connected)
        let (ch, sh) = Self.hellos(run)
        #expect(ch?.extensions?.contains(type: .applicationLayerProtocolNegotiation) == true)
        #expect(sh?.extensions?.contains(type: .applicationLayerProtocolNegotiation) == false)
        #expect(run.client.negotiatedApplicationProtocol == nil && run.server.negotiatedApplicationProtocol == nil)
        #expect(Self.negotiated(run.clientEvents).map(\.applicationProtocol) == [nil])

        let (quiet, alpnServer) = try Self.configurations(client: [], server: [.h2])
        let run2 = Harness.run(client: quiet, server: alpnServer)
        #expect(run2.outcome == .connected)
        let (ch2, sh2) = Self.hellos(run2)
        #expect(ch2?.extensions?.contains(type: .applicationLayerProtocolNegotiation) == false, "empty offer: no extension")
        #expect(sh2?.extensions?.contains(type: .applicationLayerProtocolNegotiation) == false)
        #expect(run2.server.negotiatedApplicationProtocol == nil)
    }

    @Test("an empty or over-long protocol name in the client's configuration is refused before anything is sent")
    func invalidOffer() throws {
        for bad in [[ProtocolName(bytes: [])], [ProtocolName(bytes: [UInt8](repeating: 0x61, count: 256))]] {
            var config = try Harness.clientConfiguration(seed: 23)
            config.applicationProtocols = bad
            var client = TLSClient(configuration: config)
            let step = client.start()
            #expect(client.failureAlert == .fatal(.internalError))
            #expect(!step.events.contains { if case .handshakeSent = $0 { return true } else { return false } })
        }
    }

    /// The server's first flight with its ServerHello changed by `change` (no MAC protects it yet).
    static func rewritingServerHello(_ step: TLSStep, _ change: (inout ServerHello) -> Void) throws -> [UInt8] {
        var records = step.records
        let first = try #require(records.first)
        let fragment = first.fragment
        try #require(fragment.count >= 4 && fragment[0] == HandshakeType.serverHello.rawValue)
        let length = Int(fragment[1]) << 16 | Int(fragment[2]) << 8 | Int(fragment[3])
        var hello = try ServerHello(decoding: Array(fragment[4 ..< 4 + length]))
        change(&hello)
        records[0].fragment = HandshakeMessage.serverHello(hello).encoded + fragment[(4 + length)...]
        return records.flatMap(\.encoded)
    }

    static func clientAgainstRewrittenServerHello(offer: [ProtocolName], serverSupports: [ProtocolName],
                                                  _ change: (inout ServerHello) -> Void) throws -> TLSClient {
        let (clientConfig, serverConfig) = try Self.configurations(client: offer, server: serverSupports, seed: 24)
        var client = TLSClient(configuration: clientConfig)
        var server = TLSServer(configuration: serverConfig)
        let flight = server.receive(client.start().output)
        _ = client.receive(try Self.rewritingServerHello(flight, change))
        return client
    }

    @Test("a client told a protocol it did not offer sends illegal_parameter; ALPN it never asked for, unsupported_extension")
    func clientRefusals() throws {
        // The server chose h2; on the way it became "h3", which the client never offered.
        let unoffered = try Self.clientAgainstRewrittenServerHello(offer: [.h2, .http11], serverSupports: [.h2]) { hello in
            hello.extensions = hello.extensions?.map { ext in
                if case .applicationLayerProtocolNegotiation = ext { return .applicationLayerProtocolNegotiation(["h3"]) }
                return ext
            }
        }
        #expect(unoffered.failureAlert == .fatal(.illegalParameter))
        #expect(unoffered.negotiatedApplicationProtocol == nil)

        // The client offered no ALPN; the ServerHello carries it anyway (RFC 5246 §7.4.1.4).
        let unsolicited = try Self.clientAgainstRewrittenServerHello(offer: [], serverSupports: [.h2]) { hello in
            hello.extensions = (hello.extensions ?? []) + [.applicationLayerProtocolNegotiation([.h2])]
        }
        #expect(unsolicited.failureAlert == .fatal(.unsupportedExtension))

        // Two names in the ServerHello do not even decode (RFC 7301 §3.1).
        let two = try Self.clientAgainstRewrittenServerHello(offer: [.h2, .http11], serverSupports: [.h2]) { hello in
            hello.extensions = hello.extensions?.map { ext in
                if case .applicationLayerProtocolNegotiation = ext { return .applicationLayerProtocolNegotiation([.h2, .http11]) }
                return ext
            }
        }
        #expect(two.failureAlert == .fatal(.decodeError))

        // Unchanged, the same flight is accepted (the rewriting itself breaks nothing).
        let untouched = try Self.clientAgainstRewrittenServerHello(offer: [.h2, .http11], serverSupports: [.h2]) { _ in }
        #expect(untouched.failureAlert == nil && untouched.negotiatedApplicationProtocol == .h2)
    }

    @Test("resumption negotiates ALPN afresh (RFC 7301 §3.1: a property of the connection, not the session)")
    func resumption() throws {
        let cache = TLSSessionCache()
        var (client, server) = try Self.configurations(client: [.h2, .http11], server: [.h2, .http11], seed: 25)
        server.sessionCache = cache
        let first = Harness.run(client: client, server: server)
        #expect(first.client.negotiatedApplicationProtocol == .h2)
        let session = try #require(first.client.session)
        client.session = session
        client.applicationProtocols = [.http11]
        (client.random, server.random) = (HMACDRBG(seed: 53), HMACDRBG(seed: 54))
        let second = Harness.run(client: client, server: server)
        #expect(second.outcome == .connected)
        #expect(second.client.isResumed && second.server.isResumed)
        #expect(second.client.negotiatedApplicationProtocol == .http11)
        #expect(Self.hellos(second).1?.extensions?.applicationProtocols == [.http11])
        #expect(Self.negotiated(second.serverEvents).map(\.applicationProtocol) == [.http11])
    }

    // MARK: - Tamper

    /// The ClientHello's ALPN bytes as sent, with the offsets of each protocol name's bytes.
    static func protocolNameBytes(in message: InFlightMessage) -> [Int] {
        Dissector().dissectHandshakeMessages(message.bytes).leaves
            .filter { $0.name.contains("protocol_name_list[") && $0.name.hasSuffix("]") }
            .flatMap { Array($0.offset ..< $0.end) }
    }

    /// An attacker changes one bit of a protocol name in the ClientHello. The server then chooses
    /// from a list the client never sent ("h3", "http/1.1" → http/1.1, or "h2" with a changed
    /// "http/1.1" → h2); nothing in the hellos can tell, but Finished hashes the ClientHello as each
    /// side saw it. Without EMS the keys agree and the server's Finished check fails
    /// (decrypt_error); with EMS the session hash already differs, so the keys do, and the client's
    /// encrypted Finished does not even open (bad_record_mac).
    @Test("changing the ALPN bytes of the ClientHello is caught by Finished", arguments: [false, true])
    func tamper(ems: Bool) throws {
        func configurations() throws -> (TLSClientConfiguration, TLSServerConfiguration) {
            var (client, server) = try Self.configurations(client: [.h2, .http11], server: [.h2, .http11], seed: 26,
                                                           suites: [.TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256])
            client.offerExtendedMasterSecret = ems
            return (client, server)
        }
        let (c0, s0) = try configurations()
        let clean = Harness.run(client: c0, server: s0, exchangeData: false)
        #expect(clean.outcome == .connected)
        let hello = try #require(clean.messages.first { $0.type == .clientHello })
        let offsets = Self.protocolNameBytes(in: hello)
        #expect(offsets.count == 10, "h2 and http/1.1: 2 + 8 bytes")
        var chosen: Set<ProtocolName> = []
        for offset in offsets {
            for bit in [0, 5] {
                let (c, s) = try configurations()
                let run = Harness.run(client: c, server: s, flip: BitFlip(flow: .clientToServer, index: hello.index, bit: offset * 8 + bit),
                                      exchangeData: false)
                let expected: AlertDescription = ems ? .badRecordMAC : .decryptError
                #expect(run.outcome == .failed(sender: .server, alert: expected), "byte \(offset) bit \(bit): \(run.outcome)")
                // Both sides agreed on a protocol the client offered: only Finished could notice.
                #expect(run.client.negotiatedApplicationProtocol != nil)
                #expect(run.client.negotiatedApplicationProtocol == run.server.negotiatedApplicationProtocol)
                if let p = run.server.negotiatedApplicationProtocol { chosen.insert(p) }
                let cause = run.serverEvents.compactMap { e -> AlertCause? in
                    if case .alertSent(let a, let cause) = e, a.isFatal { return cause } else { return nil }
                }.first
                if !ems { #expect(cause == .failure(.peerMisbehaved(.finishedMismatch)), "\(String(describing: cause))") }
            }
        }
        #expect(chosen == [.h2, .http11], "a changed h2 makes the server fall back to http/1.1")
    }
}
