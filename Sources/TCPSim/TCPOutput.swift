/// What one input produced: the segments to transmit, in order, and the events that happened.
public struct TCPOutput: Hashable, Sendable {
    public var segments: [TCPSegment] = []
    public var events: [TCPEvent] = []
    public init() {}

    mutating func send(_ segment: TCPSegment) { segments.append(segment) }
    mutating func emit(_ event: TCPEvent) { events.append(event) }

    /// Appends another output after this one.
    public mutating func append(_ other: TCPOutput) {
        segments += other.segments
        events += other.events
    }
}
