/// Limits on received records that cost the receiver work but carry nothing (the CVE-2016-8610
/// "SSL Death Alert" class): a peer that sends warning alerts or empty records without end would
/// otherwise keep a connection busy forever. RFC 5246 sets no number; TLSLab uses OpenSSL 3.0's,
/// so a lesson's alert matches what a real server answers:
/// - at most 4 warning alerts in a row (OpenSSL's `MAX_WARN_ALERT_COUNT` 5: the fifth is fatal);
/// - at most 32 empty records in a row (OpenSSL's `MAX_EMPTY_RECORDS`: the 33rd is fatal).
/// Both are answered with unexpected_message. A non-empty record starts the empty-record count again;
/// only a non-empty record that is not an alert starts the warning count again (as OpenSSL's
/// `ssl3_read_bytes`), so warnings alternating with empty records are cut off as well.
/// An alert level other than warning(1) or fatal(2) is refused with illegal_parameter (RFC 5246
/// §7.2 defines only those two; OpenSSL: "unknown alert type").
public enum IncomingLimits {
    public static let maximumConsecutiveWarningAlerts = 4
    public static let maximumConsecutiveEmptyRecords = 32

    static func count(emptyRecord: Bool, _ count: inout Int) throws(TLSError) {
        guard emptyRecord else { count = 0; return }
        count += 1
        guard count <= maximumConsecutiveEmptyRecords else {
            throw .peerMisbehaved(.tooManyEmptyRecords(limit: maximumConsecutiveEmptyRecords))
        }
    }

    static func check(_ alert: Alert, _ count: inout Int) throws(TLSError) {
        try checkLevel(alert)
        guard alert.level == .warning, alert.alertDescription != .closeNotify else { return }
        count += 1
        guard count <= maximumConsecutiveWarningAlerts else {
            throw .peerMisbehaved(.tooManyWarningAlerts(limit: maximumConsecutiveWarningAlerts))
        }
    }

    /// RFC 5246 §7.2 defines the levels warning(1) and fatal(2) only.
    static func checkLevel(_ alert: Alert) throws(TLSError) {
        guard alert.level == .warning || alert.level == .fatal else {
            throw .peerMisbehaved(.undefinedAlertLevel(alert.level.rawValue))
        }
    }
}
