import Trace

/// Just enough HTTP/1.x to know, as the bytes come, whether a response is whole (RFC 9112 §6.3):
/// the head ends at its blank line; then the body is none (a response to HEAD, a 1xx, 204 or 304
/// status), chunked (Transfer-Encoding ending in chunked, RFC 9112 §7.1), Content-Length bytes, or
/// everything up to the end of the connection. Each byte is looked at a bounded number of times, so
/// reading a long response stays linear.
struct HTTP1ResponseReader {
    enum Framing: Equatable {
        case none
        case length(Int)
        case chunked
        case untilClose
    }

    /// The response to a HEAD request has no body, whatever its head says (RFC 9110 §9.3.2).
    let headRequest: Bool
    private(set) var bytes: [UInt8] = []
    /// Where the blank line search resumes, and where the head being looked for starts (after any 1xx).
    private var scanned = 0
    private var headStart = 0
    /// The index just after the head's blank line, once seen.
    private(set) var bodyStart: Int?
    private(set) var framing: Framing?
    /// Chunked: where the next chunk-size line starts, and whether the last chunk and trailers arrived.
    private var chunkCursor = 0
    private var chunkedDone = false
    /// Chunked: a chunk-size line that is not hex (the body cannot be delimited any more).
    private var chunkedMalformed = false

    init(headRequest: Bool) { self.headRequest = headRequest }

    var count: Int { bytes.count }

    mutating func append(_ data: [UInt8]) {
        guard !data.isEmpty else { return }
        bytes += data
        if bodyStart == nil { findHead() }
        if framing == .chunked { advanceChunks() }
    }

    /// Whether the response is whole without waiting for the end of the connection.
    var isComplete: Bool {
        guard let bodyStart, let framing else { return false }
        switch framing {
        case .none: return true
        case .length(let n): return bytes.count - bodyStart >= n
        case .chunked: return chunkedDone
        case .untilClose: return false
        }
    }

    /// Why the response is not whole now that the connection ended (`closeNotify`: with close_notify);
    /// nil when it is.
    func truncation(closeNotify: Bool) -> ResponseTruncation? {
        guard let bodyStart, let framing else { return .headIncomplete(bytes: bytes.count) }
        switch framing {
        case .none: return nil
        case .length(let n):
            let received = bytes.count - bodyStart
            return received >= n ? nil : .shorterThanContentLength(received: received, expected: n)
        case .chunked: return chunkedDone ? nil : .chunkedUnterminated(bytes: bytes.count)
        case .untilClose: return closeNotify ? nil : .notClosedProperly(bytes: bytes.count)
        }
    }

    private mutating func findHead() {
        var i = max(headStart, scanned - 3)
        var found = false
        while i + 4 <= bytes.count {
            if bytes[i] == 13, bytes[i + 1] == 10, bytes[i + 2] == 13, bytes[i + 3] == 10 { found = true; break }
            i += 1
        }
        guard found else { scanned = bytes.count; return }
        let head = String(decoding: bytes[headStart ..< i], as: UTF8.self)
        let lines = head.split(separator: "\r\n", omittingEmptySubsequences: false)
        let status = lines.first.flatMap { $0.split(separator: " ").dropFirst().first }.flatMap { Int($0) } ?? 200
        // An interim 1xx response (RFC 9110 §15.2) is followed by the final one: skip it.
        if (100 ..< 200).contains(status), status != 101 {
            headStart = i + 4
            scanned = i + 4
            findHead()
            return
        }
        bodyStart = i + 4
        var length: Int?
        var chunked = false
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces).lowercased()
            if name == "transfer-encoding" {
                chunked = value.split(separator: ",").last.map { $0.trimmingCharacters(in: .whitespaces) == "chunked" } ?? false
            } else if name == "content-length" {
                length = Int(value)
            }
        }
        if headRequest || status == 204 || status == 304 || (100 ..< 200).contains(status) {
            framing = Framing.none
        } else if chunked {
            framing = .chunked
            chunkCursor = i + 4
        } else if let length, length >= 0 {
            framing = .length(length)
        } else {
            framing = .untilClose
        }
    }

    /// Walks the chunks that have arrived: `size CRLF data CRLF`, then `0 CRLF`, trailers and a CRLF.
    private mutating func advanceChunks() {
        while !chunkedDone, !chunkedMalformed {
            guard let lineEnd = crlf(from: chunkCursor) else {
                // A chunk-size line is a few hex digits and an extension at most: one this long is not.
                if bytes.count - chunkCursor > 4_096 { chunkedMalformed = true }
                return
            }
            let line = bytes[chunkCursor ..< lineEnd].prefix { $0 != UInt8(ascii: ";") }
            let digits = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespaces)
            guard !digits.isEmpty, digits.count <= 15, let size = Int(digits, radix: 16) else { chunkedMalformed = true; return }
            if size == 0 {
                // Trailer fields, each ending in CRLF, then an empty line.
                var cursor = lineEnd + 2
                while let end = crlf(from: cursor) {
                    if end == cursor { chunkedDone = true; return }
                    cursor = end + 2
                }
                return
            }
            let next = lineEnd + 2 + size + 2
            guard next <= bytes.count else { return }
            chunkCursor = next
        }
    }

    /// The index of the next CRLF at or after `start`.
    private func crlf(from start: Int) -> Int? {
        var i = start
        while i + 1 < bytes.count {
            if bytes[i] == 13, bytes[i + 1] == 10 { return i }
            i += 1
        }
        return nil
    }
}
