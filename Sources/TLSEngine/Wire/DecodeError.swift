/// Why bytes from the wire could not be decoded.
///
/// Every case is answered by the alert RFC 5246 §7.2.2 says to send, from ``TLSAlertTable``.
public enum DecodeError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The bytes stop before `field` is complete.
    case truncated(field: String, needed: Int, available: Int)
    /// Bytes remain after `field` (a structure or vector) should have ended.
    case trailingBytes(field: String, count: Int)
    /// A vector's length prefix is outside the RFC's `<min..max>` (or not a multiple of its
    /// element size).
    case lengthOutOfRange(field: String, length: Int, min: Int, max: Int)
    /// A field holds a value the RFC does not allow here; maps to `decode_error`.
    case malformed(field: String, reason: MalformedReason)
    /// A field holds a value the RFC says is an `illegal_parameter`.
    case illegalParameter(field: String, reason: IllegalParameterReason)
    /// The same extension type appears twice in one extensions block (RFC 5246 §7.4.1.4).
    case duplicateExtension(ExtensionType)
    /// A record's length exceeds the limit (RFC 5246 §6.2.1, §6.2.3).
    case recordOverflow(length: Int, limit: Int)
    /// A record's content type is not one of RFC 5246 §6.2.1's (20–23).
    case unexpectedContentType(UInt8)
    /// An SSL 2.0-compatible CLIENT-HELLO (RFC 5246 Appendix E.2) where only TLS records may come:
    /// from a server, or after a client's first bytes (a server accepts one as the first message).
    case sslv2ClientHello
    /// A handshake message announces a body longer than the reassembler accepts.
    case handshakeMessageTooLarge(length: Int, limit: Int)
    /// A message whose body can only be read once the key exchange is known (ServerKeyExchange,
    /// ClientKeyExchange) arrived without it, or for a key exchange that does not use it.
    case needsKeyExchange(HandshakeType, reason: KeyExchangeUnavailable)

    /// The alert to send for this error, from the engine's one table (``TLSAlertTable``).
    public var alert: AlertDescription { TLSAlertTable.alert(for: .invalidMessage(kind)) }

    /// A debugging line (the renderers word the case from their catalogue).
    public var description: String {
        switch self {
        case let .truncated(field, needed, available):
            return "\(field): truncated (needs \(needed) bytes, \(available) remain)"
        case let .trailingBytes(field, count):
            return "\(field): \(count) unexpected trailing byte(s)"
        case let .lengthOutOfRange(field, length, min, max):
            return "\(field): length \(length) outside <\(min)..\(max)>"
        case let .malformed(field, reason):
            return "\(field): \(reason)"
        case let .illegalParameter(field, reason):
            return "\(field): illegal parameter: \(reason)"
        case let .duplicateExtension(type):
            return "duplicate extension \(type)"
        case let .recordOverflow(length, limit):
            return "record length \(length) exceeds \(limit)"
        case let .unexpectedContentType(raw):
            return "unknown record content type \(raw)"
        case .sslv2ClientHello:
            return "SSL 2.0-compatible CLIENT-HELLO where only TLS records may come (a server accepts one only as a client's first bytes)"
        case let .handshakeMessageTooLarge(length, limit):
            return "handshake message of \(length) bytes exceeds the limit of \(limit)"
        case let .needsKeyExchange(type, reason):
            return "\(type): \(reason)"
        }
    }
}
