import TLSCrypto
import TLSEngine
import Trace

/// TLS 1.3 records (RFC 8446 §5.2): every record sealed after the keys are set travels as
/// application_data 03 03 with the AEAD's ciphertext and tag; the page shows it beside the step
/// that sent its content (the record is sealed just after that event), with the values it was
/// sealed with and the TLSInnerPlaintext it decrypts to.
extension RecordPlacement {
    mutating func placeTLS13(_ fact: TLS13Event, side: Side) -> [(step: Int, record: RunDocument.RecordBytes)] {
        switch fact {
        case .negotiated(let suite, _, _):
            tls13AEAD[side] = suite.aead
        case .trafficKeysInstalled(let direction, let secret, _, let keys, _, _) where direction == .write:
            tls13WriteKeys[side] = (keys, secret)
        case .recordSealed(let detail):
            guard let step = lastSend[side] else { return [] }
            return [(step, tls13RecordBytes(detail, side: side))]
        default:
            break
        }
        return []
    }

    /// A content type as the record tables show it: its name with its number in decimal (RFC 8446 §5.1
    /// writes them so), or the number TLSLab has no name for.
    static func contentTypeValue(_ type: ContentType) -> FieldValue {
        type.name.map { .text("\($0) (\(type.rawValue))") }
            ?? .unnamed(UnnamedNumber(registry: .contentType, number: UInt32(type.rawValue), shown: "\(type.rawValue)"))
    }

    /// The handshake message a content holds, by its msg_type.
    static func messageValue(_ type: HandshakeType) -> FieldValue {
        type.isKnown ? .text(type.messageName) : .unnamed(UnnamedNumber(type))
    }

    private func tls13RecordBytes(_ detail: TLS13RecordDetail, side: Side) -> RunDocument.RecordBytes {
        let record = detail.record
        let header = Array(record.prefix(TLSRecord.headerLength))
        let body = record.count - header.count
        var fields = [DissectedField(offset: 0, length: 1, name: "opaque_type", value: Self.contentTypeValue(ContentType(rawValue: record.first ?? 0))),
                      DissectedField(offset: 1, length: 2, name: "legacy_record_version", value: .text(Self.versionText(record))),
                      DissectedField(offset: 3, length: 2, name: "length", value: .text("\(body)"))]
        let installed = tls13WriteKeys[side], keys = installed?.keys
        // The AEAD: the negotiated suite's; before any (0-RTT data) the key length tells AES-128-GCM.
        let aead = tls13AEAD[side] ?? (keys?.key.count == 16 ? .aes128GCM : nil)
        let tagLength = aead?.tagLength ?? 16
        if body >= tagLength {
            fields.append(DissectedField(offset: 5, length: body - tagLength, name: "encrypted_record.ciphertext", value: .none))
            fields.append(DissectedField(offset: 5 + body - tagLength, length: tagLength, name: "encrypted_record.tag", value: .none))
        }
        let wire = RunDocument.MessageBytes(bytes: record, dissection: Dissection(fields: [
            DissectedField(offset: 0, length: record.count, name: "TLSCiphertext", value: .none, children: fields)]))
        guard let aead, let keys, body >= tagLength else { return RunDocument.RecordBytes(wire: wire) }
        // TLSInnerPlaintext (§5.2): the content, its real type, the zeros of any padding (§5.4).
        let inner = detail.content + [detail.contentType.rawValue] + [UInt8](repeating: 0, count: detail.paddingLength)
        // A handshake message's content is named by its msg_type (the message's own table gives its fields).
        let named: FieldValue = detail.contentType == .handshake && !detail.content.isEmpty
            ? Self.messageValue(HandshakeType(rawValue: detail.content[0])) : .none
        var innerFields = [DissectedField(offset: 0, length: detail.content.count, name: "content", value: named),
                           DissectedField(offset: detail.content.count, length: 1, name: "type",
                                          value: Self.contentTypeValue(detail.contentType))]
        if detail.paddingLength > 0 {
            innerFields.append(DissectedField(offset: detail.content.count + 1, length: detail.paddingLength, name: "zeros", value: .text("\(detail.paddingLength)")))
        }
        let plaintext = RunDocument.MessageBytes(bytes: inner, dissection: Dissection(fields: [
            DissectedField(offset: 0, length: inner.count, name: "TLSInnerPlaintext", value: .none, children: innerFields)]))
        let cipher: BulkCipher = switch aead {
        case .aes128GCM: .aes128GCM
        case .aes256GCM: .aes256GCM
        case .chacha20Poly1305: .chaCha20Poly1305
        }
        var protection = RunDocument.RecordBytes.Protection(
            cipher: cipher, sequenceNumber: detail.sequenceNumber, nonceOrIV: detail.nonce, additionalData: detail.additionalData,
            authenticator: Array(record.suffix(tagLength)), writeKey: keys.key, plaintext: plaintext)
        protection.tls13 = true
        protection.writeIV = keys.iv
        protection.trafficSecret = installed?.secret.rawValue
        return RunDocument.RecordBytes(wire: wire, protection: protection)
    }

    /// The header's version as the dissector writes one: "TLS 1.2 (0x0303)".
    private static func versionText(_ record: [UInt8]) -> String {
        guard record.count >= 3 else { return "" }
        let code = "0x" + Hex.string(Array(record[1...2]))
        return record[1] == 3 && record[2] >= 1 ? "TLS 1.\(record[2] - 1) (\(code))" : code
    }
}
