import Trace

/// Where a drawing's rails stand (issue #33). The standard drawing is 780 units wide: the client's
/// rail at 150, the server's at 740, an attacker's half-way. A label holding a piece no line may
/// break inside (a cipher suite's name, an HKDF call with its first argument) wider than its lane
/// moves the rails apart, the same gap between each pair, just enough for that piece to fit its lane —
/// up to ``LadderGeometry/widest``, a drawing that still stands beside the step on a 1366-pixel
/// laptop screen, its text at full size. Only a piece wider still goes to the notes column right of
/// the last rail (and that ladder scrolls sideways in its box).
extension HTMLRenderer {
    struct LadderRails: Equatable {
        /// The parties with a rail, left to right.
        var columns: [Actor]
        /// From one rail to the next, in drawing units.
        var gap: Double

        /// The standard drawing's rails for `columns`.
        static func standard(_ columns: [Actor]) -> LadderRails {
            LadderRails(columns: columns, gap: (LadderGeometry.server - LadderGeometry.client) / Double(max(1, columns.count - 1)))
        }

        /// The x of a party's rail; nil for a party without one (the network, an eavesdropper).
        func x(_ actor: Actor) -> Double? {
            columns.firstIndex(of: actor).map { LadderGeometry.client + Double($0) * gap }
        }

        /// Every rail's x, left to right.
        var xs: [Double] { columns.indices.map { LadderGeometry.client + Double($0) * gap } }
        /// The last rail's x.
        var last: Double { xs.last ?? LadderGeometry.client }
        /// The drawing's width: as far right of the last rail as the standard drawing.
        var width: Double { last + LadderGeometry.width - LadderGeometry.server }
        /// Where the notes column starts, right of the last rail (clear of its party's head).
        var notesLeft: Double { last + LadderGeometry.notesLeft - LadderGeometry.server }
    }

    /// The rails of `walk`'s drawing: the standard ones, or further apart when a label holds a piece
    /// too wide for its lane there (a dot's lane, the narrowest, keeps 9 units from its own rail and 6
    /// from the next: the gap must hold the piece and 15 units), at most ``LadderGeometry/widest`` wide.
    func ladderRails(_ walk: Walkthrough, columns: [Actor]) -> LadderRails {
        typealias G = LadderGeometry
        let standard = LadderRails.standard(columns)
        guard columns.count > 1 else { return standard }
        var gap = standard.gap
        for step in walk.steps where placement(step, rails: standard).inNotes {
            gap = max(gap, Double(Self.widestPiece(fullLabel(step))) * G.character + 16)
        }
        let most = (G.widest - (G.width - G.server) - G.client) / Double(columns.count - 1)
        return LadderRails(columns: columns, gap: min(gap, max(standard.gap, most)))
    }

    /// The display columns of the widest piece of `text` no line may break inside.
    static func widestPiece(_ text: String) -> Int {
        text.split(separator: " ").flatMap { DisplayWidth.breakablePieces($0) }.map { DisplayWidth.columns($0) }.max() ?? 0
    }
}
