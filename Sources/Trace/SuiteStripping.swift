import TLSEngine

/// How an on-path attacker kept a ClientHello's length when it removed cipher suites (a length
/// change would shift every later TCP sequence number). The renderers word it.
public enum SuiteStripping: Sendable, Hashable {
    /// The ClientHello offers none of the suites to strip: it goes on unchanged.
    case nothingToStrip
    /// The freed bytes went into a padding extension (RFC 7685) added to the existing extensions.
    case paddingExtension(freedBytes: Int)
    /// The ClientHello had no extensions: the freed bytes became an extensions block holding one
    /// padding extension (RFC 7685).
    case paddingExtensionBlock(freedBytes: Int)
    /// Too few bytes were freed for a padding extension: each removed suite was overwritten with a
    /// copy of the first kept suite.
    case overwrittenWith(CipherSuite)

    /// The identifier JSON Lines writes in `how`.
    public var identifier: String {
        switch self {
        case .nothingToStrip: return "nothing_to_strip"
        case .paddingExtension: return "padding_extension"
        case .paddingExtensionBlock: return "padding_extension_block"
        case .overwrittenWith: return "overwritten"
        }
    }
}
