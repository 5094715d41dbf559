import PKI

/// A certificate's role in a validated path: the leaf, an intermediate CA, the last certificate
/// sent when no anchor was found (top), or the trust anchor.
enum ChainRole: String, Sendable, Hashable {
    case leaf, ca, top, anchor

    /// The role of the certificate at `depth` (0 is the leaf) of `result`'s path.
    init(depth: Int, of result: ChainValidationResult) {
        if depth == 0 { self = .leaf; return }
        guard depth == result.path.count - 1 else { self = .ca; return }
        self = result.anchorStore == nil ? .top : .anchor
    }
}
