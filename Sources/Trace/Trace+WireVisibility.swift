import TLSEngine

/// A handshake message one side sent, and whether its exact bytes crossed the wire — in the clear,
/// for anyone recording the path to read — or only inside protected records.
public struct SentHandshakeMessage: Sendable {
    public var actor: Actor
    public var type: HandshakeType
    /// The whole message, 4-byte header included (what the transcript hashes).
    public var bytes: [UInt8]
    public var inClear: Bool

    /// A ClientHello that names a server (server_name, RFC 6066 §3), read by the dissector.
    public var namesAServer: Bool {
        func has(_ fields: [DissectedField]) -> Bool { fields.contains { $0.name.hasSuffix("host_name") || has($0.children) } }
        return type == .clientHello && has(Dissector().dissectHandshakeMessages(bytes).fields)
    }
}

extension Trace {
    /// The handshake messages the client and the server sent on `connection` (TLS 1.2 or 1.3), in
    /// order, each marked by whether its bytes occur in what that side put on the wire: read from
    /// the sent events and the TCP payloads the network carried, never from a rendering.
    public func sentHandshakeMessages(connection: Int = 0) -> [SentHandshakeMessage] {
        var streams: [Actor: [UInt8]] = [:]
        for e in events where e.connection == connection {
            if case .tcp(.sent(let p)) = e.kind, !p.segment.payload.isEmpty { streams[e.actor, default: []] += p.segment.payload }
        }
        var out: [SentHandshakeMessage] = []
        for e in events where e.connection == connection && (e.actor == .client || e.actor == .server) {
            guard case .tls(let tls) = e.kind else { continue }
            let bytes: [UInt8]
            switch tls {
            case .handshakeSent(_, let b), .tls13(.handshakeSent(_, let b)): bytes = b
            default: continue
            }
            guard let first = bytes.first else { continue }
            out.append(SentHandshakeMessage(actor: e.actor, type: HandshakeType(rawValue: first), bytes: bytes,
                                            inClear: Self.occurs(bytes, in: streams[e.actor] ?? [])))
        }
        return out
    }

    /// True when `needle` occurs in `haystack`.
    static func occurs(_ needle: [UInt8], in haystack: [UInt8]) -> Bool {
        guard !needle.isEmpty, needle.count <= haystack.count else { return false }
        let first = needle[0], last = haystack.count - needle.count
        var i = 0
        while i <= last {
            if haystack[i] == first, haystack[i ..< i + needle.count].elementsEqual(needle) { return true }
            i += 1
        }
        return false
    }
}
