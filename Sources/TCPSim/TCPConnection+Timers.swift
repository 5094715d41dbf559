/// Timer expiry (RFC 9293 §3.10.8): retransmission (RFC 6298 §5.4–§5.7), zero-window probe
/// (§3.8.6.1), delayed ACK (§3.8.6.3) and TIME-WAIT (2·MSL).
extension TCPConnection {
    /// Fires every timer whose deadline is at or before `now`, earliest first.
    public mutating func advance(to now: TCPTime) -> TCPOutput {
        var out = TCPOutput()
        advance(to: now, into: &out)
        return out
    }

    /// `advance(to:)`, adding to `out` (whose `recordsEvents` the caller chooses).
    mutating func advance(to now: TCPTime, into out: inout TCPOutput) {
        self.now = now
        while let due = earliestTimer(), due.deadline <= now {
            let kind = due.kind
            timers[kind] = nil
            out.emit(.timerFired(kind))
            fire(kind, &out)
        }
    }

    private func earliestTimer() -> (kind: TCPTimerKind, deadline: TCPTime)? {
        var best: (kind: TCPTimerKind, deadline: TCPTime)?
        for kind in [TCPTimerKind.timeWait, .retransmission, .persist, .delayedACK] {
            if let d = timers[kind], best.map({ d < $0.deadline }) ?? true { best = (kind, d) }
        }
        return best
    }

    private mutating func fire(_ kind: TCPTimerKind, _ out: inout TCPOutput) {
        switch kind {
        case .timeWait:
            setState(.closed, cause: .timeWaitExpired, &out)
        case .delayedACK:
            if state.isSynchronized { sendACK(.delayedACK, &out) }
        case .persist:
            // Probe with a zero-length segment just below SND.UNA: it is outside the peer's window, so
            // the peer must answer with an ACK carrying its current window (RFC 9293 §3.10.7.4 first
            // check). This stands in for the one-octet probe and works even when a window update was lost.
            guard sndWnd == 0, sendQueue.count > sentDataCount else { persistBackoff = 0; return }
            out.send(TCPSegment(sourcePort: localPort, destinationPort: remotePort, seq: sndUna - 1, ack: rcvNxt,
                                window: advertisedWindow), .windowProbe)
            out.emit(.windowProbeSent)
            persistBackoff += 1
            setTimer(.persist, at: now + persistInterval, &out)
        case .retransmission:
            let limit = [.synSent, .synReceived].contains(state) || sndUna == iss
                ? config.maximumSYNRetransmissions : config.maximumRetransmissions
            guard retransmissions < limit else {
                fail(.timedOut, cause: .retransmissionLimit, &out)
                return
            }
            guard let seg = retransmissionSegment() else { return }
            retransmissions += 1
            timedSeq = nil  // Karn: never time a retransmitted segment
            if seg.flags.contains(.syn) { synTimedOut = true }
            rto.backOff()
            out.emit(.rtoBackedOff(rto: rto.rto))
            out.send(seg, .retransmission)
            if seg.ack != nil { noteACKSent(&out) }
            out.emit(.retransmitted(seg, attempt: retransmissions))
            setTimer(.retransmission, at: now + rto.rto, &out)
        }
    }
}
