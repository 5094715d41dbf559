import HTTP2
import TCPSim
import TLSCrypto
import TLSEngine

/// Who knows which secret at the end of a run.
///
/// Client and server know what they derived. The eavesdropper knows a value only when its exact
/// bytes crossed the wire in some segment it saw — no guessing: it is a search of every payload.
/// What it learns afterwards (a stolen key, a guessed seed) and what an active attacker learns
/// count only when the bytes it computed equal the real ones.
public struct KnowledgeTable: Sendable {
    public struct Row: Sendable, Hashable {
        public var secret: Secret
        public var value: [UInt8]?
        public var client: Bool
        public var server: Bool
        public var eavesdropper: Bool
        /// What the eavesdropper knows after the run's later analysis (nil: no such analysis).
        public var eavesdropperAfterwards: Bool?
        /// What an active attacker (a MITM) knows (nil: no active attacker in the run).
        public var attacker: Bool?
        /// The copy of a random that an attacker changed in flight (the peer of its maker holds
        /// it); the row before it is the maker's own value.
        public var changedInFlight = false
        /// The server's own value of a secret both sides derived from different inputs (a value was
        /// changed in flight): the row before it is the client's value, which the server does not know.
        public var derivedDifferently = false
    }
    /// Some value was changed in flight (a tamper): the table has a changed-copy row.
    public var hasChangedCopy: Bool { rows.contains { $0.changedInFlight } }
    /// Some secret was derived differently by the two sides: the table has a row for the server's own value.
    public var hasDifferentValues: Bool { rows.contains { $0.derivedDifferently } }

    public var rows: [Row]
    /// The eavesdropper decoded HTTP/2 frames and HPACK header blocks from the wire (h2c).
    public var decodedHTTP2 = false
    /// True when the run had a later analysis (a stolen key, a seed search).
    public var hasAfterwards: Bool { rows.contains { $0.eavesdropperAfterwards != nil } }
    public var hasAttacker: Bool { rows.contains { $0.attacker != nil } }
}

extension Trace {
    /// Every byte the network carried, per segment (what an eavesdropper on the path records).
    public var wirePayloads: [[UInt8]] {
        events.compactMap { e in
            if case .tcp(.sent(let p)) = e.kind, !p.segment.payload.isEmpty { return p.segment.payload }
            return nil
        }
    }

    /// Secrets learned by an attacker (`.attacker`) or by the eavesdropper's later analysis
    /// (`.eavesdropper`), in order, as (which secret, bytes). `connection` nil: every connection.
    public func learned(by actor: Actor, connection: Int? = nil) -> [(secret: Secret, value: [UInt8])] {
        events.compactMap { e in
            guard e.actor == actor, connection == nil || e.connection == connection,
                  case .attack(.learned(let name, let value, _)) = e.kind else { return nil }
            return (name, value)
        }
    }

    /// What a passive observer decodes from the first connection's recorded bytes as HTTP/2: each
    /// message's text and its cookie line (empty when the run used no HTTP/2 or it was encrypted).
    var http2Decoded: Set<[UInt8]> {
        guard events.contains(where: { if case .http2 = $0.kind { true } else { false } }),
              let flow = recordedFlows.first else { return [] }
        let texts = (HTTP2PassiveDecoder.messages(flow.clientToServer, clientSide: true) ?? [])
            + (HTTP2PassiveDecoder.messages(flow.serverToClient, clientSide: false) ?? [])
        var out = Set<[UInt8]>()
        for text in texts {
            out.insert(Array(text.utf8))
            if let cookie = HTTPCookieLine.find(in: Array(text.utf8)) { out.insert(cookie) }
        }
        return out
    }

    public var knowledge: KnowledgeTable {
        let s = summary
        // TCP may split a value across segments: search the concatenated stream of each direction.
        // An on-path attacker's changed copies crossed the rest of the path: a stream of their own.
        var streams: [String: [UInt8]] = [:]
        for e in events where e.connection == 0 {
            if case .tcp(.sent(let p)) = e.kind, !p.segment.payload.isEmpty {
                streams[e.actor.rawValue, default: []] += p.segment.payload
            }
            if case .tcp(.forwarded(let p, _)) = e.kind, !p.segment.payload.isEmpty {
                streams[e.actor.rawValue + " changed", default: []] += p.segment.payload
            }
        }
        // HTTP/2 compresses headers (HPACK, often Huffman-coded): the request's text is not on the
        // wire as such. The eavesdropper parses the recorded streams as HTTP/2 frames with its own
        // HPACK decoder — possible only in the clear (h2c); over TLS the bytes are records.
        let decodedHTTP2 = http2Decoded
        func onWire(_ value: [UInt8]?) -> Bool {
            guard let value, value.count >= 4 else { return false }
            return streams.values.contains { Self.bytes($0, contain: value) } || decodedHTTP2.contains(value)
        }
        // Each side's own copy of each value; a side "knows" the row's value (the client's) only
        // when its copy is the same bytes — behind a MITM the server holds different ones.
        var clientKeys: KeyBlock?, serverKeys: KeyBlock?
        var serverSawClientRandom: [UInt8]?, clientSawServerRandom: [UInt8]?
        var cookie: [UInt8]?, serverCookie: [UInt8]?
        var request: [UInt8]?, serverRequest: [UInt8]?, response: [UInt8]?, serverResponse: [UInt8]?
        var attackerValues: [[UInt8]] = []
        // TLS 1.3: each side's (EC)DHE shared secret and key-schedule secrets (RFC 8446 §7.1).
        var clientTLS13: [Secret: [UInt8]] = [:], serverTLS13: [Secret: [UInt8]] = [:]
        var usesTLS13 = false
        var hasAttackerEngine = false
        var hasAfterwards = false
        for e in events where e.connection == 0 {
            switch e.kind {
            case .tls(.derived(.keyBlock(_, _, _, let keys))) where e.actor == .client:
                clientKeys = keys
            case .tls(.derived(.keyBlock(_, _, _, let keys))) where e.actor == .server:
                serverKeys = keys
            case .tls(.tls13(let fact)) where e.actor == .client || e.actor == .server:
                usesTLS13 = true
                var found: (Secret, [UInt8])?
                switch fact {
                case .sharedSecret(_, let value, _, _, _): found = (.sharedSecret, value)
                case .keySchedule(let step): found = Self.knowledgeSecret(step.secret).map { ($0, step.value) }
                default: break
                }
                if let (name, value) = found {
                    if e.actor == .client { clientTLS13[name] = value } else { serverTLS13[name] = value }
                }
            case .tls(.handshakeReceived(.clientHello(let ch), _)) where e.actor == .server:
                serverSawClientRandom = serverSawClientRandom ?? ch.random.bytes
            case .tls(.handshakeReceived(.serverHello(let sh), _)) where e.actor == .client && !sh.isHelloRetryRequest:
                clientSawServerRandom = clientSawServerRandom ?? sh.random.bytes
            case .tls(let tls) where e.actor == .attacker:
                hasAttackerEngine = true
                switch tls {
                case .derived(.masterSecret(let pre, _, _, _, let master)): attackerValues += [pre, master]
                case .derived(.keyBlock(_, _, _, let keys)): attackerValues += [keys.clientWriteKey, keys.serverWriteKey]
                case .handshakeSent(.clientHello(let ch), _), .handshakeReceived(.clientHello(let ch), _): attackerValues.append(ch.random.bytes)
                case .handshakeSent(.serverHello(let sh), _), .handshakeReceived(.serverHello(let sh), _): attackerValues.append(sh.random.bytes)
                default: break
                }
            case .attack(.learned(_, let value, _)) where e.actor == .attacker:
                attackerValues.append(value)
            case .attack where e.actor == .eavesdropper:
                hasAfterwards = true
            case .http(.requestSent(let text)) where e.actor == .client && request == nil:
                request = Array(text.utf8)
                cookie = HTTPCookieLine.find(in: Array(text.utf8))
            case .http(.requestReceived(let text)) where e.actor == .server && serverRequest == nil:
                serverRequest = Array(text.utf8)
                serverCookie = HTTPCookieLine.find(in: Array(text.utf8))
            case .http(.responseSent(let text)) where e.actor == .server && serverResponse == nil:
                serverResponse = Array(text.utf8)
            case .http(.responseReceived(let text)) where e.actor == .client && response == nil:
                response = Array(text.utf8)
            case .http(.responseReceived(let text)) where e.actor == .attacker:
                attackerValues.append(Array(text.utf8))
            default: break
            }
        }
        let later = learned(by: .eavesdropper, connection: 0)
        func row(_ name: Secret, client clientValue: [UInt8]?, server serverValue: [UInt8]?) -> KnowledgeTable.Row {
            let value = clientValue ?? serverValue
            let wire = onWire(value)
            let afterwards: Bool? = hasAfterwards ? (wire || (value.map { v in later.contains { $0.secret == name && $0.value == v } } ?? false)) : nil
            let attacker: Bool? = hasAttackerEngine ? (wire || (value.map { attackerValues.contains($0) } ?? false)) : nil
            return KnowledgeTable.Row(secret: name, value: value, client: clientValue != nil && clientValue == value,
                                      server: serverValue != nil && serverValue == value, eavesdropper: wire,
                                      eavesdropperAfterwards: afterwards, attacker: attacker)
        }
        // A random changed in flight: the side that made it still knows its own; the peer holds another value.
        func randomRows(_ name: Secret, maker: [UInt8]?, makerIsClient: Bool, peerCopy: [UInt8]?) -> [KnowledgeTable.Row] {
            // Behind a MITM the peer saw the attacker's own random, not a changed copy: one row, as before.
            guard !hasAttackerEngine, let maker, let peerCopy, maker != peerCopy else {
                return [makerIsClient ? row(name, client: maker, server: peerCopy) : row(name, client: peerCopy, server: maker)]
            }
            // The copy's row: the same secret, marked as the changed copy (it is not what the maker made).
            var changed = makerIsClient ? row(name, client: nil, server: peerCopy) : row(name, client: peerCopy, server: nil)
            changed.changedInFlight = true
            return [makerIsClient ? row(name, client: maker, server: nil) : row(name, client: nil, server: maker), changed]
        }
        var rows = randomRows(.clientRandom, maker: s.clientRandom, makerIsClient: true, peerCopy: serverSawClientRandom)
            + randomRows(.serverRandom, maker: s.serverRandom, makerIsClient: false, peerCopy: clientSawServerRandom)
        // A secret both sides derived, from inputs an on-path attacker changed: each knows its own value.
        // Behind a MITM each side shares its value with the attacker instead: one row, as before.
        func derivedRows(_ name: Secret, client clientValue: [UInt8]?, server serverValue: [UInt8]?) -> [KnowledgeTable.Row] {
            guard !hasAttackerEngine, let clientValue, let serverValue, clientValue != serverValue else {
                return [row(name, client: clientValue, server: serverValue)]
            }
            var other = row(name, client: nil, server: serverValue)
            other.derivedDifferently = true
            return [row(name, client: clientValue, server: nil), other]
        }
        if usesTLS13 {
            for name in Self.tls13Secrets { rows += derivedRows(name, client: clientTLS13[name], server: serverTLS13[name]) }
            // 0-RTT (RFC 8446 §2.3): client_early_traffic_secret exists only on a connection that resumed
            // with early data, never the first; its row says who derived it, on whichever connection.
            let early = events.compactMap { e -> (Actor, [UInt8])? in
                guard case .tls(.tls13(.keySchedule(let step))) = e.kind, step.secret == .clientEarlyTrafficSecret else { return nil }
                return (e.actor, step.value)
            }
            let clientEarly = early.first { $0.0 == .client }?.1, serverEarly = early.first { $0.0 == .server }?.1
            if clientEarly != nil || serverEarly != nil { rows += derivedRows(.clientEarlyTrafficSecret, client: clientEarly, server: serverEarly) }
        } else {
            rows += derivedRows(.preMasterSecret, client: s.clientPreMaster, server: s.serverPreMaster)
                + derivedRows(.masterSecret, client: s.clientMaster, server: s.serverMaster)
                + derivedRows(.clientWriteKey, client: clientKeys?.clientWriteKey, server: serverKeys?.clientWriteKey)
                + derivedRows(.serverWriteKey, client: clientKeys?.serverWriteKey, server: serverKeys?.serverWriteKey)
        }
        if let cookie {
            rows.append(row(.httpCookie, client: cookie, server: serverCookie))
        }
        // The whole request and response: on the wire in the clear over plain HTTP, inside
        // encrypted records over TLS (opened only by a stolen RSA key or a man in the middle).
        if request != nil || serverRequest != nil {
            rows.append(row(.httpRequest, client: request, server: serverRequest))
        }
        if response != nil || serverResponse != nil {
            rows.append(row(.httpResponse, client: response, server: serverResponse))
        }
        return KnowledgeTable(rows: rows, decodedHTTP2: !decodedHTTP2.isEmpty)
    }
}

extension Trace {
    /// The TLS 1.3 secrets the knowledge table follows, in the key schedule's order (RFC 8446 §7.1).
    static let tls13Secrets: [Secret] = [.sharedSecret, .handshakeSecret, .clientHandshakeTrafficSecret, .serverHandshakeTrafficSecret,
                                         .tls13MasterSecret, .clientApplicationTrafficSecret, .serverApplicationTrafficSecret]

    /// The knowledge table's name for a key-schedule secret it follows (nil: one it leaves out).
    static func knowledgeSecret(_ secret: TLS13Secret) -> Secret? {
        switch secret {
        case .handshakeSecret: return .handshakeSecret
        case .clientHandshakeTrafficSecret: return .clientHandshakeTrafficSecret
        case .serverHandshakeTrafficSecret: return .serverHandshakeTrafficSecret
        case .masterSecret: return .tls13MasterSecret
        case .clientApplicationTrafficSecret0: return .clientApplicationTrafficSecret
        case .serverApplicationTrafficSecret0: return .serverApplicationTrafficSecret
        default: return nil
        }
    }

    /// True when the first connection speaks TLS 1.3 (its engines recorded 1.3 facts).
    public var usesTLS13: Bool {
        events.contains { e in
            guard e.connection == 0, case .tls(.tls13) = e.kind else { return false }
            return true
        }
    }

    /// Whether `needle` occurs in `haystack`: a plain byte search (the generic `firstRange(of:)` was most
    /// of an HTML export's time, which asks this for every step's knowledge panel).
    static func bytes(_ haystack: [UInt8], contain needle: [UInt8]) -> Bool {
        guard !needle.isEmpty else { return true }
        guard haystack.count >= needle.count else { return false }
        return haystack.withUnsafeBufferPointer { h in
            needle.withUnsafeBufferPointer { n in
                let first = n[0], count = n.count
                var i = 0
                while i <= h.count - count {
                    if h[i] == first {
                        var j = 1
                        while j < count, h[i + j] == n[j] { j += 1 }
                        if j == count { return true }
                    }
                    i += 1
                }
                return false
            }
        }
    }
}
