/// The TLS 1.3 message an extension block is in: RFC 8446 §4.2's table says where each extension may
/// appear, and the message decides the shape of supported_versions, key_share, pre_shared_key and
/// early_data.
public enum TLS13ExtensionCarrier: Sendable, Hashable {
    case clientHello, serverHello, helloRetryRequest, encryptedExtensions, certificate, certificateRequest, newSessionTicket

    /// Where §4.2's table lets `type` appear, for the extension bodies TLSLab reads.
    func lists(_ type: ExtensionType) -> Bool {
        switch type {
        case .supportedVersions, .keyShare: return [.clientHello, .serverHello, .helloRetryRequest].contains(self)
        case .preSharedKey: return [.clientHello, .serverHello].contains(self)
        case .pskKeyExchangeModes, .postHandshakeAuth: return self == .clientHello
        case .earlyData: return [.clientHello, .encryptedExtensions, .newSessionTicket].contains(self)
        case .cookie: return [.clientHello, .helloRetryRequest].contains(self)
        case .signatureAlgorithmsCert, .certificateAuthorities: return [.clientHello, .certificateRequest].contains(self)
        default: return false
        }
    }

    /// The §4.2 rule a server message breaks with an extension the table does not list for it.
    var serverRule: (allowed: Set<ExtensionType>, rule: TLS13IllegalParameter)? {
        switch self {
        case .serverHello: return (TLS13ExtensionRules.serverHello, .extensionNotAllowedInServerHello)
        case .helloRetryRequest: return (TLS13ExtensionRules.helloRetryRequest, .extensionNotAllowedInHelloRetryRequest)
        case .encryptedExtensions: return (TLS13ExtensionRules.encryptedExtensions, .extensionNotAllowedInEncryptedExtensions)
        default: return nil
        }
    }

    /// The first extension of a server message in this carrier that §4.2's table does not list for
    /// it, and the refusal a TLS 1.3 client answers it with (``TLS13ExtensionRules/refusal(of:allowed:rule:)``).
    func refusal(of extensions: [TLSExtension]) -> (TLS13Failure, ExtensionType)? {
        guard let (allowed, rule) = serverRule else { return nil }
        for type in extensions.map(\.type) {
            if let refusal = TLS13ExtensionRules.refusal(of: type, allowed: allowed, rule: rule) { return (refusal, type) }
        }
        return nil
    }
}

extension TLSExtension {
    /// Reads the extension_data of an extension ``TLSExtension`` keeps as bytes, in `carrier`, with the
    /// decoder a TLS 1.3 peer reads it with (RFC 8446 §4.2.x), to its end; false when TLSLab reads
    /// no structure in it there (the bytes are then shown as they are).
    static func readTLS13Data(type: ExtensionType, in carrier: TLS13ExtensionCarrier,
                              from r: inout ByteReader) throws(DecodeError) -> Bool {
        guard carrier.lists(type) else { return false }
        switch type {
        case .supportedVersions: _ = try SupportedVersions(from: &r, inClientHello: carrier == .clientHello)
        case .keyShare:
            _ = try KeyShare(from: &r, in: carrier == .clientHello ? .clientHello : carrier == .serverHello ? .serverHello : .helloRetryRequest)
        case .preSharedKey: _ = try PreSharedKey(from: &r, inClientHello: carrier == .clientHello)
        case .pskKeyExchangeModes: _ = try PSKKeyExchangeModes(from: &r)
        case .earlyData: _ = try EarlyDataIndication(from: &r, inTicket: carrier == .newSessionTicket)
        case .cookie: _ = try TLS13Cookie(from: &r)
        case .signatureAlgorithmsCert:
            // §4.2.3: the same SignatureSchemeList as signature_algorithms.
            _ = try r.readList(of: SignatureScheme.self, lengthBytes: 2, min: 2, max: 0xfffe, elementSize: 2,
                               field: "supported_signature_algorithms")
            try r.expectEnd(field: "signature_algorithms_cert")
        case .certificateAuthorities: _ = try CertificateAuthorities(from: &r)
        case .postHandshakeAuth:
            // §4.2.6: "The "extension_data" field of the "post_handshake_auth" extension is zero length."
            try r.expectEnd(field: "post_handshake_auth")
        default: return false
        }
        return true
    }
}

/// `cookie` (RFC 8446 §4.2.2): `struct { opaque cookie<1..2^16-1>; } Cookie;` — what a server puts
/// in a HelloRetryRequest for the client to echo in its second ClientHello. A TLSLab client echoes
/// the extension's bytes whole.
public struct TLS13Cookie: Hashable, Sendable {
    public var cookie: [UInt8]

    init(from r: inout ByteReader) throws(DecodeError) {
        cookie = try r.readVector(lengthBytes: 2, min: 1, max: 0xffff, field: "cookie.cookie",
                                  recordedAs: "cookie") { (body: inout ByteReader) throws(DecodeError) in
            body.readRest(field: "cookie", as: .sized)
        }
        try r.expectEnd(field: "cookie")
    }
}

/// `certificate_authorities` (RFC 8446 §4.2.4): `DistinguishedName authorities<3..2^16-1>;`, each
/// `opaque DistinguishedName<1..2^16-1>` — the CAs whose certificates the sender would accept.
public struct CertificateAuthorities: Hashable, Sendable {
    public var authorities: [[UInt8]]

    init(from r: inout ByteReader) throws(DecodeError) {
        authorities = try r.readVector(lengthBytes: 2, min: 3, max: 0xffff,
                                       field: "authorities") { (list: inout ByteReader) throws(DecodeError) in
            var names: [[UInt8]] = []
            while !list.isAtEnd {
                names.append(try list.readOpaque(lengthBytes: 2, min: 1, max: 0xffff, field: "authorities[\(names.count)]"))
            }
            return names
        }
        try r.expectEnd(field: "certificate_authorities")
    }
}
