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
    /// Sends one NewSessionTicket after the client's Finished with this lifetime in seconds
    /// (RFC 8446 §4.6.1); nil: no tickets.
    public var ticketLifetime: UInt32?
    /// The tickets this server issued before and still resumes (its ticket store: identity, PSK, suite).
    public var tickets: [TLS13ResumptionTicket] = []
    /// A store shared by the connections of one server (`tlslab serve`): tickets issued are kept
    /// there, offered ones looked up there, single-use ones redeemed there (§8.1).
    public var ticketStore: TLS13TicketStore?
    /// Whether the server asks for a client certificate in its flight (RFC 8446 §4.3.2), and who
    /// judges the client's chain (needed unless `.none`).
    public var clientAuthentication: ClientAuthentication = .none
    public var clientCertificateEvaluator: (any PeerCertificateEvaluator)?
    /// 0-RTT: the max_early_data_size its tickets carry, whether it accepts early data, single-use tickets (RFC 8446 §4.2.10, §8.1).
    public var earlyData = TLS13ServerEarlyData()
    /// ALPN (RFC 7301, carried in EncryptedExtensions by RFC 8446 §4.3.1): the protocols this server
    /// speaks in its order of preference (empty: it ignores the client's offer), its ordering rule,
    /// and the final say once the suite is known — the same three settings as TLS 1.2's
    /// ``TLSServerConfiguration``, decided by the same ``ApplicationProtocolSituation``.
    public var applicationProtocols: [ProtocolName] = []
    public var applicationProtocolSelection: ApplicationProtocolSelection = .serverPreference
    public var applicationProtocolStrategy: ApplicationProtocolStrategy = { $0.choice }

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
    /// The group the HelloRetryRequest named (RFC 8446 §4.1.4): the second ClientHello shares that one only.
    var retryGroup: NamedGroup?
    /// client_application_traffic_secret_0, made with the server's Finished, used once the client's Finished checks.
    var pendingClientApplicationSecret: [UInt8] = []
    /// This handshake resumes with a PSK: no Certificate, no CertificateVerify (RFC 8446 §2.2).
    public private(set) var resumed = false
    /// The key of the client's accepted certificate, until its CertificateVerify is checked.
    var clientKey: VerificationKey?
    public private(set) var clientRandom: [UInt8] = []
    /// The server's one clock input: the driver's reading at the last read, in milliseconds, when the
    /// caller gives one (``receive(_:atMilliseconds:)``; the engine reads no clock). The freshness
    /// check (§8.3) and a ticket's creation_time read it as it is; the ticket store's lifetime check
    /// reads its whole seconds (``clock``).
    var clockMilliseconds: UInt64?
    /// The clock when this server sent its flight: with the ticket's creation time, the round trip (§8.3).
    var flightSentAtMilliseconds: UInt64?
    /// The key share group of the handshake (RFC 8446 §4.2.8), once ServerHello fixed it.
    public private(set) var negotiatedGroup: NamedGroup?
    /// The application protocol chosen with ALPN (RFC 7301 §3.2), nil when none was.
    public private(set) var negotiatedApplicationProtocol: ProtocolName?
    /// The host name the client asked for in server_name (RFC 6066 §3).
    public private(set) var requestedServerName: String?
    /// The client's certificate chain (RFC 8446 §4.4.2), when it sent one it was asked for.
    public private(set) var peerCertificateChain: [[UInt8]] = []
    /// The server accepted the client's 0-RTT data (RFC 8446 §4.2.10).
    public private(set) var acceptedEarlyData = false
    /// ``clockMilliseconds`` in whole seconds: a stored ticket older than its lifetime is not
    /// resumed, and a ticket issued now is stored with it.
    var clock: SessionTime? { clockMilliseconds.map { SessionTime(milliseconds: $0) } }

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
        case (.waitClientCertificate, .certificate): try clientCertificate(message)
        case (.waitClientCertificateVerify, .certificateVerify): try clientCertificateVerify(message)
        case (.waitEndOfEarlyData, .endOfEarlyData): try endOfEarlyData(message)
        case (.waitClientFinished, .finished): try clientFinished(message)
        case (.connected, _): try connection.postHandshake(message)
        default: throw .unexpectedMessage(message.type, in: connection.state)
        }
    }

    /// `decoded`: the ClientHello a ``DualVersionServer`` already decoded from `message` (read once).
    mutating func clientHello(_ message: RawHandshakeMessage, decoded: ClientHello? = nil) throws(TLS13Failure) {
        let hello: ClientHello
        var r = ByteReader(message.body)
        if let decoded { hello = decoded } else {
            do { hello = try ClientHello(from: &r); try r.expectEnd(field: "ClientHello") } catch { throw .decode(error) }
        }
        let extensions = hello.extensions ?? []
        guard case .unknown(_, let versionData)? = extensions.first(ofType: .supportedVersions),
              case .offered(let versions) = try Self.read { () throws(DecodeError) in try SupportedVersions(extensionData: versionData, inClientHello: true) },
              versions.contains(.tls13) else {
            // §4.1.2: the ClientHello after a HelloRetryRequest is the first one with only the allowed
            // changes, so it still offers TLS 1.3.
            if retryGroup != nil { throw .illegalParameter(.supportedVersionsChangedAfterRetry) }
            // A 1.3-only server: no version in common (RFC 8446 §4.2.1).
            throw .noCommonParameters
        }
        // §4.1.2: legacy_compression_methods must be exactly one 0 byte.
        guard hello.compressionMethods == [.null] else { throw .illegalParameter(.compressionMethodsNotNull) }
        let offered = hello.cipherSuites.compactMap { TLS13CipherSuite(rawValue: $0.rawValue) }
        guard let suite = configuration.suites.first(where: offered.contains) else { throw .noCommonParameters }
        if retried {
            guard suite == connection.suite, hello.random.bytes == clientRandom else {
                throw .illegalParameter(.secondClientHelloChanged)
            }
        }
        connection.suite = suite
        clientRandom = hello.random.bytes
        negotiatedApplicationProtocol = try applicationProtocol(offered: hello.extensions?.applicationProtocols, suite: suite)

        guard case .supportedGroups(let groups)? = extensions.first(ofType: .supportedGroups) else { throw .missingExtension(.supportedGroups) }
        guard case .signatureAlgorithms(let schemes)? = extensions.first(ofType: .signatureAlgorithms) else { throw .missingExtension(.signatureAlgorithms) }
        guard case .unknown(_, let shareData)? = extensions.first(ofType: .keyShare) else { throw .missingExtension(.keyShare) }
        guard case .clientShares(let shares) = try Self.read({ () throws(DecodeError) in try KeyShare(extensionData: shareData, in: .clientHello) }) else {
            throw .internalError
        }
        // §4.2.8: each share must be for a group the client lists in supported_groups.
        guard shares.allSatisfy({ groups.contains($0.group) }) else { throw .illegalParameter(.keyShareGroupNotInSupportedGroups) }
        // §4.2.8: after a HelloRetryRequest, only one KeyShareEntry, for the group it named.
        if let retryGroup, shares.map(\.group) != [retryGroup] {
            throw .illegalParameter(shares.isEmpty ? .noKeyShareForRetryGroup : .keyShareNotForRetryGroup)
        }
        let scheme = TLS13Connection.scheme(for: configuration.identity.key)
        guard schemes.contains(scheme) else { throw .noCommonParameters }

        let usable = configuration.groups.filter(groups.contains)
        guard let group = usable.first(where: { g in shares.contains { $0.group == g } }) ?? usable.first else { throw .noCommonParameters }
        let share = shares.first(where: { $0.group == group })
        // The binder covers the transcript before this ClientHello (after a HelloRetryRequest:
        // message_hash and the HRR), so it is checked before the ClientHello joins it.
        var psk: TLS13SelectedPSK?
        if share != nil { psk = try acceptablePSK(message, extensions: extensions, suite: suite) }
        // §4.2.10: early_data only in the first ClientHello.
        let offersEarlyData = extensions.contains(type: .earlyData)
        if retried && offersEarlyData { throw .illegalParameter(.earlyDataAfterHelloRetryRequest) }
        connection.received(message)
        guard let share else {
            guard !retried else { throw .illegalParameter(.noKeyShareForRetryGroup) }
            if offersEarlyData { rejectEarlyData(.helloRetryRequest) }
            try helloRetryRequest(hello, group: group, suite: suite)
            return
        }
        var verdict = earlyDataDecision(offered: offersEarlyData, psk: psk, suite: suite)
        if verdict == .accept, let psk, let why = recordingVerdict(psk: psk) { verdict = .reject(why) }
        if case .reject(let why) = verdict { rejectEarlyData(why) }
        try serverHello(hello, share: share, suite: suite, scheme: scheme, psk: psk, acceptsEarlyData: verdict == .accept)
    }

    /// ALPN (RFC 7301 §3.2): a server without protocols ignores the offer; one with protocols picks
    /// by its rule, and with nothing in common answers no_application_protocol; the configuration's
    /// strategy has the final say, as for TLS 1.2 (``ApplicationProtocolSituation/decided(by:)``).
    func applicationProtocol(offered: [ProtocolName]?, suite: TLS13CipherSuite) throws(TLS13Failure) -> ProtocolName? {
        guard !configuration.applicationProtocols.isEmpty, let offered else { return nil }
        let situation = ApplicationProtocolSituation(offered: offered, supported: configuration.applicationProtocols,
                                                     selection: configuration.applicationProtocolSelection, version: .tls13,
                                                     suite: CipherSuite(rawValue: suite.rawValue))
        guard let chosen = situation.decided(by: configuration.applicationProtocolStrategy) else { throw .noCommonApplicationProtocol }
        return chosen
    }

    /// Reads with a decoder, turning its error into this engine's.
    static func read<T>(_ body: () throws(DecodeError) -> T) throws(TLS13Failure) -> T {
        do { return try body() } catch { throw .decode(error) }
    }

    /// §4.1.4: a ServerHello whose random is the HelloRetryRequest constant, naming the group.
    mutating func helloRetryRequest(_ hello: ClientHello, group: NamedGroup, suite: TLS13CipherSuite) throws(TLS13Failure) {
        retried = true
        retryGroup = group
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

    /// The PSK this server resumes with (RFC 8446 §4.2.11): the first offered identity that is a
    /// ticket it issued for a suite with the same hash, not older than its lifetime, with
    /// psk_dhe_ke allowed; its binder must verify (else decrypt_error). nil: a full handshake.
    mutating func acceptablePSK(_ message: RawHandshakeMessage, extensions: [TLSExtension],
                                suite: TLS13CipherSuite) throws(TLS13Failure) -> TLS13SelectedPSK? {
        guard case .unknown(_, let data)? = extensions.first(ofType: .preSharedKey) else { return nil }
        // §4.2.11: "The "pre_shared_key" extension MUST be the last extension in the ClientHello".
        guard extensions.last?.type == .preSharedKey else { throw .illegalParameter(.preSharedKeyNotLast) }
        guard case .offered(let identities, let binders) = try Self.read({ () throws(DecodeError) in try PreSharedKey(extensionData: data, inClientHello: true) }),
              identities.count == binders.count else { throw .illegalParameter(.binderCountMismatch) }
        // §4.2.9: a client offering a PSK must say which modes it allows.
        guard case .unknown(_, let modesData)? = extensions.first(ofType: .pskKeyExchangeModes) else { throw .missingExtension(.pskKeyExchangeModes) }
        let modes = try Self.read { () throws(DecodeError) in try PSKKeyExchangeModes(extensionData: modesData) }
        guard modes.modes.contains(PSKKeyExchangeModes.pskDHEKE) else { return nil }
        for (index, identity) in identities.enumerated() {
            let listed = configuration.tickets.first(where: { $0.message.ticket == identity.identity })
            let stored = listed == nil ? configuration.ticketStore?.ticket(identity.identity, now: clock) : nil
            guard let ticket = listed ?? stored, ticket.suite.hash == suite.hash else { continue }
            let age = identity.obfuscatedTicketAge &- ticket.message.ageAdd
            guard UInt64(age) <= UInt64(ticket.message.lifetime) * 1000 else { continue }
            guard let truncated = TLS13PSKBinder.truncated(clientHello: message.bytes, bindersLength: PreSharedKey.bindersLength(binders)) else {
                throw .illegalParameter(.bindersLongerThanClientHello)
            }
            let truncatedHash = suite.hash.digest(connection.transcript + truncated)
            var early = TLS13KeySchedule.Early(hash: suite.hash, preSharedKey: ticket.psk)
            let mac = TLS13FinishedMAC(hash: suite.hash, baseKey: .binderKey, baseKeyValue: early.binderKey(resumption: true), transcriptHash: truncatedHash)
            let expected = mac.verifyData
            connection.events.append(.finishedComputed(mac))
            connection.events.append(.pskBinderChecked(truncatedTranscriptHash: truncatedHash, expected: expected, received: binders[index]))
            guard constantTimeEqual(expected, binders[index]) else { throw .pskBinderInvalid }
            // §8.1: a shared store hands a single-use ticket to one connection only, even at the same time.
            if configuration.earlyData.singleUseTickets, stored != nil, configuration.ticketStore?.redeem(ticket.message.ticket) != true { continue }
            connection.events.append(.pskAccepted(selectedIdentity: UInt16(index), ticketAgeMilliseconds: age))
            // §8.1: a single-use ticket is used up now; the caller's store forgets it.
            if configuration.earlyData.singleUseTickets { connection.events.append(.ticketRedeemed(identity: ticket.message.ticket)) }
            return TLS13SelectedPSK(early: early, index: UInt16(index), ticket: ticket, binder: binders[index], clientTicketAgeMilliseconds: age)
        }
        return nil
    }

    mutating func serverHello(_ hello: ClientHello, share: KeyShareEntry, suite: TLS13CipherSuite, scheme: SignatureScheme,
                              psk: TLS13SelectedPSK?, acceptsEarlyData: Bool) throws(TLS13Failure) {
        guard let curve = TLS13Connection.curve(for: share.group) else { throw .noCommonParameters }
        // With a PSK the early secret is HKDF-Extract(0, PSK), else zeros. Accepted 0-RTT:
        // client_early_traffic_secret and the early exporter over the ClientHello alone (§7.1).
        var early = psk?.early ?? TLS13KeySchedule.Early(hash: suite.hash)
        let clientEarlySecret = acceptsEarlyData ? early.clientEarlyTrafficSecret(clientHelloHash: connection.transcriptHash) : nil
        if acceptsEarlyData { _ = early.earlyExporterMasterSecret(clientHelloHash: connection.transcriptHash) }
        let pair: ECDHKeyPair
        do { pair = try ECDHKeyPair(curve: curve, using: connection.random) } catch { throw .internalError }
        connection.events.append(.keyShareGenerated(group: share.group, publicKey: pair.publicKeyBytes))
        let shared = try connection.sharedSecret(pair, group: share.group, peer: share.keyExchange)
        var serverExtensions = [KeyShare.serverShare(KeyShareEntry(group: share.group, keyExchange: pair.publicKeyBytes)).tlsExtension,
                                SupportedVersions.selected(.tls13).tlsExtension]
        if let psk { serverExtensions.append(PreSharedKey.selected(psk.index).tlsExtension) }
        resumed = psk != nil
        negotiatedGroup = share.group
        acceptedEarlyData = acceptsEarlyData
        let answer = ServerHello(serverVersion: .tls12, random: Random(connection.random.bytes(count: 32)), sessionID: hello.sessionID,
                                 cipherSuite: CipherSuite(rawValue: suite.rawValue), extensions: serverExtensions)
        var w = ByteWriter()
        answer.encode(to: &w)
        try connection.sendHandshake(.serverHello, body: w.bytes)
        flightSentAtMilliseconds = clockMilliseconds
        let serverName: String? = { if case .serverName(let names)? = (hello.extensions ?? []).first(ofType: .serverName) { return names.first?.hostName } else { return nil } }()
        requestedServerName = serverName
        connection.events.append(.negotiated(suite: suite, group: share.group, serverName: serverName))
        if configuration.middleboxCompatibility && !hello.sessionID.isEmpty && !retried { connection.sendCompatibilityChangeCipherSpec() }

        // The early stage's steps (binder_key's and the 0-RTT secrets included) join the trace here.
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
        // §4.3.1: EncryptedExtensions carries what does not fix the keys: ALPN's one protocol
        // (RFC 7301 §3.1) and, when 0-RTT is accepted, early_data (§4.2.10).
        var encrypted: [TLSExtension] = []
        if let chosen = negotiatedApplicationProtocol { encrypted.append(.applicationLayerProtocolNegotiation([chosen])) }
        if acceptsEarlyData { encrypted.append(EarlyDataIndication.indication.tlsExtension) }
        EncryptedExtensions(extensions: encrypted).encode(to: &extensionsWriter)
        try connection.sendHandshake(.encryptedExtensions, body: extensionsWriter.bytes)
        // §4.3.2: a CertificateRequest follows EncryptedExtensions; "Servers which are authenticating with a PSK
        // MUST NOT send the CertificateRequest message in the main handshake".
        let asksForCertificate = psk == nil && configuration.clientAuthentication != .none
        if asksForCertificate {
            let request = TLS13CertificateRequest(extensions: [.signatureAlgorithms(TLS13SignatureSchemes.offered)])
            var requestWriter = ByteWriter()
            request.encode(to: &requestWriter)
            connection.events.append(.certificateRequested(context: request.context, schemes: TLS13SignatureSchemes.offered))
            try connection.sendHandshake(.certificateRequest, body: requestWriter.bytes)
        }
        if psk == nil {
            // §2.2: a PSK handshake authenticates the server by the PSK alone.
            var certificateWriter = ByteWriter()
            TLS13CertificateMessage(entries: configuration.identity.certificateChain.map { .init(certificate: $0) }).encode(to: &certificateWriter)
            try connection.sendHandshake(.certificate, body: certificateWriter.bytes)
            let content = TLS13CertificateVerifyContent.signedContent(signer: .server, transcriptHash: connection.transcriptHash)
            let signature = try connection.sign(content, with: configuration.identity.key, scheme: scheme)
            connection.events.append(.certificateVerifySigned(scheme, content: content, signature: signature))
            try connection.sendHandshake(.certificateVerify, body: TLS13Connection.certificateVerifyBody(scheme: scheme, signature: signature))
        }
        try connection.sendHandshake(.finished, body: connection.finishedBody(.serverHandshakeTrafficSecret, baseKey: secrets.server))

        var master = handshake.master()
        let application = master.applicationTrafficSecrets(serverFinishedHash: connection.transcriptHash)
        _ = master.exporterMasterSecret(serverFinishedHash: connection.transcriptHash)
        connection.note(master.steps, after: handshake.steps.count)
        connection.handshake = handshake
        connection.master = master
        try connection.install(.write, secret: .serverApplicationTrafficSecret0, application.server)
        pendingClientApplicationSecret = application.client
        if let clientEarlySecret, let psk {
            // §2.3: the 0-RTT records are read with the early key until EndOfEarlyData.
            try connection.install(.read, secret: .clientEarlyTrafficSecret, clientEarlySecret)
            connection.earlyRead = .accepting(limit: Int(psk.ticket.message.maxEarlyDataSize ?? 0), received: 0)
            connection.events.append(.earlyDataAccepted)
            connection.enter(.waitEndOfEarlyData)
            return
        }
        try connection.install(.read, secret: .clientHandshakeTrafficSecret, secrets.client)
        connection.enter(asksForCertificate ? .waitClientCertificate : .waitClientFinished)
    }

    /// The client's Certificate (RFC 8446 §4.4.2): the context of the request echoed; an empty list is
    /// certificate_required when the server requires one (§4.4.2.4); otherwise the client trust decides.
    mutating func clientCertificate(_ message: RawHandshakeMessage) throws(TLS13Failure) {
        connection.received(message)
        var r = ByteReader(message.body)
        let certificate: TLS13CertificateMessage
        do { certificate = try TLS13CertificateMessage(from: &r); try r.expectEnd(field: "Certificate") } catch { throw .decode(error) }
        guard certificate.requestContext.isEmpty else { throw .illegalParameter(.clientCertificateContextMismatch) }
        guard !certificate.entries.isEmpty else {
            if configuration.clientAuthentication == .require { throw .certificateRequired }
            connection.events.append(.emptyClientCertificate)
            connection.enter(.waitClientFinished)
            return
        }
        guard let evaluator = configuration.clientCertificateEvaluator else { throw .internalError }
        let decision = evaluator.evaluate(chain: certificate.certificateList, role: .client, serverName: nil)
        connection.events.append(.certificateDecision(decision, chainLength: certificate.certificateList.count))
        switch decision {
        case .accept(let key, _, _): clientKey = key; peerCertificateChain = certificate.certificateList
        case .reject(let refusal, let account, _): throw .certificateRefused(refusal, account)
        }
        connection.enter(.waitClientCertificateVerify)
    }

    /// The client's CertificateVerify (RFC 8446 §4.4.3): signed with the client context string over
    /// the transcript up to its Certificate, with a scheme the CertificateRequest listed.
    mutating func clientCertificateVerify(_ message: RawHandshakeMessage) throws(TLS13Failure) {
        let content = TLS13CertificateVerifyContent.signedContent(signer: .client, transcriptHash: connection.transcriptHash)
        connection.received(message)
        let (scheme, signature) = try TLS13Connection.certificateVerify(message.body)
        guard TLS13SignatureSchemes.offered.contains(scheme) else { throw .illegalParameter(.clientSignatureSchemeNotRequested) }
        guard let clientKey else { throw .internalError }
        let valid = TLS13Connection.verify(signature, over: content, scheme: scheme, key: clientKey)
        connection.events.append(.certificateVerifyChecked(scheme, content: content, signature: signature, valid: valid))
        guard valid else { throw .verificationFailed }
        connection.enter(.waitClientFinished)
    }

    mutating func clientFinished(_ message: RawHandshakeMessage) throws(TLS13Failure) {
        try connection.checkFinished(message, .clientHandshakeTrafficSecret, baseKey: connection.clientHandshakeSecret)
        connection.received(message)
        guard var master = connection.master else { throw .internalError }
        let before = master.steps.count
        _ = master.resumptionMasterSecret(clientFinishedHash: connection.transcriptHash)
        connection.note(master.steps, after: before)
        connection.master = master
        try connection.install(.read, secret: .clientApplicationTrafficSecret0, pendingClientApplicationSecret)
        connection.enter(.connected)
        connection.events.append(.handshakeCompleted(resumed: resumed))
        if let lifetime = configuration.ticketLifetime { try sendNewSessionTicket(lifetime: lifetime) }
    }

    /// One NewSessionTicket under the server's application traffic key (RFC 8446 §4.6.1): outside
    /// the transcript; its PSK derived from resumption_master_secret and the nonce, kept, not sent.
    mutating func sendNewSessionTicket(lifetime: UInt32) throws(TLS13Failure) {
        guard var master = connection.master, let suite = connection.suite else { throw .internalError }
        let ageAdd = connection.random.bytes(count: 4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        // One ticket a connection: nonce 00 00, as in RFC 8448 §3; the ticket is a random label.
        let size = configuration.earlyData.maxEarlyDataSize
        let message = TLS13NewSessionTicket(lifetime: min(lifetime, TLS13NewSessionTicket.maximumLifetime), ageAdd: ageAdd,
                                            nonce: [0, 0], ticket: connection.random.bytes(count: 32),
                                            extensions: size > 0 ? [EarlyDataIndication.maxEarlyDataSize(size).tlsExtension] : [])
        let before = master.steps.count
        guard let psk = master.resumptionPSK(ticketNonce: message.nonce) else { throw .internalError }
        connection.master = master
        var w = ByteWriter()
        message.encode(to: &w)
        let bytes = TLS13Connection.handshakeBytes(.newSessionTicket, w.bytes)
        connection.events.append(.handshakeSent(.newSessionTicket, bytes: bytes))
        try connection.send(.handshake, bytes)
        var ticket = TLS13ResumptionTicket(message: message, psk: psk, suite: suite, applicationProtocol: negotiatedApplicationProtocol)
        if let now = clockMilliseconds {
            ticket.issuedAtMilliseconds = now
            ticket.estimatedRTTMilliseconds = flightSentAtMilliseconds.map { now >= $0 ? now - $0 : 0 } ?? 0
        }
        configuration.ticketStore?.store(ticket, issuedAt: clock)
        connection.events.append(.newSessionTicketSent(ticket))
        connection.note(master.steps, after: before)
    }
}
