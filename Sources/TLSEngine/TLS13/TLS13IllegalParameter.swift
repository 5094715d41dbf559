/// The rule of RFC 8446 (or of RFC 7301 for ALPN) a TLS 1.3 peer broke when this side ends the
/// handshake with illegal_parameter (§6.2): one case per check the engine makes, each naming the
/// section that states the rule. The catalogue words each case (`cause.tls13.illegalParameter.*`).
public enum TLS13IllegalParameter: String, Sendable, Hashable, CaseIterable {
    // The server's checks of a ClientHello.
    /// §4.1.2: legacy_compression_methods is exactly one byte, 0.
    case compressionMethodsNotNull
    /// §4.1.2: the second ClientHello (after a HelloRetryRequest) keeps the suite and random of the first.
    case secondClientHelloChanged
    /// §4.2.8: each KeyShareEntry is for a group listed in supported_groups.
    case keyShareGroupNotInSupportedGroups
    /// §4.2.10: a ClientHello after a HelloRetryRequest carries no early_data.
    case earlyDataAfterHelloRetryRequest
    /// §4.2.8: the ClientHello after a HelloRetryRequest carries a share for the group it named.
    case noKeyShareForRetryGroup
    /// §4.2.8: the ClientHello after a HelloRetryRequest has one KeyShareEntry, for the group it named.
    case keyShareNotForRetryGroup
    /// §4.1.2: the ClientHello after a HelloRetryRequest keeps the first one's supported_versions, TLS 1.3 included.
    case supportedVersionsChangedAfterRetry
    /// §4.2.11: pre_shared_key is the last extension of the ClientHello.
    case preSharedKeyNotLast
    /// §4.2.11: one binder for each identity, in the same order.
    case binderCountMismatch
    /// §4.2.11.2: the binders are the end of the ClientHello, so they are shorter than it.
    case bindersLongerThanClientHello
    /// §4.4.2: a Certificate answering a CertificateRequest echoes its certificate_request_context.
    case clientCertificateContextMismatch
    /// §4.4.3: a client signs with a scheme the CertificateRequest's signature_algorithms lists.
    case clientSignatureSchemeNotRequested

    // The client's checks of the server's messages.
    /// §4.2: an extension the table does not list for ServerHello (only key_share, pre_shared_key, supported_versions).
    case extensionNotAllowedInServerHello
    /// §4.2: an extension the table does not list for HelloRetryRequest (only key_share, cookie, supported_versions).
    case extensionNotAllowedInHelloRetryRequest
    /// §4.2: an extension the table does not list for EncryptedExtensions (supported_versions, signature_algorithms, key_share among them).
    case extensionNotAllowedInEncryptedExtensions
    /// §4.1.3: a ServerHello answering a TLS 1.3-only ClientHello carries supported_versions.
    case serverHelloWithoutSupportedVersions
    /// §4.2.1: supported_versions in the ServerHello selects a version the client offered.
    case versionNotOffered
    /// §4.1.3: legacy_session_id_echo is the client's legacy_session_id.
    case sessionIDEchoDiffers
    /// §4.1.3: the cipher suite is one the client offered.
    case cipherSuiteNotOffered
    /// §4.1.4: the ServerHello's cipher suite is the HelloRetryRequest's.
    case cipherSuiteChangedAfterRetry
    /// §4.1.4: a HelloRetryRequest changes the ClientHello: it names a group or carries a cookie.
    case retryWouldNotChangeClientHello
    /// §4.2.8: the HelloRetryRequest names a group in supported_groups for which the client sent no share.
    case retryGroupNotOfferedOrAlreadyShared
    /// §4.2.8: the server's key share is in the group of one of the client's shares.
    case serverKeyShareGroupNotShared
    /// §4.2.11: selected_identity is one of the identities the client offered (with early data, the first).
    case pskIdentityNotOffered
    /// §4.2.10: early_data in EncryptedExtensions answers an early_data offer.
    case earlyDataNotOffered
    /// §4.2.10: a server accepting early data selected the offered PSK.
    case earlyDataAcceptedWithoutPSK
    /// RFC 7301 §3.1: the server's ALPN answer is one protocol, one of those the client offered.
    case applicationProtocolNotOffered
    /// §4.3.2: in the handshake, certificate_request_context is empty.
    case certificateRequestContextNotEmpty
    /// §4.4.2: the server's Certificate has an empty certificate_request_context.
    case serverCertificateContextNotEmpty
    /// §4.4.3: the server signs with a scheme the client's signature_algorithms lists.
    case serverSignatureSchemeNotOffered
    /// §4.6.1: ticket_lifetime is at most 604800 seconds (seven days).
    case ticketLifetimeTooLong

    // Either side, after the handshake.
    /// §6: an alert's level is warning (1) or fatal (2).
    case alertLevelUndefined
    /// §4.6.3: KeyUpdate's request_update is 0 or 1.
    case keyUpdateRequestInvalid
}
