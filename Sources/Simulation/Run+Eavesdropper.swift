import Trace

/// After the run: what the eavesdropper works out from what it recorded.
extension Run {
    // MARK: - After the run: what the eavesdropper works out

    func afterTheRun() {
        // Every message sent is received or dropped: settle what never got processed.
        for leg in legs {
            dropUnprocessed(by: leg.initiator, arrivedOnly: false)
            dropUnprocessed(by: leg.responder, arrivedOnly: false)
        }
        let trace = Trace(events: events)
        let end = net.now
        func add(_ a: AttackEvent, connection: Int) {
            events.append(TraceEvent(time: end, actor: .eavesdropper, kind: .attack(a), connection: connection))
        }
        switch setup.attack {
        case .stealServerKeyAfterwards?:
            // The stolen key decrypts RSA key transport; an ECDSA server key opens nothing recorded.
            guard let key = setup.server.identity.privateKey else { break }
            add(.keyStolen(modulusBits: key.publicKey.bitLength), connection: 0)
            if setup.tls13 != nil {
                // RFC 8446 §1.2: no RSA key transport, no static (EC)DH — the key only signed
                // CertificateVerify; the keys came from ephemeral shares erased after the handshake (§E.1).
                for i in trace.recordedFlows.indices { add(.failed(.tls13ForwardSecrecy), connection: i) }
                break
            }
            var sessions: [[UInt8]: [UInt8]] = [:]
            for (i, flow) in trace.recordedFlows.enumerated() {
                let tls = RecordedTLS(clientToServer: flow.clientToServer, serverToClient: flow.serverToClient)
                for a in PassiveAnalysis.keyTheft(tls, key: key, knownSessions: sessions) {
                    add(a, connection: i)
                    if case .learned(.masterSecret, let master, _) = a, !tls.sessionID.isEmpty { sessions[tls.sessionID] = master }
                }
            }
        case .weakClientRandom(let weak)?:
            for (i, flow) in trace.recordedFlows.enumerated() {
                let tls = RecordedTLS(clientToServer: flow.clientToServer, serverToClient: flow.serverToClient)
                for a in PassiveAnalysis.seedSearch(tls, weak: weak, clientHelloTime: flow.firstClientDataTime ?? 0) {
                    add(a, connection: i)
                }
            }
        default:
            break
        }
    }
}
