import HTTP2
import TCPSim
import Trace

/// Where the ladder's columns sit and which stream bytes carry which TLS message: read off the
/// trace once, before drawing. Only maps offsets; it computes no protocol value. The document's
/// builder reads the time column's width and the stream map; the printer the columns.
struct LadderLayout: Sendable {
    /// Width of the time column (the widest time in the trace).
    var timeWidth = 9
    /// Client, attacker (when one acts), server — left to right.
    var columns: [Actor] = [.client, .server]
    /// Width of the ladder graphic.
    var ladderWidth = 22
    var spans: [Pair: [StreamSpan]] = [:]

    struct Pair: Hashable, Sendable {
        var source: TCPEndpoint
        var destination: TCPEndpoint
    }

    init() {}

    /// `walkthrough`: times without their unit (the sticky header names it) and rails that narrow
    /// with the screen down to what the column names need, so message names keep their room.
    init(trace: Trace, width: Int, walkthrough: Bool = false) {
        let latest = trace.events.map(\.time).max() ?? 0
        columns = trace.hasAttacker ? [.client, .attacker, .server] : [.client, .server]
        if walkthrough {
            timeWidth = max(4, RunDocument.timeText(latest, unit: false).count)
            // "client server" and "client attacker server" above their rails, a space apart.
            ladderWidth = min(26, max(columns.count == 3 ? 24 : 13, (width - timeWidth - 4) / 4))
        } else {
            timeWidth = max(9, RunDocument.timeText(latest).count)
            // The text column keeps at least about half the screen.
            ladderWidth = min(26, max(columns.count == 3 ? 23 : 15, (width - timeWidth - 4) / 4))
        }
        for span in trace.streamSpans {
            spans[Pair(source: span.source, destination: span.destination), default: []].append(span)
        }
    }

    func position(_ actor: Actor) -> Int? {
        guard columns.contains(actor) else { return nil }
        switch actor {
        case .client: return 0
        case .server: return ladderWidth - 1
        case .attacker: return (ladderWidth - 1) / 2
        default: return nil
        }
    }

    /// The spans a segment's payload overlaps, and whether it holds only part of each.
    func carried(_ p: TCPPacket, injected: Bool = false) -> [(span: StreamSpan, partial: Bool)] {
        let length = p.segment.payload.count
        guard length > 0, let list = spans[Pair(source: p.sourceEndpoint, destination: p.destinationEndpoint)] else { return [] }
        var out: [(StreamSpan, Bool)] = []
        for span in list where span.injected == injected {
            // Stream offset of the segment's first byte (sequence numbers wrap modulo 2^32).
            let start = Int(p.segment.seq.rawValue &- span.firstSequence)
            let end = start + length
            guard span.offset < end, span.offset + span.length > start else { continue }
            out.append((span, span.offset < start || span.offset + span.length > end))
        }
        return out
    }
}

extension String {
    func trimmingTrailingSpaces() -> String {
        var s = self
        while s.hasSuffix(" ") { s.removeLast() }
        return s
    }
}
