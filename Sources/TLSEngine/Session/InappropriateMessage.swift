/// What this side was waiting for when something else arrived (RFC 5246 §7.3's flow, §7.4: "sending
/// handshake messages in an unexpected order results in a fatal error"). Answered with
/// unexpected_message (RFC 5246 §7.2.2) through ``TLSAlertTable``.
public enum ExpectedMessage: Sendable, Hashable {
    /// What the handshake state accepts next (a renderer words each state's messages).
    case inState(TLSStateName)
    /// The rest of a handshake message begun in an earlier record: another record type in between
    /// would interleave with it.
    case restOfHandshakeMessage
    /// ChangeCipherSpec only once every handshake message before it is complete: what comes after
    /// it is read with the new keys.
    case changeCipherSpecAtMessageBoundary
    /// The ServerKeyExchange an ephemeral key exchange requires (RFC 5246 §7.4.3, RFC 8422 §5.4).
    case serverKeyExchange(KeyExchangeAlgorithm)
    /// A message of the negotiated key exchange's own form.
    case keyExchangeMessage(KeyExchangeAlgorithm)
}

/// What arrived instead of the expected message.
public enum ArrivedMessage: Sendable, Hashable {
    /// A handshake message of this type.
    case handshake(HandshakeType)
    /// A record, or the content of one, of this type (change_cipher_spec, application_data …).
    case content(ContentType)
    /// Key-exchange parameters of the wrong kind in this message (DH values for an ECDHE suite …).
    case keyExchangeParameters(KeyExchangeParameters, in: HandshakeType)
}

/// The kind of key-exchange parameters a ServerKeyExchange or ClientKeyExchange carries.
public enum KeyExchangeParameters: String, Sendable, Hashable, CaseIterable {
    /// ServerDHParams or dh_Yc (RFC 5246 §7.4.3, §7.4.7.2).
    case finiteFieldDH
    /// ServerECDHParams or the client's point (RFC 8422 §5.4, §5.7).
    case ellipticCurveDH
    /// EncryptedPreMasterSecret (RFC 5246 §7.4.7.1).
    case rsaEncryptedPreMasterSecret
}

extension ArrivedMessage: CustomStringConvertible {
    /// A debugging name (renderers word the case from their catalogue).
    public var description: String {
        switch self {
        case .handshake(let type): return type.messageName
        case .content(let type): return "\(type)"
        case let .keyExchangeParameters(kind, message): return "\(kind.rawValue) in \(message.messageName)"
        }
    }
}

extension ClientKeyExchange {
    /// The kind of parameters this message carries.
    var parameters: KeyExchangeParameters {
        switch self {
        case .rsa: return .rsaEncryptedPreMasterSecret
        case .dhe: return .finiteFieldDH
        case .ecdhe: return .ellipticCurveDH
        }
    }
}
