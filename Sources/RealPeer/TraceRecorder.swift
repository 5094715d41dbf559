#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HTTP2
import Trace
import Trust
import TLSEngine

/// Builds a real connection's trace with the simulation's event types. The TLS layer is exactly the
/// engine's events; the TCP layer is only what a socket shows (connect, accept, bytes, close), as
/// `phase` entries labelled "socket-level". Times are monotonic microseconds since the recorder started.
struct TraceRecorder {
    static let socketLabel = "socket-level (what the kernel lets us see)"

    private let start = TraceRecorder.monotonicMicroseconds()
    private(set) var events: [TraceEvent] = []
    private(set) var bytesRead = 0, bytesWritten = 0, reads = 0

    static func monotonicMicroseconds() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Int64(ts.tv_sec) * 1_000_000 + Int64(ts.tv_nsec) / 1_000
    }

    var now: Int64 { Self.monotonicMicroseconds() - start }

    mutating func phase(_ name: String) {
        events.append(TraceEvent(time: now, actor: .network, kind: .phase(name)))
    }

    mutating func socket(_ text: String) {
        phase("\(Self.socketLabel): \(text)")
    }

    mutating func http(_ event: HTTPEvent, by actor: Actor) {
        events.append(TraceEvent(time: now, actor: actor, kind: .http(event)))
    }

    mutating func http2(_ event: HTTP2Event, by actor: Actor) {
        events.append(TraceEvent(time: now, actor: actor, kind: .http2(event)))
    }

    mutating func read(_ count: Int) { bytesRead += count; reads += 1 }
    mutating func wrote(_ count: Int) { bytesWritten += count }

    var totals: String { "\(bytesWritten) bytes written, \(bytesRead) bytes read in \(reads) read(s)" }

    /// Adds a step's events, stamped now.
    mutating func record(_ step: TLSStep, by actor: Actor) {
        record(step.events[...], by: actor)
    }

    mutating func record(_ tlsEvents: ArraySlice<TLSEvent>, by actor: Actor) {
        let t = now
        for event in tlsEvents { events.append(TraceEvent(time: t, actor: actor, kind: .tls(event))) }
    }

    var trace: Trace { Trace(events: events) }
}

/// What one step tells a driver about how the connection goes on.
struct StepOutcome {
    var completed = false
    var fatalSent: (Alert, String)?
    var fatalReceived: Alert?
    var closeNotifyReceived = false
    var applicationData: [UInt8] = []

    init(_ step: TLSStep) {
        for event in step.events {
            switch event {
            case .handshakeCompleted: completed = true
            case .alertSent(let alert, let cause) where alert.isFatal:
                // The drivers print "alert: cause"; a cause that already starts with the alert's name loses it.
                let prefix = alert.alertDescription.displayName + ": "
                fatalSent = (alert, cause.hasPrefix(prefix) ? String(cause.dropFirst(prefix.count)) : cause)
            case .alertReceived(let alert) where alert.isFatal: fatalReceived = alert
            case .alertReceived(let alert) where alert.alertDescription == .closeNotify: closeNotifyReceived = true
            case .applicationDataReceived(let data): applicationData += data
            default: break
            }
        }
    }
}

extension AlertDescription {
    /// The RFC name (`handshake_failure`), or the number when unknown.
    var displayName: String { name ?? "\(self)" }
}

/// One NSS key log line's worth of secrets (`CLIENT_RANDOM <client_random> <master_secret>`).
public struct KeyLogEntry: Sendable, Hashable {
    public var clientRandom: [UInt8]
    public var masterSecret: [UInt8]

    /// The entry read off a trace's events (the ClientHello's random and the master secret derived).
    public static func from(_ events: [TraceEvent]) -> KeyLogEntry? {
        var random: [UInt8]?
        var master: [UInt8]?
        for event in events {
            guard case .tls(let tls) = event.kind else { continue }
            switch tls {
            case .handshakeSent(.clientHello(let hello), _), .handshakeReceived(.clientHello(let hello), _):
                random = random ?? hello.random.bytes
            case .derived(.masterSecret(_, _, _, _, let secret)):
                master = secret
            default:
                break
            }
        }
        guard let random, let master else { return nil }
        return KeyLogEntry(clientRandom: random, masterSecret: master)
    }
}
