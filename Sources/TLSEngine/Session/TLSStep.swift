/// What one input to a client or server produced, said once by the engine so that no driver
/// re-derives it from the events: the records to write, each with the messages it carries (and
/// where), whether the handshake completed, the fatal alert if one ended the connection, the
/// application data read, and every event in order for the trace.
public struct TLSStep: Sendable {
    /// The records to send, in order, each as it goes on the wire with what it carries.
    public var sent: [SentRecord]
    public var events: [TLSEvent]
    /// The handshake finished in this step (RFC 5246 §7.4.9: both Finished checked).
    public var handshakeCompleted: Bool
    /// The fatal alert this side sent, with its cause, when it ended the connection in this step.
    public var fatalAlertSent: (alert: Alert, cause: AlertCause)?
    /// The fatal alert the peer sent, when one arrived in this step.
    public var fatalAlertReceived: Alert?
    /// TLS 1.3: an alert at warning level other than close_notify and user_canceled, which RFC 8446
    /// §6 treats as an error alert whatever its level: it ended the connection.
    public var errorAlertReceived: Alert?
    /// The peer's close_notify arrived (RFC 5246 §7.2.1).
    public var closeNotifyReceived: Bool
    /// Application data read in this step, in order.
    public var applicationData: [UInt8]
    /// The CertificateRequest read in this step (RFC 5246 §7.4.4): the server asked this client
    /// for its certificate.
    public var certificateRequestReceived: CertificateRequest?

    public init(sent: [SentRecord] = [], events: [TLSEvent] = []) {
        self.sent = sent
        self.events = events
        handshakeCompleted = false
        fatalAlertReceived = nil
        closeNotifyReceived = false
        applicationData = []
        for event in events {
            switch event {
            case .handshakeCompleted: handshakeCompleted = true
            case .alertSent(let alert, let cause) where alert.isFatal && fatalAlertSent == nil: fatalAlertSent = (alert, cause)
            case .alertReceived(let alert) where alert.isFatal && fatalAlertReceived == nil: fatalAlertReceived = alert
            case .alertReceived(let alert) where alert.alertDescription == .closeNotify: closeNotifyReceived = true
            case .applicationDataReceived(let data): applicationData += data
            case .handshakeReceived(.certificateRequest(let request), _) where certificateRequestReceived == nil:
                certificateRequestReceived = request
            default: break
            }
        }
    }

    /// The records, as on the wire.
    public var records: [TLSRecord] { sent.map(\.record) }

    /// The bytes to write to TCP: every record, encoded, in order.
    public var output: [UInt8] { sent.flatMap(\.record.encoded) }
}

/// One record written, with what it carries (RFC 5246 §6.2.1: handshake messages may be coalesced
/// into one record or fragmented across several).
public struct SentRecord: Sendable {
    public var record: TLSRecord
    /// True when the record was protected with this direction's keys (after ChangeCipherSpec).
    public var isProtected: Bool
    /// What the plaintext fragment holds, in order.
    public var carries: [CarriedContent]
}

/// One piece of a record's plaintext: a whole message, or the part of a handshake message that
/// fits in this record.
public struct CarriedContent: Sendable {
    public enum Content: Sendable {
        /// A handshake message (`bytes`: the whole message, header included, even when this record
        /// holds only part of it).
        case handshake(HandshakeMessage, bytes: [UInt8])
        case changeCipherSpec
        case alert(Alert)
        case applicationData
    }

    public var content: Content
    /// The bytes of the record's plaintext fragment this piece occupies.
    public var range: Range<Int>
    /// True when this piece ends its message (always, except a handshake message continued in the
    /// next record).
    public var completesMessage: Bool
}

extension TLSRecord {
    /// Header and fragment.
    public var encoded: [UInt8] {
        var w = ByteWriter()
        encode(to: &w)
        return w.bytes
    }
}
