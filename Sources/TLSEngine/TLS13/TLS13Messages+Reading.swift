/// The readers of the TLS 1.3 handshake bodies that have no type of their own (RFC 8446 §4.4.3,
/// §4.4.4, §4.5, §4.6.3): the engine reads each message with them, and so does the dissector, with a
/// recorder on the reader.
extension TLS13Connection {
    /// CertificateVerify (§4.4.3): `SignatureScheme algorithm; opaque signature<0..2^16-1>;`.
    static func readCertificateVerify(from r: inout ByteReader) throws(DecodeError) -> (SignatureScheme, [UInt8]) {
        let scheme = try r.readCodePoint(SignatureScheme.self, field: "SignatureScheme", recordedAs: "algorithm")
        let signature = try r.readVector(lengthBytes: 2, min: 0, max: 0xffff, field: "CertificateVerify.signature",
                                         recordedAs: "signature") { (body: inout ByteReader) throws(DecodeError) in
            body.readRest(field: "signature", as: .sized)
        }
        try r.expectEnd(field: "CertificateVerify")
        return (scheme, signature)
    }

    /// Finished (§4.4.4): `opaque verify_data[Hash.length];` — a Finished of another length is
    /// malformed (§6.2: decode_error).
    static func readVerifyData(from r: inout ByteReader, length: Int) throws(DecodeError) -> [UInt8] {
        let count = r.remaining
        let data = r.readRest(field: "verify_data", as: .hex)
        guard count == length else {
            throw .lengthOutOfRange(field: "Finished.verify_data", length: count, min: length, max: length)
        }
        return data
    }

    /// KeyUpdate (§4.6.3): `KeyUpdateRequest request_update;`, one byte; another length is a
    /// malformed message (§6.2: decode_error). The value's meaning is checked by the caller.
    static func readKeyUpdate(from r: inout ByteReader) throws(DecodeError) -> UInt8 {
        let request = UInt8(try r.readUInt(width: 1, field: "KeyUpdate.request_update", recordedAs: "request_update", as: .keyUpdateRequest))
        try r.expectEnd(field: "KeyUpdate")
        return request
    }

    /// EndOfEarlyData (§4.5): `struct {} EndOfEarlyData;`.
    static func readEndOfEarlyData(from r: inout ByteReader) throws(DecodeError) {
        try r.expectEnd(field: "EndOfEarlyData")
    }
}

/// A TLS 1.3 handshake body whose shape differs from TLS 1.2's, read by the engine's own readers
/// (RFC 8446 §4.3–§4.6); ClientHello and ServerHello keep TLS 1.2's and are read by ``HandshakeMessage``.
public enum TLS13HandshakeBody {
    /// The message types read here.
    public static let types: Set<HandshakeType> = [
        .encryptedExtensions, .certificate, .certificateRequest, .certificateVerify, .finished, .newSessionTicket, .keyUpdate, .endOfEarlyData,
    ]

    /// Reads the body of `type` to its end (`verifyDataLength`: the suite's Hash.length); returns the
    /// refusal a TLS 1.3 peer makes of a body that decodes but breaks a rule that needs no state (an
    /// extension §4.2's table does not list for EncryptedExtensions, with its type; a KeyUpdate
    /// request that is neither 0 nor 1), nil when there is none.
    static func read(_ type: HandshakeType, from r: inout ByteReader,
                     verifyDataLength: Int) throws(DecodeError) -> (TLS13Failure, ExtensionType?)? {
        switch type {
        case .encryptedExtensions:
            let message = try EncryptedExtensions(from: &r)
            try r.expectEnd(field: "EncryptedExtensions")
            if let refusal = TLS13ExtensionCarrier.encryptedExtensions.refusal(of: message.extensions) { return (refusal.0, refusal.1) }
        case .certificate:
            _ = try TLS13CertificateMessage(from: &r)
            try r.expectEnd(field: "Certificate")
        case .certificateRequest:
            _ = try TLS13CertificateRequest(from: &r)
            try r.expectEnd(field: "CertificateRequest")
        case .certificateVerify: _ = try TLS13Connection.readCertificateVerify(from: &r)
        case .finished: _ = try TLS13Connection.readVerifyData(from: &r, length: verifyDataLength)
        case .newSessionTicket:
            _ = try TLS13NewSessionTicket(from: &r)
            try r.expectEnd(field: "NewSessionTicket")
        case .keyUpdate:
            if try TLS13Connection.readKeyUpdate(from: &r) > 1 { return (.illegalParameter(.keyUpdateRequestInvalid), nil) }
        case .endOfEarlyData: try TLS13Connection.readEndOfEarlyData(from: &r)
        default: break
        }
        return nil
    }

    /// The extension block a message of `type` carries (RFC 8446 §4.2's table).
    static func carrier(of type: HandshakeType) -> TLS13ExtensionCarrier? {
        switch type {
        case .clientHello: return .clientHello
        case .serverHello: return .serverHello
        case .encryptedExtensions: return .encryptedExtensions
        case .certificate: return .certificate
        case .certificateRequest: return .certificateRequest
        case .newSessionTicket: return .newSessionTicket
        default: return nil
        }
    }
}
