import HTTP2

extension HTTPEvent {
    /// An HTTP/2 connection's message as the trace records it.
    public init(_ message: HTTP2Connection.Message) {
        switch message {
        case .requestSent(let text, _): self = .requestSent(text)
        case .requestRetried(let text, _, let refused): self = .requestRetried(text, refusedStream: refused)
        case .responseReceived(let text, _): self = .responseReceived(text)
        case .requestReceived(let text): self = .requestReceived(text)
        case .responseSent(let text): self = .responseSent(text)
        }
    }
}
