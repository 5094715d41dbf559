import HTTP2
import PKI
import TCPSim
import TLSCrypto
import TLSEngine
import Trace
import Trust

/// Step recording: an engine step's events into the trace, its records onto TCP, and which bytes of the stream carry which message.
extension Run {
    /// Logs a step's events, notices milestones, and writes its records to TCP (after the CPU time
    /// its public-key operations cost, when the run charges any).
    func record(_ step: TLSStep, by e: Endpoint) {
        var operations: [String] = []
        var cost: Int64 = 0
        var offset = e.streamOffset
        for event in step.events {
            events.append(TraceEvent(time: net.now, actor: e.actor, kind: .tls(event), connection: e.connection, peer: e.peer))
            switch event {
            case .handshakeSent(let message, let bytes):
                e.unplaced.append((message, bytes, bytes.count))
            case .recordSent(let record):
                place(record, at: offset, by: e)
                offset += record.wire.count
            case .handshakeReceived, .changeCipherSpecReceived, .alertReceived:
                if let other = e.other, other.settled < other.outgoing.count { other.settled += 1 }
            case .certificateDecision(let peer, _, _, _):
                if let validation = chainValidation(in: step, peer: peer, by: e) {
                    events.append(TraceEvent(time: net.now, actor: e.actor, kind: .chainValidation(validation),
                                             connection: e.connection, peer: e.peer))
                }
            default:
                break
            }
            switch event {
            case .handshakeCompleted:
                e.done = true
            case .alertSent(let alert, _) where alert.isFatal:
                if !e.failed, alert.alertDescription == .badRecordMAC { e.recordFailed = true }
                e.failed = true
                e.failure = e.failure ?? ("dropped.afterAlertSent", "\(alert.alertDescription)")
            case .alertReceived(let alert) where alert.isFatal:
                e.failed = true
                e.failure = e.failure ?? ("dropped.afterAlertReceived", "\(alert.alertDescription)")
            case .applicationDataReceived(let data):
                e.inbox += data
            case .sessionEstablished(let s) where e.actor == .client:
                session = s
            case .derived(.rsaPreMasterEncryption):
                operations.append("RSA public-key encryption"); cost += setup.cpu.rsaPublic
            case .derived(.rsaPreMasterDecryption):
                operations.append("RSA private-key decryption"); cost += setup.cpu.rsaPrivate
            case .derived(.dhAgreement):
                operations.append("DH key agreement"); cost += setup.cpu.dh
            case .derived(.ecdhAgreement):
                operations.append("ECDH key agreement"); cost += setup.cpu.ecdh
            case .signature(let sig):
                if sig.signer == (e.isInitiator ? TLSRole.client : TLSRole.server) {
                    operations.append("RSA signature"); cost += setup.cpu.rsaPrivate
                } else {
                    operations.append("RSA signature check"); cost += setup.cpu.rsaPublic
                }
            case .certificateDecision(_, let length, _, _):
                operations.append("\(length) certificate signature check(s)"); cost += Int64(length) * setup.cpu.rsaPublic
            default:
                break
            }
        }
        if cost > 0 {
            e.busyUntil = max(e.busyUntil, net.now) + cost
            events.append(TraceEvent(time: net.now, actor: e.actor, kind: .compute(operations: operations, duration: cost),
                                     connection: e.connection))
        }
        write(step.output, from: e)
    }

    func write(_ bytes: [UInt8], from e: Endpoint) {
        guard !bytes.isEmpty, let id = e.tcp else { return }
        e.streamOffset += bytes.count
        if e.busyUntil > net.now || !e.pendingWrites.isEmpty {
            e.pendingWrites.append((max(e.busyUntil, net.now), bytes))
            return
        }
        try? net.write(id, bytes)
    }

    /// The full validation behind a certificate decision, when the deciding evaluator can show it:
    /// the chain is the Certificate message received in the same step.
    func chainValidation(in step: TLSStep, peer: TLSRole, by e: Endpoint) -> ChainValidationTrace? {
        var chain: [[UInt8]]?
        for event in step.events {
            if case .handshakeReceived(.certificate(let message), _) = event { chain = message.certificateList }
        }
        guard let chain else { return nil }
        let evaluator: (any PeerCertificateEvaluator)?
        let serverName: String?
        switch e.engine {
        case .client:
            evaluator = e.actor == .client ? (e.configuration?.certificateEvaluator ?? setup.client.certificateEvaluator) : nil
            serverName = setup.client.serverName
        case .server:
            evaluator = e.actor == .server ? setup.server.clientCertificateEvaluator : nil
            serverName = nil
        case .plain:
            return nil
        }
        guard let explaining = evaluator as? any ChainExplaining,
              let result = explaining.chainValidation(chain: chain, role: peer, serverName: serverName) else { return nil }
        return ChainValidationTrace(peer: peer, result: result)
    }

    /// Notes which stream bytes the record fills and which messages it carries (the record header
    /// counts with the first message it holds); remembers each message, change_cipher_spec and
    /// alert with the offset where its record ends, to match it with the peer's receipt.
    func place(_ record: RecordTrace, at offset: Int, by e: Endpoint) {
        let end = offset + record.wire.count
        let encrypted = record.crypto != nil
        switch record.contentType {
        case .handshake:
            var position = 0, first = true
            while position < record.plaintext.count, !e.unplaced.isEmpty {
                let take = min(e.unplaced[0].remaining, record.plaintext.count - position)
                if !encrypted {
                    let start = first ? offset : offset + TLSRecord.headerLength + position
                    addSpan(.handshake(e.unplaced[0].message.type), offset: start,
                            length: offset + TLSRecord.headerLength + position + take - start, encrypted: false, by: e)
                } else {
                    addSpan(.handshake(e.unplaced[0].message.type), offset: offset, length: record.wire.count, encrypted: true, by: e)
                }
                first = false
                position += take
                e.unplaced[0].remaining -= take
                if e.unplaced[0].remaining == 0 {
                    let done = e.unplaced.removeFirst()
                    e.outgoing.append((.handshake(done.message, bytes: done.bytes), end))
                }
            }
        case .changeCipherSpec:
            addSpan(.changeCipherSpec, offset: offset, length: record.wire.count, encrypted: encrypted, by: e)
            e.outgoing.append((.changeCipherSpec, end))
        case .alert:
            if let alert = try? Alert(decoding: record.plaintext) {
                addSpan(.alert(alert), offset: offset, length: record.wire.count, encrypted: encrypted, by: e)
                e.outgoing.append((.alert(alert), end))
            }
        default:
            addSpan(.applicationData, offset: offset, length: record.wire.count, encrypted: encrypted, by: e)
        }
    }

    func addSpan(_ content: StreamSpan.Content, offset: Int, length: Int, encrypted: Bool, by e: Endpoint) {
        guard let id = e.tcp, let iss = net.connection(id)?.iss else { return }
        spans.append(StreamSpan(source: id.local, destination: id.remote, firstSequence: iss.rawValue &+ 1, offset: offset,
                                length: length, content: content, encrypted: encrypted, connection: e.connection))
    }

    /// The peer's messages that `e` will never process: those whose record reached it after it
    /// failed (`arrivedOnly`), or — at the end of the run — everything still unsettled.
    func dropUnprocessed(by e: Endpoint, arrivedOnly: Bool) {
        guard let sender = e.other else { return }
        while sender.settled < sender.outgoing.count {
            let item = sender.outgoing[sender.settled]
            let arrived = item.end <= e.bytesRead
            if arrivedOnly && !arrived { break }
            let reason: Sentence
            if arrived, e.recordFailed, let failure = e.failure {
                e.recordFailed = false
                reason = Sentence("dropped.recordFailed", ["receiver": e.actor.rawValue, "alert": failure.alert])
            } else if arrived, let failure = e.failure {
                reason = Sentence(failure.key, ["receiver": e.actor.rawValue, "alert": failure.alert])
            } else if arrived {
                reason = Sentence("dropped.stoppedReading", ["receiver": e.actor.rawValue])
            } else {
                reason = Sentence("dropped.connectionEnded", ["receiver": e.actor.rawValue])
            }
            sender.settled += 1
            events.append(TraceEvent(time: net.now, actor: e.actor, kind: .dropped(UndeliveredMessage(content: item.content, reason: reason)),
                                     connection: e.connection, peer: e.peer))
        }
    }

    func flushDueWrites() {
        for leg in legs {
            for e in [leg.initiator, leg.responder] {
                while let first = e.pendingWrites.first, first.due <= net.now, let id = e.tcp {
                    e.pendingWrites.removeFirst()
                    try? net.write(id, first.bytes)
                }
            }
        }
    }
}
