/// The secret an eavesdropper looks for in an HTTP message: its `Cookie:` header line.
public enum HTTPCookieLine {
    /// The first `Cookie:` header line of an HTTP message, as bytes.
    public static func find(in bytes: [UInt8]) -> [UInt8]? {
        let text = String(decoding: bytes, as: UTF8.self)
        return text.split(separator: "\r\n").first { $0.lowercased().hasPrefix("cookie:") }.map { Array($0.utf8) }
    }
}
