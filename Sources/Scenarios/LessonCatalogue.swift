import Foundation

/// The lesson library as a course: every scenario file under a directory with its topic (the
/// first folder), kind and title, read without building its world; the suggested order through
/// the course; and name lookup with "did you mean" suggestions.
public struct LessonCatalogue: Sendable {
    /// One lesson: `name` is its path under the library without the extension (`tcp/old-duplicate-syn`).
    public struct Entry: Sendable, Hashable {
        public var name: String
        public var file: String
        public var topic: String
        public var kind: String
        public var title: String
        public var description: String
        /// False for a demo (no `expect`).
        public var checked: Bool
        /// The Chinese title and description (nil for a file without them); see ``title(for:)``.
        public var chinese: ChineseLessonText? = nil
    }

    public var directory: String
    public var entries: [Entry]
    /// Files that could not be read as lessons (their error, located).
    public var problems: [ScenarioError]

    /// The topics in the suggested order through the course: TCP first, then the TLS handshake and
    /// its key exchanges (RSA vs DHE vs ECDHE), the TLS 1.3 handshake beside it, certificates, pinning and AFNetworking (and the
    /// challenge handlers of real apps), ATS, mutual TLS, attacks, HTTP.
    public static let topicOrder = ["tcp", "tls", "tls13", "certs", "afnetworking", "challenge", "ats", "mtls", "attacks", "http"]

    /// Within a topic, the lessons to take first, in order; the rest follow alphabetically.
    static let firstInTopic: [String: [String]] = [
        "tcp": ["three-way-handshake", "old-duplicate-syn", "two-way-handshake-dead-connection", "lost-syn", "lost-data",
                "lost-segment-mid-record", "reordered-and-duplicated", "four-way-close", "half-close", "simultaneous-close", "time-wait-expires",
                "syn-flood", "syn-cookies", "predictable-isn-injection", "random-isn-injection"],
        "tls": ["rsa-one-way", "dhe", "ecdhe", "toy-dh-group", "toy-dh-search", "small-dh-group-refused", "ems-off", "ems-on",
                "https-hides-cookie", "lost-segments", "bleichenbacher-countermeasure", "early-ccs-refused"],
        "tls13": ["one-round-trip", "hello-retry-request", "resumption-psk", "client-certificate", "mitm-refused", "key-theft-opens-nothing",
                  "downgrade-sentinel", "zero-rtt", "zero-rtt-replayed", "zero-rtt-replay-single-use", "zero-rtt-replay-recorded"],
        "certs": ["valid-chain", "hierarchy-valid", "untrusted-root", "expired", "wrong-host", "missing-intermediate"],
        "afnetworking": ["mode-none-default", "v2.5.1-accepts-anything", "v2.5.2-no-host-check", "v2.5.2-validates-domain-yes", "certificate-pinning", "public-key-pinning"],
        "ats": ["default-blocks-http", "http-exception", "arbitrary-loads", "arbitrary-loads-with-exception", "tls10-blocked", "tls10-exception",
                "non-forward-secret-blocked"],
        "challenge": ["three-dispositions"],
        "mtls": ["success", "missing-client-certificate"],
        "attacks": ["http-plain-cookie", "forward-secrecy-rsa", "forward-secrecy-dhe", "forward-secrecy-ecdhe", "mitm-default-client"],
        "http": ["http10-one-request-per-connection", "keep-alive", "https-cost", "resumption", "resumption-ticket", "pipelining", "http2-multiplexing"],
    ]

    /// Reads every `*.yaml` under `directory` (sorted by name).
    public init(directory: String) {
        self.directory = directory
        var entries: [Entry] = [], problems: [ScenarioError] = []
        let base = directory.hasSuffix("/") ? String(directory.dropLast()) : directory
        for file in ScenarioCheck.files(under: [base]).files {
            let relative = String(file.dropFirst(base.count + 1))
            let name = ScenarioCheck.name(of: relative)
            do {
                let h = try ScenarioParser.header(contentsOf: file)
                let topic = name.contains("/") ? String(name.prefix { $0 != "/" }) : ""
                entries.append(Entry(name: name, file: file, topic: topic, kind: h.kind, title: h.title,
                                     description: h.description, checked: h.hasExpectations, chinese: h.chinese))
            } catch {
                problems.append(error)
            }
        }
        self.entries = entries
        self.problems = problems
    }

    /// The lessons in the suggested order: topics as in ``topicOrder`` (others after, by name),
    /// each topic's key lessons first.
    public var path: [Entry] {
        func rank(_ e: Entry) -> (Int, Int, String) {
            let topic = Self.topicOrder.firstIndex(of: e.topic) ?? Self.topicOrder.count
            let leaf = String(e.name.dropFirst(e.topic.isEmpty ? 0 : e.topic.count + 1))
            let first = Self.firstInTopic[e.topic]?.firstIndex(of: leaf) ?? Int.max
            return (topic, first, e.topic + "/" + leaf)
        }
        return entries.sorted { rank($0) < rank($1) }
    }

    /// The lessons whose topic, kind, name, title or description (English or Chinese) contains every
    /// word (case-insensitive).
    public func filtered(by words: [String]) -> [Entry] {
        entries.filter { e in
            let text = [e.topic, e.kind, e.name, e.title, e.description, e.chinese?.title ?? "", e.chinese?.description ?? ""]
                .joined(separator: " ").lowercased()
            return words.allSatisfy { text.contains($0.lowercased()) }
        }
    }

    /// The lesson `name` names: its path under the library, with or without `.yaml`.
    public func entry(named name: String) -> Entry? {
        let bare = ScenarioCheck.name(of: name)
        return entries.first { $0.name == bare }
    }

    /// Up to three names closest to `name` among `candidates`: the same last part in another topic
    /// first, then by edit distance (within about a third of the length).
    public static func suggestions(for name: String, among candidates: [String]) -> [String] {
        let bare = ScenarioCheck.name(of: name).lowercased()
        let last = bare.split(separator: "/").last.map(String.init) ?? bare
        let sameLeaf = candidates.filter { ($0.split(separator: "/").last.map(String.init) ?? $0).lowercased() == last }
        let scored = candidates.map { c -> (String, Int) in
            let leaf = c.split(separator: "/").last.map(String.init) ?? c
            return (c, min(Spelling.distance(bare, c), Spelling.distance(last, leaf)))
        }
        let close = scored.filter { $0.1 <= max(2, min(bare.count, $0.0.count) / 3) }.sorted { ($0.1, $0.0) < ($1.1, $1.0) }.map(\.0)
        let containing = candidates.filter { last.count >= 4 && $0.lowercased().contains(last) }
        var out: [String] = []
        for c in sameLeaf + close + containing where !out.contains(c) { out.append(c) }
        return Array(out.prefix(3))
    }
}

extension ScenarioParser {
    /// What a lesson file says about itself — title, description, kind, whether it has
    /// expectations — read without building its world (certificates, keys), for the catalogue.
    public struct Header: Sendable {
        public var title: String
        public var description: String
        public var kind: String
        public var hasExpectations: Bool
        /// `title_zh`, `description_zh`, `try_next_zh`, checked as in a full parse.
        public var chinese: ChineseLessonText?
    }

    public static func header(contentsOf path: String) throws(ScenarioError) -> Header {
        guard let data = FileManager.default.contents(atPath: path), data.count <= maximumFileSize,
              let text = String(validating: [UInt8](data), as: UTF8.self) else {
            throw ScenarioError(file: path, line: 1, column: 1, path: "", "cannot read the file as UTF-8 text of at most \(maximumFileSize) bytes",
                                "scenario.cannotReadText", ["limit": "\(maximumFileSize)"])
        }
        let root = try YAMLDocument.root(text: text, file: path)
        let top = try root.mapping(ScenarioReader.topKeys)
        let title = try top.required("title", .init("a one-line string: the lesson's name", "scenario.expected.title")).name(limit: 200)
        let description = try top.required("description", .init("a string of at least 20 characters that teaches the point", "scenario.expected.description")).prose()
        let kind = try top["kind"]?.oneOf(["tls", "tcp", "ats", "dh"]) ?? "tls"
        var tryNext: [String] = []
        if let next = top["try_next"] { tryNext = try ScenarioReader.tryNext(next) }
        let chinese = try ScenarioReader.chinese(top, tryNext: tryNext)
        return Header(title: title, description: description, kind: kind, hasExpectations: top.has("expect") || top.has("handlers"), chinese: chinese)
    }
}
