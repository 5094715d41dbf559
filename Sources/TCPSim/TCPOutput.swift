/// What one input produced: the segments to transmit, in order, and the events that happened.
public struct TCPOutput: Hashable, Sendable {
    public var segments: [TCPSegment] = []
    public var events: [TCPEvent] = []
    /// False when no one will read `events` (a network that does not record them): `emit` then keeps
    /// nothing, saving an array per input. Not part of the output's value (`==` and `hash` ignore it).
    var recordsEvents = true

    public init() {}

    init(recordsEvents: Bool) { self.recordsEvents = recordsEvents }

    mutating func send(_ segment: TCPSegment) { segments.append(segment) }
    /// `event` is built only when events are recorded.
    mutating func emit(_ event: @autoclosure () -> TCPEvent) { if recordsEvents { events.append(event()) } }

    /// Appends another output after this one.
    public mutating func append(_ other: TCPOutput) {
        segments += other.segments
        if recordsEvents { events += other.events }
    }

    public static func == (a: TCPOutput, b: TCPOutput) -> Bool { a.segments == b.segments && a.events == b.events }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(segments)
        hasher.combine(events)
    }
}
