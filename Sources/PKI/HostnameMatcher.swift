/// Server identity checks (RFC 9525, which obsoletes RFC 6125).
///
/// Choice: RFC 9525 §6.3 — only subjectAltName is consulted; the subject CN is never used as a
/// fallback, even when a certificate has no SAN. DNS names compare case-insensitively (ASCII);
/// a wildcard is allowed only as the complete left-most label (`*.example.com`), matches exactly
/// one non-empty label, and needs at least two labels after it. IP literals match only iPAddress SANs.
public enum HostnameMatcher {
    /// The reference identity the client wants.
    public enum Reference: Sendable, Hashable, CustomStringConvertible {
        case dns(String)
        case ip([UInt8])

        /// An IPv4/IPv6 literal becomes `.ip`, anything else `.dns` (lower-cased, trailing dot removed).
        public init(_ host: String) {
            if let v4 = HostnameMatcher.parseIPv4(host) { self = .ip(v4) }
            else if let v6 = HostnameMatcher.parseIPv6(host) { self = .ip(v6) }
            else {
                var name = host.lowercased()
                if name.hasSuffix(".") { name.removeLast() }
                self = .dns(name)
            }
        }

        public var description: String {
            switch self {
            case .dns(let name): return name
            case .ip(let bytes): return HostnameMatcher.format(ip: bytes)
            }
        }
    }

    /// Does `certificate` cover `host`? The verdict and what decided it, as facts.
    public static func finding(_ certificate: X509Certificate, host: String) -> (matches: Bool, finding: NameFinding) {
        let reference = Reference(host)
        let ext = certificate.extensions
        switch reference {
        case .ip(let bytes):
            if ext.ipAddresses.contains(bytes) { return (true, .ipAddressMatches(ip: format(ip: bytes))) }
            return (false, .ipAddressNotListed(ip: reference.description, listed: ext.ipAddresses.map(format(ip:))))
        case .dns(let name):
            guard let names = ext.dnsNames, !names.isEmpty else {
                return (false, .noDNSName(host: name))
            }
            for pattern in names where matches(pattern: pattern, host: name) {
                return (true, .dnsNameMatches(pattern: pattern, host: name))
            }
            return (false, .noDNSNameMatches(host: name, names: names))
        }
    }

    /// One presented identifier against one DNS reference identity (RFC 9525 §6.3, §6.4).
    public static func matches(pattern rawPattern: String, host rawHost: String) -> Bool {
        var pattern = rawPattern.lowercased()
        var host = rawHost.lowercased()
        if pattern.hasSuffix(".") { pattern.removeLast() }
        if host.hasSuffix(".") { host.removeLast() }
        guard !host.isEmpty, !pattern.isEmpty, parseIPv4(host) == nil, parseIPv6(host) == nil else { return false }
        let patternLabels = pattern.split(separator: ".", omittingEmptySubsequences: false)
        let hostLabels = host.split(separator: ".", omittingEmptySubsequences: false)
        guard !patternLabels.contains(where: \.isEmpty), !hostLabels.contains(where: \.isEmpty),
              patternLabels.count == hostLabels.count else { return false }
        for (index, label) in patternLabels.enumerated() where label.contains("*") {
            // Only a complete left-most `*` label, with at least two labels after it.
            guard index == 0, label == "*", patternLabels.count >= 3 else { return false }
        }
        if hostLabels.contains(where: { $0.contains("*") }) { return false }
        // Presented names are LDH labels (RFC 1034 §3.5, RFC 5280 §4.2.1.6): no `_` or other characters.
        let ldh = Set("abcdefghijklmnopqrstuvwxyz0123456789-")
        for label in patternLabels where label != "*" && !label.allSatisfy({ ldh.contains($0) }) { return false }
        return zip(patternLabels, hostLabels).allSatisfy { $0 == "*" || $0 == $1 }
    }

    static func parseIPv4(_ text: String) -> [UInt8]? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var bytes: [UInt8] = []
        for part in parts {
            guard !part.isEmpty, part.count <= 3, part.allSatisfy(\.isNumber), let value = UInt8(part),
                  part == "0" || !part.hasPrefix("0") else { return nil }
            bytes.append(value)
        }
        return bytes
    }

    static func parseIPv6(_ text: String) -> [UInt8]? {
        guard text.contains(":") else { return nil }
        var body = Substring(text)
        if body.hasPrefix("[") && body.hasSuffix("]") { body = body.dropFirst().dropLast() }
        let halves = String(body).splitOn("::")
        guard halves.count <= 2 else { return nil }
        func groups(_ part: String) -> [UInt16]? {
            if part.isEmpty { return [] }
            var out: [UInt16] = []
            for group in part.split(separator: ":", omittingEmptySubsequences: false) {
                guard (1...4).contains(group.count), let value = UInt16(group, radix: 16) else { return nil }
                out.append(value)
            }
            return out
        }
        guard let head = groups(halves[0]) else { return nil }
        var all = head
        if halves.count == 2 {
            guard let tail = groups(halves[1]), head.count + tail.count < 8 else { return nil }
            all += [UInt16](repeating: 0, count: 8 - head.count - tail.count) + tail
        }
        guard all.count == 8 else { return nil }
        return all.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
    }

    /// Dotted IPv4, or RFC 5952 IPv6 text (lower case, longest zero run of ≥ 2 groups as `::`).
    static func format(ip bytes: [UInt8]) -> String {
        if bytes.count == 4 { return bytes.map(String.init).joined(separator: ".") }
        var groups: [UInt16] = []
        var index = 0
        while index + 1 < bytes.count {
            groups.append(UInt16(bytes[index]) << 8 | UInt16(bytes[index + 1]))
            index += 2
        }
        var bestStart = -1, bestLength = 1, runStart = -1
        for (i, group) in groups.enumerated() {
            if group == 0 {
                if runStart < 0 { runStart = i }
                if i - runStart + 1 > bestLength { bestStart = runStart; bestLength = i - runStart + 1 }
            } else {
                runStart = -1
            }
        }
        let text = groups.map { String($0, radix: 16) }
        guard bestStart >= 0 else { return text.joined(separator: ":") }
        let head = text[..<bestStart].joined(separator: ":")
        let tail = text[(bestStart + bestLength)...].joined(separator: ":")
        return head + "::" + tail
    }
}

extension String {
    func splitOn(_ separator: String) -> [String] {
        var result: [String] = []
        var rest = Substring(self)
        while let range = rest.range(of: separator) {
            result.append(String(rest[..<range.lowerBound]))
            rest = rest[range.upperBound...]
        }
        result.append(String(rest))
        return result
    }
}

/// What decided a host-name check (RFC 9525 §6.3), as facts: the catalogue words it (en and zh).
public enum NameFinding: Sendable, Hashable {
    case ipAddressMatches(ip: String)
    case ipAddressNotListed(ip: String, listed: [String])
    case noDNSName(host: String)
    case dnsNameMatches(pattern: String, host: String)
    case noDNSNameMatches(host: String, names: [String])
}
