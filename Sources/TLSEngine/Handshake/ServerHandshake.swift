import TLSCrypto

/// The server's handshake (RFC 5246 §7.3, the flow drawn on ``TLSServer``): its states, its
/// messages, and what it keeps between them. A ``TLSServer`` holds it (``TLSEndpointCore``) and runs it in
/// the shell both roles share (``HandshakeMachine``).
struct ServerHandshake: HandshakeMachine {
    static let role = TLSRole.server

    enum State: HandshakeState {
        case expectClientHello
        case expectClientCertificate(ExpectClientCertificate)
        case expectClientKeyExchange(ExpectClientKeyExchange)
        case expectCertificateVerify(ExpectCertificateVerify, then: ExpectClientFinished, readKeys: PendingProtection)
        case expectChangeCipherSpec(ExpectClientFinished, readKeys: PendingProtection)
        case expectFinished(ExpectClientFinished)
        case connected
        case closed
        case failed(Alert)

        var name: TLSStateName {
            switch self {
            case .expectClientHello: return .expectClientHello
            case .expectClientCertificate: return .expectClientCertificate
            case .expectClientKeyExchange: return .expectClientKeyExchange
            case .expectCertificateVerify: return .expectCertificateVerify
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
            StateEdge(.expectClientHello, .expectClientCertificate),
            StateEdge(.expectClientHello, .expectClientKeyExchange),
            StateEdge(.expectClientHello, .expectChangeCipherSpec),  // resuming: our Finished went first
            StateEdge(.expectClientCertificate, .expectClientKeyExchange),
            StateEdge(.expectClientKeyExchange, .expectCertificateVerify),
            StateEdge(.expectClientKeyExchange, .expectChangeCipherSpec),
            StateEdge(.expectCertificateVerify, .expectChangeCipherSpec),
            StateEdge(.expectChangeCipherSpec, .expectFinished),
            StateEdge(.expectFinished, .connected),
        ]

        var notesEndOfStreamOnly: Bool {
            switch self {
            case .connected, .closed, .failed: return true
            default: return false
            }
        }
    }

    /// The state, holding what it needs (``ExpectClientCertificate``, ``ExpectClientKeyExchange``, …).
    var state: State = .expectClientHello
    var context: ConnectionContext
    private let configuration: TLSServerConfiguration
    /// The client's chain, when it sent one (mutual TLS). Not a state's data: it outlives the
    /// handshake — ``TLSServer/peerCertificateChain`` is read once connected (and after closing).
    private(set) var clientCertificateChain: [[UInt8]] = []
    /// The ECDHE curve or DHE group of a full handshake's key exchange, as its negotiation event
    /// names it (nil for RSA key transport and for resumption). Not a state's data: it outlives the
    /// handshake — ``TLSServerEndpoint/negotiatedGroupName`` is read once the handshake is over.
    private(set) var negotiatedGroupName: String?
    /// The driver's latest clock reading (``TLSServer/receive(_:at:)``); nil when it gave none. An
    /// input of each call, not a state's data.
    var clock: SessionTime?

    init(configuration: TLSServerConfiguration) {
        self.configuration = configuration
        context = ConnectionContext(role: .server, random: configuration.random)
        context.acceptsSSLv2ClientHello = true
    }

    // MARK: - Dispatch (RFC 5246 §7.3)

    mutating func handle(_ incoming: IncomingContent) throws(TLSError) {
        if case .alert(let alert) = incoming { return try handleAlert(alert) }
        switch (state, incoming) {
        case (.closed, _):
            return
        case (.expectClientHello, .handshake(let raw)) where raw.type == .clientHello:
            guard case .clientHello(let hello) = try received(raw) else { break }
            try processClientHello(hello)
        case (.expectClientCertificate(let expecting), .handshake(let raw)) where raw.type == .certificate:
            guard case .certificate(let certificate) = try received(raw) else { break }
            try processClientCertificate(certificate, expecting: expecting)
        case (.expectClientKeyExchange(let expecting), .handshake(let raw)) where raw.type == .clientKeyExchange:
            guard case .clientKeyExchange(let message) = try received(raw) else { break }
            try processClientKeyExchange(message, expecting: expecting)
        case (.expectCertificateVerify(let expecting, let next, let readKeys), .handshake(let raw)) where raw.type == .certificateVerify:
            guard case .certificateVerify(let verify) = try context.decode(raw) else { break }
            try processCertificateVerify(verify, raw: raw, expecting: expecting)
            transition(to: .expectChangeCipherSpec(next, readKeys: readKeys))
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
        case (.connected, .handshake(let raw)) where raw.type == .clientHello:
            // RFC 5746 / RFC 5246 §7.4.1.2: renegotiation is declined with a warning.
            _ = try context.decode(raw)
            context.sendAlert(Alert(level: .warning, description: .noRenegotiation), cause: .renegotiationRefused)
        default:
            throw .inappropriateMessage(expected: .inState(state.name), got: incoming.arrived)
        }
    }

    /// The ClientHello a ``DualVersionServer`` already read and decoded, in the records it came
    /// in: traced and hashed as if this handshake had read it, then answered; `rest` is what
    /// followed it (handshake bytes of the same record, then unread bytes).
    mutating func adopt(_ handoff: ClientHelloHandoff) {
        for record in handoff.records {
            context.events.append(.recordReceived(RecordTrace(contentType: record.contentType, version: record.version,
                                                              plaintext: record.fragment, wire: record.encoded, crypto: nil)))
        }
        context.events.append(.handshakeReceived(.clientHello(handoff.hello), bytes: handoff.message.bytes))
        context.transcript.append(handoff.message.bytes)
        context.acceptsSSLv2ClientHello = false
        run { (machine: inout Self) throws(TLSError) in
            try machine.processClientHello(handoff.hello)
            try machine.context.adoptHandshakeFragment(handoff.handshakeRest)
        }
    }

    // MARK: - The handshake, top to bottom

    private mutating func processClientHello(_ hello: ClientHello) throws(TLSError) {
        let config = configuration
        let version = try VersionNegotiation.select(clientVersion: hello.clientVersion, extensions: hello.extensions ?? [],
                                                    minimum: config.minimumVersion, maximum: config.maximumVersion)
        guard hello.compressionMethods.contains(.null) else {
            throw .peerMisbehaved(.nullCompressionNotOffered)
        }
        let extensions = hello.extensions ?? []
        for ext in extensions {
            if case .renegotiationInfo(let data) = ext, !data.isEmpty {
                throw .peerMisbehaved(.renegotiationInfoNotEmpty(checkedBy: .server))
            }
        }
        var signatureOffer: [SignatureScheme]?
        var groups: [NamedGroup]?
        var pointFormats: [ECPointFormat]?
        for ext in extensions {
            switch ext {
            case .serverName(let names):
                // RFC 6066 §3: `ServerName server_name_list<1..2^16-1>` — a ClientHello's list has an entry.
                guard !names.isEmpty else {
                    throw .peerMisbehaved(.emptyServerNameList)
                }
                // RFC 6066 §3: a host_name is an ASCII DNS host name; one with a NUL (which would cut
                // it short for C code, "good.example\0.evil") or any other byte no host name holds is
                // refused. Alert: illegal_parameter (RFC 5246 §7.2.2, "a field in the handshake was out
                // of range"), as GnuTLS sends — not unrecognized_name(112), which RFC 6066 §3 keeps for
                // a well-formed name the server does not recognize (OpenSSL sends 112 here).
                for entry in names where entry.nameType == ServerName.hostNameType {
                    if let (offset, byte) = entry.firstNonHostNameByte {
                        throw .peerMisbehaved(.serverNameNotHostName(offset: offset, byte: byte))
                    }
                }
                context.serverName = names.first?.hostName
            case .signatureAlgorithms(let schemes): signatureOffer = schemes
            case .supportedGroups(let list): groups = list
            case .ecPointFormats(let list): pointFormats = list
            default: break
            }
        }
        // RFC 8422 §5.1.2: a point format list without `uncompressed`, from a client that offers
        // one of that RFC's curves, aborts the handshake with illegal_parameter.
        let rfc8422Curves: [NamedGroup] = [.secp256r1, .secp384r1, .secp521r1, .x25519, .x448]
        if let pointFormats, !pointFormats.contains(.uncompressed),
           (groups ?? []).contains(where: rfc8422Curves.contains) {
            throw .peerMisbehaved(.pointFormatsLackUncompressed(pointFormats))
        }
        // ALPN (RFC 7301 §3.2): a server without protocols ignores the extension; one with protocols
        // picks by its rule, and with nothing in common "SHALL respond with a fatal
        // no_application_protocol alert". It applies to resumed handshakes too (§3.1: only the
        // new handshake's values count), so it is decided before resumption.
        if !config.applicationProtocols.isEmpty, let offered = extensions.applicationProtocols {
            guard let chosen = config.applicationProtocolSelection.select(offered: offered, supported: config.applicationProtocols) else {
                throw .peerIncompatible(.noCommonApplicationProtocol(offered: offered, supported: config.applicationProtocols))
            }
            context.applicationProtocol = chosen
        }
        let clientOffersEMS = extensions.contains(type: .extendedMasterSecret)
        let clientOffersETM = extensions.contains(type: .encryptThenMAC)
        context.extendedMasterSecret = config.extendedMasterSecret && clientOffersEMS
        context.clientHelloVersion = hello.clientVersion
        context.clientRandom = hello.random.bytes
        context.serverRandom = context.random.bytes(count: 32)
        if config.writesDowngradeSentinel {
            // RFC 8446 §4.1.3: a TLS 1.3 server negotiating 1.2 or below marks its random; with
            // (EC)DHE the ServerKeyExchange signature covers it, so an attacker cannot remove it.
            let sentinel = DowngradeSentinel.apply(to: context.serverRandom, version: version)
            context.serverRandom = sentinel.serverRandom
            context.events.append(.downgradeSentinelWritten(sentinel))
        }

        // RFC 5077 §3.2: a client that sends SessionTicket (empty or not) takes tickets.
        let offeredTicket: [UInt8]? = extensions.lazy.compactMap { ext -> [UInt8]? in
            if case .sessionTicket(let ticket) = ext { return ticket } else { return nil }
        }.first
        context.issuesTicket = config.sessionTicketKeys != nil && offeredTicket != nil

        // Resumption (RFC 5246 §7.3): same version, a suite the client still offers (and TLSLab
        // implements: its parameters are returned), the same record format (RFC 7366 §3.1); the
        // kind of master secret is RFC 7627 §5.3's, below.
        func suiteToResume(_ session: TLSSession) -> CipherSuiteParameters? {
            guard session.version == version && hello.cipherSuites.contains(session.cipherSuite)
                && (!session.encryptThenMAC || clientOffersETM) else { return nil }
            return session.cipherSuite.parameters
        }
        // RFC 7627 §5.3 for a session found that otherwise fits; true when it may be resumed.
        // "If the original session used the "extended_master_secret" extension but the new ClientHello
        // does not contain it, the server MUST abort the abbreviated handshake" — unlike the next rule,
        // which says to continue with a full handshake: so the handshake ends (handshake_failure, as
        // OpenSSL 3.0's ssl_get_prev_session does, "inconsistent extms").
        // "If the original session did not use the "extended_master_secret" extension but the new
        // ClientHello contains the extension, then the server MUST NOT perform the abbreviated
        // handshake. Instead, it SHOULD continue with a full handshake": a full handshake, and the
        // trace says which rule applied.
        func keepsMasterSecretKind(_ session: TLSSession, offer: ResumptionOffer) throws(TLSError) -> Bool {
            if session.extendedMasterSecret && !clientOffersEMS {
                throw .peerMisbehaved(.extendedMasterSecretDroppedOnResumption)
            }
            guard session.extendedMasterSecret == context.extendedMasterSecret else {
                if !session.extendedMasterSecret {
                    context.events.append(.resumptionDeclined(ResumptionDeclined(offer: offer, rule: .extendedMasterSecretOnlyInHello)))
                } else if offer == .ticket {
                    // An EMS session, the client offers EMS, this server no longer uses it: its own setting.
                    context.events.append(.sessionTicketRefused(.sessionMismatch))
                }
                return false
            }
            return true
        }
        // RFC 5246 Appendix F.1.4, RFC 5077 §5.6: a session older than the server's lifetime is not
        // resumed, however it is offered.
        func expiry(_ session: TLSSession, offer: ResumptionOffer) -> SessionExpiry? {
            config.sessionLifetime?.expiry(of: offer, establishedAt: session.establishedAt, now: clock)
        }
        // RFC 5077 §3.4: a ticket that opens resumes its session; the server answers with the
        // session ID the client sent beside it. Any other ticket means a full handshake.
        if let keys = config.sessionTicketKeys, let ticket = offeredTicket, !ticket.isEmpty {
            switch keys.open(ticket) {
            case .success(let opened):
                let session = opened.session(id: hello.sessionID, ticket: ticket)
                guard let suite = suiteToResume(session) else {
                    context.events.append(.sessionTicketRefused(.sessionMismatch))
                    break
                }
                if let expired = expiry(session, offer: .ticket) {
                    context.events.append(.sessionExpired(expired))
                } else if try keepsMasterSecretKind(session, offer: .ticket) {
                    try resume(session, suite: suite, hello: hello, version: version, extensions: extensions)
                    return
                }
            case .failure(let refusal):
                context.events.append(.sessionTicketRefused(refusal))
            }
        } else if let cache = config.sessionCache, let cached = cache.session(id: hello.sessionID),
                  let suite = suiteToResume(cached) {
            if let expired = expiry(cached, offer: .sessionID) {
                context.events.append(.sessionExpired(expired))
                cache.forget(id: cached.sessionID)
            } else if try keepsMasterSecretKind(cached, offer: .sessionID) {
                try resume(cached, suite: suite, hello: hello, version: version, extensions: extensions)
                return
            }
        }

        // The server's preference among what the client offers (RFC 5246 §7.4.1.3).
        let scheme = version >= .tls12
            ? SignatureSchemes.choose(peerOffer: signatureOffer, key: config.identity.key, configured: config.signatureAlgorithms) : nil
        let curve = groups.map { offered in config.curves.first { offered.contains(NamedGroup(rawValue: $0.namedGroup)) } }
            ?? (config.curves.contains(.secp256r1) ? .secp256r1 : config.curves.first)
        let dhGroup = FFDHENegotiation.group(offered: groups, configured: config.dhGroup, acceptable: config.finiteFieldGroups)
        // The certificate decides the authentication: RSA suites need an RSA key, ECDHE_ECDSA an EC key on
        // a curve the client supports (RFC 8422 §5.3; no supported_groups means any, §4).
        let rsaKey = config.identity.key.rsa != nil
        let ecdsaKeyUsable: Bool = {
            // Ed25519 (RFC 8422 §5.1.3) needs only the ed25519 scheme, which `scheme` checks.
            if case .ed25519 = config.identity.key { return true }
            guard case .ecdsa(let key) = config.identity.key else { return false }
            let group: NamedGroup
            switch key.curve.name {
            case .p256: group = .secp256r1
            case .p384: group = .secp384r1
            case .p521: group = .secp521r1
            }
            return groups.map { $0.contains(group) } ?? true
        }()
        let choice = config.cipherSuites.lazy.compactMap { suite -> (CipherSuiteParameters, KeyExchangePlan)? in
            guard hello.cipherSuites.contains(suite), let params = suite.parameters,
                  SuiteSelection.isAllowed(params, version: version) else { return nil }
            switch params.keyExchange {
            case .rsa:
                return rsaKey ? (params, .rsa) : nil
            case .dheRSA:
                guard let scheme, let dhGroup, rsaKey else { return nil }
                return (params, .dhe(dhGroup, signedWith: scheme))
            case .ecdheRSA:
                guard let scheme, let curve, rsaKey else { return nil }
                return (params, .ecdhe(curve, signedWith: scheme))
            case .ecdheECDSA:
                guard let scheme, let curve, ecdsaKeyUsable else { return nil }
                return (params, .ecdhe(curve, signedWith: scheme))
            }
        }.first
        guard let chosen = choice else {
            if dhGroup == nil, hello.cipherSuites.contains(where: { $0.parameters?.keyExchange == .dheRSA }) {
                throw .peerIncompatible(.noAcceptableFiniteFieldGroup(offered: (groups ?? []).filter(FFDHENegotiation.isFiniteField)))
            }
            throw .peerIncompatible(.noCommonSuite(version))
        }
        let (params, plan) = chosen
        settleApplicationProtocol(suite: params.suite, version: version, offered: extensions.applicationProtocols)
        // RFC 7366 §3: encrypt-then-MAC when the client asks and the suite is a block cipher (never with AEAD).
        context.encryptThenMAC = config.encryptThenMAC && clientOffersETM && !params.isAEAD
        context.sessionID = config.sessionCache == nil ? [] : context.random.bytes(count: 32)
        try context.fix(suite: params, version: version)
        var keyExchange: any ServerKeyAgreement
        let groupName: String?
        switch plan {
        case .rsa:
            keyExchange = RSAKeyExchange()
            groupName = nil
        case .dhe(let group, _):
            keyExchange = DHEKeyExchange.Server(group: group, exponentSize: config.dhExponentSize)
            groupName = group.name
        case .ecdhe(let curve, _):
            keyExchange = ECDHEKeyExchange.Server(curve: curve)
            groupName = curve.rawValue
        }
        context.sendHandshake(.serverHello(serverHello(suite: params.suite, version: version,
                                                       clientExtensions: extensions,
                                                       ecdhe: params.keyExchange.isECDHE,
                                                       scsv: hello.cipherSuites.contains(.TLS_EMPTY_RENEGOTIATION_INFO_SCSV))))
        negotiatedGroupName = groupName
        context.events.append(.negotiated(negotiation(group: groupName)))
        context.sendHandshake(.certificate(CertificateMessage(certificateList: config.identity.certificateChain)))
        // RFC 5246 §7.4.3: DHE and ECDHE send their parameters, signed; RSA key transport sends none.
        if let scheme = plan.signatureScheme, let params = try keyExchange.makeServerParams(context.keyExchangeInputs) {
            let signed = context.clientRandom + context.serverRandom + Self.encode(params)
            let signature = try SignatureSchemes.sign(signed, scheme: scheme, key: config.identity.key,
                                                      random: context.random)
            context.events.append(.signature(SignatureTrace(purpose: .serverKeyExchange, signer: .server, scheme: scheme,
                                                            signedData: signed, signature: signature, valid: true, created: true)))
            context.sendHandshake(.serverKeyExchange(ServerKeyExchange(
                params: params, signedParams: DigitallySigned(algorithm: scheme, signature: signature))))
        }
        var next = State.expectClientKeyExchange(ExpectClientKeyExchange(suite: params, keyExchange: keyExchange))
        if config.clientAuthentication != .none {
            let requestedSchemes = config.certificateRequestSignatureAlgorithms.filter(SignatureSchemes.implemented.contains)
            // RFC 5246 §7.4.4 and RFC 8422 §5.5: rsa_sign, and ecdsa_sign (64) when TLS 1.2 lets the
            // client sign with an ECDSA scheme we listed (a TLS 1.0/1.1 CertificateVerify here is RSA only).
            let ecdsaListed = requestedSchemes.contains(where: { SignatureSchemes.ecdsa.contains($0) })
            context.sendHandshake(.certificateRequest(CertificateRequest(
                certificateTypes: version >= .tls12 && ecdsaListed ? [.rsaSign, .ecdsaSign] : [.rsaSign],
                supportedSignatureAlgorithms: version >= .tls12 ? requestedSchemes : nil)))
            next = .expectClientCertificate(ExpectClientCertificate(suite: params, keyExchange: keyExchange,
                                                                    requestedSchemes: requestedSchemes))
        }
        context.sendHandshake(.serverHelloDone)
        try context.flush()
        transition(to: next)
    }

    /// The abbreviated handshake (RFC 5246 §7.3): ServerHello, ChangeCipherSpec and Finished first.
    /// `params`: the session's suite, which the client still offers.
    private mutating func resume(_ session: TLSSession, suite params: CipherSuiteParameters, hello: ClientHello,
                                 version: ProtocolVersion, extensions: [TLSExtension]) throws(TLSError) {
        context.sessionID = session.sessionID
        context.resumed = true
        // RFC 7366 §3.1: a resumed session keeps the record format it had.
        context.encryptThenMAC = session.encryptThenMAC
        settleApplicationProtocol(suite: params.suite, version: version, offered: extensions.applicationProtocols)
        try context.fix(suite: params, version: version)
        context.sendHandshake(.serverHello(serverHello(suite: session.cipherSuite, version: version,
                                                       clientExtensions: extensions, ecdhe: false,
                                                       scsv: hello.cipherSuites.contains(.TLS_EMPTY_RENEGOTIATION_INFO_SCSV))))
        context.events.append(.negotiated(negotiation(group: nil)))
        context.events.append(.sessionResumed(sessionID: session.sessionID, masterSecret: session.masterSecret))
        let secret = context.resumeMasterSecret(session.masterSecret, suite: params)
        let pending = try context.deriveKeys(secret)
        // RFC 5077 §3.1, Figure 2: a renewed ticket before our ChangeCipherSpec (as OpenSSL does).
        if context.issuesTicket, let keys = configuration.sessionTicketKeys {
            // The renewed ticket keeps the session's time: a resumption does not extend its life.
            let ticket = try keys.seal(SessionTicketState(session: session), random: context.random)
            context.sendHandshake(.newSessionTicket(NewSessionTicket(lifetimeHint: ticketLifetimeHint(for: session), ticket: ticket)))
        }
        try context.sendChangeCipherSpec(switchingTo: pending.write)
        try context.sendFinished(secret)
        transition(to: .expectChangeCipherSpec(ExpectClientFinished(kind: .abbreviated, secret: secret), readKeys: pending.read))
    }

    private static func encode(_ params: ServerKeyExchange.Params) -> [UInt8] {
        var w = ByteWriter()
        params.encode(to: &w)
        return w.bytes
    }

    private func serverHello(suite: CipherSuite, version: ProtocolVersion, clientExtensions: [TLSExtension],
                             ecdhe: Bool, scsv: Bool) -> ServerHello {
        var extensions: [TLSExtension] = []
        // RFC 5746 §3.6: an empty renegotiation_info answers the client's extension or its
        // TLS_EMPTY_RENEGOTIATION_INFO_SCSV (OpenSSL clients send the SCSV and refuse a server without it).
        if clientExtensions.contains(type: .renegotiationInfo) || scsv { extensions.append(.renegotiationInfo([])) }
        if context.extendedMasterSecret { extensions.append(.extendedMasterSecret) }
        if context.encryptThenMAC { extensions.append(.encryptThenMAC) }
        // RFC 5077 §3.2: an empty SessionTicket announces a NewSessionTicket.
        if context.issuesTicket { extensions.append(.sessionTicket([])) }
        if ecdhe && clientExtensions.contains(type: .ecPointFormats) { extensions.append(.ecPointFormats([.uncompressed])) }
        // RFC 7301 §3.1: the server's answer names exactly one protocol.
        if let chosen = context.applicationProtocol { extensions.append(.applicationLayerProtocolNegotiation([chosen])) }
        return ServerHello(serverVersion: version, random: Random(context.serverRandom), sessionID: context.sessionID,
                           cipherSuite: suite, extensions: extensions.isEmpty ? nil : extensions)
    }

    private func negotiation(group: String?) -> NegotiationTrace {
        NegotiationTrace(version: context.version, cipherSuite: context.suite?.suite ?? .TLS_NULL_WITH_NULL_NULL,
                         extendedMasterSecret: context.extendedMasterSecret, resumed: context.resumed,
                         serverName: context.serverName, group: group,
                         applicationProtocol: context.applicationProtocol, encryptThenMAC: context.encryptThenMAC)
    }

    /// RFC 5246 §7.4.6: an empty list means "no certificate"; fatal when one is required.
    private mutating func processClientCertificate(_ message: CertificateMessage, expecting: ExpectClientCertificate) throws(TLSError) {
        let chain = message.certificateList
        if chain.isEmpty {
            context.events.append(.certificateDecision(peer: .client, chainLength: 0, accepted: configuration.clientAuthentication != .require,
                                                       detail: .noCertificate(sentBy: .client), validation: nil))
            guard configuration.clientAuthentication != .require else {
                throw .certificateRejected(.noCertificate, .clientCertificateRequired)
            }
            transition(to: .expectClientKeyExchange(ExpectClientKeyExchange(suite: expecting.suite, keyExchange: expecting.keyExchange)))
            return
        }
        guard let evaluator = configuration.clientCertificateEvaluator else {
            throw .certificateRejected(.notEvaluated, .noEvaluator)
        }
        let key: VerificationKey
        switch evaluator.evaluate(chain: chain, role: .client, serverName: nil) {
        case let .accept(accepted, summary, validation):
            context.events.append(.certificateDecision(peer: .client, chainLength: chain.count, accepted: true, detail: summary,
                                                       validation: validation))
            key = accepted
            clientCertificateChain = chain
        case let .reject(refusal, reason, validation):
            context.events.append(.certificateDecision(peer: .client, chainLength: chain.count, accepted: false, detail: reason,
                                                       validation: validation))
            throw .certificateRejected(refusal, reason)
        }
        let verifying = ExpectCertificateVerify(clientKey: key, requestedSchemes: expecting.requestedSchemes)
        transition(to: .expectClientKeyExchange(ExpectClientKeyExchange(suite: expecting.suite, keyExchange: expecting.keyExchange,
                                                                        clientCertificate: verifying)))
    }

    private mutating func processClientKeyExchange(_ message: ClientKeyExchange, expecting: ExpectClientKeyExchange) throws(TLSError) {
        var kx = expecting.keyExchange
        let preMaster = try kx.preMasterSecret(from: message, context.keyExchangeInputs,
                                               serverKey: configuration.identity.privateKey, events: &context.events)
        let secret = try context.deriveMasterSecret(preMasterSecret: preMaster, suite: expecting.suite)
        let keys = try context.deriveKeys(secret)
        let next = ExpectClientFinished(kind: .full(writeKeys: keys.write), secret: secret)
        if let verifying = expecting.clientCertificate {
            transition(to: .expectCertificateVerify(verifying, then: next, readKeys: keys.read))
        } else {
            transition(to: .expectChangeCipherSpec(next, readKeys: keys.read))
        }
    }

    /// RFC 5246 §7.4.8: the signature covers every handshake message before CertificateVerify.
    private mutating func processCertificateVerify(_ verify: CertificateVerify, raw: RawHandshakeMessage,
                                                   expecting: ExpectCertificateVerify) throws(TLSError) {
        let key = expecting.clientKey
        let requestedSchemes = expecting.requestedSchemes
        let signed = context.transcript.bytes
        let scheme = verify.signature.algorithm
        let valid: Bool
        if context.version >= .tls12 {
            guard let scheme, requestedSchemes.contains(scheme) else {
                throw .peerMisbehaved(.certificateVerifySchemeNotRequested(scheme, requested: requestedSchemes))
            }
            valid = SignatureSchemes.verify(verify.signature.signature, data: signed, scheme: scheme, key: key)
        } else {
            // TLS 1.0/1.1 (RFC 4346 §7.4.8): MD5 ‖ SHA-1 of the handshake messages, no algorithm field.
            valid = key.rsa.map { SignatureSchemes.verifyLegacy(verify.signature.signature, data: signed, key: $0) } ?? false
        }
        context.events.append(.signature(SignatureTrace(purpose: .certificateVerify, signer: .client, scheme: scheme,
                                                        signedData: signed, signature: verify.signature.signature,
                                                        valid: valid)))
        guard valid else { throw .peerMisbehaved(.certificateVerifySignatureInvalid) }
        context.transcript.append(raw.bytes)
    }

    private mutating func processFinished(_ finished: Finished, raw: RawHandshakeMessage,
                                          expecting: ExpectClientFinished) throws(TLSError) {
        let secret = expecting.secret
        try context.checkFinished(finished, raw: raw, secret)
        if case .full(let writeKeys) = expecting.kind {
            var session = TLSSession(sessionID: context.sessionID, version: context.version, cipherSuite: secret.suite.suite,
                                     masterSecret: secret.masterSecret, extendedMasterSecret: context.extendedMasterSecret,
                                     encryptThenMAC: context.encryptThenMAC)
            session.establishedAt = clock
            // RFC 5077 §3.3: NewSessionTicket after the client's Finished, before our ChangeCipherSpec
            // (it enters the transcript our Finished covers).
            if context.issuesTicket, let keys = configuration.sessionTicketKeys {
                let ticket = try keys.seal(SessionTicketState(session: session), random: context.random)
                session.ticketLifetimeHint = ticketLifetimeHint(for: session)
                context.sendHandshake(.newSessionTicket(NewSessionTicket(lifetimeHint: session.ticketLifetimeHint, ticket: ticket)))
                session.ticket = ticket
            }
            try context.sendChangeCipherSpec(switchingTo: writeKeys)
            try context.sendFinished(secret)
            if let cache = configuration.sessionCache, !context.sessionID.isEmpty { cache.store(session) }
            if !context.sessionID.isEmpty || session.ticket != nil { context.events.append(.sessionEstablished(session)) }
        }
        context.events.append(.handshakeCompleted(resumed: expecting.kind.isAbbreviated))
        transition(to: .connected)
    }
}

extension ServerHandshake {
    /// RFC 5077 §3.3: the hint counts from when the client receives the ticket, so with a lifetime it
    /// is what is left of the session's life; without one, the configured hint.
    private func ticketLifetimeHint(for session: TLSSession) -> UInt32 {
        configuration.sessionLifetime?.remaining(establishedAt: session.establishedAt, now: clock) ?? configuration.ticketLifetimeHint
    }

    /// The configuration's ALPN strategy has the final say once the version and suite are fixed
    /// (an application protocol may demand more of the connection than RFC 7301 knows about).
    fileprivate mutating func settleApplicationProtocol(suite: CipherSuite, version: ProtocolVersion, offered: [ProtocolName]?) {
        guard context.applicationProtocol != nil, let offered else { return }
        let situation = ApplicationProtocolSituation(offered: offered, supported: configuration.applicationProtocols,
                                                     selection: configuration.applicationProtocolSelection, version: version, suite: suite)
        context.applicationProtocol = situation.decided(by: configuration.applicationProtocolStrategy) ?? context.applicationProtocol
    }
}
