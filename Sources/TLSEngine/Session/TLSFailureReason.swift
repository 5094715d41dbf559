import PKI

/// Every reason the engine can fail for, without its details: what the one alert table
/// (``TLSAlertTable``) is keyed by, and what tests enumerate. A received fatal alert is not here —
/// it is answered with no alert at all.
public enum TLSFailureReason: Sendable, Hashable, CaseIterable {
    /// A message or record not valid in the current state (RFC 5246 §7.3, §7.4).
    case inappropriateMessage
    case invalidMessage(DecodeError.Kind)
    case recordProtection(RecordProtectionError.Kind)
    case peerIncompatible(PeerIncompatible.Kind)
    case peerMisbehaved(PeerMisbehaved.Kind)
    /// The trust layer (or the engine's own certificate rule) refused the peer's chain.
    case certificateRefused(CertificateRefusal)
    /// Our own configuration or a local computation failed.
    case internalError

    public static var allCases: [TLSFailureReason] {
        [.inappropriateMessage]
            + DecodeError.Kind.allCases.map(Self.invalidMessage)
            + RecordProtectionError.Kind.allCases.map(Self.recordProtection)
            + PeerIncompatible.Kind.allCases.map(Self.peerIncompatible)
            + PeerMisbehaved.Kind.allCases.map(Self.peerMisbehaved)
            + CertificateRefusal.allCases.map(Self.certificateRefused)
            + [.internalError]
    }
}

extension TLSError {
    /// The reason without its details; nil when the peer ended the connection with an alert.
    public var reason: TLSFailureReason? {
        switch self {
        case .inappropriateMessage: return .inappropriateMessage
        case .invalidMessage(let e): return .invalidMessage(e.kind)
        case .recordProtection(let e): return .recordProtection(e.kind)
        case .peerIncompatible(let e): return .peerIncompatible(e.kind)
        case .peerMisbehaved(let e): return .peerMisbehaved(e.kind)
        case .certificateRejected(let refusal, _): return .certificateRefused(refusal)
        case .alertReceived: return nil
        case .internalError: return .internalError
        }
    }
}

extension PeerMisbehaved {
    /// The rule broken, without its details.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        case nullCompressionNotOffered
        case renegotiationInfoNotEmpty
        case emptyServerNameList
        case serverNameNotHostName
        case pointFormatsLackUncompressed
        case suiteNotOffered
        case compressionNotNull
        case extensionNotOffered
        case applicationProtocolNotOffered
        case resumedSessionDiffers
        case extendedMasterSecretChangedOnResumption
        case extendedMasterSecretDroppedOnResumption
        case malformedChangeCipherSpec
        case encryptThenMACWithAEAD
        case encryptThenMACChangedOnResumption
        case unusableDHPrime
        case dhGeneratorOutOfRange
        case invalidDHPublicValue
        case groupNotOffered
        case invalidECDHPublicKey
        case serverKeyExchangeSchemeNotOffered
        case serverKeyExchangeSignatureInvalid
        case certificateVerifySchemeNotRequested
        case certificateVerifySignatureInvalid
        case finishedMismatch
        case recordVersionMismatch
        case undefinedAlertLevel
        case tooManyEmptyRecords
        case tooManyWarningAlerts
        case truncated
    }

    public var kind: Kind {
        switch self {
        case .nullCompressionNotOffered: return .nullCompressionNotOffered
        case .renegotiationInfoNotEmpty: return .renegotiationInfoNotEmpty
        case .emptyServerNameList: return .emptyServerNameList
        case .serverNameNotHostName: return .serverNameNotHostName
        case .pointFormatsLackUncompressed: return .pointFormatsLackUncompressed
        case .suiteNotOffered: return .suiteNotOffered
        case .compressionNotNull: return .compressionNotNull
        case .extensionNotOffered: return .extensionNotOffered
        case .applicationProtocolNotOffered: return .applicationProtocolNotOffered
        case .resumedSessionDiffers: return .resumedSessionDiffers
        case .extendedMasterSecretChangedOnResumption: return .extendedMasterSecretChangedOnResumption
        case .extendedMasterSecretDroppedOnResumption: return .extendedMasterSecretDroppedOnResumption
        case .malformedChangeCipherSpec: return .malformedChangeCipherSpec
        case .encryptThenMACWithAEAD: return .encryptThenMACWithAEAD
        case .encryptThenMACChangedOnResumption: return .encryptThenMACChangedOnResumption
        case .unusableDHPrime: return .unusableDHPrime
        case .dhGeneratorOutOfRange: return .dhGeneratorOutOfRange
        case .invalidDHPublicValue: return .invalidDHPublicValue
        case .groupNotOffered: return .groupNotOffered
        case .invalidECDHPublicKey: return .invalidECDHPublicKey
        case .serverKeyExchangeSchemeNotOffered: return .serverKeyExchangeSchemeNotOffered
        case .serverKeyExchangeSignatureInvalid: return .serverKeyExchangeSignatureInvalid
        case .certificateVerifySchemeNotRequested: return .certificateVerifySchemeNotRequested
        case .certificateVerifySignatureInvalid: return .certificateVerifySignatureInvalid
        case .finishedMismatch: return .finishedMismatch
        case .recordVersionMismatch: return .recordVersionMismatch
        case .undefinedAlertLevel: return .undefinedAlertLevel
        case .tooManyEmptyRecords: return .tooManyEmptyRecords
        case .tooManyWarningAlerts: return .tooManyWarningAlerts
        case .truncated: return .truncated
        }
    }
}

extension PeerIncompatible {
    /// What was incompatible, without its details.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        case dhPrimeTooSmall
        case noCommonSuite
        case noAcceptableFiniteFieldGroup
        case dhGroupNotOffered
        case noCommonApplicationProtocol
        case noSupportedVersionInCommon
        case clientVersionTooLow
        case serverVersionUnacceptable
        case rsaModulusTooSmall
        case clientCertificateChallengeCancelled
        case handshakeIncomplete
    }

    public var kind: Kind {
        switch self {
        case .dhPrimeTooSmall: return .dhPrimeTooSmall
        case .noCommonSuite: return .noCommonSuite
        case .noAcceptableFiniteFieldGroup: return .noAcceptableFiniteFieldGroup
        case .dhGroupNotOffered: return .dhGroupNotOffered
        case .noCommonApplicationProtocol: return .noCommonApplicationProtocol
        case .noSupportedVersionInCommon: return .noSupportedVersionInCommon
        case .clientVersionTooLow: return .clientVersionTooLow
        case .serverVersionUnacceptable: return .serverVersionUnacceptable
        case .rsaModulusTooSmall: return .rsaModulusTooSmall
        case .clientCertificateChallengeCancelled: return .clientCertificateChallengeCancelled
        case .handshakeIncomplete: return .handshakeIncomplete
        }
    }
}

extension DecodeError {
    /// What did not decode, without its details.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        case truncated
        case trailingBytes
        case lengthOutOfRange
        case malformed
        case illegalParameter
        case duplicateExtension
        case recordOverflow
        case unexpectedContentType
        case sslv2ClientHello
        case handshakeMessageTooLarge
        case needsKeyExchange
    }

    public var kind: Kind {
        switch self {
        case .truncated: return .truncated
        case .trailingBytes: return .trailingBytes
        case .lengthOutOfRange: return .lengthOutOfRange
        case .malformed: return .malformed
        case .illegalParameter: return .illegalParameter
        case .duplicateExtension: return .duplicateExtension
        case .recordOverflow: return .recordOverflow
        case .unexpectedContentType: return .unexpectedContentType
        case .sslv2ClientHello: return .sslv2ClientHello
        case .handshakeMessageTooLarge: return .handshakeMessageTooLarge
        case .needsKeyExchange: return .needsKeyExchange
        }
    }
}

extension RecordProtectionError {
    /// Why the record did not open, without its details.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        case badRecordMAC
        case recordOverflow
        case sequenceNumberExhausted
        case invalidKeys
    }

    public var kind: Kind {
        switch self {
        case .badRecordMAC: return .badRecordMAC
        case .recordOverflow: return .recordOverflow
        case .sequenceNumberExhausted: return .sequenceNumberExhausted
        case .invalidKeys: return .invalidKeys
        }
    }
}
