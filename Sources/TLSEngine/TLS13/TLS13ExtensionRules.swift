/// Where RFC 8446 §4.2's table lets each extension appear, for the messages a TLS 1.3 client reads.
/// §4.2: an extension the receiver recognizes in a message the table does not list it for is
/// illegal_parameter; an answer to an extension the client never sent is unsupported_extension
/// (the HelloRetryRequest's cookie excepted).
enum TLS13ExtensionRules {
    static let clientCertificateType = ExtensionType(rawValue: 0x0013)
    static let serverCertificateType = ExtensionType(rawValue: 0x0014)
    static let certificateAuthorities = ExtensionType.certificateAuthorities
    static let oidFilters = ExtensionType.oidFilters
    static let postHandshakeAuth = ExtensionType.postHandshakeAuth

    /// The extensions of §4.2's table: the ones a TLS 1.3 implementation recognizes.
    static let recognized: Set<ExtensionType> = [
        .serverName, .maxFragmentLength, .statusRequest, .supportedGroups, .signatureAlgorithms, .useSRTP, .heartbeat,
        .applicationLayerProtocolNegotiation, .signedCertificateTimestamp, clientCertificateType, serverCertificateType,
        .padding, .preSharedKey, .earlyData, .supportedVersions, .cookie, .pskKeyExchangeModes, certificateAuthorities,
        oidFilters, postHandshakeAuth, .signatureAlgorithmsCert, .keyShare,
    ]
    /// "SH" in the table.
    static let serverHello: Set<ExtensionType> = [.keyShare, .preSharedKey, .supportedVersions]
    /// "HRR" in the table.
    static let helloRetryRequest: Set<ExtensionType> = [.keyShare, .cookie, .supportedVersions]
    /// "EE" in the table.
    static let encryptedExtensions: Set<ExtensionType> = [
        .serverName, .maxFragmentLength, .supportedGroups, .useSRTP, .heartbeat, .applicationLayerProtocolNegotiation,
        clientCertificateType, serverCertificateType, .earlyData,
    ]

    /// §4.2's first rule: an extension the table lists, in a message it is not listed for (illegal_parameter).
    static func refusal(of type: ExtensionType, allowed: Set<ExtensionType>, rule: TLS13IllegalParameter) -> TLS13Failure? {
        recognized.contains(type) && !allowed.contains(type) ? .illegalParameter(rule) : nil
    }
}

extension TLS13Client {
    /// The extension types this client's ClientHellos carried.
    var offeredExtensionTypes: Set<ExtensionType> {
        sentExtensionTypes.union((firstClientHello?.extensions ?? []).map(\.type))
    }

    /// §4.2's two rules for the extensions of a server message: each recognized one is allowed in
    /// this message (else `rule`, illegal_parameter), and each answers one the client sent (else
    /// unsupported_extension; a HelloRetryRequest may add a cookie).
    func checkServerExtensions(_ extensions: [TLSExtension], allowed: Set<ExtensionType>,
                               rule: TLS13IllegalParameter) throws(TLS13Failure) {
        let offered = offeredExtensionTypes
        for type in extensions.map(\.type) {
            if let refusal = TLS13ExtensionRules.refusal(of: type, allowed: allowed, rule: rule) { throw refusal }
            if !offered.contains(type), !(rule == .extensionNotAllowedInHelloRetryRequest && type == .cookie) {
                throw .unsupportedExtension(type)
            }
        }
    }
}
