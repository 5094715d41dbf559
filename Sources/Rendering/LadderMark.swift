import Trace

/// Where a ladder row sits: an arrow from one party's column to
/// another's (broken off when the network lost it), or a mark on the column of a party acting
/// alone. Geometry only — the row's words stay in the renderer's line.
public struct LadderMark: Sendable, Hashable {
    /// What the row shows, for colour: a TCP segment, a TLS message, an alert or attack, or plain.
    public enum Tone: String, Sendable, Hashable {
        case tcp, tls, alert, plain
    }

    /// The sender (an arrow) or the party acting alone (a mark); nil for a row on no column.
    public var from: Actor?
    /// The receiver; nil for a mark on one column.
    public var to: Actor?
    /// The network lost the segment: the arrow stops half-way.
    public var lost: Bool
    public var tone: Tone

    public init(from: Actor?, to: Actor?, lost: Bool = false, tone: Tone = .plain) {
        self.from = from
        self.to = to
        self.lost = lost
        self.tone = tone
    }

    /// True for an arrow between two different parties.
    public var isArrow: Bool { from != nil && to != nil && from != to }
}
