import TLSEngine

/// The rule a TLS 1.3 peer broke when this side answered illegal_parameter (RFC 8446 §6.2), one
/// sentence per check of the engine (``TLS13IllegalParameter``), each with the section that states it.
extension Explanations {
    static let englishTLS13IllegalParameter: [String: String] = [
        "cause.tls13.illegalParameter.compressionMethodsNotNull": "legacy_compression_methods is not the one byte 0 every TLS 1.3 ClientHello carries (RFC 8446 §4.1.2)",
        "cause.tls13.illegalParameter.secondClientHelloChanged": "the ClientHello after the HelloRetryRequest changed its random or its cipher suites; only the key shares, the cookie, early_data (removed), the PSK's ticket ages and binders, and padding may change (RFC 8446 §4.1.2)",
        "cause.tls13.illegalParameter.keyShareGroupNotInSupportedGroups": "key_share carries a share for a group that supported_groups does not list (RFC 8446 §4.2.8)",
        "cause.tls13.illegalParameter.earlyDataAfterHelloRetryRequest": "the ClientHello after a HelloRetryRequest offers early_data, which a client sends only in its first ClientHello (RFC 8446 §4.2.10)",
        "cause.tls13.illegalParameter.keyShareNotForRetryGroup": "the ClientHello after the HelloRetryRequest has key shares other than the one KeyShareEntry for the group the HelloRetryRequest named (RFC 8446 §4.2.8)",
        "cause.tls13.illegalParameter.supportedVersionsChangedAfterRetry": "the ClientHello after the HelloRetryRequest no longer offers TLS 1.3 in supported_versions; apart from the changes RFC 8446 §4.1.2 lists it must be the same as the first",
        "cause.tls13.illegalParameter.extensionNotAllowedInServerHello": "the ServerHello carries an extension that RFC 8446 §4.2's table does not allow there; a ServerHello may carry only key_share, pre_shared_key and supported_versions",
        "cause.tls13.illegalParameter.extensionNotAllowedInHelloRetryRequest": "the HelloRetryRequest carries an extension that RFC 8446 §4.2's table does not allow there; a HelloRetryRequest may carry only key_share, cookie and supported_versions",
        "cause.tls13.illegalParameter.extensionNotAllowedInEncryptedExtensions": "EncryptedExtensions carries an extension that RFC 8446 §4.2's table does not allow there, such as supported_versions, signature_algorithms or key_share",
        "cause.tls13.illegalParameter.retryWouldNotChangeClientHello": "the HelloRetryRequest names no key share group and carries no cookie, so the second ClientHello would be the same as the first (RFC 8446 §4.1.4)",
        "cause.tls13.illegalParameter.noKeyShareForRetryGroup": "the ClientHello after the HelloRetryRequest has no key share for the group the HelloRetryRequest named (RFC 8446 §4.2.8)",
        "cause.tls13.illegalParameter.preSharedKeyNotLast": "pre_shared_key is not the last extension of the ClientHello (RFC 8446 §4.2.11)",
        "cause.tls13.illegalParameter.binderCountMismatch": "pre_shared_key does not carry one binder for each identity (RFC 8446 §4.2.11)",
        "cause.tls13.illegalParameter.bindersLongerThanClientHello": "the PSK binders are longer than the ClientHello they end (RFC 8446 §4.2.11.2)",
        "cause.tls13.illegalParameter.clientCertificateContextMismatch": "the client's Certificate does not echo the certificate_request_context of the CertificateRequest (RFC 8446 §4.4.2)",
        "cause.tls13.illegalParameter.clientSignatureSchemeNotRequested": "the client's CertificateVerify uses a signature scheme the CertificateRequest's signature_algorithms does not list (RFC 8446 §4.4.3)",
        "cause.tls13.illegalParameter.serverHelloWithoutSupportedVersions": "the ServerHello has no supported_versions, so it answers with TLS 1.2 or older a client that offered only TLS 1.3 (RFC 8446 §4.1.3, §4.2.1)",
        "cause.tls13.illegalParameter.versionNotOffered": "supported_versions in the ServerHello selects a version the client did not offer (RFC 8446 §4.2.1)",
        "cause.tls13.illegalParameter.sessionIDEchoDiffers": "legacy_session_id_echo is not the legacy_session_id the client sent (RFC 8446 §4.1.3)",
        "cause.tls13.illegalParameter.cipherSuiteNotOffered": "the ServerHello chose a cipher suite the client did not offer (RFC 8446 §4.1.3)",
        "cause.tls13.illegalParameter.cipherSuiteChangedAfterRetry": "the ServerHello's cipher suite is not the one the HelloRetryRequest named (RFC 8446 §4.1.4)",
        "cause.tls13.illegalParameter.retryGroupNotOfferedOrAlreadyShared": "the HelloRetryRequest names a group the client did not list in supported_groups, or one it already sent a key share for (RFC 8446 §4.2.8)",
        "cause.tls13.illegalParameter.serverKeyShareGroupNotShared": "the server's key share is for a group the client sent no share for (RFC 8446 §4.2.8)",
        "cause.tls13.illegalParameter.pskIdentityNotOffered": "pre_shared_key in the ServerHello selects an identity the client did not offer, or a PSK whose hash is not the chosen suite's (RFC 8446 §4.2.11)",
        "cause.tls13.illegalParameter.earlyDataNotOffered": "EncryptedExtensions answers early_data, which the client did not offer (RFC 8446 §4.2.10)",
        "cause.tls13.illegalParameter.earlyDataAcceptedWithoutPSK": "EncryptedExtensions accepts early data, but the server did not select the client's first PSK (RFC 8446 §4.2.10)",
        "cause.tls13.illegalParameter.applicationProtocolNotOffered": "the server's ALPN answer is not one of the protocols the client offered (RFC 7301 §3.1)",
        "cause.tls13.illegalParameter.certificateRequestContextNotEmpty": "a CertificateRequest in the handshake has a certificate_request_context, which is empty there (RFC 8446 §4.3.2)",
        "cause.tls13.illegalParameter.serverCertificateContextNotEmpty": "the server's Certificate has a certificate_request_context, which is empty for server authentication (RFC 8446 §4.4.2)",
        "cause.tls13.illegalParameter.serverSignatureSchemeNotOffered": "the server's CertificateVerify uses a signature scheme the client's signature_algorithms did not offer (RFC 8446 §4.4.3)",
        "cause.tls13.illegalParameter.ticketLifetimeTooLong": "the NewSessionTicket's ticket_lifetime is over 604800 seconds, seven days, the most a server may give (RFC 8446 §4.6.1)",
        "cause.tls13.illegalParameter.alertLevelUndefined": "the alert's level is neither 1 (warning) nor 2 (fatal), the only levels RFC 8446 §6 defines",
        "cause.tls13.illegalParameter.keyUpdateRequestInvalid": "KeyUpdate's request_update is neither 0 (update_not_requested) nor 1 (update_requested) (RFC 8446 §4.6.3)",
    ]

    /// The rule behind a TLS 1.3 illegal_parameter, one literal key per case.
    public func tls13IllegalParameter(_ rule: TLS13IllegalParameter) -> String {
        func say(_ key: String) -> String { self(key, [:]) ?? key }
        switch rule {
        case .compressionMethodsNotNull: return say("cause.tls13.illegalParameter.compressionMethodsNotNull")
        case .secondClientHelloChanged: return say("cause.tls13.illegalParameter.secondClientHelloChanged")
        case .keyShareGroupNotInSupportedGroups: return say("cause.tls13.illegalParameter.keyShareGroupNotInSupportedGroups")
        case .earlyDataAfterHelloRetryRequest: return say("cause.tls13.illegalParameter.earlyDataAfterHelloRetryRequest")
        case .noKeyShareForRetryGroup: return say("cause.tls13.illegalParameter.noKeyShareForRetryGroup")
        case .retryWouldNotChangeClientHello: return say("cause.tls13.illegalParameter.retryWouldNotChangeClientHello")
        case .extensionNotAllowedInServerHello: return say("cause.tls13.illegalParameter.extensionNotAllowedInServerHello")
        case .extensionNotAllowedInHelloRetryRequest: return say("cause.tls13.illegalParameter.extensionNotAllowedInHelloRetryRequest")
        case .extensionNotAllowedInEncryptedExtensions: return say("cause.tls13.illegalParameter.extensionNotAllowedInEncryptedExtensions")
        case .keyShareNotForRetryGroup: return say("cause.tls13.illegalParameter.keyShareNotForRetryGroup")
        case .supportedVersionsChangedAfterRetry: return say("cause.tls13.illegalParameter.supportedVersionsChangedAfterRetry")
        case .preSharedKeyNotLast: return say("cause.tls13.illegalParameter.preSharedKeyNotLast")
        case .binderCountMismatch: return say("cause.tls13.illegalParameter.binderCountMismatch")
        case .bindersLongerThanClientHello: return say("cause.tls13.illegalParameter.bindersLongerThanClientHello")
        case .clientCertificateContextMismatch: return say("cause.tls13.illegalParameter.clientCertificateContextMismatch")
        case .clientSignatureSchemeNotRequested: return say("cause.tls13.illegalParameter.clientSignatureSchemeNotRequested")
        case .serverHelloWithoutSupportedVersions: return say("cause.tls13.illegalParameter.serverHelloWithoutSupportedVersions")
        case .versionNotOffered: return say("cause.tls13.illegalParameter.versionNotOffered")
        case .sessionIDEchoDiffers: return say("cause.tls13.illegalParameter.sessionIDEchoDiffers")
        case .cipherSuiteNotOffered: return say("cause.tls13.illegalParameter.cipherSuiteNotOffered")
        case .cipherSuiteChangedAfterRetry: return say("cause.tls13.illegalParameter.cipherSuiteChangedAfterRetry")
        case .retryGroupNotOfferedOrAlreadyShared: return say("cause.tls13.illegalParameter.retryGroupNotOfferedOrAlreadyShared")
        case .serverKeyShareGroupNotShared: return say("cause.tls13.illegalParameter.serverKeyShareGroupNotShared")
        case .pskIdentityNotOffered: return say("cause.tls13.illegalParameter.pskIdentityNotOffered")
        case .earlyDataNotOffered: return say("cause.tls13.illegalParameter.earlyDataNotOffered")
        case .earlyDataAcceptedWithoutPSK: return say("cause.tls13.illegalParameter.earlyDataAcceptedWithoutPSK")
        case .applicationProtocolNotOffered: return say("cause.tls13.illegalParameter.applicationProtocolNotOffered")
        case .certificateRequestContextNotEmpty: return say("cause.tls13.illegalParameter.certificateRequestContextNotEmpty")
        case .serverCertificateContextNotEmpty: return say("cause.tls13.illegalParameter.serverCertificateContextNotEmpty")
        case .serverSignatureSchemeNotOffered: return say("cause.tls13.illegalParameter.serverSignatureSchemeNotOffered")
        case .ticketLifetimeTooLong: return say("cause.tls13.illegalParameter.ticketLifetimeTooLong")
        case .keyUpdateRequestInvalid: return say("cause.tls13.illegalParameter.keyUpdateRequestInvalid")
        case .alertLevelUndefined: return say("cause.tls13.illegalParameter.alertLevelUndefined")
        }
    }
}
