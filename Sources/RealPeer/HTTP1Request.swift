import Trace

/// The server's reading of an HTTP/1.x request head (RFC 9112).
enum HTTP1Request {
    /// The offset just past the empty line that ends the head, if it has arrived. Lines end in CR LF
    /// or a bare LF (RFC 9112 §2.2: "a recipient MAY recognize a single LF as a line terminator and
    /// ignore any preceding CR"); empty lines before the request line are not the end (§2.2: a
    /// server SHOULD ignore at least one). `from`: where new bytes start (earlier ones were searched).
    static func headEnd(in bytes: [UInt8], from: Int) -> Int? {
        let start = leadingEmptyLines(bytes)
        var i = max(start, from - 3, 0)
        while i < bytes.count {
            if bytes[i] == 10, i > start {
                // LF LF, or LF CR LF: an empty line.
                if i + 1 < bytes.count, bytes[i + 1] == 10 { return i + 2 }
                if i + 2 < bytes.count, bytes[i + 1] == 13, bytes[i + 2] == 10 { return i + 3 }
            }
            i += 1
        }
        return nil
    }

    /// How many bytes of empty lines (CR LF or LF) come before the request line.
    static func leadingEmptyLines(_ bytes: [UInt8]) -> Int {
        var i = 0
        while i < bytes.count {
            if bytes[i] == 10 { i += 1 } else if bytes[i] == 13, i + 1 < bytes.count, bytes[i + 1] == 10 { i += 2 } else { break }
        }
        return i
    }

    /// The request line's bytes (without its line end).
    static func requestLine(_ bytes: [UInt8]) -> ArraySlice<UInt8> {
        let rest = bytes[leadingEmptyLines(bytes)...]
        var line = rest.prefix { $0 != 10 }
        if line.last == 13 { line = line.dropLast() }
        return line
    }

    enum Verdict: Equatable {
        case ok
        /// 400: not `method SP request-target SP HTTP-version` (RFC 9112 §3).
        case badRequest(HTTPRequestLineFault)
        /// 505: a well-formed line naming an HTTP major version other than 1 (RFC 9110 §15.6.6).
        case versionNotSupported(HTTPRequestLineFault)
    }

    /// RFC 9112 §3: `request-line = method SP request-target SP HTTP-version`, method a token
    /// (RFC 9110 §5.6.2), the target visible ASCII (no spaces, no controls), the version `HTTP/D.D`.
    static func check(requestLine line: ArraySlice<UInt8>) -> Verdict {
        let parts = line.split(separator: 32, omittingEmptySubsequences: false)
        guard parts.count == 3 else {
            return .badRequest(.notThreeParts)
        }
        let method = parts[0], target = parts[1], version = Array(parts[2])
        guard !method.isEmpty, method.allSatisfy(isTokenCharacter) else {
            return .badRequest(.methodNotToken)
        }
        guard !target.isEmpty, target.allSatisfy({ $0 > 32 && $0 < 127 }) else {
            return .badRequest(.badTarget)
        }
        guard version.count == 8, version.starts(with: Array("HTTP/".utf8)), isDigit(version[5]), version[6] == UInt8(ascii: "."),
              isDigit(version[7]) else {
            return .badRequest(.badVersion)
        }
        guard version[5] == UInt8(ascii: "1") else {
            return .versionNotSupported(.unsupportedVersion("HTTP/\(Character(Unicode.Scalar(version[5]))).\(Character(Unicode.Scalar(version[7])))"))
        }
        return .ok
    }

    static func isDigit(_ b: UInt8) -> Bool { b >= 48 && b <= 57 }

    /// RFC 9110 §5.6.2: tchar = "!" / "#" / "$" / "%" / "&" / "'" / "*" / "+" / "-" / "." / "^" / "_" / "`" / "|" / "~" / DIGIT / ALPHA
    static func isTokenCharacter(_ b: UInt8) -> Bool {
        if isDigit(b) || (b >= 65 && b <= 90) || (b >= 97 && b <= 122) { return true }
        return Array("!#$%&'*+-.^_`|~".utf8).contains(b)
    }

    static func response(status: String) -> String {
        "HTTP/1.1 \(status)\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
    }
}
