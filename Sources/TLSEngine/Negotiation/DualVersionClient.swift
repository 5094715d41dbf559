import TLSCrypto

/// A client that offers TLS 1.3 and TLS 1.2 in one ClientHello (as OpenSSL's client does) and goes
/// on in whichever the server picks (RFC 8446 §4.1.2, §4.2.1, Appendix D.1): legacy_version 03 03,
/// supported_versions 03 04 then the TLS 1.2 engine's versions, the TLS 1.3 suites before the
/// TLS 1.2 ones, the 1.3 key_share and psk_key_exchange_modes beside the 1.2 extensions. Both
/// engines start with the ClientHello actually sent in their transcript. A ServerHello with
/// supported_versions goes to ``TLS13Client``; one without goes to ``TLSClient`` — unless its random
/// ends with the downgrade sentinel, which the TLS 1.3 engine refuses with illegal_parameter
/// (RFC 8446 §4.1.3). Every step is a ``TLSStep``.
///
/// Resuming (RFC 8446 §4.1.2, §4.2.11, Appendix D): a TLS 1.3 ticket is offered in pre_shared_key,
/// the last extension, its binder computed over the combined ClientHello; a TLS 1.2 session beside
/// it, by its session ID (legacy_session_id, which a TLS 1.3 server echoes too) and its RFC 5077
/// ticket — whichever version the server picks resumes its own kind of session. Early data is not
/// offered here: a server answering TLS 1.2 would read 0-RTT records as its handshake. After a
/// HelloRetryRequest the second ClientHello is the combined one with only the changes RFC 8446
/// §4.1.2 allows (a new key_share, the cookie, no early_data, the PSK's binder recomputed).
public struct DualVersionClient {
    enum Phase {
        case notStarted
        case waitingServerHello(FirstMessageReader)
        case tls12
        case tls13
    }

    private(set) var phase: Phase = .notStarted
    public private(set) var tls12: TLSClient
    public private(set) var tls13: TLS13Client
    /// The combined ClientHello, once sent.
    public private(set) var sentClientHello: ClientHello?
    private let tls12Range: (minimum: ProtocolVersion, maximum: ProtocolVersion)
    /// The caller's time for the TLS 1.2 engine (it stamps a ticket received, RFC 5077 §3.3), when given.
    var now: SessionTime?

    public init(tls12: TLSClientConfiguration, tls13: TLS13ClientConfiguration) {
        var tls13 = tls13
        tls13.offersEarlyData = false
        tls12Range = (tls12.minimumVersion, tls12.maximumVersion)
        self.tls12 = TLSClient(configuration: tls12)
        self.tls13 = TLS13Client(configuration: tls13, random: tls12.random)
        // The PSK's binder covers the ClientHello actually sent: start() adds it to the combined one.
        self.tls13.defersPSKOffer = true
    }

    /// The version the server chose, once its ServerHello arrived and was accepted.
    public var negotiatedVersion: ProtocolVersion? {
        switch phase {
        case .notStarted, .waitingServerHello: return nil
        case .tls12: return tls12.negotiatedVersion
        case .tls13: return tls13.negotiatedSuite == nil ? nil : .tls13
        }
    }

    public var isConnected: Bool {
        switch phase {
        case .notStarted, .waitingServerHello: return false
        case .tls12: return tls12.isConnected
        case .tls13: return tls13.state == .connected
        }
    }

    /// Sends the combined ClientHello; once only.
    public mutating func start() -> TLSStep {
        guard case .notStarted = phase else { return TLSStep() }
        let first13 = tls13.start()
        let first12 = now.map { tls12.start(at: $0) } ?? tls12.start()
        guard let bytes13 = first13.events.lazy.compactMap({ e -> [UInt8]? in
                  if case .handshakeSent(.clientHello, let b) = e { b } else { nil } }).first,
              let hello13 = Self.decodeClientHello(bytes13),
              let hello12 = first12.events.lazy.compactMap({ e -> ClientHello? in
                  if case .handshakeSent(.clientHello(let h), _) = e { h } else { nil } }).first else {
            // One engine could not build its ClientHello: its own failure step says why.
            phase = .tls13
            return first13.tlsStep(role: .client)
        }
        var hello = Self.combined(tls13: hello13, tls12: hello12, versions: versionsOffered)
        // A TLS 1.2 session offered: its session ID — or the fresh one its ticket goes with (RFC 5077
        // §3.4) — is legacy_session_id, as RFC 8446 §4.1.2 says of a session cached from a pre-1.3
        // server; a TLS 1.3 server echoes it, so the 1.3 engine expects it back.
        if !hello12.sessionID.isEmpty {
            hello.sessionID = hello12.sessionID
            tls13.sessionID = hello12.sessionID
        }
        // A TLS 1.3 ticket: pre_shared_key last, the binder over this ClientHello (§4.2.11.2).
        if let offered = try? tls13.offerPSK(in: hello) { hello = offered.0 }
        let pskEvents = tls13.takeEvents()
        var w = ByteWriter()
        hello.encode(to: &w)
        let bytes = TLS13Connection.handshakeBytes(.clientHello, w.bytes)
        sentClientHello = hello
        tls13.connection.transcript = bytes
        // After a HelloRetryRequest the 1.3 engine sends this ClientHello again, changed only as
        // RFC 8446 §4.1.2 allows: still offering TLS 1.2 and its suites.
        tls13.firstClientHello = hello
        tls12.handshake.adoptSentClientHello(hello, bytes: bytes)
        phase = .waitingServerHello(FirstMessageReader())
        // The first ClientHello's record says 03 01 (RFC 8446 §5.1, Appendix D.1).
        var sent: [SentRecord] = []
        var offset = 0
        for record in TLSRecord.fragment(bytes, contentType: .handshake, version: .tls10) {
            let range = offset..<(offset + record.fragment.count)
            offset = range.upperBound
            sent.append(SentRecord(record: record, isProtected: false, carries: [CarriedContent(
                content: .handshake(.clientHello(hello), bytes: bytes), range: 0..<record.fragment.count, completesMessage: offset == bytes.count)]))
        }
        let events: [TLS13Event] = first13.events.flatMap { event -> [TLS13Event] in
            if case .handshakeSent(.clientHello, _) = event { return pskEvents + [.handshakeSent(.clientHello, bytes: bytes)] }
            return [event]
        }
        let step = TLS13Step(output: sent.flatMap(\.record.encoded), events: events, sent: sent).tlsStep(role: .client)
        // The TLS 1.2 engine's word on its session: a ticket past its lifetime hint was not offered (RFC 5077 §3.3).
        let expired = first12.events.filter { if case .sessionTicketExpired = $0 { true } else { false } }
        return TLSStep(sent: step.sent, events: expired + step.events)
    }

    /// Bytes from the server, in any chunking.
    public mutating func receive(_ bytes: [UInt8]) -> TLSStep {
        switch phase {
        case .notStarted:
            return TLSStep()
        case .waitingServerHello(var reader):
            switch reader.append(bytes) {
            case .needMore:
                phase = .waitingServerHello(reader)
                return TLSStep()
            case .notAHandshakeMessage:
                // An alert or bytes no ServerHello starts: the TLS 1.2 engine reads them as it does today.
                return hand(reader.received, to: .tls12, choice: nil)
            case let .message(_, message, _, _):
                var r = ByteReader(message.body)
                guard message.type == .serverHello, let hello = try? ServerHello(from: &r), r.isAtEnd else {
                    return hand(reader.received, to: .tls12, choice: nil)
                }
                return choose(for: hello, message: message, received: reader.received)
            }
        case .tls12:
            return now.map { tls12.receive(bytes, at: $0) } ?? tls12.receive(bytes)
        case .tls13:
            return tls13.receive(bytes).tlsStep(role: .client)
        }
    }

    /// Application data, once connected.
    public mutating func sendApplicationData(_ data: [UInt8]) -> TLSStep {
        switch phase {
        case .notStarted, .waitingServerHello: return TLSStep()
        case .tls12: return (try? tls12.sendApplicationData(data)) ?? TLSStep()
        case .tls13: return tls13.send(data).tlsStep(role: .client)
        }
    }

    /// close_notify.
    public mutating func close() -> TLSStep {
        switch phase {
        case .notStarted, .waitingServerHello: return TLSStep()
        case .tls12: return tls12.close()
        case .tls13: return tls13.close().tlsStep(role: .client)
        }
    }

    // MARK: - The choice (RFC 8446 §4.1.3, Appendix D.1)

    /// The ServerHello decides: supported_versions present means TLS 1.3 (the 1.3 engine checks
    /// that it selects 03 04); absent, legacy_version is the version — and a random ending with
    /// the downgrade sentinel means an attacker or a broken server took TLS 1.3 away, which the
    /// 1.3 engine refuses (§4.1.3).
    private mutating func choose(for hello: ServerHello, message: RawHandshakeMessage, received: [UInt8]) -> TLSStep {
        let extensions = hello.extensions ?? []
        if case .unknown(_, let data)? = extensions.first(ofType: .supportedVersions) {
            let selected = try? SupportedVersions(extensionData: data, inClientHello: false)
            let choice = selected == .selected(.tls13) ? VersionChoice(role: .client, version: .tls13, reason: .serverSelectsTLS13) : nil
            return hand(received, to: .tls13, choice: choice)
        }
        let choice = VersionChoice(role: .client, version: hello.serverVersion,
                                   reason: .serverHelloWithoutSupportedVersions(serverVersion: hello.serverVersion))
        if DowngradeSentinel.isPresent(in: hello.random.bytes) {
            // This side read the ServerHello (its random is the reason); the TLS 1.3 engine refuses
            // it: downgradeDetected, then illegal_parameter.
            return hand(received, to: .tls13, choice: choice, read: [.handshakeReceived(.serverHello(hello), bytes: message.bytes)])
        }
        return hand(received, to: .tls12, choice: choice)
    }

    /// The one place the phase leaves `waitingServerHello`: the choice is recorded, and the chosen
    /// engine reads the server's bytes as they arrived.
    private mutating func hand(_ received: [UInt8], to next: Phase, choice: VersionChoice?, read: [TLSEvent] = []) -> TLSStep {
        let chosen: [TLSEvent] = read + (choice.map { [.versionChosen($0)] } ?? [])
        let step: TLSStep
        switch next {
        case .tls13:
            phase = .tls13
            step = tls13.receive(received).tlsStep(role: .client)
        default:
            phase = .tls12
            step = now.map { tls12.receive(received, at: $0) } ?? tls12.receive(received)
        }
        return TLSStep(sent: step.sent, events: chosen + step.events)
    }

    /// legacy_version is 03 03; supported_versions lists 03 04 then the 1.2 engine's range, highest first.
    private var versionsOffered: [ProtocolVersion] {
        [.tls13] + [ProtocolVersion.tls12, .tls11, .tls10].filter { $0 <= tls12Range.maximum && $0 >= tls12Range.minimum }
    }

    static func decodeClientHello(_ bytes: [UInt8]) -> ClientHello? {
        var r = ByteReader(Array(bytes.dropFirst(HandshakeMessage.headerLength)))
        guard let hello = try? ClientHello(from: &r), r.isAtEnd else { return nil }
        return hello
    }

    /// One ClientHello offering both versions (RFC 8446 §4.1.2, §4.2.1): the 1.3 engine's random,
    /// legacy_session_id and key shares; the 1.3 suites first; the 1.2 extensions with the groups
    /// and signature schemes of both; supported_versions listing `versions`.
    static func combined(tls13: ClientHello, tls12: ClientHello, versions: [ProtocolVersion]) -> ClientHello {
        let suites = tls13.cipherSuites + tls12.cipherSuites.filter { !tls13.cipherSuites.contains($0) }
        let ext13 = tls13.extensions ?? []
        var extensions: [TLSExtension] = (tls12.extensions ?? []).map { ext in
            switch ext {
            case .supportedGroups(let groups):
                if case .supportedGroups(let first)? = ext13.first(ofType: .supportedGroups) {
                    return .supportedGroups(first + groups.filter { !first.contains($0) })
                }
            case .signatureAlgorithms(let schemes):
                if case .signatureAlgorithms(let first)? = ext13.first(ofType: .signatureAlgorithms) {
                    return .signatureAlgorithms(first + schemes.filter { !first.contains($0) })
                }
            default: break
            }
            return ext
        }
        let present = Set(extensions.map(\.type))
        for ext in ext13 where !present.contains(ext.type) && ext.type != .supportedVersions && ext.type != .preSharedKey {
            extensions.append(ext)
        }
        extensions.append(SupportedVersions.offered(versions).tlsExtension)
        return ClientHello(clientVersion: .tls12, random: tls13.random, sessionID: tls13.sessionID,
                           cipherSuites: suites, extensions: extensions)
    }
}
