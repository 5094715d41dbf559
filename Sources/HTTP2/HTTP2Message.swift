/// HTTP/1.x message texts (how scenarios write requests and responses) as HTTP/2 header lists
/// (RFC 9113 §8.3), and HTTP/2 messages as text for the trace.
public enum HTTP2Message {
    /// Connection-specific fields HTTP/2 forbids (RFC 9113 §8.2.2); Host becomes :authority.
    static let connectionSpecific: Set<String> = ["connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade", "host"]

    static func lines(_ text: String) -> (first: String, fields: [HPACKHeaderField], body: String) {
        let head: Substring, body: Substring
        if let range = text.range(of: "\r\n\r\n") {
            head = text[..<range.lowerBound]
            body = text[range.upperBound...]
        } else {
            head = Substring(text)
            body = ""
        }
        var lines = head.split(separator: "\r\n", omittingEmptySubsequences: false).map(String.init)
        let first = lines.isEmpty ? "" : lines.removeFirst()
        let fields = lines.compactMap { line -> HPACKHeaderField? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            let name = line[..<colon].lowercased().trimmingCharacters(in: .whitespaces)
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            return name.isEmpty ? nil : HPACKHeaderField(name, value)
        }
        return (first, fields, String(body))
    }

    /// A request's header list: :method, :scheme, :authority (from Host), :path, then the other
    /// fields lowercased, without connection-specific ones.
    public static func requestFields(_ text: String, scheme: String) -> [HPACKHeaderField] {
        let (first, fields, _) = lines(text)
        let parts = first.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        var out = [HPACKHeaderField(":method", parts.first ?? "GET"), HPACKHeaderField(":scheme", scheme)]
        if let host = fields.first(where: { $0.name == "host" }) { out.append(HPACKHeaderField(":authority", host.value)) }
        out.append(HPACKHeaderField(":path", parts.count > 1 ? parts[1] : "/"))
        return out + fields.filter { !connectionSpecific.contains($0.name) }
    }

    /// A request's body: what follows the blank line, sent in DATA frames (RFC 9113 §8.1).
    public static func requestBody(_ text: String) -> [UInt8] { Array(lines(text).body.utf8) }

    /// A pushed request's header list (RFC 9113 §8.4: a safe, cacheable GET with the parent's authority).
    public static func pushedRequestFields(path: String, like parent: [HPACKHeaderField]) -> [HPACKHeaderField] {
        parent.filter { $0.name.hasPrefix(":") }.map { field in
            switch field.name {
            case ":path": return HPACKHeaderField(":path", path)
            case ":method": return HPACKHeaderField(":method", "GET")
            default: return field
            }
        }
    }

    /// A response's header list (:status from the status line) and body.
    public static func response(_ text: String) -> (fields: [HPACKHeaderField], body: [UInt8]) {
        let (first, fields, body) = lines(text)
        let parts = first.split(separator: " ", omittingEmptySubsequences: true)
        let status = parts.count > 1 ? String(parts[1]) : "200"
        return ([HPACKHeaderField(":status", status)] + fields.filter { !connectionSpecific.contains($0.name) }, Array(body.utf8))
    }

    /// The message as the trace shows it: one `name: value` line per field, a blank line, the body.
    public static func text(_ fields: [HPACKHeaderField], body: [UInt8] = []) -> String {
        fields.map { "\($0.name): \($0.value)\r\n" }.joined() + "\r\n" + String(decoding: body, as: UTF8.self)
    }

    /// Why a request is malformed (RFC 9113 §8.1.1, §8.2.1, §8.3.1), nil when it is well-formed:
    /// uppercase field names, pseudo-header fields after regular ones or unknown, a missing :method,
    /// :scheme or :path (CONNECT aside), and a content-length the body does not match.
    public static func malformedRequest(_ fields: [HPACKHeaderField], body: [UInt8]) -> HTTP2MalformedRequest? {
        var regularSeen = false
        var pseudo: [String: String] = [:]
        for field in fields {
            if field.name.contains(where: { $0.isUppercase }) { return .uppercaseFieldName(field.name) }
            if field.name.hasPrefix(":") {
                guard !regularSeen else { return .pseudoHeaderAfterRegular(field.name) }
                guard [":method", ":scheme", ":authority", ":path"].contains(field.name) else {
                    return .unknownPseudoHeader(field.name)
                }
                guard pseudo[field.name] == nil else { return .repeatedPseudoHeader(field.name) }
                pseudo[field.name] = field.value
            } else {
                regularSeen = true
                if field.name != "host", connectionSpecific.contains(field.name) {
                    return .connectionSpecificField(field.name)
                }
            }
        }
        if pseudo[":method"] != "CONNECT" {
            for name in [":method", ":scheme", ":path"] where (pseudo[name] ?? "").isEmpty {
                return .missingPseudoHeader(name)
            }
        }
        let lengths = fields.filter { $0.name == "content-length" }.map(\.value)
        if let length = lengths.first {
            guard lengths.allSatisfy({ $0 == length }), let n = Int(length), n >= 0 else { return .contentLengthNotOneNumber(length) }
            guard n == body.count else { return .contentLengthMismatch(declared: n, body: body.count) }
        }
        return nil
    }
}
