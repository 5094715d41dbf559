/// A certificate of a peer's chain that does not parse: its position (0: the leaf) and the parser's error.
public struct ChainParseFailure: Error, Sendable, Equatable {
    public let index: Int
    public let error: PKIError

    public init(index: Int, error: PKIError) {
        self.index = index
        self.error = error
    }
}

extension X509Certificate {
    /// Parses a chain as a Certificate message carries it (leaf first, DER): every certificate, or
    /// the first one that does not parse.
    public static func parseChain(_ chain: [[UInt8]]) throws(ChainParseFailure) -> [X509Certificate] {
        var certificates: [X509Certificate] = []
        certificates.reserveCapacity(chain.count)
        for der in chain {
            do {
                certificates.append(try X509Certificate(der: der))
            } catch {
                throw ChainParseFailure(index: certificates.count, error: error)
            }
        }
        return certificates
    }
}
