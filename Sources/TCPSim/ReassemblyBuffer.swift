/// Out-of-order segments waiting for the gap before them to fill (RFC 9293 §3.10.7.4, seventh:
/// "segments with higher beginning sequence numbers ... may be held").
public struct ReassemblyBuffer: Hashable, Sendable {
    struct Piece: Hashable, Sendable {
        var seq: SeqNumber
        var bytes: [UInt8]
    }
    private var pieces: [Piece] = []
    /// The sequence number of a FIN seen ahead of RCV.NXT.
    public private(set) var finSeq: SeqNumber?

    public init() {}

    public var isEmpty: Bool { pieces.isEmpty && finSeq == nil }
    /// Octets held (overlaps counted twice).
    public var heldCount: Int { pieces.reduce(0) { $0 + $1.bytes.count } }

    mutating func insert(seq: SeqNumber, bytes: [UInt8], fin: Bool) {
        if !bytes.isEmpty { pieces.append(Piece(seq: seq, bytes: bytes)) }
        if fin { finSeq = seq + bytes.count }
    }

    /// Removes and returns the octets that now continue the stream at `next`, in order.
    mutating func drain(from next: SeqNumber) -> [UInt8] {
        var out: [UInt8] = []
        var cursor = next
        var progress = true
        while progress {
            progress = false
            var keep: [Piece] = []
            for p in pieces {
                let end = p.seq + p.bytes.count
                if end.isAtOrBefore(cursor) { continue }  // wholly old: discard
                if p.seq.isAtOrBefore(cursor) {
                    let skip = Int(cursor - p.seq)
                    out += p.bytes[skip...]
                    cursor = end
                    progress = true
                } else {
                    keep.append(p)
                }
            }
            pieces = keep
        }
        return out
    }

    mutating func clearFIN() { finSeq = nil }
}
