/// What a dissection does differently once the bytes are TLS 1.3 (RFC 8446): which extension block a
/// message carries, the Finished length, the §4.2 table's verdict on a ServerHello.
extension DissectionSession {
    /// True once a ServerHello selected TLS 1.3 (or the dissection was told so).
    var isTLS13: Bool { context.version == .tls13 }

    /// The extension block of a message of `type` whose body is `body`: a ServerHello whose random is
    /// §4.1.3's constant is a HelloRetryRequest (the engine tells them apart the same way). Messages
    /// whose shape TLS 1.3 changed carry their 1.3 block only once the exchange is TLS 1.3.
    func extensionCarrier(type: HandshakeType, body: [UInt8]) -> TLS13ExtensionCarrier? {
        switch type {
        case .clientHello: return .clientHello
        case .serverHello:
            // ProtocolVersion legacy_version (2 bytes), then Random random (32 bytes).
            let random = body.count >= 34 ? Array(body[2 ..< 34]) : []
            return random == TLS13HelloValues.helloRetryRequestRandom ? .helloRetryRequest : .serverHello
        default: return isTLS13 ? TLS13HandshakeBody.carrier(of: type) : nil
        }
    }

    /// verify_data's length in TLS 1.3 (§4.4.4: Hash.length): the suite's hash when the suite is known;
    /// else the body's length when it is a hash length of a TLS 1.3 suite, so that a Finished read
    /// without its ServerHello is not refused for a hash the dissection cannot know.
    func tls13VerifyDataLength(bodyLength: Int) -> Int {
        if let suite = cipherSuite.flatMap({ TLS13CipherSuite(rawValue: $0.rawValue) }) { return suite.hash.length }
        return TLS13CipherSuite.allCases.map(\.hash.length).contains(bodyLength) ? bodyLength : context.verifyDataLength
    }

    /// RFC 8446 §4.1.3, §4.2.1: a ServerHello (or HelloRetryRequest) whose supported_versions selects TLS 1.3.
    static func selectsTLS13(_ hello: ServerHello) -> Bool {
        guard case .unknown(_, let data)? = hello.extensions?.first(ofType: .supportedVersions) else { return false }
        return (try? SupportedVersions(extensionData: data, inClientHello: false)) == .selected(.tls13)
    }

    /// RFC 8446 §4.1.2, §4.1.3: a hello of a client that offers TLS 1.3, or of a server that selects
    /// it, has a random of 32 opaque bytes (RFC 8446 §B.3.1 `opaque Random[32]`): no gmt_unix_time,
    /// which only TLS 1.2's struct has (RFC 5246 §7.4.1.2); a HelloRetryRequest's is §4.1.3's constant.
    /// The note for such a hello, nil for a TLS 1.2 one.
    static func tls13RandomNote(_ message: HandshakeMessage) -> DissectionNote? {
        switch message {
        case .clientHello(let hello):
            guard case .unknown(_, let data)? = hello.extensions?.first(ofType: .supportedVersions),
                  case .offered(let versions)? = try? SupportedVersions(extensionData: data, inClientHello: true),
                  versions.contains(where: { $0 >= .tls13 }) else { return nil }
            return .tls13Random
        case .serverHello(let hello):
            guard selectsTLS13(hello) else { return nil }
            return hello.random.bytes == TLS13HelloValues.helloRetryRequestRandom ? .helloRetryRequestRandom : .tls13Random
        default: return nil
        }
    }

    /// `body` with its random shown as one field of 32 bytes carrying `note`, instead of TLS 1.2's
    /// gmt_unix_time and random_bytes.
    func opaqueRandom(_ body: DissectedField, note: DissectionNote) -> DissectedField {
        var body = body
        guard let i = body.children.firstIndex(where: { $0.name.hasSuffix("random") && $0.length == 32 }),
              body.children[i].end <= cursor.bytes.count else { return body }
        let random = body.children[i]
        body.children[i] = DissectedField(offset: random.offset, length: random.length, name: random.name,
                                          value: .text(Hex.string(cursor.bytes[random.offset ..< random.end])),
                                          notes: random.notes + [note])
        return body
    }

    /// RFC 8446 §4.2.1: a ClientHello whose supported_versions offers no version below TLS 1.3.
    static func offersOnlyTLS13(_ hello: ClientHello) -> Bool {
        guard case .unknown(_, let data)? = hello.extensions?.first(ofType: .supportedVersions),
              case .offered(let versions)? = try? SupportedVersions(extensionData: data, inClientHello: true) else { return false }
        return !versions.isEmpty && versions.allSatisfy { $0 >= .tls13 }
    }

    /// §4.2's table on a TLS 1.3 ServerHello or HelloRetryRequest: the first extension it does not
    /// list there, and the refusal a TLS 1.3 client answers it with.
    func tls13ServerHelloRefusal(_ message: HandshakeMessage, carrier: TLS13ExtensionCarrier?) -> (TLS13Failure, ExtensionType)? {
        guard case .serverHello(let hello) = message, Self.selectsTLS13(hello), let carrier else { return nil }
        return carrier.refusal(of: hello.extensions ?? [])
    }

    /// The field a TLS 1.3 refusal names: the extension_type of the extension it refuses, else
    /// KeyUpdate's request_update.
    static func field(refusedBy failure: TLS13Failure, extensionType: ExtensionType?) -> (DissectedField) -> Bool {
        if let extensionType {
            let shown = FieldCursor.describe(extensionType)
            return { $0.name.hasSuffix("extension_type") && $0.value == shown }
        }
        return { $0.name == "request_update" }
    }

    /// A record of type application_data after TLS 1.3's ServerHello (RFC 8446 §5.2): its fragment is
    /// TLSCiphertext.encrypted_record, opaque without the keys.
    func tls13ProtectedRecord() throws(Stop) {
        try cursor.rest("encrypted_record", notes: [.tls13EncryptedRecord])
    }
}
