import TLSCrypto

/// NewSessionTicket (RFC 8446 §4.6.1), sent by the server after the handshake under the
/// application traffic keys:
///
///     struct {
///         uint32 ticket_lifetime;
///         uint32 ticket_age_add;
///         opaque ticket_nonce<0..255>;
///         opaque ticket<1..2^16-1>;
///         Extension extensions<0..2^16-2>;
///     } NewSessionTicket;
public struct TLS13NewSessionTicket: TLSCodable, Hashable {
    /// Seconds the ticket may be used for, at most 604800 (seven days).
    public var lifetime: UInt32
    /// A random value the client adds to the ticket's age when it offers it, so that the age an
    /// eavesdropper reads in one ClientHello does not link it to the ticket's NewSessionTicket.
    public var ageAdd: UInt32
    /// Unique per ticket of a connection: it makes each ticket's PSK different.
    public var nonce: [UInt8]
    /// The label the client offers back (here the server's index into the tickets it issued).
    public var ticket: [UInt8]
    public var extensions: [TLSExtension]

    /// RFC 8446 §4.6.1: "Servers MUST NOT use any value greater than 604800 seconds".
    public static let maximumLifetime: UInt32 = 604_800

    public init(lifetime: UInt32, ageAdd: UInt32, nonce: [UInt8], ticket: [UInt8], extensions: [TLSExtension] = []) {
        self.lifetime = lifetime
        self.ageAdd = ageAdd
        self.nonce = nonce
        self.ticket = ticket
        self.extensions = extensions
    }

    public func encode(to writer: inout ByteWriter) {
        writer.writeUInt32(lifetime)
        writer.writeUInt32(ageAdd)
        writer.writeOpaque(nonce, lengthBytes: 1)
        writer.writeOpaque(ticket, lengthBytes: 2)
        writer.writeList(extensions, lengthBytes: 2)
    }

    public init(from reader: inout ByteReader) throws(DecodeError) {
        lifetime = try reader.readUInt32(field: "ticket_lifetime")
        ageAdd = try reader.readUInt32(field: "ticket_age_add")
        nonce = try reader.readOpaque(lengthBytes: 1, min: 0, max: 255, field: "ticket_nonce", as: .hex)
        ticket = try reader.readOpaque(lengthBytes: 2, min: 1, max: 0xffff, field: "ticket", as: .ticket)
        extensions = try TLSExtension.decodeBlock(from: &reader) ?? []
    }
}

/// One `PskIdentity` of the pre_shared_key extension (RFC 8446 §4.2.11):
/// `struct { opaque identity<1..2^16-1>; uint32 obfuscated_ticket_age; }`.
public struct PSKIdentity: Hashable, Sendable {
    public var identity: [UInt8]
    /// The client's view of the ticket's age in milliseconds plus ticket_age_add, modulo 2^32.
    public var obfuscatedTicketAge: UInt32

    public init(identity: [UInt8], obfuscatedTicketAge: UInt32) {
        self.identity = identity
        self.obfuscatedTicketAge = obfuscatedTicketAge
    }
}

/// `pre_shared_key` (RFC 8446 §4.2.11). In a ClientHello the PSKs offered (`OfferedPsks`:
/// identities<7..2^16-1>, then binders<33..2^16-1>, each binder `opaque PskBinderEntry<32..255>`),
/// and it must be the last extension; in a ServerHello the index of the one the server took.
public enum PreSharedKey: Hashable, Sendable {
    case offered(identities: [PSKIdentity], binders: [[UInt8]])
    case selected(UInt16)

    public var extensionData: [UInt8] {
        var w = ByteWriter()
        switch self {
        case .offered(let identities, let binders):
            w.writeVector(lengthBytes: 2) { list in
                for identity in identities {
                    list.writeOpaque(identity.identity, lengthBytes: 2)
                    list.writeUInt32(identity.obfuscatedTicketAge)
                }
            }
            w.writeVector(lengthBytes: 2) { list in
                for binder in binders { list.writeOpaque(binder, lengthBytes: 1) }
            }
        case .selected(let index):
            w.writeUInt16(index)
        }
        return w.bytes
    }

    public init(extensionData: [UInt8], inClientHello: Bool) throws(DecodeError) {
        var r = ByteReader(extensionData)
        try self.init(from: &r, inClientHello: inClientHello)
    }

    /// Reads the whole extension_data from `r` (the dissector's reader records each field).
    init(from r: inout ByteReader, inClientHello: Bool) throws(DecodeError) {
        if inClientHello {
            let identities = try r.readVector(lengthBytes: 2, min: 7, max: 0xffff, field: "pre_shared_key.identities",
                                              recordedAs: "identities") { (list: inout ByteReader) throws(DecodeError) in
                var identities: [PSKIdentity] = []
                while !list.isAtEnd {
                    identities.append(try list.readStructure("identities[\(identities.count)]") { (e: inout ByteReader) throws(DecodeError) in
                        let identity = try e.readVector(lengthBytes: 2, min: 1, max: 0xffff, field: "pre_shared_key.identity",
                                                        recordedAs: "identity") { (body: inout ByteReader) throws(DecodeError) in
                            body.readRest(field: "identity", as: .ticket)
                        }
                        let age = try e.readUInt(width: 4, field: "obfuscated_ticket_age", as: .number)
                        return PSKIdentity(identity: identity, obfuscatedTicketAge: age)
                    })
                }
                return identities
            }
            let binders = try r.readVector(lengthBytes: 2, min: 33, max: 0xffff, field: "pre_shared_key.binders",
                                           recordedAs: "binders") { (list: inout ByteReader) throws(DecodeError) in
                var binders: [[UInt8]] = []
                while !list.isAtEnd {
                    let name = "binders[\(binders.count)]"
                    let binder = try list.readVector(lengthBytes: 1, min: 32, max: 255, field: "pre_shared_key.binder",
                                                     recordedAs: name) { (body: inout ByteReader) throws(DecodeError) in
                        body.readRest(field: name, as: .hex)
                    }
                    binders.append(binder)
                }
                return binders
            }
            self = .offered(identities: identities, binders: binders)
        } else {
            self = .selected(UInt16(try r.readUInt(width: 2, field: "pre_shared_key.selected_identity", recordedAs: "selected_identity", as: .number)))
        }
        try r.expectEnd(field: "pre_shared_key")
    }

    public var tlsExtension: TLSExtension { .unknown(.preSharedKey, extensionData) }

    /// The bytes the binders take at the end of a ClientHello (their uint16 list length, then each
    /// binder with its one-byte length): what RFC 8446 §4.2.11.2's truncated ClientHello leaves out.
    public static func bindersLength(_ binders: [[UInt8]]) -> Int { 2 + binders.reduce(0) { $0 + 1 + $1.count } }
}

/// A ticket as one side keeps it (RFC 8446 §4.6.1): the client to offer it back, the server to
/// recognise it. The PSK is never sent: each side derives it from its own resumption_master_secret
/// and the ticket nonce.
public struct TLS13ResumptionTicket: Sendable, Hashable {
    public var message: TLS13NewSessionTicket
    public var psk: [UInt8]
    /// The suite of the connection that made it: a resumption must use a suite with the same hash (§4.2.11).
    public var suite: TLS13CipherSuite
    /// The server's side only, when it was given a clock: when it issued the ticket (creation_time)
    /// and the round trip it measured on that connection, from its flight to the client's Finished
    /// (estimated_RTT) — the freshness check's inputs (§8.3).
    public var issuedAtMilliseconds: UInt64?
    public var estimatedRTTMilliseconds: UInt64 = 0
    /// The protocol ALPN chose on the connection that made it: 0-RTT data is accepted only when the
    /// new handshake chooses the same (RFC 8446 §4.2.10).
    public var applicationProtocol: ProtocolName?

    public init(message: TLS13NewSessionTicket, psk: [UInt8], suite: TLS13CipherSuite, applicationProtocol: ProtocolName? = nil) {
        self.message = message
        self.psk = psk
        self.suite = suite
        self.applicationProtocol = applicationProtocol
    }

    /// obfuscated_ticket_age for a ticket `ageMilliseconds` old (RFC 8446 §4.2.11.1).
    public func obfuscatedAge(ageMilliseconds: UInt32) -> UInt32 { ageMilliseconds &+ message.ageAdd }
}

/// The PSK binder (RFC 8446 §4.2.11.2): a Finished-style HMAC keyed from binder_key over the
/// transcript up to the ClientHello without its binders — it proves the client holds the PSK and
/// binds the PSK to this ClientHello.
public enum TLS13PSKBinder {
    /// The ClientHello message (header included) without its trailing binders list: every length
    /// in it already counts the binders, as RFC 8446 §4.2.11.2 requires.
    public static func truncated(clientHello bytes: [UInt8], bindersLength: Int) -> [UInt8]? {
        guard bytes.count > bindersLength else { return nil }
        return Array(bytes.dropLast(bindersLength))
    }

    /// HMAC(finished_key(binder_key), Transcript-Hash(prefix ‖ truncated ClientHello)).
    public static func binder(hash: TLS13Hash, binderKey: [UInt8], truncatedTranscriptHash: [UInt8]) -> [UInt8] {
        hash.finishedVerifyData(baseKey: binderKey, transcriptHash: truncatedTranscriptHash)
    }
}
