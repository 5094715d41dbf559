/// The end of a leg: close_notify and TCP's close once the HTTP work is done or the handshake failed.
extension Run {
    func closeWhenDone(_ leg: Leg) {
        let client = leg.initiator, server = leg.responder
        guard let c = client.tcp else { return }
        let exchangeOver: Bool
        if client.actor == .client, setup.connectionMode == .h2 {
            exchangeOver = http2ExchangeOver(leg)
        } else if client.actor == .client {
            exchangeOver = client.handshake == .completed && leg.answered >= leg.requests.count
        } else {
            let down = leg.downstream
            // A replaying attacker waits for the server's answer to its recorded flight.
            exchangeOver = down.map { $0.initiator.closing == .tcpClosed || $0.responder.failed || $0.responder.closing == .tcpClosed }
                ?? (leg.replayedFlight == nil || (leg.flightWritten && !client.inbox.isEmpty))
        }
        // The initiator closes first: close_notify, then FIN. It reacts only to its own state and to
        // what it received (a fatal alert it sent or read), never to the other side's local failure.
        if exchangeOver, setup.connectionMode == .h2, client.actor == .client, client.closing == .open, !client.failed {
            http2GoAway(leg)
        }
        if exchangeOver || client.failed, client.closing == .open {
            client.closing = .tlsClosed
            if client.handshake == .completed, !client.failed, let step = client.engine.withTLS12({ $0.close() }) {
                if client.actor == .client { note(.closing(.closeNotifyAndTCPClose), connection: leg.index) }
                record(step, by: client)
            } else if client.handshake == .completed, !client.failed, case .client13(var engine) = client.engine {
                if client.actor == .client { note(.closing(.closeNotifyAndTCPClose), connection: leg.index) }
                let step = engine.close()
                client.engine = .client13(engine)
                record(step.tlsStep(role: .client), by: client)
            } else if client.handshake == .completed, !client.failed, case .dualClient(var engine) = client.engine {
                if client.actor == .client { note(.closing(.closeNotifyAndTCPClose), connection: leg.index) }
                let step = engine.close()
                client.engine = .dualClient(engine)
                record(step, by: client)
            } else if client.handshake == .completed, case .plain = client.engine, client.actor == .client {
                note(.closing(.tcpClose), connection: leg.index)
            }
        }
        if client.closing == .tlsClosed, client.pendingWrites.isEmpty {
            client.closing = .tcpClosed
            try? net.close(c)
        }
        // The responder answers the close_notify with its own, then closes TCP — once the client's
        // FIN arrived (CLOSE-WAIT), or once it sent or received a fatal alert itself.
        if let s = server.tcp, server.closing != .tcpClosed, net.state(of: s) == .closeWait || server.failed {
            if server.closing == .open, !server.failed, let step = server.engine.withTLS12({ $0.close() }) {
                server.closing = .tlsClosed
                record(step, by: server)
            } else if server.closing == .open, !server.failed, case .server13(var engine) = server.engine {
                // RFC 8446 §6.1: the server closes its own write side once it is done, with its own close_notify.
                server.closing = .tlsClosed
                let step = engine.close()
                server.engine = .server13(engine)
                record(step.tlsStep(role: .server), by: server)
            } else if server.closing == .open, !server.failed, case .dualServer(var engine) = server.engine {
                server.closing = .tlsClosed
                let step = engine.close()
                server.engine = .dualServer(engine)
                record(step, by: server)
            }
            if server.pendingWrites.isEmpty {
                server.closing = .tcpClosed
                try? net.close(s)
            }
        }
    }
}
