/// Reads `openssl s_client -msg` output: each handshake message is a header line
/// (`<<< TLS 1.2 Handshake [length 0051], ServerHello`) followed by indented hex octets.
enum SClientMessages {
    /// The octets of the first handshake message `name` going `direction` (">>>" sent by s_client,
    /// "<<<" received by it), or nil when s_client printed none.
    static func first(_ name: String, direction: String = "<<<", in output: String) -> [UInt8]? {
        let lines = output.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(where: { $0.hasPrefix("\(direction) ") && $0.hasSuffix(", \(name)") }) else { return nil }
        var bytes: [UInt8] = []
        for line in lines[(start + 1)...] {
            let fields = line.split(separator: " ")
            guard line.hasPrefix("    "), !fields.isEmpty, fields.allSatisfy({ $0.count == 2 && UInt8($0, radix: 16) != nil }) else { break }
            bytes += fields.compactMap { UInt8($0, radix: 16) }
        }
        return bytes
    }
}
