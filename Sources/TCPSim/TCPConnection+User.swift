/// The user calls of RFC 9293 §3.10.1–§3.10.6: OPEN, SEND, RECEIVE, CLOSE, ABORT.
extension TCPConnection {
    /// Active OPEN (RFC 9293 §3.10.1): send SYN with ISS = `iss`, enter SYN-SENT.
    public mutating func openActive(iss: SeqNumber, at now: TCPTime) throws(TCPUserError) -> TCPOutput {
        self.now = now
        guard state == .closed else { throw .connectionAlreadyExists }
        var out = TCPOutput()
        isPassive = false
        self.iss = iss
        sndUna = iss
        sndNxt = iss + 1
        sendQueueSeq = iss + 1
        setState(.synSent, cause: .activeOpen, &out)
        out.send(makeSYN(ack: nil), .activeOpen)
        startRetransmissionTimer(&out)
        timeSegment(iss)
        return out
    }

    /// Passive OPEN (RFC 9293 §3.10.1): enter LISTEN; `iss` is used when a SYN arrives.
    public mutating func openPassive(iss: SeqNumber, at now: TCPTime) throws(TCPUserError) -> TCPOutput {
        self.now = now
        guard state == .closed else { throw .connectionAlreadyExists }
        var out = TCPOutput()
        isPassive = true
        self.iss = iss
        setState(.listen, cause: .passiveOpen, &out)
        return out
    }

    /// SEND (RFC 9293 §3.10.2): queue `bytes`; sent at once as far as the peer's window allows.
    public mutating func send(_ bytes: [UInt8], at now: TCPTime) throws(TCPUserError) -> TCPOutput {
        var out = TCPOutput()
        try send(bytes, at: now, into: &out)
        return out
    }

    /// `send`, adding to `out` (whose `recordsEvents` the caller chooses).
    mutating func send(_ bytes: [UInt8], at now: TCPTime, into out: inout TCPOutput) throws(TCPUserError) {
        self.now = now
        switch state {
        case .closed, .listen: throw .connectionDoesNotExist
        case .finWait1, .finWait2, .closing, .lastAck, .timeWait: throw .connectionClosing
        case .synSent, .synReceived, .established, .closeWait:
            break
        }
        if closeRequested { throw .connectionClosing }
        sendQueue += bytes
        transmitData(&out)
    }

    /// RECEIVE (RFC 9293 §3.10.3): up to `maxCount` in-order octets. Reading may open the window
    /// enough to send a window update (receiver-side SWS avoidance, RFC 9293 §3.8.6.2.2); see
    /// `needsWindowUpdate`.
    public mutating func receive(maxCount: Int = Int.max, at now: TCPTime) -> (bytes: [UInt8], output: TCPOutput) {
        var out = TCPOutput()
        let bytes = receive(maxCount: maxCount, at: now, into: &out)
        return (bytes, out)
    }

    /// `receive`, adding to `out` (whose `recordsEvents` the caller chooses).
    mutating func receive(maxCount: Int, at now: TCPTime, into out: inout TCPOutput) -> [UInt8] {
        self.now = now
        let n = min(max(0, maxCount), receiveQueue.count)
        guard n > 0 else { return [] }
        let bytes = Array(receiveQueue.prefix(n))
        receiveQueue.removeFirst(n)
        if [.established, .finWait1, .finWait2].contains(state), needsWindowUpdate {
            out.emit(.windowUpdateSent(window: receiveWindow))
            sendACK(.windowUpdate, &out)
        }
        return bytes
    }

    /// Whether reading has opened the window so that the peer needs a segment of its own to learn it.
    /// RFC 9293 §3.8.6.2.2: the right edge moves only once the window can grow by
    /// min(Fr·RCV.BUFF, Eff.snd.MSS), Fr = 1/2. RFC 1122 §4.2.3.3: that rule decides *when the window
    /// may be updated*; the ACK policy decides when an ACK carrying it is sent. A pure window update is
    /// sent at once only when the window the peer last saw is itself under that threshold (zero, or too
    /// small for a full segment), so the peer may be waiting for it; otherwise the peer still has room,
    /// and the next ACK or data segment carries the new window. (Without this, an ACK for a full-sized
    /// segment was followed at the same instant by a second ACK, identical but for the window, as soon
    /// as the application read the segment.)
    var needsWindowUpdate: Bool {
        let threshold = min(effectiveMSS, config.receiveBufferSize / 2)
        return lastAdvertisedWindow < threshold && receiveWindow >= lastAdvertisedWindow + threshold
    }

    /// CLOSE (RFC 9293 §3.10.4): no more data from us; FIN follows the queued data.
    public mutating func close(at now: TCPTime) throws(TCPUserError) -> TCPOutput {
        self.now = now
        var out = TCPOutput()
        switch state {
        case .closed: throw .connectionDoesNotExist
        case .listen, .synSent:
            setState(.closed, cause: .close, &out)
        case .synReceived:
            closeRequested = true  // FIN goes out once ESTABLISHED (RFC 9293 §3.10.4 allows either)
        case .established:
            closeRequested = true
            setState(.finWait1, cause: .close, &out)
            transmitData(&out)
        case .closeWait:
            closeRequested = true
            setState(.lastAck, cause: .close, &out)
            transmitData(&out)
        case .finWait1, .finWait2, .closing, .lastAck, .timeWait:
            throw .connectionClosing
        }
        return out
    }

    /// ABORT (RFC 9293 §3.10.5): RST to the peer in a synchronized state, then CLOSED.
    public mutating func abort(at now: TCPTime) throws(TCPUserError) -> TCPOutput {
        self.now = now
        var out = TCPOutput()
        switch state {
        case .closed: throw .connectionDoesNotExist
        case .synReceived, .established, .finWait1, .finWait2, .closeWait:
            let rst = TCPSegment(sourcePort: localPort, destinationPort: remotePort, seq: sndNxt, flags: .rst)
            out.send(rst, .reset)
            out.emit(.resetSent(rst))
        default:
            break
        }
        sendQueue = []
        receiveQueue = []
        fail(.aborted, cause: .abort, &out)
        return out
    }
}

extension TCPConnection {
    /// A listener with SYN cookies (RFC 4987 §3.6) rebuilds the SYN-RECEIVED state it did not keep from
    /// a returning ACK whose `ack − 1` validated as a cookie: ISS = `iss`, IRS = `irs`. The caller then
    /// feeds the ACK itself through `segmentArrives`, which completes the handshake.
    public mutating func restoreFromSYNCookie(iss: SeqNumber, irs: SeqNumber, at now: TCPTime) -> TCPOutput {
        self.now = now
        var out = TCPOutput()
        guard state == .listen else { return out }
        self.iss = iss
        self.irs = irs
        rcvNxt = irs + 1
        sndUna = iss
        sndNxt = iss + 1
        sendQueueSeq = iss + 1
        sndWl1 = irs
        sndWl2 = iss
        setState(.synReceived, cause: .synCookieValidated, &out)
        return out
    }
}
