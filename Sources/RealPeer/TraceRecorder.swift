#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HTTP2
import Trace
import TLSEngine

/// Builds a real connection's trace with the simulation's event types. The TLS layer is exactly the
/// engine's events; the TCP layer is only what a socket shows (connect, accept, bytes, close), as
/// `phase` entries labelled "socket-level". Times are monotonic microseconds since the recorder started.
///
/// The trace is bounded whatever the peer does: at most ``TraceLimits/events`` events and about
/// ``TraceLimits/bytes`` bytes of record and message contents are kept; later events are counted,
/// not kept, and the trace ends with a note saying how many were left out. A recorder made with
/// `keepsEvents: false` (`serve --log-only`) keeps none at all. The key log entry and the totals are
/// kept either way.
struct TraceRecorder {

    private let start = TraceRecorder.monotonicMicroseconds()
    private(set) var events: [TraceEvent] = []
    private(set) var bytesRead = 0, bytesWritten = 0, reads = 0
    let keepsEvents: Bool
    private let limits: TraceLimits
    private var keptBytes = 0
    /// Events seen but not kept (over the limits).
    private(set) var droppedEvents = 0
    /// The key log entry, paired from every TLS event as it goes by (kept or not).
    private var keyLogPairing = KeyLogPairing()

    init(keepsEvents: Bool = true, limits: TraceLimits = TraceLimits()) {
        self.keepsEvents = keepsEvents
        self.limits = limits
    }

    /// Keeps an event while the trace is within its limits.
    private mutating func keep(_ event: TraceEvent) {
        guard keepsEvents else { return }
        let size = Self.approximateSize(event)
        guard events.count < limits.events, keptBytes + size <= limits.bytes else { droppedEvents += 1; return }
        keptBytes += size
        events.append(event)
    }

    /// What an event holds in bytes, roughly: the contents that can be large; 64 for the rest.
    static func approximateSize(_ event: TraceEvent) -> Int {
        switch event.kind {
        case .tls(let tls):
            switch tls {
            case .recordSent(let r), .recordReceived(let r): return 64 + r.plaintext.count + r.wire.count
            case .handshakeSent(_, let bytes), .handshakeReceived(_, let bytes): return 64 + 2 * bytes.count
            case .applicationDataSent(let d), .applicationDataReceived(let d): return 64 + d.count
            default: return 64
            }
        case .http(let h):
            switch h {
            case .requestSent(let t), .requestReceived(let t), .responseSent(let t), .responseReceived(let t):
                return 64 + t.utf8.count
            case .failed: return 256
            case .requestRetried(let t, _): return 64 + t.utf8.count
            }
        default:
            return 64
        }
    }

    /// The connection's NSS key log entry, learned as the events went by (kept or not).
    var keyLog: KeyLogEntry? { keyLogPairing.entry }

    static func monotonicMicroseconds() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Int64(ts.tv_sec) * 1_000_000 + Int64(ts.tv_nsec) / 1_000
    }

    var now: Int64 { Self.monotonicMicroseconds() - start }

    mutating func phase(_ phase: Phase) {
        keep(TraceEvent(time: now, actor: .network, kind: .phase(phase)))
    }

    mutating func socket(_ note: SocketNote) {
        phase(.socket(note))
    }

    mutating func http(_ event: HTTPEvent, by actor: Actor) {
        keep(TraceEvent(time: now, actor: actor, kind: .http(event)))
    }

    mutating func http2(_ event: HTTP2Event, by actor: Actor) {
        keep(TraceEvent(time: now, actor: actor, kind: .http2(event)))
    }

    mutating func read(_ count: Int) { bytesRead += count; reads += 1 }
    mutating func wrote(_ count: Int) { bytesWritten += count }

    /// close(2)'s note, with the connection's totals.
    var closed: SocketNote { .closed(written: bytesWritten, read: bytesRead, reads: reads) }

    /// Adds a step's events, stamped now.
    mutating func record(_ step: TLSStep, by actor: Actor) {
        record(step.events[...], by: actor)
    }

    mutating func record(_ tlsEvents: ArraySlice<TLSEvent>, by actor: Actor) {
        let t = now
        for event in tlsEvents {
            keyLogPairing.add(event)
            keep(TraceEvent(time: t, actor: actor, kind: .tls(event)))
        }
    }

    /// The events kept, and a last note when some were not.
    var trace: Trace {
        guard droppedEvents > 0 else { return Trace(events: events) }
        let note = TraceEvent(time: now, actor: .network, kind: .phase(
            .traceLimit(dropped: droppedEvents, events: limits.events, mebibytes: limits.bytes / 1_048_576)))
        return Trace(events: events + [note])
    }
}

/// How much of a real connection's trace is kept in memory.
public struct TraceLimits: Sendable {
    public var events: Int
    public var bytes: Int

    public init(events: Int = 4_096, bytes: Int = 4 << 20) {
        self.events = events
        self.bytes = bytes
    }
}
