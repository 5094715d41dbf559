import PKI

/// A scenario file that cannot be used, located: `FILE:LINE:COLUMN: key.path: what was expected`.
///
/// Every problem with a file — YAML syntax, unknown key, wrong type, bad enum value, missing
/// required key, contradiction — becomes one of these; nothing is silently defaulted.
public struct ScenarioError: Error, Sendable, Equatable, CustomStringConvertible {
    public var file: String
    public var line: Int
    public var column: Int
    /// The dotted key path (`client.policy.afnetworking.mode`, `expect.alert`, `network.faults[1].nth`).
    public var path: String
    public var message: String
    /// The same explanation as a catalogue key with its values, for the surfaces that word it in
    /// another language (`tlslab check` keeps the `FILE:LINE:COLUMN: key.path:` prefix and words the
    /// rest); nil where only the English `message` exists yet.
    public var words: Words?

    /// A catalogue key and its values. `got` (what the file holds) is itself worded: a kind key
    /// (`scenario.got.string`) and the value; so is each of `parts` (what was expected:
    /// `scenario.expected.wholeNumber` with its bounds), filling the placeholder of its name.
    public struct Words: Sendable, Equatable {
        public var key: String
        public var values: [String: String]
        public var got: Got?
        public var parts: [String: Part]
        public struct Got: Sendable, Equatable {
            public var key: String
            public var value: String
        }
        /// A worded value inside the sentence: a catalogue key and its values, or a typed cause the
        /// renderer words itself (a PKI error with its nested facts).
        public struct Part: Sendable, Equatable {
            public var key: String
            public var values: [String: String]
            public var cause: Cause?
            public init(key: String, values: [String: String] = [:]) {
                self.key = key
                self.values = values
            }
            /// A part worded from a typed cause; `key` names the cause's kind for tests and logs.
            public init(cause: Cause) {
                switch cause {
                case .pki: key = "pkiError"
                case .builtInPKI: key = "builtInPKI"
                }
                values = [:]
                self.cause = cause
            }
        }
        /// An error of a lower module inside the sentence, as facts.
        public enum Cause: Sendable, Equatable {
            case pki(PKIError)
            case builtInPKI(BuiltInPKIFailure)
        }
        public init(key: String, values: [String: String] = [:], got: Got? = nil, parts: [String: Part] = [:]) {
            self.key = key
            self.values = values
            self.got = got
            self.parts = parts
        }
    }

    /// What a key or value should hold, in English (for `message`) and as catalogue words.
    public struct Expected: Sendable, Equatable {
        public var english: String
        public var words: Words.Part
        public init(_ english: String, _ key: String, _ values: [String: String] = [:]) {
            self.english = english
            self.words = .init(key: key, values: values)
        }
        /// `one of: a, b, c`.
        public static func oneOf(_ choices: [String]) -> Expected {
            .init("one of: \(choices.joined(separator: ", "))", "scenario.expected.oneOf", ["list": choices.joined(separator: ", ")])
        }
        /// `a whole number in 1...10`.
        public static func wholeNumber(_ range: ClosedRange<Int>) -> Expected {
            .init("a whole number in \(range.lowerBound)...\(range.upperBound)", "scenario.expected.wholeNumber",
                  ["lowest": "\(range.lowerBound)", "highest": "\(range.upperBound)"])
        }
        /// `client or server`.
        public static let clientOrServer = Expected("client or server", "scenario.expected.clientOrServer")
    }

    public init(file: String, line: Int, column: Int, path: String, message: String, words: Words? = nil) {
        self.file = file
        self.line = line
        self.column = column
        self.path = path
        self.message = message
        self.words = words
    }

    /// A located error whose explanation is `words` (worded by the catalogue) and `message` (English).
    public init(file: String, line: Int, column: Int, path: String, _ message: String, _ key: String,
                _ values: [String: String] = [:], parts: [String: Words.Part] = [:]) {
        self.init(file: file, line: line, column: column, path: path, message: message,
                  words: Words(key: key, values: values, parts: parts))
    }

    public var description: String {
        "\(file):\(line):\(column): \(path.isEmpty ? "" : path + ": ")\(message)"
    }
    /// The dotted path of `key` inside the section `parent` (`http` and `response`: `http.response`).
    /// A lesson file's key path, not a catalogue key.
    static func keyPath(_ parent: String, _ key: String) -> String { [parent, key].joined(separator: ".") }
}

/// Near-miss spelling suggestions.
enum Spelling {
    /// Edit distance with insert, delete, substitute and swapping two neighbours (optimal string
    /// alignment: a swapped pair, the commonest typo, costs one edit), case-insensitive.
    static func distance(_ a: String, _ b: String) -> Int {
        let x = Array(a.lowercased()), y = Array(b.lowercased())
        if x.isEmpty { return y.count }
        if y.isEmpty { return x.count }
        var beforePrevious = [Int](repeating: 0, count: y.count + 1)
        var previous = Array(0 ... y.count)
        var current = [Int](repeating: 0, count: y.count + 1)
        for i in 1 ... x.count {
            current[0] = i
            for j in 1 ... y.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (x[i - 1] == y[j - 1] ? 0 : 1))
                if i > 1, j > 1, x[i - 1] == y[j - 2], x[i - 2] == y[j - 1] {
                    current[j] = min(current[j], beforePrevious[j - 2] + 1)
                }
            }
            (beforePrevious, previous, current) = (previous, current, beforePrevious)
        }
        return previous[y.count]
    }

    /// The closest candidate within a third of its length (at least 2 edits), if any.
    static func suggestion(for word: String, among candidates: [String]) -> String? {
        guard word.count <= 200 else { return nil }
        let scored = candidates.map { ($0, distance(word, $0)) }
        guard let best = scored.min(by: { $0.1 < $1.1 }) else { return nil }
        if best.1 <= max(2, best.0.count / 3) { return best.0 }
        // A shortened key (`pushed` for `pushed_responses`): the one candidate it begins.
        let longer = candidates.filter { word.count >= 4 && $0.lowercased().hasPrefix(word.lowercased()) }
        return longer.count == 1 ? longer[0] : nil
    }

    /// `; did you mean 'x'?` or nothing.
    static func hint(for word: String, among candidates: [String]) -> String {
        suggestion(for: word, among: candidates).map { "; did you mean '\($0)'?" } ?? ""
    }
}
