import TLSCrypto

/// What a server that speaks TLS 1.2 and, optionally, TLS 1.3 is told before a ClientHello arrives.
public struct DualVersionServerConfiguration {
    /// The TLS 1.2 (and older) server: its certificate, suites, versions and randomness.
    public var tls12: TLSServerConfiguration
    /// The TLS 1.3 server; nil turns TLS 1.3 off (a TLS 1.2 server, no downgrade sentinel).
    public var tls13: TLS13ServerConfiguration?

    public init(tls12: TLSServerConfiguration, tls13: TLS13ServerConfiguration?) {
        self.tls12 = tls12
        self.tls13 = tls13
    }
}

/// A server that speaks TLS 1.3 and TLS 1.2 on one port (RFC 8446 §4.2.1, Appendix D.2): it reads
/// the ClientHello once, with the shared record reader and handshake reassembler, and hands the
/// connection — the records, the decoded ClientHello whose bytes start the transcript, and whatever
/// followed — to ``TLS13Server`` when supported_versions offers 03 04, else to ``TLSServer``, which
/// then writes the downgrade sentinel in ServerHello.random (RFC 8446 §4.1.3). Every step is a
/// ``TLSStep``; the choice and its reason are a ``TLSEvent/versionChosen(_:)`` event.
///
/// Bytes that are not a TLS handshake record (an alert, garbage, an SSL 2.0 CLIENT-HELLO) go as
/// received to the TLS 1.2 engine, which answers them exactly as a TLS 1.2 server does.
public struct DualVersionServer: TLSServerEndpoint {
    public let configuration: DualVersionServerConfiguration

    enum Phase {
        case readingClientHello(FirstMessageReader)
        case tls12(TLSServer)
        case tls13(TLS13Server)
    }

    private(set) var phase: Phase = .readingClientHello(FirstMessageReader())
    /// The version chosen from the ClientHello and the rule that chose it (also the step's
    /// ``TLSEvent/versionChosen(_:)`` event); nil until a ClientHello was read.
    public private(set) var versionChoice: VersionChoice?

    public init(configuration: DualVersionServerConfiguration) {
        self.configuration = configuration
    }

    /// The engine that took the connection, once the ClientHello chose it.
    public var tls12Server: TLSServer? { if case .tls12(let s) = phase { s } else { nil } }
    public var tls13Server: TLS13Server? { if case .tls13(let s) = phase { s } else { nil } }

    /// The engine the ClientHello chose, as the surface both versions share; nil until then.
    private var engine: (any TLSServerEndpoint)? {
        switch phase {
        case .readingClientHello: return nil
        case .tls12(let s): return s
        case .tls13(let s): return TLS13ServerEndpoint(s)
        }
    }

    /// Runs `body` on the chosen engine and keeps the engine it leaves.
    private mutating func withEngine<R>(_ body: (inout any TLSServerEndpoint) throws(TLSError) -> R) throws(TLSError) -> R? {
        guard var engine else { return nil }
        defer {
            if let s = engine as? TLSServer { phase = .tls12(s) } else if let s = engine as? TLS13ServerEndpoint { phase = .tls13(s.engine) }
        }
        return try body(&engine)
    }

    // MARK: - What the chosen engine negotiated (``TLSServerEndpoint``)

    /// Before a ClientHello, the state of a server waiting for one.
    public var stateName: TLSStateName { engine?.stateName ?? .expectClientHello }
    /// Before a ClientHello, no version is chosen yet: the state of a TLS 1.2 server waiting for one
    /// (a TLS 1.3 server's START is the same wait, RFC 8446 Appendix A.2).
    public var handshakeState: HandshakeStateName { engine?.handshakeState ?? .tls12(.expectClientHello) }
    public var isConnected: Bool { engine?.isConnected ?? false }
    /// The version chosen: 1.3, or what the 1.2 engine negotiated; nil until then.
    public var negotiatedVersion: ProtocolVersion? { engine?.negotiatedVersion }
    public var negotiatedCipherSuite: CipherSuite? { engine?.negotiatedCipherSuite }
    public var negotiatedGroupName: String? { engine?.negotiatedGroupName }
    public var usesExtendedMasterSecret: Bool { engine?.usesExtendedMasterSecret ?? false }
    public var negotiatedApplicationProtocol: ProtocolName? { engine?.negotiatedApplicationProtocol }
    public var requestedServerName: String? { engine?.requestedServerName }
    public var peerCertificateChain: [[UInt8]] { engine?.peerCertificateChain ?? [] }
    public var isResumed: Bool { engine?.isResumed ?? false }
    public var acceptedEarlyData: Bool { engine?.acceptedEarlyData ?? false }

    // MARK: - Inputs

    /// Bytes from the client, in any chunking; `now` is the driver's clock reading in milliseconds,
    /// the one clock input of either engine (neither reads a clock): the 1.2 engine's sessions take
    /// its whole seconds, the 1.3 engine takes it as it is (``TLSServerEndpoint/receive(_:atMilliseconds:)``).
    public mutating func receive(_ bytes: [UInt8], atMilliseconds now: UInt64? = nil) -> TLSStep {
        switch phase {
        case .readingClientHello(var reader):
            switch reader.append(bytes) {
            case .needMore:
                phase = .readingClientHello(reader)
                return TLSStep()
            case .notAHandshakeMessage:
                return handOverStream(reader.received, at: now)
            case let .message(records, message, rest, unread):
                guard message.type == .clientHello else { return handOverStream(reader.received, at: now) }
                var r = ByteReader(message.body)
                guard let hello = try? ClientHello(from: &r), r.isAtEnd else { return handOverStream(reader.received, at: now) }
                let handoff = ClientHelloHandoff(records: records, message: message, hello: hello, handshakeRest: rest, unread: unread)
                return choose(for: handoff, at: now)
            }
        case .tls12, .tls13:
            return (try? withEngine { (engine) throws(TLSError) in engine.receive(bytes, atMilliseconds: now) }) ?? TLSStep()
        }
    }

    /// The client sent nothing more. Before a ClientHello was read, the TLS 1.2 engine takes what
    /// arrived and ends as a TLS 1.2 server does.
    public mutating func receiveEndOfStream() -> TLSStep {
        switch phase {
        case .readingClientHello(let reader):
            var step = handOverStream(reader.received, at: nil)
            guard case .tls12(var server) = phase else { return step }
            let end = server.receiveEndOfStream()
            phase = .tls12(server)
            step = TLSStep(sent: step.sent + end.sent, events: step.events + end.events)
            return step
        case .tls12(var server):
            let step = server.receiveEndOfStream()
            phase = .tls12(server)
            return step
        case .tls13:
            // The TLS 1.3 engine has no end-of-stream input: its driver reads its state.
            return TLSStep()
        }
    }

    /// Application data, once connected.
    public mutating func sendApplicationData(_ data: [UInt8]) throws(TLSError) -> TLSStep {
        guard let step = try withEngine({ (engine) throws(TLSError) in try engine.sendApplicationData(data) }) else {
            throw .internalError(.applicationDataBeforeHandshake)
        }
        return step
    }

    /// close_notify.
    public mutating func close() -> TLSStep {
        (try? withEngine { (engine) throws(TLSError) in engine.close() }) ?? TLSStep()
    }

    /// The driver gave up waiting (a read timeout or deadline). Before a ClientHello was read, the
    /// TLS 1.2 engine takes what arrived and cancels as a TLS 1.2 server does.
    public mutating func cancel() -> TLSStep {
        if case .readingClientHello(let reader) = phase {
            let read = handOverStream(reader.received, at: nil)
            let canceled = (try? withEngine { (engine) throws(TLSError) in engine.cancel() }) ?? TLSStep()
            return TLSStep(sent: read.sent + canceled.sent, events: read.events + canceled.events)
        }
        return (try? withEngine { (engine) throws(TLSError) in engine.cancel() }) ?? TLSStep()
    }

    // MARK: - The choice (RFC 8446 §4.2.1, Appendix D.2)

    /// The version rule, applied to a decoded ClientHello: TLS 1.3 when supported_versions lists
    /// 03 04 and this server speaks it; else the TLS 1.2 engine's rule (RFC 5246 Appendix E.1, or
    /// the highest listed version it speaks). nil reason: the 1.2 engine refuses every version offered.
    static func rule(for hello: ClientHello, configuration: DualVersionServerConfiguration) -> (useTLS13: Bool, choice: VersionChoice?) {
        let extensions = hello.extensions ?? []
        // A malformed supported_versions goes to the 1.2 engine, which answers decode_error.
        let offered = (try? VersionNegotiation.supportedVersions(in: extensions)) ?? nil
        if let offered, offered.contains(.tls13), configuration.tls13 != nil {
            return (true, VersionChoice(role: .server, version: .tls13, reason: .clientOffersTLS13(offered: offered)))
        }
        let tls12 = configuration.tls12
        guard let version = try? VersionNegotiation.select(clientVersion: hello.clientVersion, extensions: extensions,
                                                           minimum: tls12.minimumVersion, maximum: tls12.maximumVersion) else {
            return (false, nil)
        }
        let reason: VersionChoice.Reason
        if let offered {
            reason = offered.contains(.tls13) ? .tls13Disabled(offered: offered) : .clientOffersOnlyOlder(offered: offered)
        } else {
            reason = .noSupportedVersions(legacyVersion: hello.clientVersion)
        }
        return (false, VersionChoice(role: .server, version: version, reason: reason))
    }

    /// The one place the phase leaves `readingClientHello` with a ClientHello: the choice is
    /// recorded first, then the chosen engine adopts what was read.
    private mutating func choose(for handoff: ClientHelloHandoff, at now: UInt64?) -> TLSStep {
        let (useTLS13, choice) = Self.rule(for: handoff.hello, configuration: configuration)
        let chosen: [TLSEvent] = choice.map { [.versionChosen($0)] } ?? []
        versionChoice = choice
        if useTLS13, let tls13 = configuration.tls13 {
            var server = TLS13Server(configuration: tls13, random: configuration.tls12.random)
            server.clockMilliseconds = now
            var first = server.adopt(handoff)
            let next = server.receive(handoff.unread)
            first.output += next.output
            first.events += next.events
            first.sent += next.sent
            phase = .tls13(server)
            let step = first.tlsStep(role: .server)
            return TLSStep(sent: step.sent, events: chosen + step.events)
        }
        var server = TLSServer(configuration: tls12Configuration)
        server.handshake.clock = now.map { SessionTime(milliseconds: $0) }
        server.handshake.adopt(handoff)
        let step = server.receive(handoff.unread)
        phase = .tls12(server)
        return TLSStep(sent: step.sent, events: chosen + step.events)
    }

    /// Bytes that are no TLS ClientHello the dual server can read: the TLS 1.2 engine reads them
    /// as it does today (its own records, its own alert).
    private mutating func handOverStream(_ received: [UInt8], at now: UInt64?) -> TLSStep {
        var server = TLSServer(configuration: tls12Configuration)
        let step = server.receive(received, atMilliseconds: now)
        phase = .tls12(server)
        return step
    }

    /// The 1.2 engine's configuration: with the downgrade sentinel when this server speaks 1.3.
    private var tls12Configuration: TLSServerConfiguration {
        var config = configuration.tls12
        config.writesDowngradeSentinel = configuration.tls13 != nil
        return config
    }
}

extension TLS13Server {
    /// The ClientHello a ``DualVersionServer`` read and decoded: answered without reading it again.
    mutating func adopt(_ handoff: ClientHelloHandoff) -> TLS13Step {
        do throws(TLS13Failure) {
            guard connection.state == .start else { throw .internalError }
            // The rest of the ClientHello's record is in place before the ClientHello is answered, so
            // that a key change finds it (RFC 8446 §5.1).
            if !handoff.handshakeRest.isEmpty { connection.reassembler.append(handoff.handshakeRest) }
            try clientHello(handoff.message, decoded: handoff.hello)
        } catch {
            connection.sendAlert(error)
        }
        return connection.takeStep()
    }
}
