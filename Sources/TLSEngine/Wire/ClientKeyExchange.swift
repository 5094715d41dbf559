/// RFC 5246 §7.4.7 and RFC 8422 §5.7:
/// ```
/// struct {
///     select (KeyExchangeAlgorithm) {
///         case rsa:      EncryptedPreMasterSecret;   // public-key-encrypted PreMasterSecret pre_master_secret; (2-byte length in TLS)
///         case dhe_rsa:  ClientDiffieHellmanPublic;  // opaque dh_Yc<1..2^16-1>; (explicit)
///         case ec_diffie_hellman: ClientECDiffieHellmanPublic; // opaque point <1..2^8-1>; (explicit)
///     } exchange_keys;
/// } ClientKeyExchange;
/// ```
public enum ClientKeyExchange: Hashable, Sendable {
    /// The RSA-encrypted 48-byte premaster secret (`<0..2^16-1>`).
    case rsa(encryptedPreMasterSecret: [UInt8])
    /// The client's DH public value Yc.
    case dhe(yc: [UInt8])
    /// The client's ephemeral EC public key.
    case ecdhe(point: [UInt8])

    public var keyExchange: KeyExchangeAlgorithm {
        switch self {
        case .rsa: return .rsa
        case .dhe: return .dheRSA
        case .ecdhe: return .ecdheRSA
        }
    }

    public func encode(to writer: inout ByteWriter) {
        switch self {
        case let .rsa(encrypted): writer.writeOpaque(encrypted, lengthBytes: 2)
        case let .dhe(yc): writer.writeOpaque(yc, lengthBytes: 2)
        case let .ecdhe(point): writer.writeOpaque(point, lengthBytes: 1)
        }
    }

    public init(from reader: inout ByteReader, context: HandshakeDecodingContext) throws(DecodeError) {
        switch context.keyExchange {
        case .rsa:
            self = .rsa(encryptedPreMasterSecret: try reader.readOpaque(lengthBytes: 2, min: 0, max: 0xffff,
                                                                        field: "encrypted_pre_master_secret"))
        case .dheRSA:
            self = .dhe(yc: try reader.readOpaque(lengthBytes: 2, min: 1, max: 0xffff, field: "dh_Yc"))
        case .ecdheRSA, .ecdheECDSA:
            self = .ecdhe(point: try reader.readOpaque(lengthBytes: 1, min: 1, max: 0xff, field: "ecdh_Yc"))
        case nil:
            throw .needsKeyExchange(.clientKeyExchange, reason: .notKnownYet)
        }
    }
}
