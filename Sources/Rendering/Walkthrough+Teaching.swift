import HTTP2
import TCPSim
import TLSEngine
import Trace

/// A teaching sentence for the steps the ladder draws without one, read from the trace's facts
/// only: what a segment's ACK newly acknowledged (the receiving TCP's `acknowledged` event, emitted
/// where its SND.UNA advanced, against the byte ranges of the messages it had sent,
/// `Trace.streamSpans`), why a segment was sent (its `TCPSendCause`), what a segment carries, what a
/// TCP state means, what a completed handshake or a checked signature establishes. Every word comes
/// from the catalogue (`walk.…`).
struct StepTeacher {
    let trace: Trace
    let words: RunDocumentBuilder

    /// One direction of one connection's byte stream.
    struct Direction: Hashable {
        var from: TCPEndpoint
        var to: TCPEndpoint
    }

    /// What became of each sent segment: who received it, changed or not, and what its ack did there.
    let fates: SegmentFates
    /// Bare segments so far: the first is the third segment of the handshake, which the ladder explains.
    var bareACKs = 0
    /// Who sends from each address (read off the segments each actor sent).
    let owner: [IPv4Address: Actor]
    /// The run used TLS (read once: every HTTP step asks, and the summary reads the whole trace).
    let usedTLS: Bool

    init(trace: Trace, words: RunDocumentBuilder) {
        self.trace = trace
        self.words = words
        usedTLS = trace.summary.usedTLS
        var owner = trace.participants
        for e in trace.events {
            if case .tcp(.sent(let p)) = e.kind, owner[p.source] == nil { owner[p.source] = e.actor }
        }
        fates = SegmentFates(trace.events)
        self.owner = owner
    }

    func say(_ key: String, _ values: [String: String] = [:]) -> String { words.explanations(key, values) ?? key }

    /// A party's name in the catalogue's words.
    func party(_ actor: Actor) -> String { words.explanations(CatalogueKey.party(actor)) ?? actor.rawValue }

    /// What meets injected bytes above TCP, from what the attacker said it injected: nothing without
    /// TLS; a ChangeCipherSpec before any key exists meets only the handshake's order (no MAC yet,
    /// RFC 5246 §6.1, §7.4); a replayed record carries a genuine tag over the wrong sequence number
    /// (§6.2.3.1, §6.2.3.3); anything else lacks a tag made with the connection's keys (§6.2.3).
    func injectedCheckKey(_ p: TCPPacket, at index: Int) -> String {
        guard usedTLS else { return "walk.tcp.injected.plain" }
        let seq = p.segment.seq.rawValue
        // The attacker's own account of the segment follows it in the trace (same instant, same seq).
        for e in trace.events[index...] {
            guard case .attack(let attack) = e.kind else { continue }
            switch attack {
            case .injectedChangeCipherSpec(let at) where at == seq: return "walk.tcp.injected.tls.unprotected"
            case .replayed(_, let at) where at == seq: return "walk.tcp.injected.tls.replayed"
            default: continue
            }
        }
        return "walk.tcp.injected.tls"
    }

    /// True when the party of event `index` has installed TLS 1.3 traffic keys on its connection
    /// before it (RFC 8446 §7.3): its records are TLS 1.3 records.
    func speaksTLS13(before index: Int) -> Bool {
        let event = trace.events[index]
        return trace.events[..<index].contains { e in
            guard e.actor == event.actor, e.connection == event.connection, case .tls(.tls13(.trafficKeysInstalled)) = e.kind else { return false }
            return true
        }
    }

    /// The sentences for event `index` (empty when the ladder already explains it), whose ladder
    /// kind is `kind` (a segment's sender and receiver come from it). Call in order.
    mutating func sentences(for index: Int, kind: RunDocument.Step.Kind) -> [String] {
        let event = trace.events[index]
        let who = ["actor": party(event.actor), "peer": party(event.counterpart)]
        func with(_ extra: [String: String]) -> [String: String] { who.merging(extra) { _, new in new } }
        switch event.kind {
        case .tcp(.sent(let p)):
            guard case .message(_, let receiver, _, _) = kind else { return [] }
            // A segment the attacker kept ends at the attacker; what its numbers mean is said of its addressee.
            let addressee = fates.carried[index] != nil ? owner[p.destination] ?? receiver : receiver
            return segmentSentences(p, actor: event.actor, receiver: addressee, index: index)
        case .tcp(.injected(let p)) where event.actor == .attacker:
            // The forged source address: a party's of this run, or a host that is not in it.
            var values = ["actor": party(event.actor), "source": "\(p.source)"]
            let spoofed: String
            if let victim = owner[p.source], victim != event.actor {
                values["peer"] = party(victim)
                spoofed = say("walk.tcp.injected", values)
            } else {
                spoofed = say("walk.tcp.injectedForeign", values)
            }
            let check = injectedCheckKey(p, at: index)
            // The replay sentence names the record's maker: the party whose address the copy came from.
            return [spoofed, say(check == "walk.tcp.injected.tls.replayed" && values["peer"] == nil ? "walk.tcp.injected.tls" : check, values)]
        case .dropped(let undelivered):
            let key = Explanations.walkthroughKey(undelivered.reason)
            return [say(key, who)]
        case .attack(.failed):
            return [say("walk.attack.failed", who)]
        case .attack(.recordedEarlyFlight):
            return [say("walk.attack.recordedEarlyFlight", who)]
        case .attack(.replayedEarlyFlight):
            return [say("walk.attack.replayedEarlyFlight", who)]
        case .http2(.connectionError(let code, _)):
            return [say("walk.h2.connectionError", with(["code": code.name]))]
        case .http2(.streamError(let stream, let code, _)):
            return [say("walk.h2.streamError", with(["stream": "\(stream)", "code": code.name]))]
        case .http2(.frameSent(let f)), .http2(.frameReceived(let f)):
            guard case .rstStream(let code) = f.frame.payload else { return [] }
            return [say(code == HTTP2ErrorCode.refusedStream.rawValue ? "walk.h2.rstStreamRefused" : "walk.h2.rstStream", who)]
        case .tcp(.connection(let id, .stateChanged(let from, let to, let cause))):
            // The other end of this connection is whoever sends from its remote address (an attacker
            // in the middle has one connection with each side), not "the network".
            var values = who
            if event.peer == nil, let remote = owner[id.remote.address], remote != event.actor { values["peer"] = party(remote) }
            return [stateSentence(to, from: from, cause: cause, values: values)]
        case .tls(.alertSent(let alert, _)) where alert.alertDescription == .closeNotify:
            return [say(speaksTLS13(before: index) ? "walk.tls.closeNotify.tls13" : "walk.tls.closeNotify", who)]
        case .tls(.handshakeCompleted):
            return [say(speaksTLS13(before: index) ? "walk.tls.complete.tls13" : "walk.tls.complete", who)]
        case .tls(.negotiated(let n)) where event.actor == .client:
            return [say(n.resumed ? "walk.tls.negotiatedResumed" : "walk.tls.negotiated", who)]
        case .tls(.applicationDataSent(let data)):
            // A TLS 1.3 record sends no part of its nonce (RFC 8446 §5.3); a TLS 1.2 one may (RFC 5246 §6.2.3).
            let key = speaksTLS13(before: index) ? "walk.tls.applicationData.tls13" : "walk.tls.applicationData"
            return [say(key, with(["count": "\(data.count)"]))]
        case .tls(.signature(let sig)):
            return [say(sig.created ? "walk.tls.signed" : sig.valid ? "walk.tls.signatureValid" : "walk.tls.signatureInvalid", who)]
        case .tls(.certificateDecision(_, _, let accepted, _, _)):
            return [say(accepted ? "walk.pki.accepted" : "walk.pki.rejected", who)]
        case .tls(.derived(let value)):
            switch value {
            case .masterSecret, .keyBlock:
                // The client's line carries the explanation; the server runs the same computation.
                return event.actor == .client ? [] : [say("walk.tls.sameComputation", who)]
            case .rsaPreMasterDecryption(_, let decrypted, let premaster):
                // The countermeasure (RFC 5246 §7.4.7.1) replaced what did not decrypt to a valid premaster.
                return [say(decrypted == premaster ? "walk.tls.rsaDecryption" : "walk.tls.rsaDecryptionSubstituted", who)]
            case .dhAgreement, .ecdhAgreement:
                return [say("walk.tls.agreement", who)]
            case .verifyData:
                return [say("walk.tls.verifyData", who)]
            case .rsaPreMasterEncryption, .transcriptHash:
                return []
            }
        case .tls(.versionChosen(let choice)):
            return [say(choice.version == .tls13 ? "walk.tls.versionChosen.tls13" : "walk.tls.versionChosen.older", who)]
        case .tls(.downgradeSentinelWritten):
            return [say("walk.tls.sentinelWritten", who)]
        case .tls(.tls13(let fact)):
            switch fact {
            case .keyShareGenerated: return [say("walk.tls13.keyShare", who)]
            case .sharedSecret: return [say("walk.tls13.sharedSecret", who)]
            case .keySchedule(let step):
                // RFC 8446 §7.1: early_secret's extraction has no stage before it (salt 0); a "derived"
                // step hashes no messages (Derive-Secret(., "derived", "")).
                switch step.derivation {
                case .extract(let salt, _): return [say(salt == nil ? "walk.tls13.extractFirst" : "walk.tls13.extract", who)]
                case .expandLabel: return [say("walk.tls13.resumptionPSK", who)]
                case .deriveSecret(_, let label, _, _): return [say(label == "derived" ? "walk.tls13.deriveSalt" : "walk.tls13.derive", who)]
                }
            case .newSessionTicketSent: return [say("walk.tls13.ticketSent", who)]
            case .newSessionTicketReceived: return [say("walk.tls13.ticketKept", who)]
            case .pskOffered: return [say("walk.tls13.pskOffered", who)]
            case .pskBinderChecked(_, let expected, let received): return [say(expected == received ? "walk.tls13.binderEqual" : "walk.tls13.binderDiffers", who)]
            case .pskAccepted: return [say("walk.tls13.pskAccepted", who)]
            case .certificateRequested: return [say("walk.tls13.certificateRequested", who)]
            case .emptyClientCertificate: return [say("walk.tls13.emptyClientCertificate", who)]
            case .trafficKeysInstalled: return [say("walk.tls13.keys", who)]
            case .recordSealed: return [say("walk.tls13.record", who)]
            case .certificateVerifySigned: return [say("walk.tls13.certificateVerifySigned", who)]
            case .certificateVerifyChecked(_, _, _, let valid): return [say(valid ? "walk.tls13.certificateVerifyValid" : "walk.tls13.certificateVerifyInvalid", who)]
            case .finishedChecked(let expected, let received): return [say(expected == received ? "walk.tls13.finishedEqual" : "walk.tls13.finishedDiffers", who)]
            case .helloRetryRequested: return [say("walk.tls13.helloRetry", who)]
            case .transcriptRestarted: return [say("walk.tls13.messageHash", who)]
            case .earlyDataOffered: return [say("walk.tls13.earlyDataOffered", who)]
            case .earlyDataSent: return [say("walk.tls13.earlyDataSent", who)]
            case .earlyDataReceived: return [say("walk.tls13.earlyDataReceived", who)]
            case .earlyDataAccepted: return [say("walk.tls13.earlyDataAccepted", who)]
            case .earlyDataRejected: return [say("walk.tls13.earlyDataRejected", who)]
            case .earlyRecordSkipped: return [say("walk.tls13.earlyRecordSkipped", who)]
            case .ticketRedeemed: return [say("walk.tls13.ticketRedeemed", who)]
            case .freshnessChecked: return [say("walk.tls13.freshnessChecked", who)]
            case .clientHelloRecorded: return [say("walk.tls13.clientHelloRecorded", who)]
            default: return []
            }
        case .compute(_, let duration):
            return [say("walk.compute", with(["duration": RunDocument.timeText(duration)]))]
        case .http(.requestSent):
            return [say(usedTLS ? "walk.http.request" : "walk.http.requestPlain", who)]
        case .http(.requestRetried):
            return [say("walk.http.retried", who)]
        case .http(.responseReceived):
            return [say(usedTLS ? "walk.http.response" : "walk.http.responsePlain", who)]
        default:
            return []
        }
    }

    // MARK: Segments

    mutating func segmentSentences(_ p: TCPPacket, actor: Actor, receiver: Actor, index: Int) -> [String] {
        let s = p.segment
        let incoming = Direction(from: p.destinationEndpoint, to: p.sourceEndpoint)
        let values = ["actor": party(actor), "peer": party(receiver)]
        func with(_ extra: [String: String]) -> [String: String] { values.merging(extra) { _, new in new } }
        let syn = s.flags.contains(.syn), finFlag = s.flags.contains(.fin), rst = s.flags.contains(.rst)
        // The ladder explains SYN, SYN-ACK and FIN (and RST in a TCP lesson), and the first bare ACK
        // (the handshake's third segment).
        if rst && !trace.isLessonOnly { return [say("walk.tcp.rst", values)] }
        var explained = syn || finFlag || rst
        if !explained && s.payload.isEmpty && bareACKs == 0 { explained = true }
        if s.flags.compact == "A" && s.payload.isEmpty { bareACKs += 1 }
        guard !explained else { return [] }

        // What the ack number newly acknowledged, as the receiving TCP reported it. When the
        // attacker on the path changed the ack number, the number the receiver took is the attacker's.
        let acked = fates.acknowledged[index]
        let changed = fates.carried[index]
        let rewrittenAck = changed.flatMap { q in q.segment.ack != s.ack ? q.segment.ack : nil }
        let reSequenced = changed.flatMap { q in q.segment.seq != s.seq ? q.segment.seq : nil }
        var acknowledged: (count: Int, names: String)?
        if let acked, !acked.syn, !acked.fin, acked.dataOctets > 0 {
            acknowledged = (acked.dataOctets, messages(incoming, from: acked.from.rawValue, to: acked.upTo.rawValue))
        }
        var out: [String] = []
        if s.payload.isEmpty {
            guard let ack = s.ack?.rawValue else { return [] }
            if fates.lost.contains(index) { return [say("walk.ack.lost", with(["ack": "\(ack)"]))] }
            if let rewrittenAck {
                out.append(say("walk.ack.rewritten", with(["ack": "\(ack)", "carried": "\(rewrittenAck.rawValue)"])))
                if let said = carriedAcknowledgment(acked, acknowledged, carried: rewrittenAck.rawValue, values: values) { out.append(said) }
                // As for an ACK of a FIN the receiver took as sent (`walk.ack.fin`), no reason follows a FIN's.
                if acked?.fin != true { out.append(reason(p.cause, acknowledgedData: true, segment: s, values: values)) }
                return out
            }
            if acked?.fin == true { return [say("walk.ack.fin", with(["ack": "\(ack)"]))] }
            if acked?.syn == true { return [say("walk.ack.syn", with(["ack": "\(ack)"]))] }
            if let acknowledged {
                let key = acknowledged.names.isEmpty ? "walk.ack.bytes" : "walk.ack.data"
                out.append(say(key, with(["count": "\(acknowledged.count)", "messages": acknowledged.names, "ack": "\(ack)"])))
                out.append(reason(p.cause, acknowledgedData: true, segment: s, values: values))
                return out
            }
            return [say("walk.ack.nothingNew", with(["ack": "\(ack)"])), reason(p.cause, acknowledgedData: false, segment: s, values: values)]
        }
        // A segment with data: which stream bytes and which messages.
        let carried = words.layout.carried(p)
        let names = carried.map { words.spanName($0.span.content) }.joined(separator: say("list.separator"))
        if let first = fates.firstDataSequence[index] {
            let offset = Int(s.seq.rawValue &- first)
            out.append(say(names.isEmpty ? "walk.segment.bytes" : "walk.segment.data",
                           with(["count": "\(s.payload.count)", "first": "\(offset + 1)", "last": "\(offset + s.payload.count)", "messages": names])))
        } else {
            out.append(say("walk.segment.dataNoOffsets", with(["count": "\(s.payload.count)", "messages": names])))
        }
        if carried.contains(where: \.partial) { out.append(say("walk.segment.split", values)) }
        if s.flags.contains(.psh) { out.append(say("walk.segment.push", values)) }
        if let reSequenced {
            out.append(say("walk.segment.reSequenced", with(["seq": "\(s.seq.rawValue)", "carried": "\(reSequenced.rawValue)"])))
        }
        if let rewrittenAck, let ack = s.ack {
            out.append(say("walk.segment.rewrittenAck", with(["ack": "\(ack.rawValue)", "carried": "\(rewrittenAck.rawValue)"])))
            if acked != nil, let said = carriedAcknowledgment(acked, acknowledged, carried: rewrittenAck.rawValue, values: values) { out.append(said) }
        } else if let acknowledged {
            out.append(say(acknowledged.names.isEmpty ? "walk.segment.piggybackBytes" : "walk.segment.piggyback",
                           with(["count": "\(acknowledged.count)", "messages": acknowledged.names])))
        }
        return out
    }

    /// Why a bare ACK was sent, from the cause its TCP gave (`TCPSendCause`).
    func reason(_ cause: TCPSendCause?, acknowledgedData: Bool, segment s: TCPSegment, values: [String: String]) -> String {
        switch cause {
        case .delayedACK where acknowledgedData: return say("walk.ack.delayed", values)
        case .acknowledgment where acknowledgedData: return say(usedTLS ? "walk.ack.atOnce" : "walk.ack.atOncePlain", values)
        case .windowUpdate: return say("walk.ack.windowUpdate", values.merging(["window": "\(s.window)"]) { _, new in new })
        case .duplicateACK: return say("walk.ack.duplicate", values)
        case .challengeACK: return say("walk.ack.challenge", values)
        case .finReacknowledged: return say("walk.ack.finAgain", values)
        default: return say("walk.ack.noReason", values)
        }
    }

    /// What an ack number the attacker changed acknowledged at the receiving TCP (the receiver's
    /// report, `acked`; `data`: its data bytes and the messages they carried). nil for a SYN, which no
    /// attacker in these runs rewrites.
    func carriedAcknowledgment(_ acked: SegmentFates.Acknowledged?, _ data: (count: Int, names: String)?, carried: UInt32,
                               values: [String: String]) -> String? {
        let values = values.merging(["carried": "\(carried)"]) { _, new in new }
        if acked?.syn == true { return nil }
        if acked?.fin == true { return say("walk.ack.carried.fin", values) }
        guard let data else { return say("walk.ack.carried.nothingNew", values) }
        return say(data.names.isEmpty ? "walk.ack.carried.bytes" : "walk.ack.carried.data",
                   values.merging(["count": "\(data.count)", "messages": data.names]) { _, new in new })
    }

    /// The TLS messages (or records) whose bytes lie in [from, to) of a direction's stream.
    func messages(_ d: Direction, from: UInt32, to: UInt32) -> String {
        let spans = trace.streamSpans.filter { $0.source == d.from && $0.destination == d.to && !$0.injected }
        var names: [String] = []
        for span in spans {
            let start = Int(from &- span.firstSequence), end = start + Int(to &- from)
            guard span.offset < end, span.offset + span.length > start else { continue }
            let name = words.spanName(span.content)
            if names.last != name { names.append(name) }
        }
        return names.joined(separator: say("list.separator"))
    }

    // MARK: TCP states

    func stateSentence(_ state: TCPState, from: TCPState, cause: TCPTransitionCause, values: [String: String]) -> String {
        switch state {
        case .closed:
            switch cause {
            case .timeWaitExpired: return say("walk.state.closedAfterTimeWait", values)
            case .ackOfFIN: return say("walk.state.closedAfterLastACK", values)
            case .resetReceived: return say("walk.state.closedByReset", values)
            default: return say("walk.state.closed", values)
            }
        case .listen:
            // Back from SYN-RECEIVED (an RST, or a SYN in the window): not the passive OPEN again.
            return say(cause == .passiveOpen ? "walk.state.listen" : "walk.state.listenAgain", values)
        case .synSent: return say("walk.state.synSent", values)
        case .synReceived: return say("walk.state.synReceived", values)
        case .established: return say("walk.state.established", values)
        case .finWait1: return say("walk.state.finWait1", values)
        case .finWait2: return say("walk.state.finWait2", values)
        case .closeWait: return say("walk.state.closeWait", values)
        case .closing: return say("walk.state.closing", values)
        case .lastAck: return say("walk.state.lastAck", values)
        // From CLOSING: the two FINs crossed (a simultaneous close, RFC 9293 §3.6): neither closed first.
        case .timeWait: return say(from == .closing ? "walk.state.timeWaitSimultaneous" : "walk.state.timeWait", values)
        }
    }

    // MARK: The knowledge panel's subtlety

    /// For the knowledge panel at event `last`: on each leg of the first connection (client and
    /// server; behind a man in the middle, each side of each of its two connections), the handshake
    /// messages whose bytes the receiving TCP has accepted in order — its `dataAccepted` events,
    /// where RCV.NXT advanced (RFC 9293 §3.10.7.4, seventh step) — but its TLS layer has not read
    /// yet (its `handshakeReceived` events on that leg): the table counts only what TLS read.
    static func unreadByTLS(_ trace: Trace, upTo last: Int, words: RunDocumentBuilder) -> [String] {
        guard last < trace.events.count else { return [] }
        // Where each receiving TCP's RCV.NXT stands, in the order the connections first accepted data.
        var receivedUpTo: [TCPConnectionID: SeqNumber] = [:]
        var order: [TCPConnectionID] = []
        for e in trace.events.prefix(last + 1) where e.connection == 0 {
            guard case .tcp(.connection(let id, .dataAccepted(let seq, let count))) = e.kind else { continue }
            if receivedUpTo[id] == nil { order.append(id) }
            receivedUpTo[id] = seq + count
        }
        var out: [String] = []
        for id in order {
            guard let rcvNxt = receivedUpTo[id], let receiver = trace.participants[id.local.address],
                  let sender = trace.participants[id.remote.address] else { continue }
            let received = receivedHandshakeSpans(trace, from: id.remote, to: id.local, upTo: rcvNxt)
            // The messages its TLS layer read on this leg (its peer there is the sender).
            func readsOnLeg(_ e: TraceEvent) -> Bool {
                guard e.actor == receiver, e.counterpart == sender, e.connection == 0, case .tls(.handshakeReceived) = e.kind else { return false }
                return true
            }
            let read = trace.events.prefix(last + 1).filter(readsOnLeg).count
            guard received.count > read else { continue }
            let names = received[read...].map { words.spanName($0.content) }.joined(separator: words.explanations.phrase("list.separator"))
            let readAt = trace.events[(last + 1)...].first(where: readsOnLeg)
            let name = words.explanations(CatalogueKey.party(receiver)) ?? receiver.rawValue
            var values = ["actor": name, "messages": names]
            values["time"] = readAt.map { RunDocument.timeText($0.time) }
            out.append(words.explanations.phrase(readAt == nil ? "walk.knowledge.unreadNever" : "walk.knowledge.unread", values))
        }
        return out
    }

    /// The handshake spans of the sender's stream (`from` → `to`) whose every byte lies before the
    /// receiver's RCV.NXT `upTo`, in stream order. The receiver numbers the sender's bytes as the
    /// sender does, except after bytes an attacker injected into the stream (`StreamSpan.injected`):
    /// the attacker moves the sender's later bytes on by the injected length, so the receiver counts
    /// them that much further on.
    static func receivedHandshakeSpans(_ trace: Trace, from: TCPEndpoint, to: TCPEndpoint, upTo rcvNxt: SeqNumber) -> [StreamSpan] {
        let direction = trace.streamSpans.filter { $0.source == from && $0.destination == to }
        let injected = direction.filter(\.injected)
        return direction.filter { span in
            guard !span.injected, case .handshake = span.content else { return false }
            let start = SeqNumber(span.firstSequence) + span.offset
            let moved = injected.filter { start.isAtOrAfter(SeqNumber($0.firstSequence) + $0.offset) }.reduce(0) { $0 + $1.length }
            return (start + (span.length + moved)).isAtOrBefore(rcvNxt)
        }.sorted { $0.offset < $1.offset }
    }
}
