/// Building and sending segments: SYN, ACK, data with MSS segmentation within the peer's window
/// (RFC 9293 §3.8.6), FIN after the data, and retransmission from SND.UNA (RFC 6298 §5).
extension TCPConnection {
    var advertisedWindow: UInt16 { UInt16(clamping: receiveWindow) }

    /// SYN (active open) or SYN-ACK (passive side), seq = ISS, with our MSS option.
    func makeSYN(ack: SeqNumber?) -> TCPSegment {
        TCPSegment(sourcePort: localPort, destinationPort: remotePort, seq: iss, ack: ack, flags: .syn,
                   window: advertisedWindow, mss: UInt16(clamping: config.mss))
    }

    /// `<SEQ=SND.NXT><ACK=RCV.NXT><CTL=ACK>` with the current window (any pending delayed ACK is met),
    /// sent for `cause`.
    mutating func sendACK(_ cause: TCPSendCause, _ out: inout TCPOutput) {
        out.send(TCPSegment(sourcePort: localPort, destinationPort: remotePort, seq: sndNxt, ack: rcvNxt,
                            window: advertisedWindow), cause)
        noteACKSent(&out)
    }

    mutating func noteACKSent(_ out: inout TCPOutput) {
        unackedSegments = 0
        cancelTimer(.delayedACK, &out)
        lastAdvertisedWindow = receiveWindow
        if receiveWindow == 0 { out.emit(.receiveWindowZero) }
    }

    /// An RST answering `segment` when no connection (or LISTEN) should take it (RFC 9293 §3.10.7.1):
    /// `<SEQ=SEG.ACK><CTL=RST>` if it had ACK, else `<SEQ=0><ACK=SEG.SEQ+SEG.LEN><CTL=RST,ACK>`;
    /// nil for an incoming RST.
    public static func resetReply(to segment: TCPSegment) -> TCPSegment? {
        guard !segment.flags.contains(.rst) else { return nil }
        if let ack = segment.ack {
            return TCPSegment(sourcePort: segment.destinationPort, destinationPort: segment.sourcePort,
                              seq: ack, flags: .rst)
        }
        return TCPSegment(sourcePort: segment.destinationPort, destinationPort: segment.sourcePort,
                          seq: SeqNumber(0), ack: segment.endSeq, flags: .rst)
    }

    mutating func sendReset(seq: SeqNumber, _ out: inout TCPOutput) {
        let rst = TCPSegment(sourcePort: localPort, destinationPort: remotePort, seq: seq, flags: .rst)
        out.send(rst, .reset)
        out.emit(.resetSent(rst))
    }

    /// Starts the RTT measurement on `seq` unless one is running (one timed segment at a time).
    mutating func timeSegment(_ seq: SeqNumber) {
        if timedSeq == nil {
            timedSeq = seq
            timedAt = now
        }
    }

    /// RFC 6298 §5.1: start the timer (now + RTO) if it is not running.
    mutating func startRetransmissionTimer(_ out: inout TCPOutput) {
        if timers.retransmission == nil { setTimer(.retransmission, at: now + rto.rto, &out) }
    }

    /// Octets of the queue already sent (SND.NXT − first queued data octet, less our FIN).
    var sentDataCount: Int {
        guard sndNxt.isAfter(sendQueueSeq) else { return 0 }
        let n = Int(sndNxt - sendQueueSeq) - (finSeq == nil ? 0 : 1)
        return min(max(0, n), sendQueue.count)
    }

    /// Sends queued data as far as the peer's window allows, in segments of at most the effective MSS,
    /// then FIN once everything is out and CLOSE was called. Arms the persist timer on a zero window.
    mutating func transmitData(_ out: inout TCPOutput) {
        // CLOSE queues our FIN behind the data (RFC 9293 §3.10.4), so FIN-WAIT-1, LAST-ACK and even
        // CLOSING (the peer's FIN arrived before ours was sent) may still have data and the FIN to send.
        guard [.established, .closeWait, .finWait1, .closing, .lastAck].contains(state), finSeq == nil else { return }
        while true {
            let unsent = sendQueue.count - sentDataCount
            let inFlight = Int(sndNxt - sndUna)
            let usable = sndWnd - inFlight
            guard unsent > 0, usable > 0 else { break }
            let count = min(unsent, usable, effectiveMSS)
            let start = sentDataCount
            let isLast = count == unsent
            var seg = TCPSegment(sourcePort: localPort, destinationPort: remotePort, seq: sndNxt, ack: rcvNxt,
                                 flags: isLast ? .psh : [], window: advertisedWindow,
                                 payload: Array(sendQueue[start ..< start + count]))
            if isLast && closeRequested {  // piggyback the FIN on the last data segment
                seg.setFlag(.fin, true)
                finSeq = sndNxt + count
            }
            out.send(seg, .data)
            noteACKSent(&out)
            timeSegment(sndNxt)
            sndNxt += seg.segmentLength
            startRetransmissionTimer(&out)
        }
        let unsent = sendQueue.count - sentDataCount
        if unsent == 0 && closeRequested && finSeq == nil {
            let fin = TCPSegment(sourcePort: localPort, destinationPort: remotePort, seq: sndNxt, ack: rcvNxt,
                                 flags: .fin, window: advertisedWindow)
            finSeq = sndNxt
            out.send(fin, .fin)
            noteACKSent(&out)
            timeSegment(sndNxt)
            sndNxt += 1
            startRetransmissionTimer(&out)
        }
        if unsent > 0 && sndWnd == 0 && sndNxt == sndUna && timers.persist == nil {
            out.emit(.peerWindowZero)
            setTimer(.persist, at: now + persistInterval, &out)
        }
    }

    var persistInterval: TCPTime {
        min(rto.rto << min(persistBackoff, 16), config.maximumRTO)
    }

    /// Processes an acceptable new ACK (SND.UNA < ack ≤ SND.NXT): reports what it acknowledged,
    /// drops acknowledged octets, takes an RTT sample under Karn's rule, restarts or stops the
    /// retransmission timer (RFC 6298 §5.2, §5.3).
    mutating func acknowledge(upTo ack: SeqNumber, _ out: inout TCPOutput) {
        var advanced = Int(ack - sndUna)
        let synAcked = sndUna == iss
        if synAcked { advanced -= 1 }  // our SYN
        let dataAcked = min(max(0, advanced), sendQueue.count)
        let finAcked = finSeq.map { ack.isAfter($0) && !sndUna.isAfter($0) } ?? false
        out.emit(.acknowledged(from: sndUna, upTo: ack, dataOctets: dataAcked, syn: synAcked, fin: finAcked))
        sendQueue.removeFirst(dataAcked)
        sendQueueSeq += dataAcked
        sndUna = ack
        if let t = timedSeq, ack.isAfter(t) {
            rto.sample(now - timedAt)
            out.emit(.rttSample(rtt: now - timedAt, srtt: rto.srtt ?? 0, rttvar: rto.rttvar, rto: rto.rto))
            timedSeq = nil
        }
        retransmissions = 0
        cancelTimer(.retransmission, &out)
        if sndUna != sndNxt { startRetransmissionTimer(&out) }
    }

    /// What a retransmission resends: SYN / SYN-ACK while ours is unacknowledged, else one MSS of the
    /// oldest data from SND.UNA (with FIN if it reaches it), else the FIN alone.
    func retransmissionSegment() -> TCPSegment? {
        if state == .synSent { return makeSYN(ack: nil) }
        if sndUna == iss { return makeSYN(ack: rcvNxt) }
        guard sndUna.isBefore(sndNxt) else { return nil }
        let dataOutstanding = min(sendQueue.count, Int(sndNxt - sndUna) - (finSeq == nil ? 0 : 1))
        let count = min(max(0, dataOutstanding), effectiveMSS)
        var seg = TCPSegment(sourcePort: localPort, destinationPort: remotePort, seq: sndUna, ack: rcvNxt,
                             flags: count == dataOutstanding && count > 0 ? .psh : [], window: advertisedWindow,
                             payload: Array(sendQueue.prefix(count)))
        if let f = finSeq, sndUna + count == f { seg.setFlag(.fin, true) }
        return seg.segmentLength > 0 ? seg : nil
    }
}
