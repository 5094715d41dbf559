/// RFC 5246 §7.4.3 and RFC 8422 §5.4:
/// ```
/// struct {
///     select (KeyExchangeAlgorithm) {
///         case dhe_rsa:   ServerDHParams params;   digitally-signed struct { ... } signed_params;
///         case ec_diffie_hellman: ServerECDHParams params; Signature signed_params;
///     };
/// } ServerKeyExchange;
/// ```
/// The signature covers client_random ‖ server_random ‖ `paramsBytes`.
public struct ServerKeyExchange: Hashable, Sendable {
    /// The ephemeral parameters, by key exchange.
    public enum Params: Hashable, Sendable {
        case dhe(ServerDHParams)
        case ecdhe(ServerECDHParams)

        public var keyExchange: KeyExchangeAlgorithm {
            switch self {
            case .dhe: return .dheRSA
            case .ecdhe: return .ecdheRSA
            }
        }

        public func encode(to writer: inout ByteWriter) {
            switch self {
            case let .dhe(p): p.encode(to: &writer)
            case let .ecdhe(p): p.encode(to: &writer)
            }
        }
    }

    public var params: Params
    public var signedParams: DigitallySigned

    public init(params: Params, signedParams: DigitallySigned) {
        self.params = params
        self.signedParams = signedParams
    }

    /// The exact encoding of `params`, which the signature covers (after the two randoms).
    public var paramsBytes: [UInt8] {
        var w = ByteWriter()
        params.encode(to: &w)
        return w.bytes
    }

    public func encode(to writer: inout ByteWriter) {
        params.encode(to: &writer)
        signedParams.encode(to: &writer)
    }

    public init(from reader: inout ByteReader, context: HandshakeDecodingContext) throws(DecodeError) {
        switch context.keyExchange {
        case .dheRSA:
            params = .dhe(try reader.readStructure("params") { (r: inout ByteReader) throws(DecodeError) in try ServerDHParams(from: &r) })
        case .ecdheRSA, .ecdheECDSA:
            params = .ecdhe(try reader.readStructure("params") { (r: inout ByteReader) throws(DecodeError) in try ServerECDHParams(from: &r) })
        case .rsa:
            throw .needsKeyExchange(.serverKeyExchange, reason: .rsaHasNoServerKeyExchange)
        case nil:
            throw .needsKeyExchange(.serverKeyExchange, reason: .notKnownYet)
        }
        signedParams = try reader.readStructure("signed_params") { (r: inout ByteReader) throws(DecodeError) in
            try DigitallySigned(from: &r, context: context)
        }
    }
}
