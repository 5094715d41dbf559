import Testing
import TLSCrypto
@testable import TLSEngine

/// Issue #22's engine defects: checks a conformance suite runs against OpenSSL 3.0 as the
/// baseline, and inputs an attacker sends (CVE-2016-8610 class floods).
@Suite("Engine conformance and hardening (issue #22)")
struct ConformanceHardeningTests {
    static let random = Random([UInt8](repeating: 7, count: 32))

    static func helloRecord(version: ProtocolVersion = .tls12, extensions: [TLSExtension]?,
                            suites: [CipherSuite] = [.TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256]) -> [UInt8] {
        let hello = ClientHello(clientVersion: version, random: random, cipherSuites: suites, extensions: extensions)
        return TLSRecord(contentType: .handshake, version: .tls10, fragment: HandshakeMessage.clientHello(hello).encoded).encoded
    }

    static func supportedVersions(_ versions: [UInt16]) -> TLSExtension {
        .unknown(.supportedVersions, [UInt8(versions.count * 2)] + versions.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xff)] })
    }

    static let groups: [TLSExtension] = [.supportedGroups([.x25519, .secp256r1]), .ecPointFormats([.uncompressed])]

    static func server(seed: UInt64 = 1) throws -> TLSServer {
        TLSServer(configuration: try Harness.serverConfiguration(seed: seed))
    }

    static func serverHello(in step: TLSStep) -> ServerHello? {
        for case .handshakeSent(.serverHello(let hello), _) in step.events { return hello }
        return nil
    }

    // MARK: RFC 6066 §3

    @Test func emptyServerNameListIsADecodeError() throws {
        var server = try Self.server()
        _ = server.receive(Self.helloRecord(extensions: [.serverName([])] + Self.groups))
        #expect(server.failureAlert == .fatal(.decodeError))
        // One name is fine.
        var good = try Self.server()
        let step = good.receive(Self.helloRecord(extensions: [.serverName([ServerName(hostName: "localhost")])] + Self.groups))
        #expect(good.failureAlert == nil && Self.serverHello(in: step) != nil)
    }

    // MARK: RFC 8446 §4.2.1, Appendix D.2

    @Test func supportedVersionsDecidesTheVersion() throws {
        // legacy_version 0x0302 with supported_versions {0x0303}: TLS 1.2.
        var server = try Self.server()
        let step = server.receive(Self.helloRecord(version: .tls11, extensions: [Self.supportedVersions([0x0303])] + Self.groups))
        #expect(server.failureAlert == nil)
        #expect(Self.serverHello(in: step)?.serverVersion == .tls12)
        // A browser's list: GREASE, TLS 1.3, TLS 1.2 → TLS 1.2.
        var browser = try Self.server()
        let s2 = browser.receive(Self.helloRecord(extensions: [Self.supportedVersions([0x7a7a, 0x0304, 0x0303])] + Self.groups))
        #expect(Self.serverHello(in: s2)?.serverVersion == .tls12)
    }

    @Test func aTLS13OnlyClientGetsProtocolVersion() throws {
        var server = try Self.server()
        let step = server.receive(Self.helloRecord(extensions: [Self.supportedVersions([0x0304])] + Self.groups,
                                                   suites: [CipherSuite(rawValue: 0x1301), .TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256]))
        #expect(server.failureAlert == .fatal(.protocolVersion))
        #expect(step.output == TLSRecord(contentType: .alert, version: .tls12, fragment: [2, 70]).encoded)
        // A malformed list (odd length) is a decode_error.
        var odd = try Self.server()
        _ = odd.receive(Self.helloRecord(extensions: [.unknown(.supportedVersions, [3, 3, 3, 3])] + Self.groups))
        #expect(odd.failureAlert == .fatal(.decodeError))
    }

    // MARK: RFC 5246 §7.2: alert levels; the CVE-2016-8610 class

    @Test func undefinedAlertLevelIsIllegalParameter() throws {
        var server = try Self.server()
        _ = server.receive([0x15, 0x03, 0x03, 0x00, 0x02, 0x07, 0xee])
        #expect(server.failureAlert == .fatal(.illegalParameter))
        // The client, between ServerHello and the rest of the flight.
        var client = TLSClient(configuration: try Harness.clientConfiguration(seed: 2))
        var s = try Self.server(seed: 2)
        let flight = s.receive(client.start().output)
        let serverHello = try #require(flight.events.compactMap { e -> [UInt8]? in
            if case .handshakeSent(.serverHello, let bytes) = e { return bytes } else { return nil }
        }.first)
        _ = client.receive(TLSRecord(contentType: .handshake, version: .tls12, fragment: serverHello).encoded
            + [0x15, 0x03, 0x03, 0x00, 0x02, 0x07, 0xee])
        #expect(client.failureAlert == .fatal(.illegalParameter))
    }

    @Test func warningAlertFloodIsCutOffWithUnexpectedMessage() throws {
        let warning = TLSRecord(contentType: .alert, version: .tls12, fragment: [1, 90]).encoded  // user_canceled
        var server = try Self.server()
        for _ in 0 ..< IncomingLimits.maximumConsecutiveWarningAlerts { _ = server.receive(warning) }
        #expect(server.failureAlert == nil, "a few warnings are tolerated, as OpenSSL does")
        let step = server.receive(warning)
        #expect(server.failureAlert == .fatal(.unexpectedMessage))
        #expect(step.output == TLSRecord(contentType: .alert, version: .tls12, fragment: [2, 10]).encoded)
        // A flood in one read stops at the limit too (nothing after the fatal alert is processed).
        var flooded = try Self.server()
        _ = flooded.receive(Array([[UInt8]](repeating: warning, count: 10_000).joined()))
        #expect(flooded.failureAlert == .fatal(.unexpectedMessage))
        // Any other record starts the count again: four warnings, a ClientHello, four warnings.
        var reset = try Self.server()
        for _ in 0 ..< 4 { _ = reset.receive(warning) }
        _ = reset.receive(Self.helloRecord(extensions: Self.groups))
        for _ in 0 ..< 4 { _ = reset.receive(warning) }
        #expect(reset.failureAlert == nil, "\(String(describing: reset.failureAlert))")
    }

    @Test func emptyRecordFloodIsCutOffWithUnexpectedMessage() throws {
        var run = Harness.run(client: try Harness.clientConfiguration(seed: 3), server: try Harness.serverConfiguration(seed: 3),
                              exchangeData: false)
        #expect(run.outcome == .connected)
        for _ in 0 ..< IncomingLimits.maximumConsecutiveEmptyRecords {
            _ = run.server.receive(try run.client.sendApplicationData([]).output)
        }
        #expect(run.server.failureAlert == nil)
        // Data resets the count.
        let data = run.server.receive(try run.client.sendApplicationData([1]).output)
        #expect(data.events.contains { if case .applicationDataReceived([1]) = $0 { true } else { false } })
        for _ in 0 ..< IncomingLimits.maximumConsecutiveEmptyRecords {
            _ = run.server.receive(try run.client.sendApplicationData([]).output)
        }
        #expect(run.server.failureAlert == nil)
        _ = run.server.receive(try run.client.sendApplicationData([]).output)
        #expect(run.server.failureAlert == .fatal(.unexpectedMessage))
    }

    /// Warnings alternating with empty records: each count alone stays under its limit, but an empty
    /// record does not end a run of warnings (OpenSSL resets its count only on a non-empty record that is
    /// not an alert), so the fifth warning is fatal however many empty records come between.
    @Test func warningsBetweenEmptyRecordsAreStillCounted() throws {
        var run = Harness.run(client: try Harness.clientConfiguration(seed: 4), server: try Harness.serverConfiguration(seed: 4),
                              exchangeData: false)
        #expect(run.outcome == .connected)
        func warning() -> [UInt8] {
            run.client.context.sendAlert(Alert(level: .warning, description: .userCanceled), cause: .close)
            return run.client.context.takeStep().output
        }
        for _ in 0 ..< IncomingLimits.maximumConsecutiveWarningAlerts {
            _ = run.server.receive(warning())
            _ = run.server.receive(try run.client.sendApplicationData([]).output)
        }
        #expect(run.server.failureAlert == nil)
        _ = run.server.receive(warning())
        #expect(run.server.failureAlert == .fatal(.unexpectedMessage))
        // Data (a non-empty record) does end the run: four warnings, one byte, four warnings.
        var reset = Harness.run(client: try Harness.clientConfiguration(seed: 5), server: try Harness.serverConfiguration(seed: 5),
                                exchangeData: false)
        func warning2() -> [UInt8] {
            reset.client.context.sendAlert(Alert(level: .warning, description: .userCanceled), cause: .close)
            return reset.client.context.takeStep().output
        }
        for _ in 0 ..< 4 { _ = reset.server.receive(warning2()) }
        _ = reset.server.receive(try reset.client.sendApplicationData([1]).output)
        for _ in 0 ..< 4 { _ = reset.server.receive(warning2()) }
        #expect(reset.server.failureAlert == nil, "\(String(describing: reset.server.failureAlert))")
    }

    // MARK: RFC 5246 §6.2.1 / Appendix E.1: the record version after the hellos

    @Test(arguments: [0x0302, 0x0301, 0x0300, 0x0343] as [UInt16])
    func aRecordWithAnotherVersionAfterServerHelloIsRefused(_ wrong: UInt16) throws {
        var client = TLSClient(configuration: try Harness.clientConfiguration(seed: 4))
        var server = try Self.server(seed: 4)
        let flight = server.receive(client.start().output)
        let messages = flight.events.compactMap { e -> [UInt8]? in
            if case .handshakeSent(_, let bytes) = e { return bytes } else { return nil }
        }
        #expect(messages.count >= 3)
        // ServerHello in a TLS 1.2 record, the rest of the flight in a record of another version.
        let first = TLSRecord(contentType: .handshake, version: .tls12, fragment: messages[0]).encoded
        let rest = TLSRecord(contentType: .handshake, version: ProtocolVersion(rawValue: wrong),
                             fragment: Array(messages.dropFirst().joined())).encoded
        _ = client.receive(first + rest)
        #expect(client.failureAlert == .fatal(.protocolVersion))
        // The same flight with the right version connects as far as the client's answer.
        var ok = TLSClient(configuration: try Harness.clientConfiguration(seed: 4))
        var okServer = try Self.server(seed: 4)
        let okFlight = okServer.receive(ok.start().output)
        _ = ok.receive(okFlight.output)
        #expect(ok.failureAlert == nil)
    }

    @Test func theServerRefusesAClientRecordOfAnotherVersionAfterTheHellos() throws {
        var server = try Self.server(seed: 5)
        _ = server.receive(Self.helloRecord(extensions: Self.groups))
        #expect(server.failureAlert == nil)
        _ = server.receive(TLSRecord(contentType: .handshake, version: .tls11, fragment: [16, 0, 0, 1, 0]).encoded)
        #expect(server.failureAlert == .fatal(.protocolVersion))
    }
}
