/// The connection keys cut from the key block (RFC 5246 §6.3), in the order the RFC lists them.
public struct KeyBlock: Sendable, Hashable {
    public let clientWriteMACKey: [UInt8]
    public let serverWriteMACKey: [UInt8]
    public let clientWriteKey: [UInt8]
    public let serverWriteKey: [UInt8]
    public let clientWriteIV: [UInt8]
    public let serverWriteIV: [UInt8]

    public init(clientWriteMACKey: [UInt8], serverWriteMACKey: [UInt8], clientWriteKey: [UInt8],
                serverWriteKey: [UInt8], clientWriteIV: [UInt8], serverWriteIV: [UInt8]) {
        self.clientWriteMACKey = clientWriteMACKey
        self.serverWriteMACKey = serverWriteMACKey
        self.clientWriteKey = clientWriteKey
        self.serverWriteKey = serverWriteKey
        self.clientWriteIV = clientWriteIV
        self.serverWriteIV = serverWriteIV
    }

    /// Cuts `bytes` (at least `layout.totalLength` of them; any excess is unused, as the RFC says)
    /// into the six values.
    public init(splitting bytes: [UInt8], layout: KeyBlockLayout) throws(KeyScheduleError) {
        guard bytes.count >= layout.totalLength else {
            throw .keyBlockTooShort(have: bytes.count, need: layout.totalLength)
        }
        var rest = bytes[...]
        func take(_ n: Int) -> [UInt8] {
            let piece = Array(rest.prefix(n))
            rest = rest.dropFirst(n)
            return piece
        }
        clientWriteMACKey = take(layout.macKeyLength)
        serverWriteMACKey = take(layout.macKeyLength)
        clientWriteKey = take(layout.encKeyLength)
        serverWriteKey = take(layout.encKeyLength)
        clientWriteIV = take(layout.fixedIVLength)
        serverWriteIV = take(layout.fixedIVLength)
    }
}
