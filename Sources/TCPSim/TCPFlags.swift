/// The TCP control bits (RFC 9293 §3.1, "Control Bits"): URG, ACK, PSH, RST, SYN, FIN.
public struct TCPFlags: OptionSet, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// FIN: no more data from sender.
    public static let fin = TCPFlags(rawValue: 0x01)
    /// SYN: synchronize sequence numbers.
    public static let syn = TCPFlags(rawValue: 0x02)
    /// RST: reset the connection.
    public static let rst = TCPFlags(rawValue: 0x04)
    /// PSH: push function.
    public static let psh = TCPFlags(rawValue: 0x08)
    /// ACK: the acknowledgment field is significant.
    public static let ack = TCPFlags(rawValue: 0x10)
    /// URG: the urgent pointer field is significant.
    public static let urg = TCPFlags(rawValue: 0x20)

    /// tcpdump's notation, in tcpdump's order (F, S, R, P, then "." for ACK, then U): `S`, `S.`,
    /// `.`, `P.`, `F.`, `FP.`, `R`, `R.`; `none` when no bit is set.
    public var tcpdumpNotation: String {
        var s = ""
        if contains(.fin) { s += "F" }
        if contains(.syn) { s += "S" }
        if contains(.rst) { s += "R" }
        if contains(.psh) { s += "P" }
        if contains(.ack) { s += "." }
        if contains(.urg) { s += "U" }
        return s.isEmpty ? "none" : s
    }

    private static let compactLetters: [(Character, TCPFlags)] = [
        ("S", .syn), ("F", .fin), ("R", .rst), ("P", .psh), ("A", .ack), ("U", .urg),
    ]

    /// A compact letter form for traces and JSON: `S`, `SA`, `A`, `PA`, `FA`, `FPA`, `R`, `RA`.
    public var compact: String {
        String(Self.compactLetters.filter { contains($0.1) }.map(\.0))
    }

    /// Parses the compact form (`"SA"`, `"PA"`, …); nil on an unknown letter or a repeated one.
    public init?(compact: String) {
        var flags = TCPFlags()
        for ch in compact {
            guard let entry = Self.compactLetters.first(where: { $0.0 == ch }), !flags.contains(entry.1) else {
                return nil
            }
            flags.insert(entry.1)
        }
        self = flags
    }

    public var description: String { compact }
}
