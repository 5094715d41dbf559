/// The extension bodies TLS 1.3 adds (RFC 8446 §4.2), read from and written to an extension's
/// `extension_data`. ``TLSExtension`` keeps them as their exact bytes; these types give them
/// their structure.

/// `supported_versions` (RFC 8446 §4.2.1). In a ClientHello, the versions the client speaks in
/// order of preference (`ProtocolVersion versions<2..254>`); in a ServerHello or
/// HelloRetryRequest, the one the server chose (`ProtocolVersion selected_version`). The real
/// version moved here because servers that only knew TLS 1.2 broke when legacy_version said 1.3:
/// the hellos keep saying 03 03 where old code looks.
public enum SupportedVersions: Hashable, Sendable {
    case offered([ProtocolVersion])
    case selected(ProtocolVersion)

    public var extensionData: [UInt8] {
        var w = ByteWriter()
        switch self {
        case .offered(let versions): w.writeList(versions, lengthBytes: 1)
        case .selected(let version): version.encode(to: &w)
        }
        return w.bytes
    }

    /// Reads the ClientHello form (`inClientHello`) or the server's.
    public init(extensionData: [UInt8], inClientHello: Bool) throws(DecodeError) {
        var r = ByteReader(extensionData)
        try self.init(from: &r, inClientHello: inClientHello)
    }

    /// Reads the whole extension_data from `r` (the dissector's reader records each field).
    init(from r: inout ByteReader, inClientHello: Bool) throws(DecodeError) {
        if inClientHello {
            self = .offered(try r.readVector(lengthBytes: 1, min: 2, max: 254, elementSize: 2, field: "supported_versions.versions",
                                             recordedAs: "versions") { (list: inout ByteReader) throws(DecodeError) in
                var versions: [ProtocolVersion] = []
                while !list.isAtEnd {
                    versions.append(try list.readCodePoint(ProtocolVersion.self, field: "ProtocolVersion", recordedAs: "versions[\(versions.count)]"))
                }
                return versions
            })
        } else {
            self = .selected(try r.readCodePoint(ProtocolVersion.self, field: "ProtocolVersion", recordedAs: "selected_version"))
        }
        try r.expectEnd(field: "supported_versions")
    }

    public var tlsExtension: TLSExtension { .unknown(.supportedVersions, extensionData) }
}

/// `KeyShareEntry` (RFC 8446 §4.2.8): `struct { NamedGroup group; opaque key_exchange<1..2^16-1>; }`.
/// For X25519 the key_exchange is the 32-byte public key; for P-256 the uncompressed point.
public struct KeyShareEntry: TLSCodable, Hashable {
    public var group: NamedGroup
    public var keyExchange: [UInt8]

    public init(group: NamedGroup, keyExchange: [UInt8]) {
        self.group = group
        self.keyExchange = keyExchange
    }

    public func encode(to writer: inout ByteWriter) {
        group.encode(to: &writer)
        writer.writeOpaque(keyExchange, lengthBytes: 2)
    }

    public init(from reader: inout ByteReader) throws(DecodeError) {
        group = try reader.readCodePoint(NamedGroup.self, field: "NamedGroup", recordedAs: "group")
        keyExchange = try reader.readVector(lengthBytes: 2, min: 1, max: 0xffff, field: "key_share.key_exchange",
                                            recordedAs: "key_exchange") { (body: inout ByteReader) throws(DecodeError) in
            body.readRest(field: "key_exchange", as: .sized)
        }
    }
}

/// `key_share` (RFC 8446 §4.2.8). The client sends public values for the groups it guesses the
/// server will pick (`client_shares<0..2^16-1>`), so that the (EC)DHE exchange completes in the
/// first round trip; the server answers with one share of one of them, or — in a
/// HelloRetryRequest — names the group it wants instead (`selected_group`).
public enum KeyShare: Hashable, Sendable {
    case clientShares([KeyShareEntry])
    case serverShare(KeyShareEntry)
    case selectedGroup(NamedGroup)

    /// Where the extension is, which decides its shape.
    public enum Carrier: Sendable {
        case clientHello, serverHello, helloRetryRequest
    }

    public var extensionData: [UInt8] {
        var w = ByteWriter()
        switch self {
        case .clientShares(let entries): w.writeList(entries, lengthBytes: 2)
        case .serverShare(let entry): entry.encode(to: &w)
        case .selectedGroup(let group): group.encode(to: &w)
        }
        return w.bytes
    }

    public init(extensionData: [UInt8], in carrier: Carrier) throws(DecodeError) {
        var r = ByteReader(extensionData)
        try self.init(from: &r, in: carrier)
    }

    /// Reads the whole extension_data from `r` (the dissector's reader records each field).
    init(from r: inout ByteReader, in carrier: Carrier) throws(DecodeError) {
        switch carrier {
        case .clientHello:
            let entries = try r.readVector(lengthBytes: 2, min: 0, max: 0xffff, field: "key_share.client_shares",
                                           recordedAs: "client_shares") { (list: inout ByteReader) throws(DecodeError) in
                var entries: [KeyShareEntry] = []
                while !list.isAtEnd {
                    entries.append(try list.readStructure("client_shares[\(entries.count)]") { (e: inout ByteReader) throws(DecodeError) in
                        try KeyShareEntry(from: &e)
                    })
                }
                return entries
            }
            // §4.2.8: "Clients MUST NOT offer multiple KeyShareEntry values for the same group."
            if Set(entries.map(\.group)).count != entries.count {
                throw .illegalParameter(field: "key_share.client_shares", reason: .duplicateKeyShareGroup)
            }
            self = .clientShares(entries)
        case .serverHello:
            self = .serverShare(try r.readStructure("server_share") { (e: inout ByteReader) throws(DecodeError) in try KeyShareEntry(from: &e) })
        case .helloRetryRequest:
            self = .selectedGroup(try r.readCodePoint(NamedGroup.self, field: "NamedGroup", recordedAs: "selected_group"))
        }
        try r.expectEnd(field: "key_share")
    }

    public var tlsExtension: TLSExtension { .unknown(.keyShare, extensionData) }
}

/// `psk_key_exchange_modes` (RFC 8446 §4.2.9): `PskKeyExchangeMode ke_modes<1..255>`, psk_ke(0) or
/// psk_dhe_ke(1). With psk_dhe_ke a resumption still runs a fresh (EC)DHE, so a stolen ticket
/// key does not open the resumed connection's traffic.
public struct PSKKeyExchangeModes: Hashable, Sendable {
    public static let pskKE: UInt8 = 0
    public static let pskDHEKE: UInt8 = 1

    public var modes: [UInt8]

    public init(modes: [UInt8]) { self.modes = modes }

    public var extensionData: [UInt8] { [UInt8(modes.count)] + modes }

    public init(extensionData: [UInt8]) throws(DecodeError) {
        var r = ByteReader(extensionData)
        try self.init(from: &r)
    }

    /// Reads the whole extension_data from `r` (the dissector's reader records each field).
    init(from r: inout ByteReader) throws(DecodeError) {
        modes = try r.readVector(lengthBytes: 1, min: 1, max: 255, field: "psk_key_exchange_modes.ke_modes",
                                 recordedAs: "ke_modes") { (list: inout ByteReader) throws(DecodeError) in
            var modes: [UInt8] = []
            while !list.isAtEnd {
                modes.append(UInt8(try list.readUInt(width: 1, field: "psk_key_exchange_modes.ke_modes", recordedAs: "ke_modes[\(modes.count)]",
                                                     as: .pskKeyExchangeMode)))
            }
            return modes
        }
        try r.expectEnd(field: "psk_key_exchange_modes")
    }

    public var tlsExtension: TLSExtension { .unknown(.pskKeyExchangeModes, extensionData) }
}

/// Values RFC 8446 fixes in the hellos.
public enum TLS13HelloValues {
    /// §4.1.3: a HelloRetryRequest is a ServerHello whose random is SHA-256("HelloRetryRequest").
    public static let helloRetryRequestRandom: [UInt8] = [
        0xcf, 0x21, 0xad, 0x74, 0xe5, 0x9a, 0x61, 0x11, 0xbe, 0x1d, 0x8c, 0x02, 0x1e, 0x65, 0xb8, 0x91,
        0xc2, 0xa2, 0x11, 0x16, 0x7a, 0xbb, 0x8c, 0x5e, 0x07, 0x9e, 0x09, 0xe2, 0xc8, 0xa8, 0x33, 0x9c]
    /// §4.1.3: the last 8 bytes of ServerHello.random of a TLS 1.3 server that negotiates TLS 1.2
    /// ("DOWNGRD" then 01) or an earlier version ("DOWNGRD" then 00). A TLS 1.3 client that sees
    /// them checks it asked for 1.3: if so, an attacker removed 1.3 from its offer, and the
    /// signed randoms prove it.
    public static let downgradeToTLS12: [UInt8] = [0x44, 0x4f, 0x57, 0x4e, 0x47, 0x52, 0x44, 0x01]
    public static let downgradeToTLS11OrBelow: [UInt8] = [0x44, 0x4f, 0x57, 0x4e, 0x47, 0x52, 0x44, 0x00]
}
