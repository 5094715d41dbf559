import HTTP2
import TLSEngine
import Trace

/// HTTP/2 in the simulation: a thin adapter over ``HTTP2Connection``. Each endpoint holds one
/// connection; what arrived in its inbox goes in, and the connection's actions come out as trace
/// events and writes (each write one TLS record flight or TCP send, as the connection batched it).
extension Run {
    func http2(_ h: HTTP2Event, by e: Endpoint) {
        events.append(TraceEvent(time: net.now, actor: e.actor, kind: .http2(h), connection: e.connection, peer: e.peer))
    }

    /// Carries out what the connection asked, in order: its events and messages into the trace,
    /// its writes to the wire.
    func perform(_ out: HTTP2Connection.Output, by e: Endpoint, on leg: Leg) {
        for action in out.actions {
            switch action {
            case .event(.peerConnectionError):
                // The simulation traces both ends: the peer's error is already there as its own.
                continue
            case .event(let event):
                http2(event, by: e)
                switch event {
                case .chosen(let how) where exchange.http2Negotiation == nil: exchange.http2Negotiation = how
                case .connectionError(let code, _) where exchange.http2ConnectionErrorSent == nil: exchange.http2ConnectionErrorSent = code
                default: break
                }
            case .message(let message):
                http(HTTPEvent(message), by: e)
                switch message {
                case .requestSent(_, let index), .requestRetried(_, let index, _): leg.sent = max(leg.sent, index + 1)
                case .responseReceived(_, let stream) where stream % 2 == 1: leg.answered += 1
                default: break
                }
            case .write(let bytes):
                send(bytes: bytes, from: e)
            }
        }
    }

    /// HTTP/2 on one connection: the real server answers, the real client sends and reads. (The
    /// scenario layer allows no active attacker with h2, so the responder is always the server.)
    func http2Application(_ leg: Leg) {
        if leg.responder.actor == .server { http2Server(leg) }
        if leg.initiator.actor == .client { http2Client(leg) }
    }

    /// The client is finished once every request's response and every promised push arrived (or
    /// the connection failed: a connection error either way, or the server's GOAWAY).
    func http2ExchangeOver(_ leg: Leg) -> Bool {
        let c = leg.initiator
        guard c.handshake == .completed else { return false }
        if c.h2Unavailable { return true }
        return c.h2?.isExchangeComplete ?? false
    }

    /// The client ends the connection gracefully: GOAWAY before TLS's close_notify and TCP's FIN.
    func http2GoAway(_ leg: Leg) {
        let c = leg.initiator
        guard c.h2 != nil, let out = c.h2?.goAway() else { return }
        perform(out, by: c, on: leg)
    }

    /// What the simulation's server is configured with.
    var http2ServerConfiguration: HTTP2Connection.Configuration {
        var configuration = HTTP2Connection.Configuration()
        configuration.negotiation = setup.usesTLS ? .h2 : .h2c
        configuration.maxConcurrentStreams = setup.http2MaxConcurrentStreams
        configuration.pushPaths = setup.http2Push
        configuration.maxHeaderListSize = setup.http2MaxHeaderListSize
        configuration.maxBodySize = setup.http2MaxBodySize
        let response = HTTP2Message.response(setup.httpResponse)
        configuration.respond = { _, _ in response }
        return configuration
    }

    func http2Server(_ leg: Leg) {
        let server = leg.responder
        guard server.handshake == .completed, !server.failed else { return }
        if server.h2 == nil { server.h2 = HTTP2Connection(server: http2ServerConfiguration) }
        let bytes = server.inbox
        server.inbox = []
        guard let out = server.h2?.receive(bytes) else { return }
        perform(out, by: server, on: leg)
    }

    func http2Client(_ leg: Leg) {
        let client = leg.initiator
        guard client.handshake == .completed, !client.failed, !client.h2Unavailable else { return }
        if client.h2 == nil {
            var configuration = HTTP2Connection.Configuration()
            configuration.negotiation = setup.usesTLS ? .h2 : .h2c
            configuration.enablePush = !setup.http2Push.isEmpty
            // Over TLS the handshake's ALPN must have selected "h2"; without it the connection is
            // not HTTP/2 (RFC 9113 §3.2), so no preface is sent and the run says why.
            if setup.usesTLS {
                var selected: ProtocolName?
                selected = client.engine.tls12?.negotiatedApplicationProtocol
                guard selected == .h2 else {
                    client.h2Unavailable = true
                    note(.http2NotSelected(selected: selected?.description), connection: leg.index)
                    return
                }
            }
            note(.http2(setup.usesTLS ? .h2 : .h2c, allRequestsAtOnce: true), connection: leg.index)
            // RFC 9113 §9.2: HTTP/2 over TLS needs TLS 1.2 or later; §9.2.2 (Appendix A's list):
            // over TLS 1.2 no suite without an ephemeral key exchange or without an AEAD cipher.
            // An endpoint may end such a connection with INADEQUATE_SECURITY, and this client does,
            // after its preface and SETTINGS.
            if let tls = client.engine.tls12 {
                configuration.inadequateSecurity = HTTP2OverTLS.inadequateSecurity(version: tls.negotiatedVersion, suite: tls.negotiatedSuite)
            }
            let scheme = setup.usesTLS ? "https" : "http"
            let requests = leg.requests.map {
                HTTP2Connection.Request(fields: HTTP2Message.requestFields($0, scheme: scheme), body: HTTP2Message.requestBody($0))
            }
            client.h2 = HTTP2Connection(client: configuration, requests: requests)
            if let out = client.h2?.start() { perform(out, by: client, on: leg) }
        }
        let bytes = client.inbox
        client.inbox = []
        guard let out = client.h2?.receive(bytes) else { return }
        perform(out, by: client, on: leg)
    }
}
