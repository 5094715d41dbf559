import Crypto
import _CryptoExtras
import TLSCrypto

/// A server's session-ticket keys and the ticket layout RFC 5077 §4 recommends:
/// ```
/// struct {
///     opaque key_name[16];
///     opaque iv[16];
///     opaque encrypted_state<0..2^16-1>;
///     opaque mac[32];
/// } ticket;
/// ```
/// `encrypted_state` is AES-128-CBC (PKCS#7 padding) of the session state; `mac` is HMAC-SHA-256
/// over key_name ‖ iv ‖ encrypted_state with its length. The keys come from the server's injected
/// random source; a driver that wants tickets to outlive one connection shares one value between
/// its connections and replaces it to end the tickets' life (the engine reads no clock).
public struct SessionTicketKeys: Sendable, Hashable {
    public static let keyNameLength = 16
    public static let ivLength = 16
    public static let macLength = 32

    /// Names the key set, so that a ticket from another server (or an older key) is told apart.
    public let keyName: [UInt8]
    /// AES-128 key for encrypted_state.
    public let encryptionKey: [UInt8]
    /// HMAC-SHA-256 key for mac.
    public let macKey: [UInt8]

    public init(random: RandomSource) {
        keyName = random.bytes(count: Self.keyNameLength)
        encryptionKey = random.bytes(count: 16)
        macKey = random.bytes(count: 32)
    }

    /// Encrypts and authenticates `state`, with a fresh IV from `random`.
    func seal(_ state: SessionTicketState, random: RandomSource) throws(TLSError) -> [UInt8] {
        let iv = random.bytes(count: Self.ivLength)
        let encrypted: [UInt8]
        do {
            encrypted = Array(try AES._CBC.encrypt(state.encoded, using: SymmetricKey(data: encryptionKey),
                                                   iv: AES._CBC.IV(ivBytes: iv)))
        } catch {
            throw .internalError(.sessionTicketEncryptionFailed)
        }
        var w = ByteWriter()
        w.writeBytes(keyName)
        w.writeBytes(iv)
        w.writeOpaque(encrypted, lengthBytes: 2)
        let mac = HMAC<SHA256>.authenticationCode(for: w.bytes, using: SymmetricKey(data: macKey))
        w.writeBytes(Array(mac))
        return w.bytes
    }

    /// The state inside `ticket`, or why it cannot be used (then the server does a full handshake,
    /// RFC 5077 §3.4). The MAC is checked before anything is decrypted.
    func open(_ ticket: [UInt8]) -> Result<SessionTicketState, SessionTicketRefusal> {
        let fixed = Self.keyNameLength + Self.ivLength + 2 + Self.macLength
        guard ticket.count >= fixed else { return .failure(.malformed) }
        guard Array(ticket.prefix(Self.keyNameLength)) == keyName else { return .failure(.unknownKeyName) }
        let authenticated = Array(ticket.dropLast(Self.macLength))
        let received = Array(ticket.suffix(Self.macLength))
        let expected = Array(HMAC<SHA256>.authenticationCode(for: authenticated, using: SymmetricKey(data: macKey)))
        var difference: UInt8 = 0
        for (a, b) in zip(expected, received) { difference |= a ^ b }
        guard difference == 0 else { return .failure(.macMismatch) }
        var reader = ByteReader(authenticated)
        do {
            _ = try reader.readBytes(Self.keyNameLength, field: "key_name")
            let iv = try reader.readBytes(Self.ivLength, field: "iv")
            let encrypted = try reader.readOpaque(lengthBytes: 2, min: 0, max: 0xffff, field: "encrypted_state")
            try reader.expectEnd(field: "ticket")
            let plain = Array(try AES._CBC.decrypt(encrypted, using: SymmetricKey(data: encryptionKey), iv: AES._CBC.IV(ivBytes: iv)))
            return .success(try SessionTicketState(decoding: plain))
        } catch {
            return .failure(.malformed)
        }
    }
}

/// Why a server does not resume from a ticket (RFC 5077 §3.4: it then does a full handshake).
public enum SessionTicketRefusal: String, Error, Sendable, Hashable, CaseIterable {
    /// Not the size or shape of a ticket this server issues.
    case malformed
    /// key_name is not this server's: another server's ticket, or keys replaced since.
    case unknownKeyName
    /// The MAC does not verify: the ticket was altered.
    case macMismatch
    /// The state is intact but cannot be resumed here: another version, a suite the client no
    /// longer offers, or encrypt-then-MAC it no longer offers. (The extended master secret has its own
    /// rules, RFC 7627 §5.3: ``TLSEvent/resumptionDeclined(_:)`` or a handshake_failure.)
    case sessionMismatch
}

/// What a ticket carries (RFC 5077 §4's StatePlaintext, without compression and client identity):
/// ```
/// struct {
///     ProtocolVersion protocol_version;
///     CipherSuite cipher_suite;
///     opaque master_secret[48];
///     uint32 timestamp;               /* the full handshake's time, seconds since 1970; 0: unknown */
///     uint8 extended_master_secret;   /* 0 or 1, RFC 7627 §5.3 */
///     uint8 encrypt_then_mac;         /* 0 or 1, RFC 7366 §3.1 */
/// } StatePlaintext;
/// ```
struct SessionTicketState: TLSCodable, Hashable {
    var version: ProtocolVersion
    var cipherSuite: CipherSuite
    var masterSecret: [UInt8]
    var extendedMasterSecret: Bool
    var encryptThenMAC: Bool
    /// When the session's full handshake happened (the driver's clock reading), nil when unknown.
    var establishedAt: SessionTime?

    init(session: TLSSession) {
        version = session.version
        cipherSuite = session.cipherSuite
        masterSecret = session.masterSecret
        extendedMasterSecret = session.extendedMasterSecret
        encryptThenMAC = session.encryptThenMAC
        establishedAt = session.establishedAt
    }

    func encode(to writer: inout ByteWriter) {
        version.encode(to: &writer)
        cipherSuite.encode(to: &writer)
        writer.writeBytes(masterSecret)
        writer.writeUInt32(establishedAt?.secondsSinceEpoch ?? 0)
        writer.writeUInt8(extendedMasterSecret ? 1 : 0)
        writer.writeUInt8(encryptThenMAC ? 1 : 0)
    }

    init(from reader: inout ByteReader) throws(DecodeError) {
        version = try ProtocolVersion(from: &reader)
        cipherSuite = try CipherSuite(from: &reader)
        masterSecret = try reader.readBytes(KeySchedule.masterSecretLength, field: "master_secret")
        let timestamp = try reader.readUInt32(field: "timestamp")
        establishedAt = timestamp == 0 ? nil : SessionTime(secondsSinceEpoch: timestamp)
        let ems = try reader.readUInt8(field: "extended_master_secret")
        let etm = try reader.readUInt8(field: "encrypt_then_mac")
        guard ems <= 1, etm <= 1 else { throw .malformed(field: "StatePlaintext", reason: .ticketStateFlags(extendedMasterSecret: ems, encryptThenMAC: etm)) }
        extendedMasterSecret = ems == 1
        encryptThenMAC = etm == 1
    }

    /// The session this state resumes, under the session ID the client sent with the ticket.
    func session(id: [UInt8], ticket: [UInt8]) -> TLSSession {
        var session = TLSSession(sessionID: id, version: version, cipherSuite: cipherSuite, masterSecret: masterSecret,
                                 extendedMasterSecret: extendedMasterSecret, encryptThenMAC: encryptThenMAC)
        session.ticket = ticket
        session.establishedAt = establishedAt
        return session
    }
}
