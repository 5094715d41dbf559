/// The registries and enumerations a dissection reads numbers from: which one a number belongs to
/// decides what a value without a name may be (``UnnamedNumber``).
public enum CodePointRegistry: String, Hashable, Sendable, CaseIterable {
    case cipherSuite, compressionMethod, extensionType, namedGroup, signatureScheme, protocolVersion
    case contentType, handshakeType, alertLevel, alertDescription, ecPointFormat, ecCurveType
    case clientCertificateType, hashAlgorithm, signatureAlgorithm
    /// ServerName's name_type (RFC 6066 §3).
    case serverNameType
    /// PskKeyExchangeMode (RFC 8446 §4.2.9).
    case pskKeyExchangeMode
    /// KeyUpdateRequest (RFC 8446 §4.6.3).
    case keyUpdateRequest

    /// True when RFC 8701 §2 reserves `value` as a GREASE value in this registry: {0x?A, 0x?A} for
    /// cipher suites, 0x?A?A for extensions, named groups, signature algorithms and versions.
    public func isGREASE(_ value: UInt32) -> Bool {
        switch self {
        case .cipherSuite, .extensionType, .namedGroup, .signatureScheme, .protocolVersion:
            return value <= 0xffff && value & 0x0f0f == 0x0a0a && value >> 12 == (value >> 4) & 0x0f
        default:
            return false
        }
    }
}

/// A number TLSLab has no name for, as a dissection records it: a fact, worded by the renderers
/// (`dissect.value.unnamed*`). TLSLab names only the values it knows, not every value of the IANA
/// registries, so a number without a name may be assigned, unassigned or reserved; the one case it
/// can tell is a value RFC 8701 reserves for GREASE.
public struct UnnamedNumber: Hashable, Sendable {
    public var registry: CodePointRegistry
    public var number: UInt32
    /// The number as the field shows it: hex with its wire width (`0x00d4`) for a registry code
    /// point, decimal for the enumerations the RFCs write in decimal (name_type, ke_modes).
    public var shown: String

    public init(registry: CodePointRegistry, number: UInt32, shown: String) {
        self.registry = registry
        self.number = number
        self.shown = shown
    }

    /// A code point of `T`'s registry, shown in hex.
    public init<T: CodePoint>(_ value: T) {
        self.init(registry: T.registry, number: UInt32(value.rawValue), shown: value.hex)
    }

    /// True when RFC 8701 §2 reserves the number for GREASE in its registry.
    public var isGREASE: Bool { registry.isGREASE(number) }
}
