/// Finds whole HTTP/1.x messages in a byte buffer (headers end at CRLF CRLF; a response's body
/// is Content-Length bytes; a request here has no body).
enum HTTPFraming {
    static func headerEnd(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for i in 0...(bytes.count - 4) where bytes[i] == 13 && bytes[i + 1] == 10 && bytes[i + 2] == 13 && bytes[i + 3] == 10 {
            return i + 4
        }
        return nil
    }

    static func request(in bytes: [UInt8]) -> (String, [UInt8])? {
        guard let end = headerEnd(bytes) else { return nil }
        return (String(decoding: bytes[..<end], as: UTF8.self), Array(bytes[end...]))
    }

    /// An HTTP/0.9 request: one line ending in CRLF (or LF).
    static func requestLine(in bytes: [UInt8]) -> (String, [UInt8])? {
        guard let lf = bytes.firstIndex(of: 10) else { return nil }
        return (String(decoding: bytes[...lf], as: UTF8.self), Array(bytes[(lf + 1)...]))
    }

    static func response(in bytes: [UInt8]) -> (String, [UInt8])? {
        guard let end = headerEnd(bytes) else { return nil }
        let headers = String(decoding: bytes[..<end], as: UTF8.self).lowercased()
        var length = 0
        if let line = headers.split(separator: "\r\n").first(where: { $0.hasPrefix("content-length:") }) {
            length = Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) ?? 0
        }
        guard bytes.count >= end + length else { return nil }
        return (String(decoding: bytes[..<(end + length)], as: UTF8.self), Array(bytes[(end + length)...]))
    }
}
