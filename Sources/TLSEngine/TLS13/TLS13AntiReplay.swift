/// ClientHello recording (RFC 8446 §8.2) with the freshness check (§8.3): a server that accepts
/// 0-RTT data records a unique value of each such ClientHello — here the first PSK binder, which
/// depends on the whole ClientHello (§4.2.11.2) — for as long as its expected arrival time lies
/// within a window of the server's clock, and refuses 0-RTT for a ClientHello it has recorded or
/// whose expected arrival time lies outside the window, falling back to the 1-RTT handshake (§8).
///
/// The engine reads no clock: the caller gives the server's time with each read
/// (``TLS13Server/receive(_:atMilliseconds:)``) and keeps the recorded values between connections
/// (the server's store), adding those the ``TLS13Event/clientHelloRecorded(_:)`` events name.
public struct TLS13ClientHelloRecording: Sendable, Hashable {
    /// How far a ClientHello's expected arrival time may lie from the server's clock, in milliseconds;
    /// a recorded value is kept as long as its expected arrival time lies within it.
    public var windowMilliseconds: UInt64
    /// The values recorded so far, by this server instance or the store it shares.
    public var recorded: [TLS13RecordedClientHello]

    public init(windowMilliseconds: UInt64, recorded: [TLS13RecordedClientHello] = []) {
        self.windowMilliseconds = windowMilliseconds
        self.recorded = recorded
    }

    /// The recorded values still inside the window at `now` (the others can be forgotten: a
    /// ClientHello that repeats one fails the freshness check anyway).
    public func current(at now: UInt64) -> [TLS13RecordedClientHello] {
        recorded.filter { Self.distance($0.expectedArrivalMilliseconds, now) <= windowMilliseconds }
    }

    static func distance(_ a: UInt64, _ b: UInt64) -> UInt64 { a > b ? a - b : b - a }
}

/// One recorded ClientHello (§8.2): its unique value and the time it was expected to arrive.
public struct TLS13RecordedClientHello: Sendable, Hashable {
    /// The first PSK binder of the ClientHello.
    public var binder: [UInt8]
    /// expected_arrival_time = creation_time + estimated_RTT + the client's ticket age (§8.3).
    public var expectedArrivalMilliseconds: UInt64

    public init(binder: [UInt8], expectedArrivalMilliseconds: UInt64) {
        self.binder = binder
        self.expectedArrivalMilliseconds = expectedArrivalMilliseconds
    }
}

/// The freshness check's inputs and result for one ClientHello (§8.3), for the trace.
public struct TLS13FreshnessCheck: Sendable, Hashable {
    /// When the server issued the ticket (creation_time) and the round trip it measured on that connection.
    public var ticketCreatedMilliseconds: UInt64
    public var estimatedRTTMilliseconds: UInt64
    /// The client's view of the ticket's age: obfuscated_ticket_age − ticket_age_add (mod 2^32, §4.2.11.1).
    public var clientTicketAgeMilliseconds: UInt32
    public var expectedArrivalMilliseconds: UInt64
    /// The server's clock when the ClientHello arrived.
    public var nowMilliseconds: UInt64
    public var windowMilliseconds: UInt64
    /// |expected − now| ≤ window.
    public var fresh: Bool { TLS13ClientHelloRecording.distance(expectedArrivalMilliseconds, nowMilliseconds) <= windowMilliseconds }
}

extension TLS13Server {
    /// Reads bytes from the client at the server's time `now` (milliseconds on the caller's clock):
    /// the time the freshness check compares against and the one a ticket issued now is stamped with.
    public mutating func receive(_ bytes: [UInt8], atMilliseconds now: UInt64) -> TLS13Step {
        clockMilliseconds = now
        return receive(bytes)
    }

    /// §8.2 and §8.3 for 0-RTT data the other rules (§4.2.10) would accept: nil to accept (the
    /// ClientHello is then recorded), else why not. Without recording configured, nil.
    mutating func recordingVerdict(psk: TLS13SelectedPSK) -> TLS13EarlyDataRefusal? {
        guard let recording = configuration.earlyData.recording else { return nil }
        // Without the server's clock, or for a ticket without a creation time (issued by a server that
        // was given no clock), freshness cannot be checked: 0-RTT is refused, never let through unchecked.
        guard let now = clockMilliseconds, let created = psk.ticket.issuedAtMilliseconds else { return .outsideFreshnessWindow }
        let age = psk.clientTicketAgeMilliseconds
        let check = TLS13FreshnessCheck(ticketCreatedMilliseconds: created, estimatedRTTMilliseconds: psk.ticket.estimatedRTTMilliseconds,
                                        clientTicketAgeMilliseconds: age,
                                        expectedArrivalMilliseconds: created + psk.ticket.estimatedRTTMilliseconds + UInt64(age),
                                        nowMilliseconds: now, windowMilliseconds: recording.windowMilliseconds)
        connection.events.append(.freshnessChecked(check))
        guard check.fresh else { return .outsideFreshnessWindow }
        guard !recording.current(at: now).contains(where: { $0.binder == psk.binder }) else { return .replayedClientHello }
        connection.events.append(.clientHelloRecorded(TLS13RecordedClientHello(binder: psk.binder,
                                                                                expectedArrivalMilliseconds: check.expectedArrivalMilliseconds)))
        return nil
    }
}
