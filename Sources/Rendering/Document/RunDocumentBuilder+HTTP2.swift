import HTTP2
import PKI
import TCPSim
import TLSCrypto
import TLSEngine
import Trace

/// The ladder's HTTP/2 lines: frames as sent and received, HPACK at work, connection errors.
extension RunDocumentBuilder {
    /// HTTP/2: how it was chosen, the preface, and each frame as its sender writes it (the
    /// receiver's copy is the same frame, so it is not repeated), with HPACK's sizes.
    func http2Lines(_ h: HTTP2Event, time t: String, actor: Actor, peer: Actor, state: inout LadderState) -> [LadderEntry] {
        var out: [LadderEntry] = []
        var key: String?
        switch h {
        case .chosen(let how):
            out.append(row(t, at: actor, namesActor: true, say(how == .h2 ? "h2.line.chosenTLS" : "h2.line.chosenH2c", ["actor": name(actor)])))
            key = how == .h2 ? "h2.chosen.tls" : "h2.chosen.h2c"
        case .prefaceSent:
            out.append(row(t, from: actor, to: peer, say("h2.line.preface", ["preface": "\"PRI * HTTP/2.0\\r\\n\\r\\nSM\\r\\n\\r\\n\""])))
            key = "h2.preface"
        case .prefaceReceived where state.oneSided:
            // A real peer's trace (`tlslab serve`, `connect`): the other side's frames exist only as
            // received here, so they are drawn from it, as if it had traced them.
            return http2Lines(.prefaceSent, time: t, actor: peer, peer: actor, state: &state)
        case .frameReceived(let f) where state.oneSided:
            return http2Lines(.frameSent(f), time: t, actor: peer, peer: actor, state: &state)
        case .prefaceReceived, .frameReceived:
            return []
        case .connectionError(let code, let why):
            return [row(t, at: actor, namesActor: true, say("h2.line.connectionError", ["actor": name(actor), "code": code.name, "why": explanations.http2Problem(why)]), .alert)]
        case .streamError(let stream, let code, let why):
            return [row(t, at: actor, namesActor: true, say("h2.line.streamError", ["actor": name(actor), "stream": "\(stream)", "code": code.name, "why": explanations.http2Problem(why)]), .alert)]
        case .peerConnectionError:
            return []  // its GOAWAY is drawn as received; the Outcome names the error
        case .frameSent(let f):
            var text = say("h2.line.frame", ["type": f.typeName, "stream": "\(f.streamID)"])
            let flags = f.flagNames
            if !flags.isEmpty { text += say("h2.line.flags", ["flags": flags.joined(separator: say("list.separator"))]) }
            switch f.frame.payload {
            case .settings(let list) where !list.isEmpty:
                text += say("h2.line.settings", ["settings": list.map { "\(HTTP2Setting(rawValue: $0.0)?.name ?? "0x\(String($0.0, radix: 16))")=\($0.1)" }
                    .joined(separator: say("list.separator"))])
                key = "h2.settings"
            case .settings:
                key = "h2.settingsAck"
            case .pushPromise(let promised, _):
                text += say("h2.line.promises", ["stream": "\(promised)"])
                key = "h2.push"
            case .data(let d):
                text += say("h2.line.body", ["bytes": "\(d.count)"])
                key = "h2.data"
            case .goaway(let last, let code, _):
                text += say("h2.line.goaway", ["stream": "\(last)", "code": HTTP2ErrorCode(rawValue: code)?.name ?? String(code)])
                // Graceful only with NO_ERROR; any other code ends the connection with that error.
                key = code == HTTP2ErrorCode.noError.rawValue ? "h2.goaway" : "h2.goawayError"
            case .rstStream(let code):
                text += say("h2.line.rstStream", ["code": HTTP2ErrorCode(rawValue: code)?.name ?? String(code)])
            case .windowUpdate(let increment):
                text += say("h2.line.window", ["bytes": "\(increment)"])
                key = "h2.windowUpdate"
            case .headers:
                key = "h2.headers"
            default:
                break
            }
            if let hpack = f.hpack {
                let path = hpack.fields.first { $0.name == ":path" || $0.name == ":status" }.map { say("h2.line.headerPath", ["name": $0.name, "value": $0.value]) } ?? ""
                text += say(f.frame.type == .pushPromise ? "h2.line.promisedBlock" : "h2.line.headerBlock",
                            ["path": path, "count": "\(hpack.fields.count)", "raw": "\(hpack.rawSize)", "encoded": "\(hpack.encodedSize)"])
                if hpack.indexedCount > 0 { text += say("h2.line.fromTables", ["count": "\(hpack.indexedCount)"]) }
                let fromDynamic = hpack.representations.contains {
                    if case .indexed(let i) = $0 { return i > HPACKStaticTable.count } else { return false }
                }
                // The note speaks of a later request repeating the first's fields (:authority,
                // cookie): it goes with the first request block that indexes them, not with a
                // response or a push that happens to reuse a dynamic entry earlier.
                if fromDynamic, actor == .client, f.frame.type == .headers, !state.explained.contains("h2.hpack") { key = "h2.hpack" }
            }
            out.append(row(t, from: actor, to: peer, text, state.plainHTTP ? .plain : .tls))
            if verbosity == .bytes { out += http2FrameBytes(f).map(\.onlyWithBytes) }
        }
        if verbosity != .summary, let key, !state.explained.contains(key), explanations(key) != nil {
            state.explained.insert(key)
            out += explain(Sentence(key))
        }
        return out
    }

    /// At `bytes` verbosity: the frame header's fields, the first payload octets, and how HPACK
    /// represented each header field (RFC 7541 §6).
    func http2FrameBytes(_ f: HTTP2FrameTrace) -> [LadderEntry] {
        let wire = f.frame.encoded
        var out = [detail(say("h2.bytes.header", ["hex": Hex.string(Array(wire.prefix(9))), "length": "\(f.length)", "type": String(wire[3], radix: 16),
                                                  "name": f.typeName, "flags": String(format: "%02x", wire[4]), "stream": "\(f.streamID)"]), indent: 10)]
        let payload = wire.dropFirst(9)
        if !payload.isEmpty {
            out.append(detail(say("h2.bytes.payload", ["hex": Hex.string(Array(payload.prefix(32))),
                                                       "more": payload.count > 32 ? "…" + say("value.bytes", ["count": "\(payload.count)"]) : ""]), indent: 10))
        }
        guard let hpack = f.hpack else { return out }
        var fields = hpack.fields.makeIterator()
        for representation in hpack.representations {
            switch representation {
            case .sizeUpdate(let size):
                out.append(detail(say("h2.bytes.sizeUpdate", ["size": "\(size)"]), indent: 12))
            case .indexed(let index):
                let field = fields.next().map(\.description) ?? "?"
                out.append(detail(say(index <= HPACKStaticTable.count ? "h2.bytes.indexedStatic" : "h2.bytes.indexedDynamic",
                                      ["index": "\(index)", "field": field]), indent: 12))
            case .literal(let field, let nameIndex, let indexing, let huffmanName, let huffmanValue):
                _ = fields.next()
                let how: String
                switch indexing {
                case .incremental: how = say("h2.bytes.literalIncremental")
                case .without: how = say("h2.bytes.literalWithout")
                case .never: how = say("h2.bytes.literalNever")
                }
                let name = nameIndex.map { say("h2.bytes.nameIndexed", ["index": "\($0)"]) } ?? say(huffmanName ? "h2.bytes.nameHuffman" : "h2.bytes.nameLiteral")
                out.append(detail(say(huffmanValue ? "h2.bytes.literalHuffman" : "h2.bytes.literalAsIs", ["how": how, "name": name, "field": "\(field)"]), indent: 12))
            }
        }
        out.append(detail(say(hpack.tableEntries == 1 ? "h2.bytes.tableOne" : "h2.bytes.table", ["entries": "\(hpack.tableEntries)", "size": "\(hpack.tableSize)"]),
                          indent: 12))
        return out
    }
}
