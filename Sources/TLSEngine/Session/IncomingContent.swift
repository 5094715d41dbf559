/// One thing read from the peer, after record protection and handshake reassembly
/// (RFC 5246 §6.2.1: the four content types).
enum IncomingContent {
    case handshake(RawHandshakeMessage)
    case changeCipherSpec
    case alert(Alert)
    case applicationData([UInt8])

    var name: String {
        switch self {
        case .handshake(let m): return "\(m.type)"
        case .changeCipherSpec: return "change_cipher_spec"
        case .alert(let a): return "alert \(a)"
        case .applicationData: return "application_data"
        }
    }
}
