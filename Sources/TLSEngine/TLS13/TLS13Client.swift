import TLSCrypto

/// What a TLS 1.3 client offers and how it judges the server.
public struct TLS13ClientConfiguration {
    public var serverName: String?
    /// Offered in this order.
    public var suites: [TLS13CipherSuite]
    /// supported_groups, in order of preference.
    public var groups: [NamedGroup]
    /// The groups the first ClientHello sends a key share for (a guess; a HelloRetryRequest corrects it).
    public var keyShareGroups: [NamedGroup]
    public var signatureSchemes: [SignatureScheme]
    /// Middlebox compatibility mode (RFC 8446 §D.4): a 32-byte legacy_session_id and a dummy
    /// ChangeCipherSpec, so the exchange looks like a TLS 1.2 resumption to boxes that only know 1.2.
    public var middleboxCompatibility: Bool
    public var evaluator: any PeerCertificateEvaluator
    /// A ticket from an earlier connection to offer in pre_shared_key (RFC 8446 §4.2.11), and its
    /// age in milliseconds when the ClientHello is sent: the time since the NewSessionTicket was
    /// received (§4.2.11.1), by the caller's clock (the engine reads none), so a driver sets it as
    /// it calls ``TLS13Client/start()``, not when it opens the connection.
    public var resumption: TLS13ResumptionTicket?
    public var ticketAgeMilliseconds: UInt32 = 0
    /// The certificate chain and key the client answers a CertificateRequest with (nil: an empty Certificate).
    public var identity: TLSIdentity?
    /// Offers 0-RTT data when the resumption ticket allows it (early_data, RFC 8446 §4.2.10); the
    /// data itself goes with ``TLS13Client/sendEarlyData(_:)``.
    public var offersEarlyData = false
    /// application_layer_protocol_negotiation (RFC 7301 §3.1; RFC 8446 §4.2): the protocols offered,
    /// most preferred first; the server's choice comes in EncryptedExtensions. Empty sends none.
    public var applicationProtocols: [ProtocolName] = []

    public init(serverName: String?, evaluator: any PeerCertificateEvaluator,
                suites: [TLS13CipherSuite] = [.aes128GCMSHA256, .aes256GCMSHA384, .chacha20Poly1305SHA256],
                groups: [NamedGroup] = [.x25519, .secp256r1], keyShareGroups: [NamedGroup] = [.x25519],
                signatureSchemes: [SignatureScheme] = TLS13SignatureSchemes.offered, middleboxCompatibility: Bool = true) {
        self.serverName = serverName
        self.evaluator = evaluator
        self.suites = suites
        self.groups = groups
        self.keyShareGroups = keyShareGroups
        self.signatureSchemes = signatureSchemes
        self.middleboxCompatibility = middleboxCompatibility
    }
}

/// A TLS 1.3 client (RFC 8446 §2, Appendix A.1): ClientHello with key shares, then the server's
/// flight under handshake keys, then its own Finished; application data under the traffic keys.
public struct TLS13Client: TLS13Side {
    public let configuration: TLS13ClientConfiguration
    var connection: TLS13Connection
    var keyShares: [NamedGroup: ECDHKeyPair] = [:]
    var sessionID: [UInt8] = []
    var retried = false
    var serverKey: VerificationKey?
    /// The early stage from the offered PSK (its binder_key step included), while the offer stands.
    var pskEarly: TLS13KeySchedule.Early?
    /// The server selected the offered PSK: no Certificate or CertificateVerify follows (RFC 8446 §2.2).
    public private(set) var resumed = false
    /// The server's CertificateRequest, if it sent one: the client answers it after the server's Finished.
    var certificateRequest: TLS13CertificateRequest?
    /// The tickets the server sent after the handshake, each with its PSK (§4.6.1): the newest
    /// ``ticketsKept``.
    public var tickets: [TLS13ResumptionTicket] { connection.tickets }
    /// How many of a connection's tickets a client keeps, the newest.
    public static var ticketsKept: Int { TLS13Connection.ticketsKept }
    public private(set) var clientRandom: [UInt8] = []
    /// 0-RTT: offered, how much was sent, whether the server accepted it.
    var earlyData = TLS13ClientEarlyData()
    /// The application protocol the server chose in EncryptedExtensions (RFC 7301 §3.2), nil when none.
    public private(set) var negotiatedApplicationProtocol: ProtocolName?
    /// The first ClientHello as it was actually sent, when another engine built it (a
    /// ``DualVersionClient`` offering TLS 1.2 beside 1.3): a second ClientHello after a
    /// HelloRetryRequest is this one with only the changes RFC 8446 §4.1.2 allows.
    var firstClientHello: ClientHello?
    /// The first ClientHello goes without pre_shared_key: the ``DualVersionClient`` that builds the
    /// ClientHello actually sent adds it with ``offerPSK(in:)``, the binder over that ClientHello.
    var defersPSKOffer = false
    /// The extension types of the ClientHellos this engine encoded itself (RFC 8446 §4.2: the server answers only these).
    var sentExtensionTypes: Set<ExtensionType> = []

    public init(configuration: TLS13ClientConfiguration, random: RandomSource) {
        self.configuration = configuration
        connection = TLS13Connection(role: .client, random: random, state: .start)
    }

    public var state: TLS13State { connection.state }
    public var negotiatedSuite: TLS13CipherSuite? { connection.suite }
    /// The key-schedule steps so far, then the resumption_psk of each ticket kept (``ticketsKept`` at most).
    public var keyScheduleSteps: [TLS13KeyScheduleStep] {
        (connection.master?.steps ?? connection.handshake?.steps ?? connection.early?.steps ?? []) + connection.ticketSteps
    }

    /// The first ClientHello.
    public mutating func start() -> TLS13Step {
        do {
            clientRandom = connection.random.bytes(count: 32)
            sessionID = configuration.middleboxCompatibility ? connection.random.bytes(count: 32) : []
            earlyData.offeredLimit = earlyDataLimit
            try sendClientHello(shareGroups: configuration.keyShareGroups, cookie: nil)
            try startEarlyData()
            connection.enter(.waitServerHello)
        } catch {
            connection.sendAlert(error)
        }
        return connection.takeStep()
    }

    /// Bytes from the server.
    public mutating func receive(_ bytes: [UInt8]) -> TLS13Step { receiveMessages(bytes) }

    /// Moves this side's keys on and asks the peer to do the same when `requestUpdate` (§4.6.3).
    public mutating func updateKeys(requestUpdate: Bool) -> TLS13Step { connection.updateKeys(requestUpdate: requestUpdate) }

    /// Application data, once connected.
    public mutating func send(_ data: [UInt8]) -> TLS13Step { connection.sendApplicationData(data) }

    /// close_notify (RFC 8446 §6.1).
    public mutating func close() -> TLS13Step { connection.close() }

    mutating func sendClientHello(shareGroups: [NamedGroup], cookie: [UInt8]?) throws(TLS13Failure) {
        var shares: [KeyShareEntry] = []
        for group in shareGroups {
            guard let curve = TLS13Connection.curve(for: group) else { throw .internalError }
            let pair: ECDHKeyPair
            do { pair = try ECDHKeyPair(curve: curve, using: connection.random) } catch { throw .internalError }
            keyShares[group] = pair
            shares.append(KeyShareEntry(group: group, keyExchange: pair.publicKeyBytes))
            connection.events.append(.keyShareGenerated(group: group, publicKey: pair.publicKeyBytes))
        }
        var extensions: [TLSExtension] = []
        var suites = configuration.suites.map { CipherSuite(rawValue: $0.rawValue) }
        if retried, let first = firstClientHello {
            // §4.1.2: "the client MUST send the same ClientHello without modification, except":
            // key_share replaced by the shares for the group the HelloRetryRequest named, early_data
            // removed, a cookie added if the HelloRetryRequest had one, pre_shared_key recomputed
            // (below) — every other extension, the suites and the versions offered stay as they were.
            suites = first.cipherSuites
            extensions = (first.extensions ?? []).compactMap { ext -> TLSExtension? in
                switch ext.type {
                case .keyShare: return KeyShare.clientShares(shares).tlsExtension
                case .earlyData, .preSharedKey, .cookie: return nil
                default: return ext
                }
            }
            if let cookie { extensions.append(.unknown(.cookie, cookie)) }
        } else {
            if let name = configuration.serverName { extensions.append(.serverName([ServerName(hostName: name)])) }
            extensions.append(.supportedGroups(configuration.groups))
            extensions.append(.signatureAlgorithms(configuration.signatureSchemes))
            if !configuration.applicationProtocols.isEmpty {
                extensions.append(.applicationLayerProtocolNegotiation(configuration.applicationProtocols))
            }
            extensions.append(KeyShare.clientShares(shares).tlsExtension)
            extensions.append(PSKKeyExchangeModes(modes: [PSKKeyExchangeModes.pskDHEKE]).tlsExtension)
            extensions.append(SupportedVersions.offered([.tls13]).tlsExtension)
            if let cookie { extensions.append(.unknown(.cookie, cookie)) }
            if !retried && earlyData.offered { extensions.append(EarlyDataIndication.indication.tlsExtension) }
        }
        let random = clientRandom, legacySessionID = self.sessionID
        let encoded = { (extensions: [TLSExtension]) -> [UInt8] in
            let hello = ClientHello(clientVersion: .tls12, random: Random(random), sessionID: legacySessionID,
                                    cipherSuites: suites, extensions: extensions)
            var w = ByteWriter()
            hello.encode(to: &w)
            return TLS13Connection.handshakeBytes(.clientHello, w.bytes)
        }
        var bytes = encoded(extensions)
        if retried || !defersPSKOffer, let withOffer = try withPSK(extensions, after: connection.transcript, encoded: encoded) { bytes = withOffer }
        sentExtensionTypes.formUnion(extensions.map(\.type))
        if configuration.resumption != nil { sentExtensionTypes.insert(.preSharedKey) }
        connection.transcript += bytes
        connection.events.append(.handshakeSent(.clientHello, bytes: bytes))
        try connection.send(.handshake, bytes, recordVersion: retried ? .tls12 : .tls10)
    }

    /// The ClientHello `encoded` makes of `extensions` plus pre_shared_key, last (RFC 8446 §4.2.11),
    /// when the configuration resumes a ticket whose hash an offered suite uses; nil otherwise. The
    /// binder is computed over `transcript` and the ClientHello up to the binders (§4.2.11.2), so the
    /// ClientHello is encoded first with a placeholder of the right length.
    mutating func withPSK(_ extensions: [TLSExtension], after transcript: [UInt8],
                          encoded: ([TLSExtension]) -> [UInt8]) throws(TLS13Failure) -> [UInt8]? {
        guard let ticket = configuration.resumption, configuration.suites.contains(where: { $0.hash == ticket.suite.hash }) else { return nil }
        let hash = ticket.suite.hash
        let identity = PSKIdentity(identity: ticket.message.ticket, obfuscatedTicketAge: ticket.obfuscatedAge(ageMilliseconds: configuration.ticketAgeMilliseconds))
        let placeholder = [[UInt8](repeating: 0, count: hash.length)]
        let draft = encoded(extensions + [PreSharedKey.offered(identities: [identity], binders: placeholder).tlsExtension])
        guard let truncated = TLS13PSKBinder.truncated(clientHello: draft, bindersLength: PreSharedKey.bindersLength(placeholder)) else { throw .internalError }
        var early = TLS13KeySchedule.Early(hash: hash, preSharedKey: ticket.psk)
        let truncatedHash = hash.digest(transcript + truncated)
        let mac = TLS13FinishedMAC(hash: hash, baseKey: .binderKey, baseKeyValue: early.binderKey(resumption: true), transcriptHash: truncatedHash)
        let binder = mac.verifyData
        connection.note(early.steps, after: 0)
        connection.events.append(.finishedComputed(mac))
        pskEarly = early
        connection.events.append(.pskOffered(identity, ticketAgeMilliseconds: configuration.ticketAgeMilliseconds,
                                             truncatedTranscriptHash: truncatedHash, binder: binder))
        return encoded(extensions + [PreSharedKey.offered(identities: [identity], binders: [binder]).tlsExtension])
    }

    /// The first ClientHello another engine built (``DualVersionClient``), with this engine's PSK
    /// offer added (``withPSK(_:after:encoded:)``); nil when there is no ticket to offer. The events
    /// (the early secret's steps, the binder) wait in the next step.
    mutating func offerPSK(in hello: ClientHello) throws(TLS13Failure) -> (ClientHello, bytes: [UInt8])? {
        var offered: ClientHello?
        let bytes = try withPSK(hello.extensions ?? [], after: []) { extensions in
            var candidate = hello
            candidate.extensions = extensions
            offered = candidate
            var w = ByteWriter()
            candidate.encode(to: &w)
            return TLS13Connection.handshakeBytes(.clientHello, w.bytes)
        }
        guard let bytes, let offered else { return nil }
        return (offered, bytes)
    }

    /// Events waiting for the next step (those of ``offerPSK(in:)``).
    mutating func takeEvents() -> [TLS13Event] { connection.takeStep().events }

    mutating func handle(_ message: RawHandshakeMessage) throws(TLS13Failure) {
        switch (connection.state, message.type) {
        case (.waitServerHello, .serverHello):
            try serverHello(message)
        case (.waitEncryptedExtensions, .encryptedExtensions):
            connection.received(message)
            var r = ByteReader(message.body)
            let encrypted: EncryptedExtensions
            do { encrypted = try EncryptedExtensions(from: &r); try r.expectEnd(field: "EncryptedExtensions") } catch { throw .decode(error) }
            try checkServerExtensions(encrypted.extensions, allowed: TLS13ExtensionRules.encryptedExtensions,
                                      rule: .extensionNotAllowedInEncryptedExtensions)
            try earlyDataAnswer(encrypted.extensions)
            if let chosen = encrypted.extensions.applicationProtocols {
                // RFC 7301 §3.2: exactly one of the protocols offered; RFC 8446 §4.2: no answer to an
                // extension not sent.
                guard chosen.count == 1, let name = chosen.first, configuration.applicationProtocols.contains(name) else {
                    throw .illegalParameter(.applicationProtocolNotOffered)
                }
                negotiatedApplicationProtocol = name
                connection.events.append(.applicationProtocolSelected(name))
            }
            // §2.2: a PSK handshake goes straight to the server's Finished.
            connection.enter(resumed ? .waitFinished : .waitCertificateOrCertificateRequest)
        case (.waitCertificateOrCertificateRequest, .certificateRequest):
            connection.received(message)
            var r = ByteReader(message.body)
            let request: TLS13CertificateRequest
            do { request = try TLS13CertificateRequest(from: &r); try r.expectEnd(field: "CertificateRequest") } catch { throw .decode(error) }
            // §4.3.2: in the handshake the context is empty, and signature_algorithms must be there.
            guard request.context.isEmpty else { throw .illegalParameter(.certificateRequestContextNotEmpty) }
            guard let schemes = request.signatureSchemes else { throw .missingExtension(.signatureAlgorithms) }
            certificateRequest = request
            connection.events.append(.certificateRequested(context: request.context, schemes: schemes))
            connection.enter(.waitCertificate)
        case (.waitCertificateOrCertificateRequest, .certificate), (.waitCertificate, .certificate):
            try certificate(message)
        case (.waitCertificateVerify, .certificateVerify):
            let content = TLS13CertificateVerifyContent.signedContent(signer: .server, transcriptHash: connection.transcriptHash)
            connection.received(message)
            let (scheme, signature) = try TLS13Connection.certificateVerify(message.body)
            guard configuration.signatureSchemes.contains(scheme) else { throw .illegalParameter(.serverSignatureSchemeNotOffered) }
            guard let serverKey else { throw .internalError }
            let valid = TLS13Connection.verify(signature, over: content, scheme: scheme, key: serverKey)
            connection.events.append(.certificateVerifyChecked(scheme, content: content, signature: signature, valid: valid))
            guard valid else { throw .verificationFailed }
            connection.enter(.waitFinished)
        case (.waitFinished, .finished):
            try serverFinished(message)
        case (.connected, _):
            try connection.postHandshake(message)
        default:
            throw .unexpectedMessage(message.type, in: connection.state)
        }
    }

    mutating func serverHello(_ message: RawHandshakeMessage) throws(TLS13Failure) {
        let hello: ServerHello
        var r = ByteReader(message.body)
        do { hello = try ServerHello(from: &r); try r.expectEnd(field: "ServerHello") } catch { throw .decode(error) }
        let extensions = hello.extensions ?? []
        guard case .unknown(_, let versionData)? = extensions.first(ofType: .supportedVersions) else {
            // §4.1.3: a 1.3 client that gets an older version checks the downgrade sentinel.
            let tail = Array(hello.random.bytes.suffix(8))
            if tail == TLS13HelloValues.downgradeToTLS12 || tail == TLS13HelloValues.downgradeToTLS11OrBelow {
                connection.events.append(.downgradeDetected(random: hello.random.bytes))
                throw .downgrade
            }
            throw .illegalParameter(.serverHelloWithoutSupportedVersions)
        }
        let selected: SupportedVersions
        do { selected = try SupportedVersions(extensionData: versionData, inClientHello: false) } catch { throw .decode(error) }
        guard selected == .selected(.tls13) else { throw .illegalParameter(.versionNotOffered) }
        if hello.random.bytes == TLS13HelloValues.helloRetryRequestRandom {
            try checkServerExtensions(extensions, allowed: TLS13ExtensionRules.helloRetryRequest, rule: .extensionNotAllowedInHelloRetryRequest)
        } else {
            try checkServerExtensions(extensions, allowed: TLS13ExtensionRules.serverHello, rule: .extensionNotAllowedInServerHello)
        }
        guard hello.sessionID == sessionID else { throw .illegalParameter(.sessionIDEchoDiffers) }
        guard let suite = TLS13CipherSuite(rawValue: hello.cipherSuite.rawValue), configuration.suites.contains(suite) else {
            throw .illegalParameter(.cipherSuiteNotOffered)
        }
        if let previous = connection.suite, previous != suite { throw .illegalParameter(.cipherSuiteChangedAfterRetry) }
        connection.suite = suite
        // §4.1.4: a HelloRetryRequest that asks for no key share and sends no cookie would not change the ClientHello.
        if hello.random.bytes == TLS13HelloValues.helloRetryRequestRandom, !extensions.contains(type: .keyShare), !extensions.contains(type: .cookie) {
            throw .illegalParameter(.retryWouldNotChangeClientHello)
        }
        guard case .unknown(_, let shareData)? = extensions.first(ofType: .keyShare) else { throw .missingExtension(.keyShare) }

        if hello.random.bytes == TLS13HelloValues.helloRetryRequestRandom {
            // §4.1.4: at most one HelloRetryRequest; it names a group offered but not shared.
            guard !retried else { throw .unexpectedMessage(.serverHello, in: connection.state) }
            let share: KeyShare
            do { share = try KeyShare(extensionData: shareData, in: .helloRetryRequest) } catch { throw .decode(error) }
            guard case .selectedGroup(let group) = share, configuration.groups.contains(group), keyShares[group] == nil else {
                throw .illegalParameter(.retryGroupNotOfferedOrAlreadyShared)
            }
            retried = true
            connection.events.append(.helloRetryRequested(group: group))
            // §4.4.1: ClientHello1 becomes message_hash ‖ Hash(ClientHello1), then the HRR follows.
            let hash = suite.hash.digest(connection.transcript)
            connection.transcript = TLS13Connection.handshakeBytes(.messageHash, hash)
            connection.events.append(.transcriptRestarted(messageHash: hash))
            connection.received(message)
            var cookie: [UInt8]?
            if case .unknown(_, let data)? = extensions.first(ofType: .cookie) { cookie = data }
            keyShares = [:]
            if earlyData.offered {
                // §4.2.10: the second ClientHello goes without early data, in the clear like the first.
                connection.writeProtection = nil
                connection.writeSecret = nil
                connection.events.append(.earlyDataRejected(.helloRetryRequest))
            } else if configuration.middleboxCompatibility {
                connection.sendCompatibilityChangeCipherSpec()
            }
            try sendClientHello(shareGroups: [group], cookie: cookie)
            return
        }

        let share: KeyShare
        do { share = try KeyShare(extensionData: shareData, in: .serverHello) } catch { throw .decode(error) }
        guard case .serverShare(let entry) = share, let pair = keyShares[entry.group] else {
            throw .illegalParameter(.serverKeyShareGroupNotShared)
        }
        var early = TLS13KeySchedule.Early(hash: suite.hash)
        var alreadyNoted = 0
        if case .unknown(_, let pskData)? = extensions.first(ofType: .preSharedKey) {
            // §4.2.11: the server may select only an offered identity, with a suite of the PSK's hash.
            guard let offered = pskEarly, let ticket = configuration.resumption, ticket.suite.hash == suite.hash,
                  case .selected(let index) = try TLS13Server.read({ () throws(DecodeError) in try PreSharedKey(extensionData: pskData, inClientHello: false) }),
                  index == 0 else {
                throw .illegalParameter(.pskIdentityNotOffered)
            }
            resumed = true
            early = offered
            alreadyNoted = offered.steps.count
            connection.events.append(.pskAccepted(selectedIdentity: index, ticketAgeMilliseconds: nil))
        }
        connection.received(message)
        connection.events.append(.negotiated(suite: suite, group: entry.group, serverName: configuration.serverName))
        let shared = try connection.sharedSecret(pair, group: entry.group, peer: entry.keyExchange)
        connection.note(early.steps, after: alreadyNoted)
        var handshake = early.handshake(sharedSecret: shared)
        let secrets = handshake.trafficSecrets(helloHash: connection.transcriptHash)
        connection.note(handshake.steps, after: early.steps.count)
        connection.early = early
        connection.handshake = handshake
        connection.clientHandshakeSecret = secrets.client
        connection.serverHandshakeSecret = secrets.server
        try connection.install(.read, secret: .serverHandshakeTrafficSecret, secrets.server)
        connection.enter(.waitEncryptedExtensions)
    }

    mutating func certificate(_ message: RawHandshakeMessage) throws(TLS13Failure) {
        connection.received(message)
        var r = ByteReader(message.body)
        let certificate: TLS13CertificateMessage
        do { certificate = try TLS13CertificateMessage(from: &r); try r.expectEnd(field: "Certificate") } catch { throw .decode(error) }
        guard certificate.requestContext.isEmpty else { throw .illegalParameter(.serverCertificateContextNotEmpty) }
        // §4.4.2.4: "If the server supplies an empty Certificate message, the client MUST abort the handshake with a decode_error alert."
        guard !certificate.certificateList.isEmpty else { throw .emptyServerCertificate }
        let decision = configuration.evaluator.evaluate(chain: certificate.certificateList, role: .server, serverName: configuration.serverName)
        connection.events.append(.certificateDecision(decision, chainLength: certificate.certificateList.count))
        switch decision {
        case .accept(let key, _, _): serverKey = key
        case .reject(let refusal, let account, _): throw .certificateRefused(refusal, account)
        }
        connection.enter(.waitCertificateVerify)
    }

    mutating func serverFinished(_ message: RawHandshakeMessage) throws(TLS13Failure) {
        try connection.checkFinished(message, .serverHandshakeTrafficSecret, baseKey: connection.serverHandshakeSecret)
        connection.received(message)
        guard let handshake = connection.handshake else { throw .internalError }
        var master = handshake.master()
        let application = master.applicationTrafficSecrets(serverFinishedHash: connection.transcriptHash)
        _ = master.exporterMasterSecret(serverFinishedHash: connection.transcriptHash)
        try connection.install(.read, secret: .serverApplicationTrafficSecret0, application.server)
        // The client's own flight: [ChangeCipherSpec], Finished under the client handshake key.
        // With early data offered the ChangeCipherSpec went right after the ClientHello (§D.4).
        if configuration.middleboxCompatibility && !retried && !earlyData.offered { connection.sendCompatibilityChangeCipherSpec() }
        try endEarlyData()
        try connection.install(.write, secret: .clientHandshakeTrafficSecret, connection.clientHandshakeSecret)
        if let request = certificateRequest { try answer(request) }
        try connection.sendHandshake(.finished, body: connection.finishedBody(.clientHandshakeTrafficSecret, baseKey: connection.clientHandshakeSecret))
        _ = master.resumptionMasterSecret(clientFinishedHash: connection.transcriptHash)
        connection.note(master.steps, after: handshake.steps.count)
        connection.master = master
        try connection.install(.write, secret: .clientApplicationTrafficSecret0, application.client)
        connection.enter(.connected)
        connection.events.append(.handshakeCompleted(resumed: resumed))
    }

    /// The client's answer to a CertificateRequest (RFC 8446 §4.4.2, §4.4.3): its Certificate with the
    /// request's context and, when it has a certificate whose scheme the server listed, a
    /// CertificateVerify with the client context string; else an empty Certificate.
    mutating func answer(_ request: TLS13CertificateRequest) throws(TLS13Failure) {
        let schemes = request.signatureSchemes ?? []
        let usable = configuration.identity.flatMap { identity in
            schemes.contains(TLS13Connection.scheme(for: identity.key)) ? identity : nil
        }
        var w = ByteWriter()
        TLS13CertificateMessage(requestContext: request.context,
                                entries: (usable?.certificateChain ?? []).map { .init(certificate: $0) }).encode(to: &w)
        guard let identity = usable else {
            connection.events.append(.emptyClientCertificate)
            try connection.sendHandshake(.certificate, body: w.bytes)
            return
        }
        try connection.sendHandshake(.certificate, body: w.bytes)
        let scheme = TLS13Connection.scheme(for: identity.key)
        let content = TLS13CertificateVerifyContent.signedContent(signer: .client, transcriptHash: connection.transcriptHash)
        let signature = try connection.sign(content, with: identity.key, scheme: scheme)
        connection.events.append(.certificateVerifySigned(scheme, content: content, signature: signature))
        try connection.sendHandshake(.certificateVerify, body: TLS13Connection.certificateVerifyBody(scheme: scheme, signature: signature))
    }
}
