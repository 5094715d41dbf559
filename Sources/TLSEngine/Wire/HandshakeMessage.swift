/// RFC 5246 §7.4:
/// ```
/// struct {
///     HandshakeType msg_type;    /* handshake type */
///     uint24 length;             /* bytes in message */
///     select (HandshakeType) { case hello_request: HelloRequest; case client_hello: ClientHello; ... } body;
/// } Handshake;
/// ```
/// `encoded` is the 4-byte header plus the body, exactly what enters the handshake transcript.
/// Decoding is exact (`encoded` of a decoded message equals the bytes it came from), and
/// `RawHandshakeMessage` keeps the received bytes alongside.
public enum HandshakeMessage: Hashable, Sendable {
    /// RFC 5246 §7.4.1.1: `struct { } HelloRequest;`
    case helloRequest
    case clientHello(ClientHello)
    case serverHello(ServerHello)
    case certificate(CertificateMessage)
    case serverKeyExchange(ServerKeyExchange)
    case certificateRequest(CertificateRequest)
    /// RFC 5246 §7.4.5: `struct { } ServerHelloDone;`
    case serverHelloDone
    case certificateVerify(CertificateVerify)
    case clientKeyExchange(ClientKeyExchange)
    case finished(Finished)
    /// RFC 5077 §3.3: the server's session ticket, between the client's Finished and the server's
    /// ChangeCipherSpec.
    case newSessionTicket(NewSessionTicket)
    /// A message type TLSLab does not model (for example certificate_status), kept byte for byte.
    case other(HandshakeType, body: [UInt8])

    /// The 4-byte header's size.
    public static let headerLength = 4
    /// The largest body a uint24 length can announce.
    public static let maxBodyLength = 0xff_ffff

    /// The body length a message's header announces (RFC 5246 §7.4: `msg_type`, then `uint24 length`),
    /// read from the header at `start`; nil while fewer than the header's 4 bytes are there. The one
    /// reading of the header the reassembler and the dissector share.
    public static func announcedBodyLength<C: Collection>(in bytes: C, at start: C.Index) -> Int? where C.Element == UInt8 {
        guard bytes.distance(from: start, to: bytes.endIndex) >= headerLength else { return nil }
        let b1 = bytes.index(after: start), b2 = bytes.index(after: b1), b3 = bytes.index(after: b2)
        return Int(bytes[b1]) << 16 | Int(bytes[b2]) << 8 | Int(bytes[b3])
    }

    public var type: HandshakeType {
        switch self {
        case .helloRequest: return .helloRequest
        case .clientHello: return .clientHello
        case .serverHello: return .serverHello
        case .certificate: return .certificate
        case .serverKeyExchange: return .serverKeyExchange
        case .certificateRequest: return .certificateRequest
        case .serverHelloDone: return .serverHelloDone
        case .certificateVerify: return .certificateVerify
        case .clientKeyExchange: return .clientKeyExchange
        case .finished: return .finished
        case .newSessionTicket: return .newSessionTicket
        case let .other(type, _): return type
        }
    }

    /// The body without the header.
    public var body: [UInt8] {
        var w = ByteWriter()
        switch self {
        case .helloRequest, .serverHelloDone: break
        case let .clientHello(m): m.encode(to: &w)
        case let .serverHello(m): m.encode(to: &w)
        case let .certificate(m): m.encode(to: &w)
        case let .serverKeyExchange(m): m.encode(to: &w)
        case let .certificateRequest(m): m.encode(to: &w)
        case let .certificateVerify(m): m.encode(to: &w)
        case let .clientKeyExchange(m): m.encode(to: &w)
        case let .finished(m): m.encode(to: &w)
        case let .newSessionTicket(m): m.encode(to: &w)
        case let .other(_, body): w.writeBytes(body)
        }
        return w.bytes
    }

    /// Header and body.
    public func encode(to writer: inout ByteWriter) {
        type.encode(to: &writer)
        writer.writeOpaque(body, lengthBytes: 3)
    }

    /// Header and body: the bytes a transcript hashes.
    public var encoded: [UInt8] {
        var w = ByteWriter()
        encode(to: &w)
        return w.bytes
    }

    /// The message as the reassembler would yield it.
    public var raw: RawHandshakeMessage { RawHandshakeMessage(type: type, body: body) }

    /// Reads one message (header and body) from `reader`.
    /// The 4-byte header, `msg_type` then `uint24 length` (the body length it announces): the one
    /// reading of a handshake header, the reassembler's, the codec's and, with a recorder on the
    /// reader, the dissector's.
    static func readHeader(from reader: inout ByteReader) throws(DecodeError) -> (type: HandshakeType, length: Int) {
        let type = try reader.readCodePoint(HandshakeType.self, field: "HandshakeType", recordedAs: "msg_type")
        let available = reader.remaining - 3
        let length = Int(try reader.readUInt(width: 3, field: "\(type).length", recordedAs: "length", as: .number, notes: { n in
            Int(n) > available ? [.declaresMore(declared: Int(n), present: max(available, 0))] : []
        }))
        return (type, length)
    }

    public init(from reader: inout ByteReader, context: HandshakeDecodingContext) throws(DecodeError) {
        let (type, length) = try Self.readHeader(from: &reader)
        guard length <= reader.remaining else { throw .truncated(field: "\(type)", needed: length, available: reader.remaining) }
        var body = ByteReader(try reader.readBytes(length, field: "\(type)"))
        self = try Self.decodeBody(type: type, from: &body, context: context)
        try body.expectEnd(field: "\(type)")
    }

    /// Decodes one message that must fill `bytes` exactly.
    public init(decoding bytes: [UInt8], context: HandshakeDecodingContext) throws(DecodeError) {
        var r = ByteReader(bytes)
        self = try HandshakeMessage(from: &r, context: context)
        try r.expectEnd(field: "handshake")
    }

    /// Decodes a body of the given type (the body reader must then be at its end).
    public static func decodeBody(type: HandshakeType, from r: inout ByteReader,
                                  context: HandshakeDecodingContext) throws(DecodeError) -> HandshakeMessage {
        switch type {
        case .helloRequest: return .helloRequest
        case .clientHello: return .clientHello(try ClientHello(from: &r))
        case .serverHello: return .serverHello(try ServerHello(from: &r))
        case .certificate: return .certificate(try CertificateMessage(from: &r))
        case .serverKeyExchange: return .serverKeyExchange(try ServerKeyExchange(from: &r, context: context))
        case .certificateRequest: return .certificateRequest(try CertificateRequest(from: &r, context: context))
        case .serverHelloDone: return .serverHelloDone
        case .certificateVerify: return .certificateVerify(try CertificateVerify(from: &r, context: context))
        case .clientKeyExchange: return .clientKeyExchange(try ClientKeyExchange(from: &r, context: context))
        case .finished: return .finished(try Finished(from: &r, context: context))
        case .newSessionTicket: return .newSessionTicket(try NewSessionTicket(from: &r))
        default: return .other(type, body: r.readRest(field: "body"))
        }
    }
}
