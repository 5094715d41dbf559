import TLSEngine

/// Why a TLS message that reached the receiver's TCP was never processed by its TLS. Each case is
/// the rule that stopped it; the catalogue words it (`dropped.…`, en and zh).
public enum DropReason: Sendable, Hashable {
    /// The receiver had sent a fatal alert before the record arrived: "Upon transmission … of a
    /// fatal alert message, both parties immediately close the connection" (RFC 5246 §7.2.2).
    case arrivedAfterFatalAlertSent(AlertDescription)
    /// The receiver had received a fatal alert before the record arrived: "Upon … receipt of a fatal
    /// alert message, both parties immediately close the connection" (RFC 5246 §7.2.2).
    case arrivedAfterFatalAlertReceived(AlertDescription)
    /// This record's MAC or AEAD tag did not verify, so the receiver sent `alert` (bad_record_mac)
    /// and never read the message inside (RFC 5246 §6.2.3.2 for a MAC, §6.2.3.3 for an AEAD tag;
    /// bad_record_mac, §7.2.2).
    case recordFailedAuthentication(AlertDescription)
    /// The receiver had stopped reading TLS records (it had closed its side).
    case receiverStoppedReading
    /// The connection ended before the record reached the receiver.
    case connectionEndedBeforeArrival
}

extension DropReason {
    /// The fatal alert behind the drop (nil when no alert was involved).
    public var alert: AlertDescription? {
        switch self {
        case .arrivedAfterFatalAlertSent(let a), .arrivedAfterFatalAlertReceived(let a), .recordFailedAuthentication(let a): a
        case .receiverStoppedReading, .connectionEndedBeforeArrival: nil
        }
    }
}
