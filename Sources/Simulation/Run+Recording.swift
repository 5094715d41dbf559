import TLSEngine
import Trace

/// Step recording: an engine step's events into the trace, its records onto TCP, and which bytes of the stream carry which message.
extension Run {
    /// Logs a step's events, notices milestones, and writes its records to TCP (after the CPU time
    /// its public-key operations cost, when the run charges any).
    func record(_ step: TLSStep, by e: Endpoint) {
        if e.actor == .client, step.certificateRequestReceived != nil { exchange.certificateRequestReachedClient = true }
        var operations: [ComputeOperation] = []
        var cost: Int64 = 0
        for event in step.events {
            events.append(TraceEvent(time: net.now, actor: e.actor, kind: .tls(event), connection: e.connection, peer: e.peer))
            switch event {
            case .handshakeReceived, .changeCipherSpecReceived, .alertReceived:
                if let other = e.other, other.settled < other.outgoing.count { other.settled += 1 }
            case .certificateDecision(let peer, _, _, _, let validation?):
                let release = peer == .server ? setup.clientAFNetworkingRelease : nil
                events.append(TraceEvent(time: net.now, actor: e.actor,
                                         kind: .chainValidation(ChainValidationTrace(peer: peer, result: validation, afNetworkingRelease: release)),
                                         connection: e.connection, peer: e.peer))
            default:
                break
            }
            switch event {
            case .sessionEstablished(let s) where e.actor == .client:
                session = s
            case .derived(.rsaPreMasterEncryption):
                operations.append(.rsaPublicKeyEncryption); cost += setup.cpu.rsaPublic
            case .derived(.rsaPreMasterDecryption):
                operations.append(.rsaPrivateKeyDecryption); cost += setup.cpu.rsaPrivate
            case .derived(.dhAgreement):
                operations.append(.dhAgreement); cost += setup.cpu.dh
            case .derived(.ecdhAgreement), .tls13(.sharedSecret):
                operations.append(.ecdhAgreement); cost += setup.cpu.ecdh
            case .signature(let sig):
                // An ECDSA signature or check is scalar multiplications on the curve: charged like one ECDH agreement.
                let ecdsa = sig.scheme.map { SignatureSchemes.ecdsa.contains($0) } ?? false
                if sig.signer == (e.isInitiator ? TLSRole.client : TLSRole.server) {
                    operations.append(ecdsa ? .ecdsaSignature : .rsaSignature); cost += ecdsa ? setup.cpu.ecdh : setup.cpu.rsaPrivate
                } else {
                    operations.append(ecdsa ? .ecdsaSignatureCheck : .rsaSignatureCheck); cost += ecdsa ? setup.cpu.ecdh : setup.cpu.rsaPublic
                }
            case .certificateDecision(_, let length, _, _, _):
                operations.append(.certificateSignatureChecks(count: length)); cost += Int64(length) * setup.cpu.rsaPublic
            default:
                break
            }
        }
        if step.handshakeCompleted { e.handshake = .completed }
        if let (alert, _) = step.fatalAlertSent {
            if !e.failed, alert.alertDescription == .badRecordMAC { e.recordFailed = true }
            e.failure = e.failure ?? .arrivedAfterFatalAlertSent(alert.alertDescription)
        }
        if let alert = step.fatalAlertReceived {
            e.failure = e.failure ?? .arrivedAfterFatalAlertReceived(alert.alertDescription)
        }
        e.inbox += step.applicationData
        var offset = e.streamOffset
        for record in step.sent {
            place(record, at: offset, by: e)
            offset += TLSRecord.headerLength + record.record.fragment.count
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
        if e.heldWrites != nil {
            e.heldWrites? += bytes
            return
        }
        if e.busyUntil > net.now || !e.pendingWrites.isEmpty {
            e.pendingWrites.append((max(e.busyUntil, net.now), bytes))
            return
        }
        try? net.write(id, bytes)
    }

    /// Notes which stream bytes the record fills and which messages it carries (the record header
    /// counts with the first message it holds); remembers each message, change_cipher_spec and
    /// alert with the offset where its record ends, to match it with the peer's receipt.
    func place(_ sent: SentRecord, at offset: Int, by e: Endpoint) {
        let length = TLSRecord.headerLength + sent.record.fragment.count
        let end = offset + length
        for (index, piece) in sent.carries.enumerated() {
            switch piece.content {
            case .handshake(let message, let bytes):
                if sent.isProtected {
                    addSpan(.handshake(message.type), offset: offset, length: length, encrypted: true, by: e)
                } else {
                    let start = index == 0 ? offset : offset + TLSRecord.headerLength + piece.range.lowerBound
                    addSpan(.handshake(message.type), offset: start,
                            length: offset + TLSRecord.headerLength + piece.range.upperBound - start, encrypted: false, by: e)
                }
                if piece.completesMessage { e.outgoing.append((.handshake(message, bytes: bytes), end)) }
            case .changeCipherSpec:
                addSpan(.changeCipherSpec, offset: offset, length: length, encrypted: sent.isProtected, by: e)
                e.outgoing.append((.changeCipherSpec, end))
            case .alert(let alert):
                addSpan(.alert(alert), offset: offset, length: length, encrypted: sent.isProtected, by: e)
                e.outgoing.append((.alert(alert), end))
            case .applicationData:
                addSpan(.applicationData, offset: offset, length: length, encrypted: sent.isProtected, by: e)
            }
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
            let reason: DropReason
            if arrived, e.recordFailed, let alert = e.failure?.alert {
                e.recordFailed = false
                reason = .recordFailedAuthentication(alert)
            } else if arrived, let failure = e.failure {
                reason = failure
            } else if arrived {
                reason = .receiverStoppedReading
            } else {
                reason = .connectionEndedBeforeArrival
            }
            sender.settled += 1
            events.append(TraceEvent(time: net.now, actor: e.actor, kind: .dropped(UndeliveredMessage(content: item.content, reason: reason)),
                                     connection: e.connection, peer: e.peer))
        }
    }

    func flushDueWrites() {
        for leg in activeLegs {
            for e in [leg.initiator, leg.responder] {
                while let first = e.pendingWrites.first, first.due <= net.now, let id = e.tcp {
                    e.pendingWrites.removeFirst()
                    try? net.write(id, first.bytes)
                }
            }
        }
    }
}
