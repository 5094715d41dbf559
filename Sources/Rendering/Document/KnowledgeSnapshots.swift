import Foundation
import TCPSim
import Trace

/// The knowledge table after each event of one trace, without computing it for every event.
/// The table reads only the first connection's TLS, HTTP and attack events and the bytes its
/// segments carry (and, when HTTP/2 was used, every segment's bytes: the first flow's frames); any
/// other event — an ACK, a state change, a later connection's traffic — leaves it as it was.
/// Between two such TLS/HTTP/attack events, a run of segments only adds bytes to the wire, and a
/// value once on the wire stays there: the table can only change a few flags, each once, so it is
/// computed at a run's ends and, where they differ, by bisection (without HTTP/2, whose decoding of
/// the frames is not monotone in that way). The HTML page asks for every step's panel: before, a
/// keep-alive lesson of 100 responses took 23 s in release, an HTTP/1.0 one of 100 connections 22 s.
final class KnowledgeSnapshots: @unchecked Sendable {
    let trace: Trace
    /// For each event, the index of the last event at or before it that can change the table (-1: none).
    let source: [Int]
    /// Runs of consecutive table-changing events that are all segments with bytes (the events'
    /// indices), and for each event the run it belongs to (-1: none).
    let runs: [[Int]]
    let runOfEvent: [Int]
    let http2: Bool
    private var cache: [Int: KnowledgeTable] = [:]
    private var resolvedRuns: Set<Int> = []
    private let lock = NSLock()

    init(trace: Trace) {
        self.trace = trace
        let http2 = trace.events.contains { if case .http2 = $0.kind { true } else { false } }
        self.http2 = http2
        var last = -1
        var source: [Int] = [], runs: [[Int]] = [], runOfEvent: [Int] = []
        var current: [Int] = []
        source.reserveCapacity(trace.events.count)
        runOfEvent.reserveCapacity(trace.events.count)
        var firstHTTP = FirstHTTP()
        for (index, event) in trace.events.enumerated() {
            var run = -1
            switch Self.change(event, http2: http2, first: &firstHTTP) {
            case .none: break
            case .bytes:
                last = index
                current.append(index)
                run = runs.count
            case .other:
                last = index
                if !current.isEmpty { runs.append(current); current = [] }
            }
            source.append(last)
            runOfEvent.append(run)
        }
        if !current.isEmpty { runs.append(current) }
        self.source = source
        self.runs = runs
        self.runOfEvent = runOfEvent
    }

    enum Change { case none, bytes, other }

    /// The HTTP messages the table reads: each side's first request and response (and every
    /// response an attacker receives).
    struct FirstHTTP {
        var requestSent = false, requestReceived = false, responseSent = false, responseReceived = false
    }

    /// How `event` can change ``Trace/knowledge`` (see the type's note): conservatively, every TLS
    /// event but records, application data and state changes of the client and the server, every
    /// TLS event of an attacker, every attack, and the HTTP messages ``FirstHTTP`` names.
    static func change(_ event: TraceEvent, http2: Bool, first: inout FirstHTTP) -> Change {
        switch event.kind {
        case .tcp(.sent(let p)), .tcp(.forwarded(let p, _)), .tcp(.injected(let p)):
            guard !p.segment.payload.isEmpty, event.connection == 0 || http2 else { return .none }
            return .bytes
        case .http2: return .other
        case .tls(let tls):
            guard event.connection == 0 else { return .none }
            if event.actor == .client || event.actor == .server {
                switch tls {
                case .recordSent, .recordReceived, .applicationDataSent, .applicationDataReceived, .stateChanged: return .none
                default: return .other
                }
            }
            return .other
        case .attack: return event.connection == 0 ? .other : .none
        case .http(let http):
            guard event.connection == 0 else { return .none }
            switch (http, event.actor) {
            case (.requestSent, .client):
                defer { first.requestSent = true }
                return first.requestSent ? .none : .other
            case (.requestReceived, .server):
                defer { first.requestReceived = true }
                return first.requestReceived ? .none : .other
            case (.responseSent, .server):
                defer { first.responseSent = true }
                return first.responseSent ? .none : .other
            case (.responseReceived, .client):
                defer { first.responseReceived = true }
                return first.responseReceived ? .none : .other
            case (.responseReceived, .attacker): return .other
            default: return .none
            }
        default: return .none
        }
    }

    func table(through index: Int) -> KnowledgeTable {
        lock.lock()
        defer { lock.unlock() }
        let key = index >= 0 && index < source.count ? source[index] : index
        if let table = cache[key] { return table }
        if !http2, key >= 0, key < runOfEvent.count, runOfEvent[key] >= 0 {
            resolve(run: runOfEvent[key])
            if let table = cache[key] { return table }
        }
        let table = trace.knowledge(through: key)
        cache[key] = table
        return table
    }

    static func same(_ a: KnowledgeTable, _ b: KnowledgeTable) -> Bool { a.rows == b.rows && a.decodedHTTP2 == b.decodedHTTP2 }

    /// Every table of a run of segments: equal ends mean equal everything between (the flags only
    /// turn on); otherwise each half in turn.
    private func resolve(run id: Int) {
        guard resolvedRuns.insert(id).inserted else { return }
        let run = runs[id]
        var tables: [Int: KnowledgeTable] = [:]
        func at(_ p: Int) -> KnowledgeTable {
            if let t = tables[p] { return t }
            let t = cache[run[p]] ?? trace.knowledge(through: run[p])
            tables[p] = t
            return t
        }
        func fill(_ lo: Int, _ hi: Int) {
            let a = at(lo), b = at(hi)
            if Self.same(a, b) {
                for p in lo ... hi where tables[p] == nil { tables[p] = a }
                return
            }
            guard hi - lo > 1 else { return }
            let mid = (lo + hi) / 2
            fill(lo, mid)
            fill(mid, hi)
        }
        fill(0, run.count - 1)
        for (p, index) in run.enumerated() { cache[index] = tables[p] }
    }
}
