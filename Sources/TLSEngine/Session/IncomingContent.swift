/// One thing read from the peer, after record protection and handshake reassembly
/// (RFC 5246 §6.2.1: the four content types).
enum IncomingContent {
    case handshake(RawHandshakeMessage)
    case changeCipherSpec
    case alert(Alert)
    case applicationData([UInt8])

    /// What arrived, as an unexpected message's reason names it.
    var arrived: ArrivedMessage {
        switch self {
        case .handshake(let m): return .handshake(m.type)
        case .changeCipherSpec: return .content(.changeCipherSpec)
        case .alert: return .content(.alert)
        case .applicationData: return .content(.applicationData)
        }
    }
}

extension IncomingContent {
    /// RFC 5246 §7.1: a ChangeCipherSpec record holds the one byte 1. OpenSSL answers anything else —
    /// two bytes, or another value — with unexpected_message (SSL_R_BAD_CHANGE_CIPHER_SPEC); so does
    /// TLSLab (ChangeCipherSpecParityTests compares the two). The receiver and the dissector both ask
    /// here; the dissector passes a `recorder`, which is shown the byte read and any bytes after it.
    static func checkChangeCipherSpec(_ plaintext: [UInt8], recorder: FieldRecorder? = nil) throws(TLSError) {
        var reader = ByteReader(plaintext, recorder: recorder)
        let type = try? reader.readUInt(width: 1, field: "type", as: .changeCipherSpecType)
        let ends: Void? = try? reader.expectEnd(field: "ChangeCipherSpec")
        guard let type, ends != nil else { throw .peerMisbehaved(.malformedChangeCipherSpec(.length(plaintext.count))) }
        guard type == UInt32(ChangeCipherSpec.value) else {
            throw .peerMisbehaved(.malformedChangeCipherSpec(.value(UInt8(type))))
        }
    }

    /// An alert record's content (RFC 5246 §7.2): exactly one Alert, of a defined level. With a
    /// `recorder` (the dissector), every read is recorded.
    static func decodeAlert(_ plaintext: [UInt8], recorder: FieldRecorder? = nil) throws(TLSError) -> Alert {
        let alert: Alert
        do {
            var reader = ByteReader(plaintext, recorder: recorder)
            alert = try Alert(from: &reader)
            try reader.expectEnd(field: "Alert")
        } catch {
            throw .invalidMessage(error)
        }
        try IncomingLimits.checkLevel(alert)
        return alert
    }
}
