/// What the client's and the server's state enums share: their RFC-style name, the closed and
/// failed ends, and where an end of stream is only noted rather than fatal.
protocol HandshakeState {
    var name: TLSStateName { get }
    static var closed: Self { get }
    static func failed(_ alert: Alert) -> Self
    /// The alert that ended the connection, in `failed`.
    var failureAlert: Alert? { get }
    var isConnected: Bool { get }
    var isClosed: Bool { get }
    /// True where the peer's end of stream only records the event (not waiting for a handshake
    /// message: not started, connected, closed or failed).
    var notesEndOfStreamOnly: Bool { get }
    /// Every legal transition of the handshake (RFC 5246 §7.3's flow, full and abbreviated), besides
    /// the two any unfinished state may take: to `failed` (a fatal alert) and to `closed` (close_notify).
    static var handshakeEdges: Set<StateEdge> { get }
}

/// One transition of a state machine, by state names.
struct StateEdge: Hashable, Sendable, CustomStringConvertible {
    var from: TLSStateName
    var to: TLSStateName
    init(_ from: TLSStateName, _ to: TLSStateName) {
        self.from = from
        self.to = to
    }
    var description: String { "\(from) → \(to)" }
}

extension HandshakeState {
    var isFailed: Bool { failureAlert != nil }

    /// The names of this machine's states: those its handshake edges name, and the two ends.
    static var stateNames: Set<TLSStateName> {
        Set(handshakeEdges.flatMap { [$0.from, $0.to] }).union([.closed, .failed])
    }

    /// Whether `from → to` is a transition this machine may take (never one naming a state of the
    /// other role's machine).
    static func isLegal(_ edge: StateEdge) -> Bool {
        guard stateNames.contains(edge.from), stateNames.contains(edge.to) else { return false }
        switch (edge.from, edge.to) {
        case (.failed, _), (.closed, .connected): return false
        case (_, .failed): return true
        case (_, .closed): return edge.from != .closed
        default: return handshakeEdges.contains(edge)
        }
    }
}

/// The shell both roles run their handshake in (RFC 5246 §7.3): bytes in, records and events out;
/// the one function that changes state and records it; any error becomes one fatal alert and the
/// `failed` state; alerts and close_notify handled alike. ``ClientHandshake`` and
/// ``ServerHandshake`` keep only their own messages (`handle`); ``TLSClient`` and ``TLSServer``
/// each hold one and offer this shell to callers through ``TLSEndpointCore``.
protocol HandshakeMachine {
    associatedtype State: HandshakeState
    static var role: TLSRole { get }
    var state: State { get set }
    var context: ConnectionContext { get set }
    /// One record's content or one handshake message, in the current state.
    mutating func handle(_ incoming: IncomingContent) throws(TLSError)
}

extension HandshakeMachine {
    /// The one state change: sets the state and records the transition.
    mutating func transition(to next: State) {
        let from = state.name
        assert(State.isLegal(StateEdge(from, next.name)), "illegal transition \(from) → \(next.name)")
        state = next
        context.events.append(.stateChanged(role: Self.role, from: from, to: next.name))
    }

    /// Replaces the data the current state holds, staying in it: not a transition, so no event.
    /// For a value the driver corrects while the state waits (``ClientHandshake/adoptSentClientHello(_:bytes:)``:
    /// the ClientHello actually sent).
    mutating func amend(_ same: State) {
        assert(same.name == state.name, "amend may not change the state: \(state.name) → \(same.name)")
        state = same
    }

    mutating func run(_ body: (inout Self) throws(TLSError) -> Void) {
        do {
            try body(&self)
        } catch {
            fail(error)
        }
    }

    /// The error's alert is sent (a received fatal alert is not answered) and the state is `failed`.
    mutating func fail(_ error: TLSError) {
        let alert: Alert
        if let description = error.alert {
            alert = .fatal(description)
            context.sendAlert(alert, cause: .failure(error))
        } else if case .alertReceived(let received) = error {
            alert = received
        } else {
            alert = .fatal(.internalError)
        }
        transition(to: .failed(alert))
    }

    /// Bytes from TCP, in any chunking: every complete record and message is handled in order.
    mutating func receive(_ bytes: [UInt8]) -> TLSStep {
        if state.isFailed { return context.takeStep() }
        context.append(bytes)
        run { (machine: inout Self) throws(TLSError) in
            while !machine.state.isFailed, let incoming = try machine.context.nextIncoming() {
                try machine.handle(incoming)
            }
        }
        return context.takeStep()
    }

    /// The peer sent nothing more. Waiting for a handshake message this is fatal — decode_error
    /// when part of a record or message is buffered, handshake_failure otherwise — so a stalled
    /// handshake never ends silently; elsewhere it only records the event.
    mutating func receiveEndOfStream() -> TLSStep {
        if state.notesEndOfStreamOnly {
            context.events.append(.endOfStream(state: state.name, bufferedBytes: context.bufferedIncomingByteCount))
        } else {
            fail(context.endOfStreamError(state: state.name))
        }
        return context.takeStep()
    }

    /// Application data, once connected (RFC 5246 §10).
    mutating func sendApplicationData(_ data: [UInt8]) throws(TLSError) -> TLSStep {
        guard state.isConnected else { throw .internalError(.applicationDataBeforeHandshake) }
        try context.sendApplicationData(data)
        return context.takeStep()
    }

    /// close_notify (RFC 5246 §7.2.1), unless already closed or failed.
    mutating func close() -> TLSStep {
        if !state.isFailed && !state.isClosed {
            context.sendAlert(.closeNotify, cause: .close)
            transition(to: .closed)
        }
        return context.takeStep()
    }

    /// This side stops waiting for the peer (its driver's deadline passed: the engine reads no clock).
    /// During the handshake, RFC 5246 §7.2.2's user_canceled — "This handshake is being canceled for
    /// some reason unrelated to a protocol failure … This alert should be followed by a close_notify"
    /// — then close_notify; once connected, close_notify alone ("If the user cancels an operation
    /// after the handshake is complete, just closing the connection by sending a close_notify is more
    /// appropriate"). Both go under the current write state: in the clear before this side's
    /// ChangeCipherSpec, protected after it. Nothing once closed or failed.
    mutating func cancel() -> TLSStep {
        if !state.isFailed && !state.isClosed && !state.isConnected {
            context.sendAlert(Alert(level: .warning, description: .userCanceled), cause: .handshakeCanceled)
        }
        return close()
    }

    /// Decodes and adds to the transcript (every message but Finished enters it on arrival).
    mutating func received(_ raw: RawHandshakeMessage) throws(TLSError) -> HandshakeMessage {
        let message = try context.decode(raw)
        context.transcript.append(raw.bytes)
        return message
    }

    /// RFC 5246 §7.2: close_notify is answered with our own and closes; a fatal alert ends the
    /// connection; other warnings are noted (their number is limited by the context).
    mutating func handleAlert(_ alert: Alert) throws(TLSError) {
        context.events.append(.alertReceived(alert))
        if alert.alertDescription == .closeNotify {
            if !context.sentCloseNotify { context.sendAlert(.closeNotify, cause: .replyToCloseNotify) }
            if state.isClosed { return }
            transition(to: .closed)
            return
        }
        if alert.isFatal { throw .alertReceived(alert) }
    }
}
