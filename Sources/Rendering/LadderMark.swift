import Trace

/// Where a ladder row sits, as the text renderer drew it: an arrow from one party's column to
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

/// Collects the rows the text renderer draws while one walkthrough is cut into steps (one thread,
/// inside `Walkthrough.init`; never shared), so the step model carries the same geometry as the
/// terminal ladder instead of working it out a second time.
final class LadderMarkRecorder: @unchecked Sendable {
    private(set) var rows: [(line: String, mark: LadderMark)] = []

    func record(_ line: String, _ mark: LadderMark) { rows.append((line, mark)) }

    /// The rows recorded since the last call, then forgotten.
    func take() -> [(line: String, mark: LadderMark)] {
        defer { rows.removeAll() }
        return rows
    }
}
