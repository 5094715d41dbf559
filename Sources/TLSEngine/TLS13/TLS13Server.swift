import TLSCrypto

/// What a TLS 1.3 server accepts and proves itself with.
public struct TLS13ServerConfiguration {
    public var identity: TLSIdentity
    /// The server's preference order.
    public var suites: [TLS13CipherSuite]
    public var groups: [NamedGroup]
    /// Also a TLS 1.2 server: a ClientHello without TLS 1.3 is left to the 1.2 engine, whose
    /// ServerHello.random then ends with the DOWNGRD sentinel (§4.1.3).
    public var middleboxCompatibility: Bool

    public init(identity: TLSIdentity,
                suites: [TLS13CipherSuite] = [.aes128GCMSHA256, .aes256GCMSHA384, .chacha20Poly1305SHA256],
                groups: [NamedGroup] = [.x25519, .secp256r1], middleboxCompatibility: Bool = true) {
        self.identity = identity
        self.suites = suites
        self.groups = groups
        self.middleboxCompatibility = middleboxCompatibility
    }
}

/// A TLS 1.3 server (RFC 8446 §2, Appendix A.2): reads the ClientHello, asks again for a key
/// share of its own group when none fits (HelloRetryRequest), else answers with ServerHello and
/// the flight EncryptedExtensions, Certificate, CertificateVerify, Finished under the handshake
/// keys, then checks the client's Finished.
public struct TLS13Server: TLS13Side {
    public let configuration: TLS13ServerConfiguration
    var connection: TLS13Connection
    var retried = false
    /// client_application_traffic_secret_0, made with the server's Finished, used once the client's Finished checks.
    var pendingClientApplicationSecret: [UInt8] = []
    public private(set) var clientRandom: [UInt8] = []

    public init(configuration: TLS13ServerConfiguration, random: RandomSource) {
        self.configuration = configuration
        connection = TLS13Connection(role: .server, random: random, state: .start)
    }

    public var state: TLS13State { connection.state }
    public var negotiatedSuite: TLS13CipherSuite? { connection.suite }
    public var keyScheduleSteps: [TLS13KeyScheduleStep] {
        connection.master?.steps ?? connection.handshake?.steps ?? connection.early?.steps ?? []
    }

    /// Bytes from the client.
    public mutating func receive(_ bytes: [UInt8]) -> TLS13Step { receiveMessages(bytes) }

    /// Moves this side's keys on and asks the peer to do the same when `requestUpdate` (§4.6.3).
    public mutating func updateKeys(requestUpdate: Bool) -> TLS13Step { connection.updateKeys(requestUpdate: requestUpdate) }

    /// Application data, once connected.
    public mutating func send(_ data: [UInt8]) -> TLS13Step { connection.sendApplicationData(data) }

    /// close_notify (RFC 8446 §6.1).
    public mutating func close() -> TLS13Step { connection.close() }

    mutating func handle(_ message: RawHandshakeMessage) throws(TLS13Failure) {
        switch (connection.state, message.type) {
        case (.start, .clientHello): try clientHello(message)
        case (.waitClientFinished, .finished): try clientFinished(message)
        case (.connected, _): try connection.postHandshake(message)
        default: throw .unexpectedMessage(message.type, in: connection.state)
        }
    }

    mutating func clientHello(_ message: RawHandshakeMessage) throws(TLS13Failure) {
        let hello: ClientHello
        var r = ByteReader(message.body)
        do { hello = try ClientHello(from: &r); try r.expectEnd(field: "ClientHello") } catch { throw .decode(error) }
        let extensions = hello.extensions ?? []
        guard case .unknown(_, let versionData)? = extensions.first(ofType: .supportedVersions),
              case .offered(let versions) = try Self.read { () throws(DecodeError) in try SupportedVersions(extensionData: versionData, inClientHello: true) },
              versions.contains(.tls13) else {
            // A 1.3-only server: no version in common (RFC 8446 §4.2.1).
            throw .noCommonParameters
        }
        // §4.1.2: legacy_compression_methods must be exactly one 0 byte.
        guard hello.compressionMethods == [.null] else { throw .illegalParameter("legacy_compression_methods is not [null]") }
        let offered = hello.cipherSuites.compactMap { TLS13CipherSuite(rawValue: $0.rawValue) }
        guard let suite = configuration.suites.first(where: offered.contains) else { throw .noCommonParameters }
        if retried {
            guard suite == connection.suite, hello.random.bytes == clientRandom else {
                throw .illegalParameter("the second ClientHello changed what it may not (§4.1.2)")
            }
        }
        connection.suite = suite
        clientRandom = hello.random.bytes

        guard case .supportedGroups(let groups)? = extensions.first(ofType: .supportedGroups) else { throw .missingExtension(.supportedGroups) }
        guard case .signatureAlgorithms(let schemes)? = extensions.first(ofType: .signatureAlgorithms) else { throw .missingExtension(.signatureAlgorithms) }
        guard case .unknown(_, let shareData)? = extensions.first(ofType: .keyShare) else { throw .missingExtension(.keyShare) }
        guard case .clientShares(let shares) = try Self.read({ () throws(DecodeError) in try KeyShare(extensionData: shareData, in: .clientHello) }) else {
            throw .internalError
        }
        // §4.2.8: each share must be for a group the client lists in supported_groups.
        guard shares.allSatisfy({ groups.contains($0.group) }) else { throw .illegalParameter("a key share for a group not in supported_groups") }
        let scheme = TLS13Connection.scheme(for: configuration.identity.key)
        guard schemes.contains(scheme) else { throw .noCommonParameters }

        let usable = configuration.groups.filter(groups.contains)
        guard let group = usable.first(where: { g in shares.contains { $0.group == g } }) ?? usable.first else { throw .noCommonParameters }
        connection.received(message)
        guard let share = shares.first(where: { $0.group == group }) else {
            guard !retried else { throw .illegalParameter("no key share for the group the HelloRetryRequest named") }
            try helloRetryRequest(hello, group: group, suite: suite)
            return
        }
        try serverHello(hello, share: share, suite: suite, scheme: scheme)
    }

    /// Reads with a decoder, turning its error into this engine's.
    static func read<T>(_ body: () throws(DecodeError) -> T) throws(TLS13Failure) -> T {
        do { return try body() } catch { throw .decode(error) }
    }

    /// §4.1.4: a ServerHello whose random is the HelloRetryRequest constant, naming the group.
    mutating func helloRetryRequest(_ hello: ClientHello, group: NamedGroup, suite: TLS13CipherSuite) throws(TLS13Failure) {
        retried = true
        let hash = suite.hash.digest(connection.transcript)
        connection.transcript = TLS13Connection.handshakeBytes(.messageHash, hash)
        connection.events.append(.transcriptRestarted(messageHash: hash))
        let retry = ServerHello(serverVersion: .tls12, random: Random(TLS13HelloValues.helloRetryRequestRandom), sessionID: hello.sessionID,
                                cipherSuite: CipherSuite(rawValue: suite.rawValue),
                                extensions: [SupportedVersions.selected(.tls13).tlsExtension, KeyShare.selectedGroup(group).tlsExtension])
        var w = ByteWriter()
        retry.encode(to: &w)
        connection.events.append(.helloRetryRequested(group: group))
        try connection.sendHandshake(.serverHello, body: w.bytes)
        if configuration.middleboxCompatibility && !hello.sessionID.isEmpty { connection.sendCompatibilityChangeCipherSpec() }
    }

    mutating func serverHello(_ hello: ClientHello, share: KeyShareEntry, suite: TLS13CipherSuite, scheme: SignatureScheme) throws(TLS13Failure) {
        guard let curve = TLS13Connection.curve(for: share.group) else { throw .noCommonParameters }
        let pair: ECDHKeyPair
        do { pair = try ECDHKeyPair(curve: curve, using: connection.random) } catch { throw .internalError }
        connection.events.append(.keyShareGenerated(group: share.group, publicKey: pair.publicKeyBytes))
        let shared = try connection.sharedSecret(pair, group: share.group, peer: share.keyExchange)
        let answer = ServerHello(serverVersion: .tls12, random: Random(connection.random.bytes(count: 32)), sessionID: hello.sessionID,
                                 cipherSuite: CipherSuite(rawValue: suite.rawValue),
                                 extensions: [KeyShare.serverShare(KeyShareEntry(group: share.group, keyExchange: pair.publicKeyBytes)).tlsExtension,
                                              SupportedVersions.selected(.tls13).tlsExtension])
        var w = ByteWriter()
        answer.encode(to: &w)
        try connection.sendHandshake(.serverHello, body: w.bytes)
        let serverName: String? = { if case .serverName(let names)? = (hello.extensions ?? []).first(ofType: .serverName) { return names.first?.hostName } else { return nil } }()
        connection.events.append(.negotiated(suite: suite, group: share.group, serverName: serverName))
        if configuration.middleboxCompatibility && !hello.sessionID.isEmpty && !retried { connection.sendCompatibilityChangeCipherSpec() }

        let early = TLS13KeySchedule.Early(hash: suite.hash)
        connection.note(early.steps, after: 0)
        var handshake = early.handshake(sharedSecret: shared)
        let secrets = handshake.trafficSecrets(helloHash: connection.transcriptHash)
        connection.note(handshake.steps, after: early.steps.count)
        connection.early = early
        connection.clientHandshakeSecret = secrets.client
        connection.serverHandshakeSecret = secrets.server
        try connection.install(.write, secret: .serverHandshakeTrafficSecret, secrets.server)
        connection.enter(.negotiated)

        // The flight under the handshake keys: nobody on the path reads the certificate any more.
        var extensionsWriter = ByteWriter()
        EncryptedExtensions(extensions: []).encode(to: &extensionsWriter)
        try connection.sendHandshake(.encryptedExtensions, body: extensionsWriter.bytes)
        var certificateWriter = ByteWriter()
        TLS13CertificateMessage(entries: configuration.identity.certificateChain.map { .init(certificate: $0) }).encode(to: &certificateWriter)
        try connection.sendHandshake(.certificate, body: certificateWriter.bytes)
        let content = TLS13CertificateVerifyContent.signedContent(signer: .server, transcriptHash: connection.transcriptHash)
        let signature = try connection.sign(content, with: configuration.identity.key, scheme: scheme)
        connection.events.append(.certificateVerifySigned(scheme, content: content))
        try connection.sendHandshake(.certificateVerify, body: TLS13Connection.certificateVerifyBody(scheme: scheme, signature: signature))
        try connection.sendHandshake(.finished, body: connection.finishedBody(baseKey: secrets.server))

        var master = handshake.master()
        let application = master.applicationTrafficSecrets(serverFinishedHash: connection.transcriptHash)
        _ = master.exporterMasterSecret(serverFinishedHash: connection.transcriptHash)
        connection.note(master.steps, after: handshake.steps.count)
        connection.handshake = handshake
        connection.master = master
        try connection.install(.write, secret: .serverApplicationTrafficSecret0, application.server)
        try connection.install(.read, secret: .clientHandshakeTrafficSecret, secrets.client)
        pendingClientApplicationSecret = application.client
        connection.enter(.waitClientFinished)
    }

    mutating func clientFinished(_ message: RawHandshakeMessage) throws(TLS13Failure) {
        try connection.checkFinished(message, baseKey: connection.clientHandshakeSecret)
        connection.received(message)
        guard var master = connection.master else { throw .internalError }
        let before = master.steps.count
        _ = master.resumptionMasterSecret(clientFinishedHash: connection.transcriptHash)
        connection.note(master.steps, after: before)
        connection.master = master
        try connection.install(.read, secret: .clientApplicationTrafficSecret0, pendingClientApplicationSecret)
        connection.enter(.connected)
        connection.events.append(.handshakeCompleted)
    }
}
