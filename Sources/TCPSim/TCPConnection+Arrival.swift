/// SEGMENT ARRIVES (RFC 9293 §3.10.7), in the RFC's order: per-state handling for CLOSED, LISTEN and
/// SYN-SENT; otherwise the acceptability (window) test first, then RST, SYN, ACK, segment text, FIN.
extension TCPConnection {
    public mutating func segmentArrives(_ segment: TCPSegment, at now: TCPTime) -> TCPOutput {
        var out = TCPOutput()
        segmentArrives(segment, at: now, into: &out)
        return out
    }

    /// `segmentArrives`, adding to `out` (whose `recordsEvents` the caller chooses).
    mutating func segmentArrives(_ segment: TCPSegment, at now: TCPTime, into out: inout TCPOutput) {
        self.now = now
        switch state {
        case .closed:
            // §3.10.7.1: everything is discarded; anything but an RST is answered with an RST.
            if let rst = Self.resetReply(to: segment) {
                out.send(rst, .reset)
                out.emit(.resetSent(rst))
            }
        case .listen:
            arriveInListen(segment, &out)
        case .synSent:
            arriveInSynSent(segment, &out)
        default:
            arriveSynchronized(segment, &out)
        }
        transmitData(&out)
    }

    /// §3.10.7.2 LISTEN.
    private mutating func arriveInListen(_ seg: TCPSegment, _ out: inout TCPOutput) {
        if seg.flags.contains(.rst) {  // first: an incoming RST is ignored
            out.emit(.segmentDiscarded(.resetInListen))
            return
        }
        if seg.ack != nil {  // second: any ACK is bad here
            if let rst = Self.resetReply(to: seg) {
                out.send(rst, .reset)
                out.emit(.resetSent(rst))
            }
            return
        }
        guard seg.flags.contains(.syn) else {  // fourth: other text or control: drop
            out.emit(.segmentDiscarded(.noSYNInListen))
            return
        }
        // third: SYN. RCV.NXT = SEG.SEQ + 1, IRS = SEG.SEQ; send <SEQ=ISS><ACK=RCV.NXT><CTL=SYN,ACK>.
        remotePort = seg.sourcePort
        irs = seg.seq
        rcvNxt = seg.seq + 1
        peerMSS = Int(seg.mss ?? 536)
        sndWnd = Int(seg.window)
        sndWl1 = seg.seq
        sndWl2 = iss
        sndUna = iss
        sndNxt = iss + 1
        sendQueueSeq = iss + 1
        out.send(makeSYN(ack: rcvNxt), .synAcknowledgment)
        noteACKSent(&out)
        timeSegment(iss)
        startRetransmissionTimer(&out)
        if config.handshake == .twoWay {
            setState(.established, cause: .synReceivedTwoWay, &out)
        } else {
            setState(.synReceived, cause: .synReceived, &out)
        }
    }

    /// §3.10.7.3 SYN-SENT.
    private mutating func arriveInSynSent(_ seg: TCPSegment, _ out: inout TCPOutput) {
        if let ack = seg.ack {  // first: an ACK must acknowledge our SYN exactly
            if ack.isAtOrBefore(iss) || ack.isAfter(sndNxt) {
                if seg.flags.contains(.rst) {
                    out.emit(.segmentDiscarded(.resetWithUnacceptableACK))
                } else {
                    sendReset(seq: ack, &out)
                }
                return
            }
        }
        if seg.flags.contains(.rst) {  // second: RST with an acceptable ACK: "connection refused"
            if seg.ack != nil {
                fail(.refused, cause: .resetReceived, &out)
            } else {
                out.emit(.segmentDiscarded(.resetWithoutACKInSynSent))  // no ACK: drop it
            }
            return
        }
        guard seg.flags.contains(.syn) else {  // fifth: neither SYN nor RST: drop
            out.emit(.segmentDiscarded(.noSYNInSynSent))
            return
        }
        // fourth: SYN.
        irs = seg.seq
        rcvNxt = seg.seq + 1
        peerMSS = Int(seg.mss ?? 536)
        sndWnd = Int(seg.window)
        sndWl1 = seg.seq
        if let ack = seg.ack {
            sndWl2 = ack
            acknowledge(upTo: ack, &out)
        }
        if sndUna.isAfter(iss) {
            setState(.established, cause: .synAckReceived, &out)
            if config.handshake == .threeWay { sendACK(.handshakeACK, &out) }
        } else {
            // Simultaneous open: <SEQ=ISS><ACK=RCV.NXT><CTL=SYN,ACK>, enter SYN-RECEIVED.
            setState(.synReceived, cause: .simultaneousOpen, &out)
            out.send(makeSYN(ack: rcvNxt), .synAcknowledgment)
            timedSeq = nil  // Karn: our SYN goes out again, so an ACK of it no longer times one send
            noteACKSent(&out)
        }
    }

    /// §3.10.7.4 Other states.
    private mutating func arriveSynchronized(_ original: TCPSegment, _ out: inout TCPOutput) {
        var seg = original
        let hasRST = seg.flags.contains(.rst)

        // A retransmitted SYN in SYN-RECEIVED means our SYN-ACK was lost: send it again at once.
        if state == .synReceived, seg.flags.contains(.syn), seg.ack == nil, !hasRST, seg.seq == irs {
            out.send(makeSYN(ack: rcvNxt), .synAcknowledgment)
            timedSeq = nil  // Karn: the SYN-ACK is now sent twice; its ACK is ambiguous, take no sample
            noteACKSent(&out)
            return
        }

        // First: the acceptability test of §3.4 (four cases on SEG.LEN and RCV.WND).
        let window = receiveWindow
        let length = seg.segmentLength
        var acceptable: Bool
        if length == 0 {
            acceptable = window == 0 ? seg.seq == rcvNxt : seg.seq.isWithin(start: rcvNxt, count: window)
        } else if window == 0 {
            acceptable = false
        } else {
            acceptable = seg.seq.isWithin(start: rcvNxt, count: window)
                || (seg.seq + (length - 1)).isWithin(start: rcvNxt, count: window)
        }
        // "If the RCV.WND is zero, no segments will be acceptable, but special allowance should be made
        // to accept valid ACKs, URGs, and RSTs": a segment at RCV.NXT is processed with its text dropped.
        if !acceptable && window == 0 && seg.seq == rcvNxt {
            seg.payload = []
            seg.setFlag(.fin, false)
            acceptable = true
        }
        if !acceptable {
            if !hasRST {
                if state == .timeWait && seg.flags.contains(.fin) {
                    // §3.10.7.4 eighth, TIME-WAIT: acknowledge the retransmitted FIN, restart 2·MSL.
                    out.emit(.finReacknowledgedInTimeWait)
                    setTimer(.timeWait, at: now + 2 * config.msl, &out)
                    sendACK(.finReacknowledged, &out)
                } else {
                    out.emit(.unacceptableSegment(seq: seg.seq, length: length))
                    sendACK(.unacceptableSegment, &out)
                }
            } else {
                out.emit(.segmentDiscarded(.resetOutOfWindow))  // RFC 9293 §3.10.7.4 first: drop it
            }
            return
        }
        // Trim to the window: drop octets before RCV.NXT (duplicates) and beyond RCV.NXT + RCV.WND.
        var textDropped = seg.payload.count != original.payload.count
        if seg.seq.isBefore(rcvNxt) {
            var skip = Int(rcvNxt - seg.seq)
            if seg.flags.contains(.syn) {
                seg.setFlag(.syn, false)
                skip -= 1
            }
            let cut = min(skip, seg.payload.count)
            seg.payload.removeFirst(cut)
            seg.seq = rcvNxt
            textDropped = textDropped || cut > 0
        }
        let room = max(0, window - Int(seg.seq - rcvNxt))  // space from SEG.SEQ to the window's right edge
        if seg.payload.count > room {
            seg.payload.removeLast(seg.payload.count - room)
            seg.setFlag(.fin, false)
            textDropped = true
        }

        // Second: RST. RFC 5961 §3.2 (RFC 9293 recommends it): only an RST at exactly RCV.NXT resets;
        // one elsewhere in the window may be a blind attacker's guess, so it gets a challenge ACK (a
        // real peer that lost its state answers that ACK with an RST at the right number).
        if hasRST && original.seq != rcvNxt {
            out.emit(.challengeACK)
            sendACK(.challengeACK, &out)
            return
        }
        if hasRST {
            switch state {
            case .synReceived where isPassive:
                resetToListen(cause: .resetReceived, &out)
            case .synReceived:
                fail(.refused, cause: .resetReceived, &out)
            case .established, .finWait1, .finWait2, .closeWait:
                sendQueue = []
                fail(.reset, cause: .resetReceived, &out)
            default:  // CLOSING, LAST-ACK, TIME-WAIT
                setState(.closed, cause: .resetReceived, &out)
            }
            return
        }

        // Fourth: SYN in the window.
        if seg.flags.contains(.syn) {
            if state == .synReceived && isPassive {
                resetToListen(cause: .synInWindow, &out)
            } else {
                out.emit(.challengeACK)  // RFC 5961 §4 (RFC 9293 recommends it)
                sendACK(.challengeACK, &out)
            }
            return
        }

        // Fifth: ACK.
        guard let ack = seg.ack else {  // "if the ACK bit is off, drop the segment and return"
            out.emit(.segmentDiscarded(.noACK))
            return
        }
        if state == .synReceived {
            guard ack.isAfter(sndUna) && ack.isAtOrBefore(sndNxt) else {
                sendReset(seq: ack, &out)
                return
            }
            sndWnd = Int(seg.window)
            sndWl1 = seg.seq
            sndWl2 = ack
            acknowledge(upTo: ack, &out)
            setState(.established, cause: .ackOfSYN, &out)
            if closeRequested { setState(.finWait1, cause: .close, &out) }
        }
        if state != .timeWait {
            if ack.isAfter(sndNxt) {
                out.emit(.ackOfUnsentData(ack: ack))
                sendACK(.ackOfUnsentData, &out)
                return
            }
            if ack.isAfter(sndUna) { acknowledge(upTo: ack, &out) }
            if sndUna.isAtOrBefore(ack) && (sndWl1.isBefore(seg.seq) || (sndWl1 == seg.seq && sndWl2.isAtOrBefore(ack))) {
                sndWnd = Int(seg.window)
                sndWl1 = seg.seq
                sndWl2 = ack
                if sndWnd > 0 && timers.persist != nil {
                    persistBackoff = 0
                    cancelTimer(.persist, &out)
                }
            }
            let finAcked = finSeq.map { sndUna.isAfter($0) } ?? false
            switch state {
            case .finWait1 where finAcked:
                setState(.finWait2, cause: .ackOfFIN, &out)
            case .closing where finAcked:
                setState(.timeWait, cause: .ackOfFIN, &out)
            case .lastAck where finAcked:
                setState(.closed, cause: .ackOfFIN, &out)
                return
            default:
                break
            }
        }

        // Seventh: segment text (ESTABLISHED, FIN-WAIT-1, FIN-WAIT-2 only).
        let fin = seg.flags.contains(.fin)
        var mustACK = textDropped
        var gapAhead = false  // the segment was ahead of RCV.NXT: the ACK is a duplicate for the gap
        if [.established, .finWait1, .finWait2].contains(state) && (!seg.payload.isEmpty || fin) {
            if seg.seq == rcvNxt {
                if !seg.payload.isEmpty {
                    receiveQueue += seg.payload
                    out.emit(.dataAccepted(seq: seg.seq, count: seg.payload.count))
                    rcvNxt += seg.payload.count
                }
                if fin && !reassemblyHasFIN { reassembly.insert(seq: rcvNxt, bytes: [], fin: true) }
                let more = reassembly.drain(from: rcvNxt)
                if !more.isEmpty {
                    receiveQueue += more
                    out.emit(.dataAccepted(seq: rcvNxt, count: more.count))
                    rcvNxt += more.count
                    mustACK = true
                }
                if !seg.payload.isEmpty { unackedSegments += 1 }
            } else {
                reassembly.insert(seq: seg.seq, bytes: seg.payload, fin: fin)
                out.emit(.outOfOrderBuffered(seq: seg.seq, count: seg.payload.count))
                gapAhead = true
                mustACK = true  // duplicate ACK for the gap
            }
        } else if !seg.payload.isEmpty {
            mustACK = true  // text after the peer's FIN is ignored (CLOSE-WAIT, CLOSING, LAST-ACK, TIME-WAIT)
        }

        // Eighth: FIN, once everything before it has arrived.
        if [.synReceived, .established, .finWait1, .finWait2].contains(state),
           let f = reassembly.finSeq, f == rcvNxt {
            reassembly.clearFIN()
            rcvNxt += 1
            peerFinished = true
            out.emit(.peerClosed)
            sendACK(.acknowledgment, &out)
            switch state {
            case .synReceived, .established:
                setState(.closeWait, cause: .finReceived, &out)
            case .finWait1:
                let finAcked = finSeq.map { sndUna.isAfter($0) } ?? false
                setState(finAcked ? .timeWait : .closing, cause: .finReceived, &out)
            case .finWait2:
                setState(.timeWait, cause: .finReceived, &out)
            default:
                break
            }
            return
        }
        if fin && [.closeWait, .closing, .lastAck, .timeWait].contains(state) { mustACK = true }

        // Acknowledge received text: at once, or delayed (RFC 9293 §3.8.6.3: at least every second
        // full-sized segment, and never later than the delay).
        if mustACK {
            sendACK(gapAhead ? .duplicateACK : .acknowledgment, &out)
        } else if unackedSegments > 0 {
            if let delay = config.delayedACK, unackedSegments < 2 {
                if timers.delayedACK == nil { setTimer(.delayedACK, at: now + delay, &out) }
            } else {
                sendACK(.acknowledgment, &out)
            }
        }
    }

    private var reassemblyHasFIN: Bool { reassembly.finSeq != nil }

    /// RST or SYN in SYN-RECEIVED after a passive OPEN: back to LISTEN, forgetting the peer.
    private mutating func resetToListen(cause: TCPTransitionCause, _ out: inout TCPOutput) {
        for kind in [TCPTimerKind.retransmission, .persist, .delayedACK] { cancelTimer(kind, &out) }
        sendQueue = []
        receiveQueue = []
        reassembly = ReassemblyBuffer()
        timedSeq = nil
        retransmissions = 0
        synTimedOut = false
        setState(.listen, cause: cause, &out)
    }
}
