import TLSCrypto

extension HandshakeMessage {
    /// A TLS 1.3 handshake message (header included) for the trace: ClientHello and ServerHello
    /// (HelloRetryRequest too) keep TLS 1.2's wire shape and decode as such; EncryptedExtensions,
    /// the 1.3 Certificate, CertificateVerify, Finished and the post-handshake messages keep their
    /// body as it is (their structure is ``EncryptedExtensions``, ``TLS13CertificateMessage``…).
    public static func tls13(_ bytes: [UInt8]) -> HandshakeMessage {
        guard bytes.count >= HandshakeMessage.headerLength else { return .other(HandshakeType(rawValue: bytes.first ?? 0xff), body: []) }
        let type = HandshakeType(rawValue: bytes[0])
        let body = Array(bytes.dropFirst(HandshakeMessage.headerLength))
        var r = ByteReader(body)
        switch type {
        case .clientHello:
            if let hello = try? ClientHello(from: &r), r.isAtEnd { return .clientHello(hello) }
        case .serverHello:
            if let hello = try? ServerHello(from: &r), r.isAtEnd { return .serverHello(hello) }
        default:
            break
        }
        return .other(type, body: body)
    }
}

extension TLS13Step {
    /// This step as a ``TLSStep``: the same records, and the events a TLS 1.2 side would have
    /// recorded for the same facts (messages, ChangeCipherSpec, alerts with their cause, the
    /// certificate decision, the negotiation, completion, application data); every fact of 1.3
    /// alone travels as ``TLSEvent/tls13(_:)``. `role` is the side that took the step.
    public func tlsStep(role: TLSRole) -> TLSStep {
        var mapped: [TLSEvent] = []
        var failure: TLS13Failure?
        // A PSK accepted in the same step as the negotiation (each side says it just before).
        let resumedInStep = events.contains { if case .pskAccepted = $0 { true } else { false } }
        for event in events {
            switch event {
            case .handshakeSent(_, let bytes): mapped.append(.handshakeSent(.tls13(bytes), bytes: bytes))
            case .handshakeReceived(_, let bytes): mapped.append(.handshakeReceived(.tls13(bytes), bytes: bytes))
            case .changeCipherSpecSent: mapped.append(.changeCipherSpecSent)
            case .changeCipherSpecReceived: mapped.append(.changeCipherSpecReceived)
            case .failed(let f): failure = f
            case .alertSent(let alert):
                let cause: AlertCause = alert.isFatal ? .tls13(failure ?? .internalError)
                    : alert.alertDescription == .userCanceled ? .handshakeCanceled : .close
                mapped.append(.alertSent(alert, cause: cause))
            case .alertReceived(let alert): mapped.append(.alertReceived(alert))
            case .handshakeCompleted(let resumed): mapped.append(.handshakeCompleted(resumed: resumed))
            case .applicationDataSent(let data): mapped.append(.applicationDataSent(data))
            case .applicationDataReceived(let data): mapped.append(.applicationDataReceived(data))
            case .certificateDecision(let decision, let length):
                let peer: TLSRole = role == .client ? .server : .client
                switch decision {
                case .accept(_, let summary, let validation):
                    mapped.append(.certificateDecision(peer: peer, chainLength: length, accepted: true, detail: summary, validation: validation))
                case .reject(_, let reason, let validation):
                    mapped.append(.certificateDecision(peer: peer, chainLength: length, accepted: false, detail: reason, validation: validation))
                }
            case .negotiated(let suite, let group, let serverName):
                mapped.append(.negotiated(NegotiationTrace(version: .tls13, cipherSuite: CipherSuite(rawValue: suite.rawValue),
                                                           extendedMasterSecret: false, resumed: resumedInStep, serverName: serverName,
                                                           group: "\(group)")))
                mapped.append(.tls13(event))
            default:
                mapped.append(.tls13(event))
            }
        }
        var step = TLSStep(sent: sent, events: mapped)
        // §6: "All the alerts listed in Section 6.2 MUST be sent with AlertLevel=fatal and MUST be treated
        // as error alerts when received regardless of the AlertLevel"; close_notify and user_canceled are closure alerts.
        for case .alertReceived(let alert) in events where !alert.isFatal
            && alert.alertDescription != .closeNotify && alert.alertDescription != .userCanceled && step.errorAlertReceived == nil {
            step.errorAlertReceived = alert
        }
        return step
    }
}

extension ServerHello {
    /// A HelloRetryRequest: a ServerHello whose random is the constant SHA-256("HelloRetryRequest")
    /// (RFC 8446 §4.1.3), never a server's random.
    public var isHelloRetryRequest: Bool { random.bytes == TLS13HelloValues.helloRetryRequestRandom }
}
