/// How a dissection shows a field the codec reads: the codec names each field and says what kind of
/// value it holds; the recorder turns the bytes into a ``FieldValue`` only when dissecting.
enum FieldDisplay {
    /// Opaque bytes in hex (an unknown extension's data, a body TLSLab does not model).
    case bytes
    /// Hex as text (random_bytes, session_id, verify_data).
    case hex
    /// A vector's opaque contents with their count (DH values, signatures, encrypted secrets).
    case sized
    /// One DER certificate of certificate_list (RFC 5246 §7.4.2).
    case certificate
    /// A NewSessionTicket's ticket (RFC 5077 §3.3).
    case ticket
    /// A host_name (RFC 6066 §3), quoted when printable.
    case hostName
    /// An ALPN protocol name (RFC 7301 §3.1), quoted.
    case protocolName
    /// A big-endian integer in decimal.
    case number
    /// gmt_unix_time (RFC 5246 §7.4.1.2): decimal and hex.
    case unixTime
    /// ticket_lifetime_hint, seconds (RFC 5077 §3.3).
    case lifetimeHint
    /// A NameType (RFC 6066 §3): host_name(0) is the only one defined.
    case nameType
    /// ChangeCipherSpec's type (RFC 5246 §7.1: change_cipher_spec(1) is its one value).
    case changeCipherSpecType
    /// A PskKeyExchangeMode (RFC 8446 §4.2.9): psk_ke(0), psk_dhe_ke(1).
    case pskKeyExchangeMode
    /// KeyUpdateRequest (RFC 8446 §4.6.3): update_not_requested(0), update_requested(1).
    case keyUpdateRequest
    /// A registry code point, worded by its type.
    case codePoint((UInt32) -> FieldValue)

    func value(_ data: ArraySlice<UInt8>) -> FieldValue {
        func number() -> UInt32 { data.reduce(0) { $0 << 8 | UInt32($1) } }
        switch self {
        case .bytes: return .bytes(OpaqueBytes(Array(data)))
        case .hex: return .text(Hex.string(data))
        case .sized: return .sizedBytes(OpaqueBytes(Array(data)))
        case .certificate: return .certificate(OpaqueBytes(Array(data)))
        case .ticket: return .ticket(OpaqueBytes(Array(data)))
        case .hostName:
            return .text(ServerName(name: Array(data)).hostName.map { "\"\($0)\"" } ?? Hex.string(data))
        case .protocolName: return .text("\"\(ProtocolName(bytes: Array(data)))\"")
        case .number: return .text(String(number()))
        case .unixTime: return .text("\(number()) (0x\(Hex.string(data)))")
        case .lifetimeHint: return .lifetimeHint(number())
        case .nameType:
            let n = number()
            return n == ServerName.hostNameType ? .text("host_name (0)") : Self.unnamed(.serverNameType, n)
        case .changeCipherSpecType:
            let n = number()
            return .text(n == UInt32(ChangeCipherSpec.value) ? "change_cipher_spec (1)" : "\(n)")
        case .pskKeyExchangeMode:
            let n = number()
            return n == UInt32(PSKKeyExchangeModes.pskKE) ? .text("psk_ke (0)") : n == UInt32(PSKKeyExchangeModes.pskDHEKE) ? .text("psk_dhe_ke (1)") : Self.unnamed(.pskKeyExchangeMode, n)
        case .keyUpdateRequest:
            let n = number()
            return n == 0 ? .text("update_not_requested (0)") : n == 1 ? .text("update_requested (1)") : Self.unnamed(.keyUpdateRequest, n)
        case .codePoint(let describe): return describe(number())
        }
    }

    /// A value of a one-byte enumeration the RFC writes in decimal, with no name in TLSLab.
    private static func unnamed(_ registry: CodePointRegistry, _ n: UInt32) -> FieldValue {
        .unnamed(UnnamedNumber(registry: registry, number: n, shown: "\(n)"))
    }

    static func registry<T: CodePoint>(_ type: T.Type) -> FieldDisplay {
        .codePoint { FieldCursor.describe(T(rawValue: T.RawValue(truncatingIfNeeded: $0))) }
    }
}

/// Receives the fields a ``ByteReader`` reads, when the dissector runs the engine's codec: each read
/// becomes a field of the cursor, at the same offset and with the codec's own name, so a dissection
/// and the engine's decoding are one walk over the bytes. The engine's readers carry none.
final class FieldRecorder: @unchecked Sendable {  // one dissection, on one thread
    let cursor: FieldCursor
    /// Where the reader's byte 0 is in the cursor's input.
    let base: Int
    /// True when the input ends before the structure read does: a vector that runs past the end is
    /// then read as far as the bytes go (its length carries the note), so a cut capture still shows
    /// what it holds.
    let inputIsCut: Bool
    /// The TLS 1.3 message whose extensions are being read (RFC 8446 §4.2's table): it decides how
    /// the bodies the engine keeps as bytes are read (``TLSExtension/readTLS13Data``); nil reads them
    /// as opaque bytes.
    var extensionCarrier: TLS13ExtensionCarrier?

    init(cursor: FieldCursor, base: Int, inputIsCut: Bool = false) {
        self.cursor = cursor
        self.base = base
        self.inputIsCut = inputIsCut
    }

    /// A read of `count` bytes at the reader's `offset`; bytes that are not there are noted.
    func read(_ name: String, at offset: Int, count: Int, notes: [DissectionNote] = [], display: FieldDisplay) {
        guard count >= 0 else { return }
        cursor.seek(base + offset)
        _ = try? cursor.leaf(name, count: count, notes: notes) { display.value($0[...]) }
    }

    func open(_ name: String, at offset: Int, value: FieldValue, length: Int?, pushPath: Bool) {
        cursor.seek(base + offset)
        cursor.open(name, value: value, length: length, pushPath: pushPath)
    }

    func close() { cursor.close() }

    /// Bytes left after a structure that should have ended.
    func trailing(at offset: Int, count: Int, after name: String) {
        cursor.seek(base + offset)
        _ = try? cursor.leaf("trailing_bytes", count: count, notes: [.trailingBytes(count: count, after: name)]) {
            .bytes(OpaqueBytes($0))
        }
    }
}
