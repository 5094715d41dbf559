import HTTP2
import Trace

/// The headings of a run's phases, named from the trace's `Phase` facts with the catalogue's words.
extension Explanations {
    /// The English headings (the JSON Lines `phase` event's `name` keeps these words).
    static let englishPhaseNames: [String: String] = [
        "phaseName.tcpOpen": "TCP three-way handshake",
        "phaseName.tcpSocketLevel": "TCP connection — socket level: only what the kernel lets us see",
        "phaseName.tlsHandshake": "TLS handshake",
        "phaseName.connection": "{name} (connection {number})",
        "phaseName.httpOverTLS": "HTTP request over TLS",
        "phaseName.httpInTheClear": "HTTP request in the clear (no TLS)",
        "phaseName.h2AllAtOnce": "HTTP/2 over TLS (h2): all requests at once, one stream each",
        "phaseName.h2cAllAtOnce": "HTTP/2 in the clear (h2c, prior knowledge): all requests at once, one stream each",
        "phaseName.h2": "HTTP/2 over TLS (ALPN h2)",
        "phaseName.h2c": "HTTP/2 in the clear (h2c, prior knowledge)",
        "phaseName.http2NotSelected": "ALPN selected {selected}, not \"h2\": this connection is not HTTP/2 (RFC 9113 §3.2), so the client sends no HTTP/2 preface",
        "phaseName.noProtocol": "no protocol",
        "phaseName.unspokenByClient": "ALPN chose {protocol}: this client speaks HTTP/1.x and h2 only, so it sends no request",
        "phaseName.unspokenByServer": "closing: ALPN chose {protocol}; this server answers in HTTP/1.x and h2 only, so it closes (close_notify)",
        "phaseName.closeNotifyAndTCPClose": "closing: close_notify and the TCP four-way close",
        "phaseName.tcpClose": "closing: the TCP four-way close",
        "phaseName.closeNotifyAndSocketClose": "closing: close_notify and close()",
        "phaseName.goAwayThenCloseNotify": "closing: GOAWAY sent, then close_notify and close()",
        "phaseName.idleGoAway": "closing: GOAWAY, then close_notify and close() (an idle or slow client)",
        "phaseName.serverCouldNotListen": "the server could not listen: {detail}",
        "phaseName.connectionNotOpened": "the TCP connection could not be opened: {detail}",
        "phaseName.attackerCouldNotReachServer": "the attacker could not reach the server: {detail}",
        "phaseName.socket": "socket-level (what the kernel lets us see): {note}",
        "phaseName.traceLimit": "trace limit: {dropped} later event(s) not kept (a real peer's trace keeps at most {events} events and {mebibytes} MiB of contents)",
    ]

    /// The heading of `phase` on connection `connection` (0 for the first).
    public func phaseName(_ phase: Phase, connection: Int = 0) -> String {
        func say(_ key: String, _ values: [String: String] = [:]) -> String { self(key, values) ?? key }
        func numbered(_ key: String) -> String {
            connection == 0 ? say(key) : say("phaseName.connection", ["name": say(key), "number": "\(connection + 1)"])
        }
        switch phase {
        case .tcpOpen: return numbered("phaseName.tcpOpen")
        case .tcpSocketLevel: return say("phaseName.tcpSocketLevel")
        case .tlsHandshake: return numbered("phaseName.tlsHandshake")
        case .http(let overTLS): return say(overTLS ? "phaseName.httpOverTLS" : "phaseName.httpInTheClear")
        case .http2(let how, let allAtOnce):
            switch (how, allAtOnce) {
            case (.h2, true): return say("phaseName.h2AllAtOnce")
            case (.h2c, true): return say("phaseName.h2cAllAtOnce")
            case (.h2, false): return say("phaseName.h2")
            case (.h2c, false): return say("phaseName.h2c")
            }
        case .http2NotSelected(let selected):
            return say("phaseName.http2NotSelected", ["selected": selected.map { "\"\($0)\"" } ?? say("phaseName.noProtocol")])
        case .unspokenApplicationProtocol(let name, let actor):
            return say(actor == .server ? "phaseName.unspokenByServer" : "phaseName.unspokenByClient", ["protocol": name])
        case .closing(let how):
            switch how {
            case .closeNotifyAndTCPClose: return say("phaseName.closeNotifyAndTCPClose")
            case .tcpClose: return say("phaseName.tcpClose")
            case .closeNotifyAndSocketClose: return say("phaseName.closeNotifyAndSocketClose")
            case .goAwayThenCloseNotify: return say("phaseName.goAwayThenCloseNotify")
            case .idleGoAway: return say("phaseName.idleGoAway")
            }
        case .failed(let failure, let error):
            let key: String
            switch failure {
            case .serverCouldNotListen: key = "phaseName.serverCouldNotListen"
            case .connectionNotOpened: key = "phaseName.connectionNotOpened"
            case .attackerCouldNotReachServer: key = "phaseName.attackerCouldNotReachServer"
            }
            return say(key, ["detail": userError(error)])
        case .socket(let note):
            return say("phaseName.socket", ["note": socketNote(note)])
        case .traceLimit(let dropped, let events, let mebibytes):
            return say("phaseName.traceLimit", ["dropped": "\(dropped)", "events": "\(events)", "mebibytes": "\(mebibytes)"])
        }
    }

    /// The catalogue key of the sentence that explains `phase` (nil: the heading says it all).
    public static func explanationKey(_ phase: Phase, plainHTTP: Bool) -> String? {
        switch phase {
        case .tcpOpen, .tcpSocketLevel: return "phase.tcp"
        case .tlsHandshake: return "phase.tls"
        case .http(let overTLS): return overTLS ? "phase.http" : "phase.httpPlain"
        case .http2(.h2c, _): return "phase.h2c"
        case .http2(.h2, _): return "phase.h2"
        case .closing, .unspokenApplicationProtocol(_, by: .server): return plainHTTP ? "phase.closePlain" : "phase.close"
        case .http2NotSelected, .unspokenApplicationProtocol, .failed, .socket, .traceLimit: return nil
        }
    }
}
