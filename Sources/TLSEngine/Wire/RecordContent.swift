/// What one plaintext record carries, by its content type (RFC 5246 §6.2.1, §7.1, §7.2, §10):
/// a ChangeCipherSpec, an Alert, a fragment of the handshake stream (whole messages come out of
/// `HandshakeReassembler`), or application data.
public enum RecordContent: Hashable, Sendable {
    case changeCipherSpec
    case alert(Alert)
    case handshake(fragment: [UInt8])
    case applicationData([UInt8])

    public var contentType: ContentType {
        switch self {
        case .changeCipherSpec: return .changeCipherSpec
        case .alert: return .alert
        case .handshake: return .handshake
        case .applicationData: return .applicationData
        }
    }

    /// The fragment bytes.
    public var fragment: [UInt8] {
        switch self {
        case .changeCipherSpec: return ChangeCipherSpec().encoded
        case let .alert(alert): return alert.encoded
        case let .handshake(fragment): return fragment
        case let .applicationData(data): return data
        }
    }

    /// Interprets a (decrypted) record's fragment. A ChangeCipherSpec or Alert record must hold
    /// exactly one of them (TLSLab does not accept coalesced alerts).
    public init(record: TLSRecord) throws(DecodeError) {
        switch record.contentType {
        case .changeCipherSpec:
            _ = try ChangeCipherSpec(decoding: record.fragment)
            self = .changeCipherSpec
        case .alert:
            self = .alert(try Alert(decoding: record.fragment))
        case .handshake:
            self = .handshake(fragment: record.fragment)
        case .applicationData:
            self = .applicationData(record.fragment)
        default:
            throw .unexpectedContentType(record.contentType.rawValue)
        }
    }

    /// The record carrying this content (a programmer error if the fragment exceeds 2^14: split
    /// handshake and application data with `TLSRecord.fragment` first).
    public func record(version: ProtocolVersion = .tls12) -> TLSRecord {
        precondition(fragment.count <= TLSRecord.maxPlaintextLength, "record fragment over 2^14: fragment it first")
        return TLSRecord(contentType: contentType, version: version, fragment: fragment)
    }
}
