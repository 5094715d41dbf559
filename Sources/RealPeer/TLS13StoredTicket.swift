import Foundation
import TLSCrypto
import TLSEngine
import UserFiles

/// A TLS 1.3 ticket as a client keeps it between connections (RFC 8446 §4.6.1): the
/// NewSessionTicket, the PSK derived for it, the suite of the connection that made it, and when it
/// arrived — its age when offered is measured from then (§4.2.11.1).
public struct TLS13StoredTicket: Sendable, Hashable {
    public var ticket: TLS13ResumptionTicket
    /// Milliseconds since the epoch, by the client's clock.
    public var receivedAtMilliseconds: UInt64

    public init(ticket: TLS13ResumptionTicket, receivedAtMilliseconds: UInt64) {
        self.ticket = ticket
        self.receivedAtMilliseconds = receivedAtMilliseconds
    }

    /// The ticket's age at `now` (milliseconds since the epoch), as obfuscated_ticket_age counts it
    /// before ticket_age_add (RFC 8446 §4.2.11.1): 0 for a clock that went back, at most 2^32 − 1.
    public func ageMilliseconds(at now: UInt64) -> UInt32 {
        UInt32(clamping: now >= receivedAtMilliseconds ? now - receivedAtMilliseconds : 0)
    }

    /// The ticket's lifetime has not passed at `now` (ticket_lifetime, in seconds, §4.6.1).
    public func isValid(at now: UInt64) -> Bool {
        now >= receivedAtMilliseconds && now - receivedAtMilliseconds < UInt64(ticket.message.lifetime) * 1_000
    }
}

/// The TLS 1.3 form of `--session-out`/`--session-in`: one `name: value` line per field, as the
/// TLS 1.2 form (``SessionFile``); it holds the PSK, so it is written readable by its owner only.
public enum TLS13TicketFile {
    public static let header = "TLSLab TLS 1.3 ticket (RFC 8446 §4.6.1); holds the resumption PSK: keep it private"

    public static func text(_ stored: TLS13StoredTicket) -> String {
        let m = stored.ticket.message
        var lines = [header,
                     "cipher_suite: \(SessionFile.hex(stored.ticket.suite.rawValue))",
                     "ticket_lifetime: \(m.lifetime)",
                     "ticket_age_add: \(m.ageAdd)",
                     "ticket_nonce: \(SessionFile.hex(m.nonce))",
                     "ticket: \(SessionFile.hex(m.ticket))",
                     "psk: \(SessionFile.hex(stored.ticket.psk))",
                     "received_at_ms: \(stored.receivedAtMilliseconds)"]
        if let size = m.maxEarlyDataSize { lines.append("max_early_data_size: \(size)") }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Reads a file ``text(_:)`` wrote; any other content is a clear error naming the field or line.
    public static func ticket(from text: String) throws(SessionFile.FormatError) -> TLS13StoredTicket {
        var fields = try SessionFileFields(text, header: header)
        let suiteBytes = try fields.bytes("cipher_suite", lengths: 2 ... 2)
        guard let suite = TLS13CipherSuite(rawValue: UInt16(suiteBytes[0]) << 8 | UInt16(suiteBytes[1])) else {
            throw .hexExpected(name: "cipher_suite", lengths: 2 ... 2)
        }
        let lifetime = try fields.number("ticket_lifetime")
        let ageAdd = try fields.number("ticket_age_add")
        // RFC 8446 §4.6.1: ticket_nonce<0..255>, ticket<1..2^16-1>; the PSK is one hash long (§4.6.1, §7.1).
        let nonce = try fields.bytes("ticket_nonce", lengths: 0 ... 255)
        let label = try fields.bytes("ticket", lengths: 1 ... 0xffff)
        let psk = try fields.bytes("psk", lengths: suite.hash.length ... suite.hash.length)
        let received = try fields.wideNumber("received_at_ms")
        var extensions: [TLSExtension] = []
        if let size = fields.optional("max_early_data_size") {
            extensions.append(.unknown(.earlyData, EarlyDataIndication.maxEarlyDataSize(try SessionFileFields.number("max_early_data_size", size)).extensionData))
        }
        try fields.expectNoOtherField()
        let message = TLS13NewSessionTicket(lifetime: lifetime, ageAdd: ageAdd, nonce: nonce, ticket: label, extensions: extensions)
        return TLS13StoredTicket(ticket: TLS13ResumptionTicket(message: message, psk: psk, suite: suite), receivedAtMilliseconds: received)
    }

    @discardableResult
    public static func write(_ stored: TLS13StoredTicket, to path: String) throws(OutputFileError) -> OutputFile.Outcome {
        try OutputFile.write(Array(text(stored).utf8), to: path, access: .ownerOnly)
    }
}

/// What a session file holds: a TLS 1.2 session or a TLS 1.3 ticket, told apart by the first line.
public enum StoredSession: Sendable {
    case tls12(TLSSession)
    case tls13(TLS13StoredTicket)

    /// Reads either form; an unreadable path throws ``InputFileError``, a file of neither form
    /// ``SessionFile/FormatError``.
    public static func read(_ path: String) throws -> StoredSession {
        let bytes = try InputFile.read(path, limit: SessionFile.maximumFileSize)
        guard let text = String(validating: bytes, as: UTF8.self) else { throw SessionFile.FormatError.notUTF8 }
        if text.hasPrefix(TLS13TicketFile.header) { return .tls13(try TLS13TicketFile.ticket(from: text)) }
        return .tls12(try SessionFile.session(from: text))
    }
}
