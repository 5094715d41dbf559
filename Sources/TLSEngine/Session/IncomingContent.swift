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
