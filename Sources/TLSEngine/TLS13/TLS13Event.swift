import PKI
import TLSCrypto

/// The handshake states of RFC 8446 Appendix A, by the names the RFC's diagrams give them.
public enum TLS13State: String, Sendable, Hashable {
    // Client (Appendix A.1)
    case start = "START"
    case waitServerHello = "WAIT_SH"
    case waitEncryptedExtensions = "WAIT_EE"
    case waitCertificateOrCertificateRequest = "WAIT_CERT_CR"
    case waitCertificate = "WAIT_CERT"
    case waitCertificateVerify = "WAIT_CV"
    case waitFinished = "WAIT_FINISHED"
    // Server (Appendix A.2)
    case receivedClientHello = "RECVD_CH"
    case negotiated = "NEGOTIATED"
    case waitEndOfEarlyData = "WAIT_EOED"
    case waitFlight2 = "WAIT_FLIGHT2"
    case waitClientCertificate = "WAIT_CERT_CLIENT"
    case waitClientCertificateVerify = "WAIT_CV_CLIENT"
    case waitClientFinished = "WAIT_FINISHED_CLIENT"
    // Both
    case connected = "CONNECTED"
    case closed = "CLOSED"
}

/// Which way a key protects records.
public enum TLS13KeyDirection: String, Sendable, Hashable {
    case read, write
}

/// What one side of a TLS 1.3 handshake did, in order: the facts a trace shows (every message
/// with its bytes, every key-schedule step, every key installed, every record protected), so that
/// no driver re-derives them.
public enum TLS13Event: Sendable {
    case stateChanged(from: TLS13State, to: TLS13State)
    /// A handshake message sent or received, header included (what the transcript hashes).
    case handshakeSent(HandshakeType, bytes: [UInt8])
    case handshakeReceived(HandshakeType, bytes: [UInt8])
    /// The dummy ChangeCipherSpec of middlebox compatibility mode (RFC 8446 §D.4): it carries no
    /// meaning in TLS 1.3 and is not in the transcript.
    case changeCipherSpecSent
    case changeCipherSpecReceived
    /// An ephemeral key share made for `group` (its public value goes in key_share).
    case keyShareGenerated(group: NamedGroup, publicKey: [UInt8])
    /// The (EC)DHE shared secret both sides compute and never send (RFC 8446 §7.4), with what this
    /// side computed it from: its own ephemeral private key, the public value it sent in key_share
    /// and the peer's, as TLS 1.2's ``DerivedValue/ecdhAgreement`` carries them.
    case sharedSecret(group: NamedGroup, value: [UInt8], privateKey: [UInt8], publicKey: [UInt8], peerPublicKey: [UInt8])
    /// The server asked for a share of another group (HelloRetryRequest, RFC 8446 §4.1.4).
    case helloRetryRequested(group: NamedGroup)
    /// The transcript restarted after a HelloRetryRequest: ClientHello1 replaced by
    /// message_hash ‖ Hash(ClientHello1) (RFC 8446 §4.4.1).
    case transcriptRestarted(messageHash: [UInt8])
    /// One step of the key schedule (RFC 8446 §7.1).
    case keySchedule(TLS13KeyScheduleStep)
    /// A traffic key and IV now protect one direction (RFC 8446 §7.3); `generation` counts
    /// KeyUpdates (application_traffic_secret_N, §7.2). `secretValue` is the traffic secret they are
    /// expanded from with the suite's `hash`.
    case trafficKeysInstalled(TLS13KeyDirection, secret: TLS13Secret, generation: Int, keys: TLS13TrafficKeys,
                              secretValue: [UInt8], hash: TLS13Hash)
    case recordSealed(TLS13RecordDetail)
    case recordOpened(TLS13RecordDetail)
    /// What the trust layer decided about the peer's chain of `chainLength` certificates.
    case certificateDecision(CertificateDecision, chainLength: Int)
    /// The hellos fixed the suite and the (EC)DHE group (RFC 8446 §4.1.3); `serverName` is the
    /// client's server_name (SNI), as this side knows it.
    case negotiated(suite: TLS13CipherSuite, group: NamedGroup, serverName: String?)
    /// The server's EncryptedExtensions chose this application protocol from the client's ALPN
    /// offer (RFC 7301 §3.2; in TLS 1.3 the answer is encrypted, RFC 8446 §4.3.1).
    case applicationProtocolSelected(ProtocolName)
    /// The peer's CertificateVerify `signature` checked over `content` (64 spaces, context, 0,
    /// transcript hash) with the public key of the peer's certificate.
    case certificateVerifyChecked(SignatureScheme, content: [UInt8], signature: [UInt8], valid: Bool)
    /// The server asked for a client certificate (CertificateRequest, RFC 8446 §4.3.2), for
    /// CertificateVerify signatures with `schemes`; `context` is echoed in the client's Certificate.
    case certificateRequested(context: [UInt8], schemes: [SignatureScheme])
    /// The client answered a CertificateRequest with an empty Certificate and no CertificateVerify
    /// (RFC 8446 §4.4.2, §4.4.3): recorded by the client that sent it (no certificate configured, or
    /// none for a scheme the request lists) and by a server that only requested one and goes on.
    case emptyClientCertificate
    /// This side's own CertificateVerify `signature`, made over `content` with its certificate's private key.
    case certificateVerifySigned(SignatureScheme, content: [UInt8], signature: [UInt8])
    /// The peer's Finished compared with the value this side computed.
    case finishedChecked(expected: [UInt8], received: [UInt8])
    /// A Finished MAC this side computed, with what it came from (RFC 8446 §4.4.4): its own
    /// Finished before sending it, the peer's before checking it (`finishedChecked` follows), or a
    /// PSK binder (§4.2.11.2, before `pskOffered` or `pskBinderChecked`).
    case finishedComputed(TLS13FinishedMAC)
    /// A TLS 1.3 client saw the DOWNGRD sentinel in a ServerHello that chose an older version.
    case downgradeDetected(random: [UInt8])
    /// Why this side is about to send a fatal alert (the `alertSent` that follows).
    case failed(TLS13Failure)
    case alertSent(Alert)
    case alertReceived(Alert)
    /// `resumed`: with a PSK from an earlier connection's ticket (§2.2).
    case handshakeCompleted(resumed: Bool)
    case applicationDataReceived([UInt8])
    case applicationDataSent([UInt8])
    /// A NewSessionTicket after the handshake (§4.6.1): the server sent one, the client kept it
    /// (the PSK it stands for follows as a `resumption_psk` key-schedule step on each side).
    case newSessionTicketSent(TLS13ResumptionTicket)
    case newSessionTicketReceived(TLS13ResumptionTicket)
    /// The client offers a ticket in pre_shared_key (§4.2.11): its identity with the obfuscated
    /// age (`ticketAgeMilliseconds` + ticket_age_add), and the binder computed with binder_key over
    /// the hash of the transcript up to the ClientHello without its binders (§4.2.11.2).
    case pskOffered(PSKIdentity, ticketAgeMilliseconds: UInt32, truncatedTranscriptHash: [UInt8], binder: [UInt8])
    /// The server recomputed the binder of the offered PSK and compared it with the one received.
    case pskBinderChecked(truncatedTranscriptHash: [UInt8], expected: [UInt8], received: [UInt8])
    /// The PSK the ServerHello selected (its index among the client's identities): this handshake
    /// resumes, and the server proves itself with the PSK instead of a certificate (§2.2).
    /// `ticketAgeMilliseconds`: the age the server reads from obfuscated_ticket_age (server only).
    case pskAccepted(selectedIdentity: UInt16, ticketAgeMilliseconds: UInt32?)
    /// The peer moved its keys on (KeyUpdate, §4.6.3); `answered`: this side moved its own too.
    case keyUpdateReceived(updateRequested: Bool)
    case keyUpdateSent(updateRequested: Bool)
    /// 0-RTT (RFC 8446 §2.3, §4.2.10): the client's first ClientHello carries early_data for a ticket
    /// allowing `maxEarlyDataSize` bytes; its 0-RTT records follow under client_early_traffic_secret.
    case earlyDataOffered(maxEarlyDataSize: UInt32)
    /// `length` bytes of application data sent or received as 0-RTT data (the `applicationData…`
    /// event with the bytes follows).
    case earlyDataSent(length: Int)
    case earlyDataReceived(length: Int)
    /// EncryptedExtensions answered early_data: the server reads the 0-RTT records.
    case earlyDataAccepted
    /// The server did not accept the 0-RTT data, and why; it skips those records (§4.2.10).
    case earlyDataRejected(TLS13EarlyDataRefusal)
    /// A 0-RTT record of `length` bytes (header included) discarded unread by a server that rejected early data (§4.2.10).
    case earlyRecordSkipped(length: Int)
    /// The client discarded the ticket it just received: its ticket_lifetime is 0 (§4.6.1).
    case ticketDiscardedAtOnce
    /// The client forgot its oldest ticket on receiving a newer one: it keeps the `kept` newest (§4.6.1).
    case oldestTicketDropped(kept: Int)
    /// A single-use ticket was used up by this handshake and leaves the server's store (§8.1).
    case ticketRedeemed(identity: [UInt8])
    /// The freshness check of a ClientHello offering 0-RTT data (§8.3): its expected arrival time
    /// against the server's clock and recording window.
    case freshnessChecked(TLS13FreshnessCheck)
    /// The server accepted 0-RTT data and records this ClientHello's binder for its window (§8.2);
    /// the caller adds it to the server's store.
    case clientHelloRecorded(TLS13RecordedClientHello)
}

/// Why a TLS 1.3 side ended the handshake, each answered with the alert RFC 8446 §6.2 names.
public enum TLS13Failure: Error, Sendable, Hashable {
    case decode(DecodeError)
    case record(TLS13RecordError)
    /// A message the state does not accept (RFC 8446 §6.2: unexpected_message).
    case unexpectedMessage(HandshakeType, in: TLS13State)
    /// A record of a content type the state does not accept (RFC 8446 §5: unexpected_message):
    /// a second or late ChangeCipherSpec, application data before the keys for it, a plaintext
    /// record where a protected one must come.
    case unexpectedRecord(ContentType, in: TLS13State)
    /// A plaintext handshake record with no content: RFC 8446 §5.1 forbids zero-length handshake
    /// fragments and names no alert for it (decode_error).
    case emptyHandshakeRecord
    /// A protected Handshake or Alert record whose TLSInnerPlaintext.content is empty (RFC 8446 §5.4:
    /// unexpected_message).
    case emptyProtectedRecord(ContentType)
    /// The server's Certificate lists no certificate (RFC 8446 §4.4.2.4: decode_error).
    case emptyServerCertificate
    /// No suite, group or signature scheme in common (handshake_failure).
    case noCommonParameters
    /// The peer broke a rule of the negotiation (illegal_parameter): which rule, with its section.
    case illegalParameter(TLS13IllegalParameter)
    /// A server answered an extension the client never sent (RFC 8446 §4.2: unsupported_extension).
    case unsupportedExtension(ExtensionType)
    /// A ClientHello without supported_versions 1.3 or key_share where one is needed (missing_extension).
    case missingExtension(ExtensionType)
    /// A server that requires a client certificate got an empty Certificate (certificate_required, §4.4.2.4).
    case certificateRequired
    /// The chain was refused by the trust layer: the refusal (its alert from the one alert table) and
    /// the account of the decision (which policy, handler or check said no), as TLS 1.2 reports it.
    case certificateRefused(CertificateRefusal, CertificateAccount)
    /// A CertificateVerify or Finished did not verify (decrypt_error).
    case verificationFailed
    /// The PSK binder did not verify (decrypt_error, RFC 8446 §4.2.11).
    case pskBinderInvalid
    /// The ServerHello's random ends with the downgrade sentinel (illegal_parameter, §4.1.3).
    case downgrade
    /// The peer's key share is not a valid point (illegal_parameter).
    case badKeyShare
    /// More 0-RTT application data than the ticket's max_early_data_size (unexpected_message, RFC 8446 §4.6.1).
    case tooMuchEarlyData(received: Int, limit: Int)
    /// ALPN: the client offered protocols and none is one this server speaks (no_application_protocol, RFC 7301 §3.2).
    case noCommonApplicationProtocol
    /// More empty application_data records in a row than ``IncomingLimits`` allows (unexpected_message, as TLS 1.2's limit).
    case tooManyEmptyRecords(limit: Int)
    /// More KeyUpdates in a row, without application data between them, than
    /// ``TLS13Connection/maximumConsecutiveKeyUpdates`` (unexpected_message, after BoringSSL's bound).
    case tooManyKeyUpdates(limit: Int)
    /// Handshake bytes followed, in the same record, a message after which the read key changes
    /// (ServerHello, ClientHello, EndOfEarlyData, Finished, KeyUpdate): RFC 8446 §5.1 requires such a
    /// message to end its record (unexpected_message).
    case handshakeDataAfterKeyChange
    /// This side's own key or arithmetic failed (internal_error).
    case internalError

    public var alert: AlertDescription {
        switch self {
        case .decode(let e): return e.alert
        case .record(let e): return e.alert
        case .emptyServerCertificate, .emptyHandshakeRecord: return .decodeError
        case .unexpectedMessage, .unexpectedRecord, .emptyProtectedRecord, .tooMuchEarlyData, .tooManyEmptyRecords, .tooManyKeyUpdates, .handshakeDataAfterKeyChange: return .unexpectedMessage
        case .noCommonApplicationProtocol: return .noApplicationProtocol
        case .noCommonParameters: return .handshakeFailure
        case .illegalParameter, .downgrade, .badKeyShare: return .illegalParameter
        case .missingExtension: return .missingExtension
        case .unsupportedExtension: return .unsupportedExtension
        case .certificateRefused(let refusal, _): return TLSAlertTable.alert(for: refusal)
        case .certificateRequired: return .certificateRequired
        case .verificationFailed, .pskBinderInvalid: return .decryptError
        case .internalError: return .internalError
        }
    }
}

/// What one input produced: the bytes to write and the events, with completion and failure said once.
public struct TLS13Step: Sendable {
    public var output: [UInt8] = []
    public var events: [TLS13Event] = []
    /// The records in `output`, in order, each with what it carries (as TLS 1.2's ``TLSStep`` says it).
    public var sent: [SentRecord] = []

    public var handshakeCompleted: Bool {
        events.contains { if case .handshakeCompleted = $0 { true } else { false } }
    }

    /// The fatal alert this side sent, if it ended the connection.
    public var alertSent: Alert? {
        for case .alertSent(let alert) in events where alert.isFatal { return alert }
        return nil
    }

    public var applicationData: [UInt8] {
        var out: [UInt8] = []
        for case .applicationDataReceived(let data) in events { out += data }
        return out
    }
}
