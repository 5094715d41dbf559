/// What one input produced: the segments to transmit, in order (each with why it is sent), and
/// the events that happened.
public struct TCPOutput: Hashable, Sendable {
    public private(set) var segments: [TCPSegment] = []
    /// Why each of `segments` is sent (same order).
    public private(set) var causes: [TCPSendCause] = []
    public var events: [TCPEvent] = []
    /// False when no one will read `events` (a network that does not record them): `emit` then keeps
    /// nothing, saving an array per input. Not part of the output's value (`==` and `hash` ignore it).
    var recordsEvents = true

    public init() {}

    init(recordsEvents: Bool) { self.recordsEvents = recordsEvents }

    mutating func send(_ segment: TCPSegment, _ cause: TCPSendCause) {
        segments.append(segment)
        causes.append(cause)
    }
    /// `event` is built only when events are recorded.
    mutating func emit(_ event: @autoclosure () -> TCPEvent) { if recordsEvents { events.append(event()) } }

    /// Appends another output after this one.
    public mutating func append(_ other: TCPOutput) {
        segments += other.segments
        causes += other.causes
        if recordsEvents { events += other.events }
    }

    public static func == (a: TCPOutput, b: TCPOutput) -> Bool {
        a.segments == b.segments && a.causes == b.causes && a.events == b.events
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(segments)
        hasher.combine(causes)
        hasher.combine(events)
    }
}
