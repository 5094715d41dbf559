/// What one input to a ``TLSClient`` or ``TLSServer`` produced: whole records to write to TCP, in
/// order, and the events that happened.
public struct TLSStep: Sendable {
    /// The records to send, each as it goes on the wire (protected once keys are on).
    public var records: [TLSRecord]
    public var events: [TLSEvent]

    public init(records: [TLSRecord] = [], events: [TLSEvent] = []) {
        self.records = records
        self.events = events
    }

    /// The bytes to write to TCP: every record, encoded, in order.
    public var output: [UInt8] { records.flatMap(\.encoded) }
}

extension TLSRecord {
    /// Header and fragment.
    public var encoded: [UInt8] {
        var w = ByteWriter()
        encode(to: &w)
        return w.bytes
    }
}
