import TLSCrypto

/// The client's handshake (RFC 5246 §7.3, the flow drawn on ``TLSClient``): its states, its
/// messages, and what it keeps between them. A ``TLSClient`` holds it (``TLSEndpointCore``) and runs it in
/// the shell both roles share (``HandshakeMachine``).
struct ClientHandshake: HandshakeMachine {
    static let role = TLSRole.client

    enum State: HandshakeState {
        case start
        case expectServerHello(ExpectServerHello)
        case expectCertificate(ExpectCertificate)
        case expectServerKeyExchange(PendingKeyExchange)
        case expectCertificateRequestOrServerHelloDone(PendingKeyExchange)
        case expectServerHelloDone(PendingKeyExchange, certificateRequest: CertificateRequest)
        case expectNewSessionTicket(ExpectServerFinished, readKeys: PendingProtection)
        case expectChangeCipherSpec(ExpectServerFinished, readKeys: PendingProtection)
        case expectFinished(ExpectServerFinished)
        case connected
        case closed
        case failed(Alert)

        /// Between sending ClientHello and the server's Finished.
        var isNegotiating: Bool {
            switch self {
            case .start, .connected, .closed, .failed: return false
            default: return true
            }
        }

        var name: TLSStateName {
            switch self {
            case .start: return .start
            case .expectServerHello: return .expectServerHello
            case .expectCertificate: return .expectCertificate
            case .expectServerKeyExchange: return .expectServerKeyExchange
            case .expectCertificateRequestOrServerHelloDone: return .expectCertificateRequestOrServerHelloDone
            case .expectServerHelloDone: return .expectServerHelloDone
            case .expectNewSessionTicket: return .expectNewSessionTicket
            case .expectChangeCipherSpec: return .expectChangeCipherSpec
            case .expectFinished: return .expectFinished
            case .connected: return .connected
            case .closed: return .closed
            case .failed: return .failed
            }
        }

        var failureAlert: Alert? { if case .failed(let alert) = self { return alert } else { return nil } }
        var isConnected: Bool { if case .connected = self { return true } else { return false } }
        var isClosed: Bool { if case .closed = self { return true } else { return false } }
        static let handshakeEdges: Set<StateEdge> = [
            StateEdge(.start, .expectServerHello),
            StateEdge(.expectServerHello, .expectCertificate),
            StateEdge(.expectServerHello, .expectChangeCipherSpec),  // resuming (RFC 5246 §7.3, abbreviated)
            StateEdge(.expectCertificate, .expectServerKeyExchange),
            StateEdge(.expectCertificate, .expectCertificateRequestOrServerHelloDone),
            StateEdge(.expectServerKeyExchange, .expectCertificateRequestOrServerHelloDone),
            StateEdge(.expectCertificateRequestOrServerHelloDone, .expectServerHelloDone),
            StateEdge(.expectCertificateRequestOrServerHelloDone, .expectChangeCipherSpec),
            StateEdge(.expectServerHelloDone, .expectChangeCipherSpec),
            StateEdge(.expectChangeCipherSpec, .expectFinished),
            StateEdge(.expectFinished, .connected),
            // RFC 5077 §3.1: a ticket announced in ServerHello comes before the server's ChangeCipherSpec.
            StateEdge(.expectServerHello, .expectNewSessionTicket),
            StateEdge(.expectCertificateRequestOrServerHelloDone, .expectNewSessionTicket),
            StateEdge(.expectServerHelloDone, .expectNewSessionTicket),
            StateEdge(.expectNewSessionTicket, .expectChangeCipherSpec),
        ]

        var notesEndOfStreamOnly: Bool {
            switch self {
            case .start, .connected, .closed, .failed: return true
            default: return false
            }
        }
    }

    /// The state, holding what it needs (``ExpectServerHello``, ``ExpectCertificate``, …).
    var state: State = .start
    var context: ConnectionContext
    private let configuration: TLSClientConfiguration
    /// The driver's latest clock reading (``TLSClient/start(at:)``, ``TLSClient/receive(_:at:)``); nil
    /// when it gave none. An input of each call, not a state's data.
    var clock: SessionTime?

    /// The session to keep for resumption, once the handshake completed (nil before, and after a
    /// full handshake that gave neither a session ID nor a ticket). Not a state's data: it outlives
    /// the handshake — ``TLSClient/session`` is read after `connected`, typically once the
    /// connection is closed, to offer it in a later ClientHello.
    private(set) var session: TLSSession?

    init(configuration: TLSClientConfiguration) {
        self.configuration = configuration
        context = ConnectionContext(role: .client, random: configuration.random)
    }

    // MARK: - Inputs

    /// Sends the ClientHello (RFC 5246 §7.4.1.2).
    mutating func start() -> TLSStep {
        guard case .start = state else { return context.takeStep() }
        run { (client: inout ClientHandshake) throws(TLSError) in try client.sendClientHello() }
        return context.takeStep()
    }

    /// A ``DualVersionClient`` sent `hello` (`bytes`: header included) in place of the ClientHello
    /// this handshake built: the transcript, client_random and the extensions a ServerHello may
    /// answer are those of the ClientHello actually sent (RFC 5246 §7.4.1.4, §7.4.9).
    mutating func adoptSentClientHello(_ hello: ClientHello, bytes: [UInt8]) {
        if case .expectServerHello(var expecting) = state {
            expecting.hello = hello
            amend(.expectServerHello(expecting))
        }
        context.clientRandom = hello.random.bytes
        context.clientHelloVersion = hello.clientVersion
        context.transcript = TranscriptHash()
        context.transcript.append(bytes)
    }

    // MARK: - Dispatch (RFC 5246 §7.3)

    mutating func handle(_ incoming: IncomingContent) throws(TLSError) {
        if case .alert(let alert) = incoming { return try handleAlert(alert) }
        switch (state, incoming) {
        case (.closed, _):
            return  // after our close_notify, the rest is ignored
        case (.expectServerHello(let expecting), .handshake(let raw)) where raw.type == .serverHello:
            guard case .serverHello(let hello) = try received(raw) else { break }
            try processServerHello(hello, expecting: expecting)
        case (.expectCertificate(let expecting), .handshake(let raw)) where raw.type == .certificate:
            guard case .certificate(let certificate) = try received(raw) else { break }
            try processCertificate(certificate, expecting: expecting)
        case (.expectServerKeyExchange(let pending), .handshake(let raw)) where raw.type == .serverKeyExchange:
            guard case .serverKeyExchange(let ske) = try received(raw) else { break }
            try processServerKeyExchange(ske, pending: pending)
        case (.expectCertificateRequestOrServerHelloDone(let pending), .handshake(let raw)) where raw.type == .certificateRequest:
            guard case .certificateRequest(let request) = try received(raw) else { break }
            transition(to: .expectServerHelloDone(pending, certificateRequest: request))
        case (.expectCertificateRequestOrServerHelloDone(let pending), .handshake(let raw)) where raw.type == .serverHelloDone:
            _ = try received(raw)
            try processServerHelloDone(pending: pending, certificateRequest: nil)
        case (.expectServerHelloDone(let pending, let request), .handshake(let raw)) where raw.type == .serverHelloDone:
            _ = try received(raw)
            try processServerHelloDone(pending: pending, certificateRequest: request)
        case (.expectNewSessionTicket(var expecting, let readKeys), .handshake(let raw)) where raw.type == .newSessionTicket:
            guard case .newSessionTicket(let ticket) = try received(raw) else { break }
            // RFC 5077 §3.3: an empty ticket means the server has none to give after all.
            expecting.ticket = ticket.ticket.isEmpty ? nil : ReceivedTicket(message: ticket, receivedAt: clock)
            transition(to: .expectChangeCipherSpec(expecting, readKeys: readKeys))
        case (.expectChangeCipherSpec(let expecting, let readKeys), .changeCipherSpec):
            guard !context.hasQueuedHandshake else {
                throw .inappropriateMessage(expected: .changeCipherSpecAtMessageBoundary, got: .content(.changeCipherSpec))
            }
            context.activateReadKeys(readKeys)
            transition(to: .expectFinished(expecting))
        case (.expectFinished(let expecting), .handshake(let raw)) where raw.type == .finished:
            guard case .finished(let finished) = try context.decode(raw) else { break }
            try processFinished(finished, raw: raw, expecting: expecting)
        case (.connected, .applicationData(let data)):
            context.events.append(.applicationDataReceived(data))
        case (.connected, .handshake(let raw)) where raw.type == .helloRequest:
            // RFC 5246 §7.4.1.1: a client may decline renegotiation with a warning.
            _ = try context.decode(raw)
            context.sendAlert(Alert(level: .warning, description: .noRenegotiation), cause: .renegotiationRefused)
        case (_, .handshake(let raw)) where raw.type == .helloRequest && state.isNegotiating:
            // RFC 5246 §7.4.1.1: "This message will be ignored by the client if the client is
            // currently negotiating a session"; HelloRequest never enters the handshake hash.
            _ = try context.decode(raw)
        default:
            throw .inappropriateMessage(expected: .inState(state.name), got: incoming.arrived)
        }
    }

    // MARK: - The handshake, top to bottom

    private mutating func sendClientHello() throws(TLSError) {
        let config = configuration
        guard config.maximumVersion >= .tls10, config.minimumVersion <= config.maximumVersion else {
            throw .internalError(.versionRangeUnusable(minimum: config.minimumVersion, maximum: config.maximumVersion))
        }
        context.clientHelloVersion = config.maximumVersion
        context.clientRandom = context.random.bytes(count: 32)
        var extensions: [TLSExtension] = []
        if let name = config.serverName { extensions.append(.serverName([ServerName(hostName: name)])) }
        let offersECDHE = config.cipherSuites.contains { $0.parameters?.keyExchange.isECDHE == true }
        let offersDHE = config.cipherSuites.contains { $0.parameters?.keyExchange == .dheRSA }
        // RFC 8422 §5.1.1 curves for ECDHE, then RFC 7919 §3 finite-field groups for DHE.
        let curves = offersECDHE ? config.supportedGroups : []
        let finiteField = offersDHE ? offeredFiniteFieldGroups : []
        if !(curves + finiteField).isEmpty { extensions.append(.supportedGroups(curves + finiteField)) }
        if !curves.isEmpty { extensions.append(.ecPointFormats([.uncompressed])) }
        if config.maximumVersion >= .tls12 { extensions.append(.signatureAlgorithms(config.signatureAlgorithms)) }
        if config.offerEncryptThenMAC, config.cipherSuites.contains(where: { $0.parameters.map { !$0.isAEAD } ?? false }) {
            extensions.append(.encryptThenMAC)
        }
        if config.offerExtendedMasterSecret { extensions.append(.extendedMasterSecret) }
        if config.sendRenegotiationInfo { extensions.append(.renegotiationInfo([])) }
        // RFC 5077 §3.3: "A client SHOULD delete the ticket and associated state when the time
        // expires" — a session whose ticket's hint has passed is offered neither by ticket nor by ID.
        var offeredSession = config.session
        if let session = config.session, let expiry = TicketLifetimeHint.expiry(of: session, now: clock) {
            context.events.append(.sessionTicketExpired(expiry))
            offeredSession = nil
        }
        // RFC 5077 §3.2: empty to ask for a ticket, or the session's ticket to resume by it.
        let ticket = config.offerSessionTicket ? (offeredSession?.ticket ?? []) : nil
        if let ticket { extensions.append(.sessionTicket(ticket)) }
        var offeredSessionID = offeredSession?.sessionID ?? []
        if let ticket, !ticket.isEmpty, offeredSessionID.isEmpty { offeredSessionID = context.random.bytes(count: 32) }
        if !config.applicationProtocols.isEmpty {
            // RFC 7301 §3.1: ProtocolName<1..2^8-1> in a protocol_name_list<2..2^16-1>.
            let length = config.applicationProtocols.reduce(0) { $0 + 1 + $1.bytes.count }
            guard config.applicationProtocols.allSatisfy(\.isValid), length <= 0xffff else {
                throw .internalError(.applicationProtocolOfferUnencodable)
            }
            extensions.append(.applicationLayerProtocolNegotiation(config.applicationProtocols))
        }
        let hello = ClientHello(clientVersion: config.maximumVersion, random: Random(context.clientRandom),
                                sessionID: offeredSessionID, cipherSuites: config.cipherSuites,
                                extensions: extensions)
        context.sendHandshake(.clientHello(hello))
        try context.flush()
        transition(to: .expectServerHello(ExpectServerHello(hello: hello, offeredSessionID: offeredSessionID,
                                                            offeredSession: offeredSession)))
    }

    private mutating func processServerHello(_ hello: ServerHello, expecting: ExpectServerHello) throws(TLSError) {
        let config = configuration
        let version = hello.serverVersion
        guard version >= .tls10, version >= config.minimumVersion, version <= config.maximumVersion else {
            throw .peerIncompatible(.serverVersionUnacceptable(version, minimum: config.minimumVersion, maximum: config.maximumVersion))
        }
        guard config.cipherSuites.contains(hello.cipherSuite), let params = hello.cipherSuite.parameters,
              SuiteSelection.isAllowed(params, version: version) else {
            throw .peerMisbehaved(.suiteNotOffered(hello.cipherSuite, version: version))
        }
        guard hello.compressionMethod == .null else {
            throw .peerMisbehaved(.compressionNotNull(hello.compressionMethod))
        }
        let offered = Set((expecting.hello.extensions ?? []).map(\.type))
        for ext in hello.extensions ?? [] {
            guard offered.contains(ext.type) else {
                throw .peerMisbehaved(.extensionNotOffered(ext.type))
            }
            if case .renegotiationInfo(let data) = ext, !data.isEmpty {
                throw .peerMisbehaved(.renegotiationInfoNotEmpty(checkedBy: .client))
            }
        }
        // ALPN in a ServerHello after a ClientHello without it was refused just above with
        // unsupported_extension (RFC 5246 §7.4.1.4: "If a client receives an extension type in
        // ServerHello that it did not request in the associated ClientHello, it MUST abort the
        // handshake with an unsupported_extension fatal alert"). The codec already refused a list of
        // other than one name (decode_error, RFC 7301 §3.1). A name the client did not offer breaks
        // RFC 7301 §3.2 (the server selects among the protocols "advertised by the client"): the
        // extension is known and well formed but its value is inconsistent with the ClientHello,
        // which RFC 5246 §7.2.2 calls illegal_parameter ("a field in the handshake was out of range
        // or inconsistent with other fields"). OpenSSL's client sends decode_error here instead
        // (ssl/statem/extensions_clnt.c, tls_parse_stoc_alpn): the bytes decode, so TLSLab keeps
        // decode_error for bytes that do not.
        if let chosen = hello.extensions?.applicationProtocols {
            guard chosen.count == 1, let name = chosen.first, config.applicationProtocols.contains(name) else {
                throw .peerMisbehaved(.applicationProtocolNotOffered(chosen))
            }
            context.applicationProtocol = name
        }
        context.serverRandom = hello.random.bytes
        context.sessionID = hello.sessionID
        context.extendedMasterSecret = config.offerExtendedMasterSecret && (hello.extensions ?? []).contains(type: .extendedMasterSecret)
        // RFC 7366 §3: the server answers encrypt_then_mac only for a block-cipher suite.
        if (hello.extensions ?? []).contains(type: .encryptThenMAC) {
            guard !params.isAEAD else { throw .peerMisbehaved(.encryptThenMACWithAEAD(hello.cipherSuite)) }
            context.encryptThenMAC = true
        }
        context.serverName = config.serverName
        // RFC 5077 §3.2: an empty SessionTicket in ServerHello promises a NewSessionTicket (one the
        // client did not ask for was refused above with unsupported_extension).
        context.issuesTicket = (hello.extensions ?? []).contains(type: .sessionTicket)
        try context.fix(suite: params, version: version)

        if let session = expecting.offeredSession, !hello.sessionID.isEmpty, hello.sessionID == expecting.offeredSessionID {
            // RFC 5246 §7.3: the abbreviated handshake.
            guard session.cipherSuite == hello.cipherSuite, session.version == version else {
                throw .peerMisbehaved(.resumedSessionDiffers(suite: session.cipherSuite, version: session.version))
            }
            guard session.extendedMasterSecret == context.extendedMasterSecret else {
                throw .peerMisbehaved(.extendedMasterSecretChangedOnResumption)
            }
            guard session.encryptThenMAC == context.encryptThenMAC else {
                throw .peerMisbehaved(.encryptThenMACChangedOnResumption)
            }
            context.resumed = true
            let secret = context.resumeMasterSecret(session.masterSecret, suite: params)
            context.events.append(.negotiated(negotiation(group: nil)))
            context.events.append(.sessionResumed(sessionID: hello.sessionID, masterSecret: session.masterSecret))
            let keys = try context.deriveKeys(secret)
            let expecting = ExpectServerFinished(kind: .abbreviated(resuming: session, writeKeys: keys.write), secret: secret)
            transition(to: context.issuesTicket ? .expectNewSessionTicket(expecting, readKeys: keys.read)
                                                : .expectChangeCipherSpec(expecting, readKeys: keys.read))
            return
        }
        let keyExchange: any ClientKeyAgreement
        switch params.keyExchange {
        case .rsa: keyExchange = RSAKeyExchange()
        case .dheRSA: keyExchange = DHEKeyExchange.Client(minimumPrimeBits: config.minimumDHPrimeBits,
                                                          exponentSize: config.dhExponentSize,
                                                          offeredGroups: offeredFiniteFieldGroups,
                                                          unofferedPolicy: config.unofferedDHGroups)
        case .ecdheRSA, .ecdheECDSA: keyExchange = ECDHEKeyExchange.Client(acceptable: config.supportedGroups)
        }
        context.events.append(.negotiated(negotiation(group: nil)))
        transition(to: .expectCertificate(ExpectCertificate(suite: params, keyExchange: keyExchange)))
    }

    /// The finite-field groups the ClientHello names (RFC 7919 §3): the configured ones, without
    /// code points outside the FFDHE range and without repeats.
    private var offeredFiniteFieldGroups: [NamedGroup] {
        var seen: [NamedGroup] = []
        for group in configuration.finiteFieldGroups where FFDHENegotiation.isFiniteField(group) && !seen.contains(group) {
            seen.append(group)
        }
        return seen
    }

    private func negotiation(group: String?) -> NegotiationTrace {
        NegotiationTrace(version: context.version, cipherSuite: context.suite?.suite ?? .TLS_NULL_WITH_NULL_NULL,
                         extendedMasterSecret: context.extendedMasterSecret, resumed: context.resumed,
                         serverName: context.serverName, group: group,
                         applicationProtocol: context.applicationProtocol, encryptThenMAC: context.encryptThenMAC)
    }

    private mutating func processCertificate(_ message: CertificateMessage, expecting: ExpectCertificate) throws(TLSError) {
        guard !message.certificateList.isEmpty else {
            throw .certificateRejected(.noCertificate, .noCertificate(sentBy: .server))
        }
        let key: VerificationKey
        switch configuration.certificateEvaluator.evaluate(chain: message.certificateList, role: .server,
                                                           serverName: configuration.serverName) {
        case let .accept(accepted, summary, validation):
            context.events.append(.certificateDecision(peer: .server, chainLength: message.certificateList.count,
                                                       accepted: true, detail: summary, validation: validation))
            key = accepted
        case let .reject(refusal, reason, validation):
            context.events.append(.certificateDecision(peer: .server, chainLength: message.certificateList.count,
                                                       accepted: false, detail: reason, validation: validation))
            throw .certificateRejected(refusal, reason)
        }
        // RFC 8422 §5.3 / RFC 5246 §7.4.2: the certificate's key must fit the suite (EC for ECDHE_ECDSA, RSA otherwise).
        let suite = expecting.suite
        let isEC: Bool = if case .rsa = key { false } else { true }   // ECDSA or Ed25519 (RFC 8422 §5.1.3)
        if suite.keyExchange.authenticatesWithECDSA != isEC {
            throw .certificateRejected(.unsupportedKey, .keyDoesNotFitSuite(suite.suite, needsEC: !isEC, key: key.description))
        }
        let pending = PendingKeyExchange(suite: suite, keyExchange: expecting.keyExchange, serverKey: key)
        transition(to: suite.keyExchange.hasServerKeyExchange ? .expectServerKeyExchange(pending)
                                                              : .expectCertificateRequestOrServerHelloDone(pending))
    }

    /// RFC 5246 §7.4.3: check the signature over client_random ‖ server_random ‖ params, with a
    /// scheme the client offered, then take the parameters.
    private mutating func processServerKeyExchange(_ ske: ServerKeyExchange, pending: PendingKeyExchange) throws(TLSError) {
        var pending = pending
        let key = pending.serverKey
        guard let scheme = ske.signedParams.algorithm, configuration.signatureAlgorithms.contains(scheme) else {
            throw .peerMisbehaved(.serverKeyExchangeSchemeNotOffered(ske.signedParams.algorithm))
        }
        let signed = context.clientRandom + context.serverRandom + ske.paramsBytes
        let valid = SignatureSchemes.verify(ske.signedParams.signature, data: signed, scheme: scheme, key: key)
        context.events.append(.signature(SignatureTrace(purpose: .serverKeyExchange, signer: .server, scheme: scheme,
                                                        signedData: signed, signature: ske.signedParams.signature,
                                                        valid: valid)))
        guard valid else { throw .peerMisbehaved(.serverKeyExchangeSignatureInvalid) }
        try pending.keyExchange.acceptServerParams(ske.params, context.keyExchangeInputs)
        transition(to: .expectCertificateRequestOrServerHelloDone(pending))
    }

    private mutating func processServerHelloDone(pending: PendingKeyExchange, certificateRequest: CertificateRequest?) throws(TLSError) {
        let serverKey = pending.serverKey
        var kx = pending.keyExchange
        // RFC 5246 §7.4.6: answer a CertificateRequest, with an empty list when there is nothing to send.
        var signer: CertificateVerifySigner?
        if certificateRequest != nil, configuration.cancelsCertificateRequest {
            throw .peerIncompatible(.clientCertificateChallengeCancelled)
        }
        if let request = certificateRequest {
            let identity = configuration.identity
            // TLS 1.2 signs with a scheme from the request; TLS 1.0/1.1 with MD5 ‖ SHA-1 (no scheme).
            let legacy = context.version < .tls12
            let scheme = legacy ? nil : identity.flatMap {
                SignatureSchemes.choose(peerOffer: request.supportedSignatureAlgorithms, key: $0.key, configured: configuration.signatureAlgorithms)
            }
            // RFC 8422 §5.5: an EC client certificate answers ecdsa_sign; TLS 1.0/1.1 signatures here are RSA only.
            let isEC: Bool = if case .rsa? = identity?.key { false } else { identity != nil }   // ECDSA or Ed25519 answer ecdsa_sign
            let type: ClientCertificateType = isEC ? .ecdsaSign : .rsaSign
            if let identity, request.certificateTypes.contains(type) {
                if let scheme {
                    signer = .scheme(scheme, identity.key)
                } else if legacy, case .rsa(let key) = identity.key {
                    signer = .legacyRSA(key)
                }
            }
            if let identity, signer != nil {
                context.sendHandshake(.certificate(CertificateMessage(certificateList: identity.certificateChain)))
            } else {
                context.sendHandshake(.certificate(CertificateMessage(certificateList: [])))
            }
        }
        let (message, preMaster) = try kx.makeClientKeyExchange(context.keyExchangeInputs, serverKey: serverKey.rsa,
                                                                 events: &context.events)
        context.sendHandshake(.clientKeyExchange(message))
        let secret = try context.deriveMasterSecret(preMasterSecret: preMaster, suite: pending.suite)
        let keys = try context.deriveKeys(secret)
        if let signer {
            // RFC 5246 §7.4.8: sign every handshake message so far (RFC 4346 §7.4.8: MD5 ‖ SHA-1
            // of them in TLS 1.0/1.1, without a SignatureAndHashAlgorithm).
            let signed = context.transcript.bytes
            let scheme: SignatureScheme?
            let signature: [UInt8]
            switch signer {
            case let .scheme(chosen, key):
                scheme = chosen
                signature = try SignatureSchemes.sign(signed, scheme: chosen, key: key, random: context.random)
            case .legacyRSA(let key):
                scheme = nil
                signature = try SignatureSchemes.signLegacy(signed, key: key)
            }
            context.events.append(.signature(SignatureTrace(purpose: .certificateVerify, signer: .client, scheme: scheme,
                                                            signedData: signed, signature: signature, valid: true, created: true)))
            context.sendHandshake(.certificateVerify(CertificateVerify(signature: DigitallySigned(algorithm: scheme, signature: signature))))
        }
        try context.sendChangeCipherSpec(switchingTo: keys.write)
        try context.sendFinished(secret)
        let expecting = ExpectServerFinished(kind: .full, secret: secret)
        transition(to: context.issuesTicket ? .expectNewSessionTicket(expecting, readKeys: keys.read)
                                            : .expectChangeCipherSpec(expecting, readKeys: keys.read))
    }

    private mutating func processFinished(_ finished: Finished, raw: RawHandshakeMessage, expecting: ExpectServerFinished) throws(TLSError) {
        let secret = expecting.secret
        try context.checkFinished(finished, raw: raw, secret)
        let ticket = expecting.ticket
        switch expecting.kind {
        case .abbreviated(var resumed, let writeKeys):
            try context.sendChangeCipherSpec(switchingTo: writeKeys)
            try context.sendFinished(secret)
            // A renewed ticket (RFC 5077 §3.1) replaces the one the session had.
            if let ticket {
                resumed.ticket = ticket.message.ticket
                resumed.ticketLifetimeHint = ticket.message.lifetimeHint
                resumed.ticketReceivedAt = ticket.receivedAt
            }
            session = resumed
        case .full:
            if !context.sessionID.isEmpty || ticket != nil {
                var newSession = TLSSession(sessionID: context.sessionID, version: context.version, cipherSuite: secret.suite.suite,
                                            masterSecret: secret.masterSecret, extendedMasterSecret: context.extendedMasterSecret,
                                            encryptThenMAC: context.encryptThenMAC)
                newSession.ticket = ticket?.message.ticket
                newSession.ticketLifetimeHint = ticket?.message.lifetimeHint ?? 0
                newSession.ticketReceivedAt = ticket?.receivedAt
                session = newSession
                context.events.append(.sessionEstablished(newSession))
            }
        }
        context.events.append(.handshakeCompleted(resumed: expecting.kind.isAbbreviated))
        transition(to: .connected)
    }
}

extension ClientHandshake {
    /// How the client signs its CertificateVerify (RFC 5246 §7.4.8), decided when it answers a
    /// CertificateRequest with its chain: with a scheme from the request (TLS 1.2), or MD5 ‖ SHA-1
    /// with its RSA key and no scheme (TLS 1.0/1.1, RFC 4346 §7.4.8; TLSLab signs that with RSA only).
    enum CertificateVerifySigner {
        case scheme(SignatureScheme, SigningKey)
        case legacyRSA(RSAPrivateKey)
    }
}
