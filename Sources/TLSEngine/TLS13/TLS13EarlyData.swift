import TLSCrypto

/// `early_data` (RFC 8446 §4.2.10): empty in a ClientHello (the client sends 0-RTT data) and in
/// EncryptedExtensions (the server accepts it); in a NewSessionTicket it carries
/// `uint32 max_early_data_size`, the most 0-RTT application data a client may send with that ticket.
public enum EarlyDataIndication: Hashable, Sendable {
    case indication
    case maxEarlyDataSize(UInt32)

    public var extensionData: [UInt8] {
        switch self {
        case .indication: return []
        case .maxEarlyDataSize(let size): return [UInt8(size >> 24), UInt8((size >> 16) & 0xff), UInt8((size >> 8) & 0xff), UInt8(size & 0xff)]
        }
    }

    /// Reads the NewSessionTicket form (`inTicket`) or the empty one.
    public init(extensionData: [UInt8], inTicket: Bool) throws(DecodeError) {
        var r = ByteReader(extensionData)
        try self.init(from: &r, inTicket: inTicket)
    }

    /// Reads the whole extension_data from `r` (the dissector's reader records each field).
    init(from r: inout ByteReader, inTicket: Bool) throws(DecodeError) {
        self = inTicket ? .maxEarlyDataSize(try r.readUInt(width: 4, field: "early_data.max_early_data_size",
                                                           recordedAs: "max_early_data_size", as: .number)) : .indication
        try r.expectEnd(field: "early_data")
    }

    public var tlsExtension: TLSExtension { .unknown(.earlyData, extensionData) }
}

extension TLS13NewSessionTicket {
    /// max_early_data_size of the ticket's early_data extension (RFC 8446 §4.6.1); nil: the ticket
    /// allows no 0-RTT data.
    public var maxEarlyDataSize: UInt32? {
        guard case .unknown(_, let data)? = extensions.first(ofType: .earlyData),
              case .maxEarlyDataSize(let size)? = try? EarlyDataIndication(extensionData: data, inTicket: true) else { return nil }
        return size
    }
}

/// What a TLS 1.3 server does with 0-RTT data (RFC 8446 §2.3, §4.2.10, §8).
public struct TLS13ServerEarlyData: Sendable, Hashable {
    /// max_early_data_size written into each NewSessionTicket (§4.6.1); 0: tickets allow no early data.
    public var maxEarlyDataSize: UInt32
    /// The 0-RTT application data a server that rejects early data discards before a record that
    /// fails to open is fatal (§4.2.10): at least this, and at least ``maxEarlyDataSize``. It is
    /// separate from what tickets advertise: a server that issues no 0-RTT tickets still meets
    /// clients resuming with another server's ticket, and must skip their early data and finish a
    /// 1-RTT handshake. 16384 by default, the bound OpenSSL's server keeps with early data off.
    public var rejectedEarlyDataSkipLimit: UInt32
    /// Accepts 0-RTT data offered with a ticket that allows it; false: always rejects (§4.2.10).
    public var accepts: Bool
    /// Single-use tickets (§8.1): a ticket is redeemed by the handshake that uses it, so the same
    /// ClientHello replayed finds it gone and gets a full handshake without its early data.
    public var singleUseTickets: Bool
    /// ClientHello recording with the freshness check (§8.2, §8.3); nil: none.
    public var recording: TLS13ClientHelloRecording?

    public init(maxEarlyDataSize: UInt32 = 0, accepts: Bool = true, singleUseTickets: Bool = false,
                recording: TLS13ClientHelloRecording? = nil, rejectedEarlyDataSkipLimit: UInt32 = 16_384) {
        self.maxEarlyDataSize = maxEarlyDataSize
        self.rejectedEarlyDataSkipLimit = rejectedEarlyDataSkipLimit
        self.accepts = accepts
        self.singleUseTickets = singleUseTickets
        self.recording = recording
    }
}

/// Why 0-RTT data offered in a ClientHello was not accepted (RFC 8446 §4.2.10).
public enum TLS13EarlyDataRefusal: String, Sendable, Hashable, CaseIterable {
    /// The server selected no PSK (an unknown, expired or already used ticket): a full handshake.
    case pskNotSelected = "psk_not_selected"
    /// The ticket carries no early_data extension.
    case ticketAllowsNone = "ticket_allows_none"
    /// The selected PSK is not the first identity, or the suite is not the ticket's (§4.2.10).
    case parametersDiffer = "parameters_differ"
    /// The server is configured to reject early data.
    case serverDeclines = "server_declines"
    /// The server answered with a HelloRetryRequest (§4.1.4).
    case helloRetryRequest = "hello_retry_request"
    /// The ClientHello's expected arrival time lies outside the server's recording window (§8.2, §8.3).
    case outsideFreshnessWindow = "outside_freshness_window"
    /// The server has recorded this ClientHello already: a replay (§8.2).
    case replayedClientHello = "replayed_client_hello"
}

/// The server's reading of 0-RTT records (RFC 8446 §4.2.10): accepted ones are opened with the
/// client_early_traffic_secret's key up to EndOfEarlyData; rejected ones are skipped.
enum TLS13EarlyRead: Sendable, Hashable {
    case none
    /// Accepted: application data counted against max_early_data_size (§4.6.1).
    case accepting(limit: Int, received: Int)
    /// Rejected: records that fail deprotection with the handshake key (or arrive before any key,
    /// after a HelloRetryRequest) are discarded, up to `limit` bytes.
    case skipping(limit: Int, skipped: Int)
}

/// The client's 0-RTT progress.
struct TLS13ClientEarlyData: Sendable, Hashable {
    /// early_data is in the first ClientHello, with the ticket's max_early_data_size.
    var offeredLimit: UInt32?
    var sent = 0
    /// The server's EncryptedExtensions answered early_data.
    var accepted = false
    var offered: Bool { offeredLimit != nil }
}

extension TLS13Connection {
    /// The length a 0-RTT record's application data can have at most: encrypted_record without
    /// the AEAD tag and the inner content type byte (§5.2, §4.6.1 counts application data only).
    static func earlyDataLength(of record: TLSRecord, tagLength: Int = 16) -> Int {
        max(0, record.fragment.count - tagLength - 1)
    }

    /// A rejected 0-RTT record discarded (§4.2.10), or false when it may not be: nothing is being
    /// skipped, or the bound would be passed (then the record fails as any other, §5.2).
    mutating func skipEarlyRecord(_ record: TLSRecord) -> Bool {
        guard record.contentType == .applicationData, case .skipping(let limit, let skipped) = earlyRead else { return false }
        let length = Self.earlyDataLength(of: record)
        guard skipped + length <= limit else { return false }
        earlyRead = .skipping(limit: limit, skipped: skipped + length)
        events.append(.earlyRecordSkipped(length: TLSRecord.headerLength + record.fragment.count))
        return true
    }

    /// Accepted 0-RTT application data, counted against max_early_data_size: more is
    /// unexpected_message (RFC 8446 §4.6.1).
    mutating func receiveEarlyData(_ content: [UInt8]) throws(TLS13Failure) {
        guard case .accepting(let limit, let received) = earlyRead else { throw .unexpectedRecord(.applicationData, in: state) }
        guard received + content.count <= limit else { throw .tooMuchEarlyData(received: received + content.count, limit: limit) }
        earlyRead = .accepting(limit: limit, received: received + content.count)
        events.append(.earlyDataReceived(length: content.count))
        events.append(.applicationDataReceived(content))
    }
}

extension TLS13Client {
    /// Whether the first ClientHello offers early data: a ticket with max_early_data_size and a
    /// configuration that asks for 0-RTT (RFC 8446 §4.2.10).
    var earlyDataLimit: UInt32? {
        guard configuration.offersEarlyData, !retried, let ticket = configuration.resumption,
              configuration.suites.contains(ticket.suite), let limit = ticket.message.maxEarlyDataSize, limit > 0 else { return nil }
        return limit
    }

    /// After the first ClientHello: client_early_traffic_secret and early_exporter_master_secret
    /// over the ClientHello (§7.1), [the compatibility ChangeCipherSpec, §D.4], and the write key
    /// of the 0-RTT records, with the ticket's suite (§4.2.10).
    mutating func startEarlyData() throws(TLS13Failure) {
        guard let limit = earlyData.offeredLimit, var early = pskEarly, let ticket = configuration.resumption else { return }
        let before = early.steps.count
        let secret = early.clientEarlyTrafficSecret(clientHelloHash: connection.transcriptHash)
        _ = early.earlyExporterMasterSecret(clientHelloHash: connection.transcriptHash)
        connection.note(early.steps, after: before)
        pskEarly = early
        connection.events.append(.earlyDataOffered(maxEarlyDataSize: limit))
        if configuration.middleboxCompatibility { connection.sendCompatibilityChangeCipherSpec() }
        try connection.install(.write, secret: .clientEarlyTrafficSecret, secret, suite: ticket.suite)
    }

    /// 0-RTT application data (RFC 8446 §2.3): only after a ClientHello that offered early data,
    /// before the server's answer, within the ticket's max_early_data_size.
    public mutating func sendEarlyData(_ data: [UInt8]) -> TLS13Step {
        guard connection.state == .waitServerHello, !retried, let limit = earlyData.offeredLimit,
              earlyData.sent + data.count <= Int(limit) else { return connection.takeStep() }
        earlyData.sent += data.count
        connection.events.append(.earlyDataSent(length: data.count))
        connection.events.append(.applicationDataSent(data))
        do { try connection.send(.applicationData, data) } catch { connection.sendAlert(error) }
        return connection.takeStep()
    }

    /// True while 0-RTT data may still be sent.
    public var canSendEarlyData: Bool { connection.state == .waitServerHello && !retried && earlyData.offered }

    /// The server's EncryptedExtensions answer to early_data (§4.2.10): present accepts, absent rejects.
    mutating func earlyDataAnswer(_ extensions: [TLSExtension]) throws(TLS13Failure) {
        let answered = extensions.contains(type: .earlyData)
        guard earlyData.offered else {
            if answered { throw .illegalParameter(.earlyDataNotOffered) }
            return
        }
        guard answered, resumed else {
            if answered { throw .illegalParameter(.earlyDataAcceptedWithoutPSK) }
            connection.events.append(.earlyDataRejected(resumed ? .serverDeclines : .pskNotSelected))
            return
        }
        earlyData.accepted = true
        connection.events.append(.earlyDataAccepted)
    }

    /// EndOfEarlyData (§4.5): after the server's Finished, the last record under the 0-RTT key;
    /// it joins the transcript.
    mutating func endEarlyData() throws(TLS13Failure) {
        guard earlyData.accepted else { return }
        try connection.sendHandshake(.endOfEarlyData, body: [])
    }
}

extension TLS13Server {
    /// Decides on 0-RTT data offered with `psk` (RFC 8446 §4.2.10): accepted only with the first
    /// identity, the ticket's suite, a ticket that allows it, no HelloRetryRequest, and a server
    /// that accepts early data.
    func earlyDataDecision(offered: Bool, psk: TLS13SelectedPSK?, suite: TLS13CipherSuite) -> TLS13EarlyDataVerdict {
        guard offered else { return .notOffered }
        guard let psk else { return .reject(.pskNotSelected) }
        guard let limit = psk.ticket.message.maxEarlyDataSize, limit > 0 else { return .reject(.ticketAllowsNone) }
        // §4.2.10: the first identity, the ticket's suite and the ticket's ALPN protocol.
        guard psk.index == 0, psk.ticket.suite == suite, psk.ticket.applicationProtocol == negotiatedApplicationProtocol else {
            return .reject(.parametersDiffer)
        }
        guard configuration.earlyData.accepts else { return .reject(.serverDeclines) }
        return .accept
    }

    /// Rejected 0-RTT data (§4.2.10): its records are skipped up to the larger of max_early_data_size
    /// and the skip bound, whatever this server writes into its own tickets.
    mutating func rejectEarlyData(_ why: TLS13EarlyDataRefusal) {
        connection.events.append(.earlyDataRejected(why))
        let early = configuration.earlyData
        connection.earlyRead = .skipping(limit: Int(max(early.maxEarlyDataSize, early.rejectedEarlyDataSkipLimit)), skipped: 0)
    }

    /// The end of accepted early data (§4.5): EndOfEarlyData, then the client's handshake key.
    mutating func endOfEarlyData(_ message: RawHandshakeMessage) throws(TLS13Failure) {
        var r = ByteReader(message.body)
        do { try TLS13Connection.readEndOfEarlyData(from: &r) } catch { throw .decode(error) }
        connection.received(message)
        connection.earlyRead = .none
        try connection.install(.read, secret: .clientHandshakeTrafficSecret, connection.clientHandshakeSecret)
        connection.enter(.waitClientFinished)
    }
}

/// A server's answer to an early_data offer.
enum TLS13EarlyDataVerdict: Hashable {
    case notOffered, accept
    case reject(TLS13EarlyDataRefusal)
}

/// The PSK a server selected: its key-schedule stage, its index among the offered identities, the ticket.
struct TLS13SelectedPSK {
    var early: TLS13KeySchedule.Early
    var index: UInt16
    var ticket: TLS13ResumptionTicket
    /// The identity's binder, the value ClientHello recording keys on (§8.2).
    var binder: [UInt8]
    /// The client's view of the ticket's age: obfuscated_ticket_age − ticket_age_add (§4.2.11.1).
    var clientTicketAgeMilliseconds: UInt32
}
