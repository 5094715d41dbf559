import Foundation
import UserFiles
import TLSEngine

/// A session kept between runs of `tlslab connect` (`--session-out FILE`, `--session-in FILE`), as
/// `s_client -sess_out`/`-sess_in` keep OpenSSL's: one `name: value` line per field, numbers in
/// decimal and bytes in hex. It holds the master secret: whoever reads the file can decrypt the
/// connections that used the session, so it is written readable by its owner only.
public enum SessionFile {
    public static let header = "TLSLab TLS 1.2 session (RFC 5246 §7.3, RFC 5077); holds the master secret: keep it private"

    /// What makes a file not a session file: typed, worded by the command line (`cli.sessionFile.*`).
    public enum FormatError: Error, Sendable, Equatable {
        /// Line 1 is not ``header``.
        case notASessionFile
        /// A line that is not `name: value`.
        case notNameValue(line: Int)
        case givenTwice(line: Int, name: String)
        case missing(name: String)
        case hexExpected(name: String, lengths: ClosedRange<Int>)
        case booleanExpected(name: String)
        case numberExpected(name: String)
        case unknownField(String)
        /// Neither a session ID nor a ticket: nothing a server could resume.
        case nothingToResumeBy
        case notUTF8
    }

    public static func text(_ session: TLSSession) -> String {
        var lines = [header,
                     "version: \(hex(session.version.rawValue))",
                     "cipher_suite: \(hex(session.cipherSuite.rawValue))",
                     "session_id: \(hex(session.sessionID))",
                     "master_secret: \(hex(session.masterSecret))",
                     "extended_master_secret: \(session.extendedMasterSecret)",
                     "encrypt_then_mac: \(session.encryptThenMAC)"]
        if let ticket = session.ticket {
            lines.append("ticket: \(hex(ticket))")
            lines.append("ticket_lifetime_hint: \(session.ticketLifetimeHint)")
            if let received = session.ticketReceivedAt { lines.append("ticket_received_at: \(received.secondsSinceEpoch)") }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Reads a file ``text(_:)`` wrote; any other content is a clear error naming the line.
    public static func session(from text: String) throws(FormatError) -> TLSSession {
        var fields = try SessionFileFields(text, header: header)
        let version = try fields.bytes("version", lengths: 2 ... 2)
        let suite = try fields.bytes("cipher_suite", lengths: 2 ... 2)
        // RFC 5246 §7.4.1.2: opaque SessionID<0..32>; §8.1: the master secret is 48 bytes.
        let id = try fields.bytes("session_id", lengths: 0 ... 32)
        let master = try fields.bytes("master_secret", lengths: 48 ... 48)
        var session = TLSSession(sessionID: id, version: ProtocolVersion(rawValue: UInt16(version[0]) << 8 | UInt16(version[1])),
                                 cipherSuite: CipherSuite(rawValue: UInt16(suite[0]) << 8 | UInt16(suite[1])),
                                 masterSecret: master, extendedMasterSecret: try fields.flag("extended_master_secret"),
                                 encryptThenMAC: try fields.flag("encrypt_then_mac"))
        if let ticket = fields.optional("ticket") {
            // RFC 5077 §3.3: opaque ticket<0..2^16-1>.
            session.ticket = try SessionFileFields.bytes("ticket", ticket, lengths: 1 ... 0xffff)
            session.ticketLifetimeHint = try fields.number("ticket_lifetime_hint")
            session.ticketReceivedAt = try fields.optional("ticket_received_at")
                .map { (v: String) throws(FormatError) in SessionTime(secondsSinceEpoch: try SessionFileFields.number("ticket_received_at", v)) }
        }
        try fields.expectNoOtherField()
        if id.isEmpty && session.ticket == nil { throw .nothingToResumeBy }
        return session
    }

    /// Writes the session to `path`, readable and writable by its owner only (0600), through
    /// ``OutputFile``: a directory or a link at `path` is refused and nothing else is touched; an
    /// earlier file is replaced atomically.
    @discardableResult
    public static func write(_ session: TLSSession, to path: String) throws(OutputFileError) -> OutputFile.Outcome {
        try OutputFile.write(Array(text(session).utf8), to: path, access: .ownerOnly)
    }

    /// The largest session file read: a real one is under 200 bytes plus its ticket (at most 2^16 − 1).
    public static let maximumFileSize = 256 * 1024

    /// Reads a session file: an unreadable path throws ``InputFileError`` (a directory, a device, a
    /// file over ``maximumFileSize``), a file that is not a session ``FormatError``.
    public static func read(_ path: String) throws -> TLSSession {
        let bytes = try InputFile.read(path, limit: maximumFileSize)
        guard let text = String(validating: bytes, as: UTF8.self) else { throw FormatError.notUTF8 }
        return try session(from: text)
    }

    static func hex<T: FixedWidthInteger>(_ value: T) -> String { hex(withUnsafeBytes(of: value.bigEndian) { Array($0) }) }
    static func hex(_ bytes: [UInt8]) -> String { Hex.string(bytes) }
    /// Hex digits only: the file's values hold no whitespace (``Hex/bytes(_:)`` would skip it).
    static func unhex(_ text: String) -> [UInt8]? {
        text.utf8.contains { $0 == 32 || $0 == 9 || $0 == 10 || $0 == 13 } ? nil : Hex.bytes(text)
    }
}
