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
    /// TLSLab (ChangeCipherSpecParityTests compares the two). The receiver and the dissector both ask here.
    static func checkChangeCipherSpec(_ plaintext: [UInt8]) throws(TLSError) {
        guard plaintext == [ChangeCipherSpec.value] else {
            throw .peerMisbehaved(.malformedChangeCipherSpec(plaintext.count == 1 ? .value(plaintext[0]) : .length(plaintext.count)))
        }
    }

    /// An alert record's content (RFC 5246 §7.2): exactly one Alert, of a defined level.
    static func decodeAlert(_ plaintext: [UInt8]) throws(TLSError) -> Alert {
        let alert: Alert
        do {
            alert = try Alert(decoding: plaintext)
        } catch {
            throw .invalidMessage(error)
        }
        try IncomingLimits.checkLevel(alert)
        return alert
    }
}
