import HTTP2
import TLSEngine
import Trace

extension TraceRecorder {
    /// Carries out an ``HTTP2Connection``'s actions for a real peer, in order: events and messages
    /// into the trace; each write encrypted by `encrypt` (nil: the peer already closed the TLS
    /// connection, so a note says what was not sent), its records traced and written to `socket`,
    /// with the frames it carries traced just before. Returns why sending failed, nil when all went.
    mutating func perform(_ out: HTTP2Connection.Output, by actor: Actor, socket: TCPSocket,
                          encrypt: ([UInt8]) throws(TLSError) -> TLSStep?) -> ExchangeFailure? {
        var frames: [HTTP2FrameTrace] = []
        for action in out.actions {
            switch action {
            case .event(.frameSent(let frame)):
                frames.append(frame)
            case .event(let event):
                http2(event, by: actor)
            case .message(let message):
                http(HTTPEvent(message), by: actor)
            case .write(let bytes):
                defer { frames = [] }
                let step: TLSStep?
                do throws(TLSError) { step = try encrypt(bytes) } catch { return .http2SendFailed(error) }
                guard let step else {
                    self.socket(.notSentAfterPeerClosed(frames: frames.map(\.typeName), bytes: bytes.count))
                    continue
                }
                for frame in frames { http2(.frameSent(frame), by: actor) }
                record(step, by: actor)
                do throws(SocketError) { try socket.write(step.output); wrote(step.output.count) } catch {
                    self.socket(.writeFailed(bytes: step.output.count, error))
                    return .http2SendFailed(nil)
                }
            }
        }
        return nil
    }
}
