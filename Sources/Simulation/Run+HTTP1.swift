import Trace

/// HTTP/0.9, 1.0 and 1.1 over the run's legs: requests in order, keep-alive and pipelining, the responses, and the close that HTTP/1.0 asks for.
extension Run {
    func http(_ h: HTTPEvent, by e: Endpoint) {
        events.append(TraceEvent(time: net.now, actor: e.actor, kind: .http(h), connection: e.connection, peer: e.peer))
        switch h {
        case .responseSent(let text) where e.actor == .server && e.connection == 0 && exchange.firstResponseSent == nil:
            exchange.firstResponseSent = text
        case .responseReceived(let text):
            exchange.responseRead = true
            if e.actor == .client, e.connection == 0, exchange.firstResponseRead == nil { exchange.firstResponseRead = text }
        default:
            break
        }
    }

    func application(_ leg: Leg) {
        if setup.connectionMode == .h2 {
            http2Application(leg)
            return
        }
        let client = leg.initiator, server = leg.responder
        // The responder: the real server answers; a MITM reads the request and relays it.
        let http09 = setup.connectionMode == .http09
        if server.handshake == .completed || server.readsEarlyData, !server.failed {
            while case let (request, rest)? = http09 ? HTTPFraming.requestLine(in: server.inbox) : HTTPFraming.request(in: server.inbox) {
                server.inbox = rest
                http(.requestReceived(request), by: server)
                if server.actor == .attacker {
                    events.append(TraceEvent(time: net.now, actor: .attacker, kind: .attack(.learned(
                        secret: .httpRequest, value: Array(request.utf8),
                        how: setup.usesTLS ? .relayedAndDecrypted : .relayedInPlaintext)),
                        connection: leg.index))
                    if let cookie = HTTPCookieLine.find(in: Array(request.utf8)) {
                        events.append(TraceEvent(time: net.now, actor: .attacker, kind: .attack(.learned(
                            secret: .httpCookie, value: cookie, how: .relayedRequest)), connection: leg.index))
                    }
                    leg.upstream?.relayQueue.append(request)
                } else {
                    http(.responseSent(setup.httpResponse), by: server)
                    send(setup.httpResponse, from: server)
                    if http09 { closeAfterResponse(server) }
                }
            }
        }
        // The initiator: the real client sends its requests; a MITM's client relays; a replaying
        // attacker reads nothing (it holds no key).
        guard client.handshake == .completed, !client.failed, leg.replayedFlight == nil else { return }
        if client.actor == .client {
            if !leg.requests.isEmpty && leg.sent == 0 {
                note(.http(overTLS: setup.usesTLS), connection: leg.index)
            }
            while leg.sent < leg.requests.count, setup.connectionMode == .pipelining || leg.sent == leg.answered {
                let request = leg.requests[leg.sent]
                leg.sent += 1
                http(.requestSent(request), by: client)
                send(request, from: client)
            }
        } else {
            while !leg.relayQueue.isEmpty {
                let request = leg.relayQueue.removeFirst()
                leg.requests.append(request)
                leg.sent += 1
                http(.requestSent(request), by: client)
                send(request, from: client)
            }
        }
        while case let (response, rest)? = http09 ? http09Response(client, leg: leg) : HTTPFraming.response(in: client.inbox) {
            client.inbox = rest
            leg.answered += 1
            http(.responseReceived(response), by: client)
            if let down = leg.downstream, down.responder.handshake == .completed, !down.responder.failed {
                http(.responseSent(response), by: down.responder)
                send(response, from: down.responder)
                if http09 { closeAfterResponse(down.responder) }
            }
        }
    }

    /// HTTP/0.9: the response is everything the server sent once it has closed its side (the
    /// client's connection is in CLOSE-WAIT), one per connection.
    func http09Response(_ client: Endpoint, leg: Leg) -> (String, [UInt8])? {
        guard leg.sent > leg.answered, let id = client.tcp, net.state(of: id) == .closeWait else { return nil }
        return (String(decoding: client.inbox, as: UTF8.self), [])
    }

    /// HTTP/0.9: the server ends the response by closing the connection.
    func closeAfterResponse(_ server: Endpoint) {
        guard let id = server.tcp, server.closing != .tcpClosed, server.pendingWrites.isEmpty else { return }
        server.closing = .tcpClosed
        try? net.close(id)
    }
}
