import TCPSim
import TLSEngine

/// Who knows which secret at the end of a run.
///
/// Client and server know what they derived. The eavesdropper knows a value only when its exact
/// bytes crossed the wire in some segment it saw — no guessing: it is a search of every payload.
public struct KnowledgeTable: Sendable {
    public struct Row: Sendable, Hashable {
        public var secret: String
        public var value: [UInt8]?
        public var client: Bool
        public var server: Bool
        public var eavesdropper: Bool
    }

    public var rows: [Row]
}

extension Trace {
    /// Every byte the network carried, per segment (what an eavesdropper on the path records).
    public var wirePayloads: [[UInt8]] {
        events.compactMap { e in
            if case .tcp(.sent(let p)) = e.kind, !p.segment.payload.isEmpty { return p.segment.payload }
            return nil
        }
    }

    public var knowledge: KnowledgeTable {
        let s = summary
        // TCP may split a value across segments: search the concatenated stream of each direction.
        var streams: [Actor: [UInt8]] = [:]
        for e in events {
            if case .tcp(.sent(let p)) = e.kind, !p.segment.payload.isEmpty {
                streams[e.actor, default: []] += p.segment.payload
            }
        }
        func onWire(_ value: [UInt8]?) -> Bool {
            guard let value, value.count >= 4 else { return false }
            return streams.values.contains { $0.firstRange(of: value) != nil }
        }
        var clientKey: [UInt8]?, serverKey: [UInt8]?
        var cookie: [UInt8]?
        for e in events {
            switch e.kind {
            case .tls(.derived(.keyBlock(_, _, _, let keys))) where e.actor == .client:
                clientKey = keys.clientWriteKey
                serverKey = keys.serverWriteKey
            case .http(.requestSent(let request)):
                if let line = request.split(separator: "\r\n").first(where: { $0.lowercased().hasPrefix("cookie:") }) {
                    cookie = Array(line.utf8)
                }
            default: break
            }
        }
        let clientHasKeys = clientKey != nil
        let serverHasKeys = s.serverMaster != nil
        var rows = [
            KnowledgeTable.Row(secret: "client_random", value: s.clientRandom, client: s.clientRandom != nil,
                               server: s.serverRandom != nil, eavesdropper: onWire(s.clientRandom)),
            KnowledgeTable.Row(secret: "server_random", value: s.serverRandom, client: s.clientMaster != nil || s.serverRandom != nil,
                               server: s.serverRandom != nil, eavesdropper: onWire(s.serverRandom)),
            KnowledgeTable.Row(secret: "premaster secret", value: s.clientPreMaster ?? s.serverPreMaster,
                               client: s.clientPreMaster != nil, server: s.serverPreMaster != nil,
                               eavesdropper: onWire(s.clientPreMaster ?? s.serverPreMaster)),
            KnowledgeTable.Row(secret: "master secret", value: s.clientMaster ?? s.serverMaster,
                               client: s.clientMaster != nil, server: s.serverMaster != nil,
                               eavesdropper: onWire(s.clientMaster ?? s.serverMaster)),
            KnowledgeTable.Row(secret: "client_write_key", value: clientKey, client: clientHasKeys, server: serverHasKeys,
                               eavesdropper: onWire(clientKey)),
            KnowledgeTable.Row(secret: "server_write_key", value: serverKey, client: clientHasKeys, server: serverHasKeys,
                               eavesdropper: onWire(serverKey)),
        ]
        if let cookie {
            let delivered = events.contains { if case .http(.requestReceived) = $0.kind { return true } else { return false } }
            rows.append(KnowledgeTable.Row(secret: "HTTP cookie", value: cookie, client: true, server: delivered,
                                           eavesdropper: onWire(cookie)))
        }
        return KnowledgeTable(rows: rows)
    }
}
