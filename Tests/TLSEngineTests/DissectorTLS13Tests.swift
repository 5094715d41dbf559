import Foundation
import Testing
import TestSupport
import TLSCrypto
@testable import TLSEngine

/// Issue #32 item 4 for TLS 1.3: the dissector reads TLS 1.3 bytes with the TLS 1.3 engine's own
/// readers (the extensions of the hellos, EncryptedExtensions, Certificate, CertificateVerify,
/// Finished, NewSessionTicket, KeyUpdate, EndOfEarlyData), over RFC 8448's published messages
/// (Tests/Fixtures/rfc8448, transcribed from RFC 8448 §3, §4 and §5) and over a TLSLab client and
/// server's own handshake; a malformed extension gets the alert the engine sends.
@Suite("dissect: TLS 1.3 through the engine's readers")
struct DissectorTLS13Tests {
    static func vectors(_ section: String) throws -> [String: [UInt8]] {
        let url = Fixtures.directory.appendingPathComponent("rfc8448/vectors.json")
        let root = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any]
        let values = try #require(root?[section] as? [String: String])
        return values.compactMapValues(Hex.bytes)
    }

    /// The first field (in input order, parents first) named `name` or ending in `.name`.
    static func field(_ d: Dissection, _ name: String) -> DissectedField? {
        d.fields.flatMap(\.all).first { $0.name == name || $0.name.hasSuffix("." + name) }
    }

    static func bytes(of field: DissectedField?, in input: [UInt8]) -> [UInt8]? {
        field.map { Array(input[$0.offset ..< $0.offset + $0.length]) }
    }

    static let tls13 = Dissector(context: HandshakeDecodingContext(version: .tls13))

    @Test("RFC 8448 §3: ClientHello and ServerHello extensions, field by field, at the RFC's bytes")
    func rfc8448Hellos() throws {
        let v = try Self.vectors("section3")
        let hello = try #require(v["client_hello"])
        let d = Dissector().dissectHandshakeMessages(hello)
        #expect(d.refusals.isEmpty && leavesCoverExactly(d.leaves, count: hello.count), "\(d)")
        #expect(Self.field(d, "versions[0]")?.value == .text("TLS 1.3 (0x0304)"))
        #expect(Self.field(d, "client_shares[0].group")?.value == .text("x25519 (0x001d)"))
        let share = Self.field(d, "client_shares[0].key_exchange")
        #expect(share?.length == 32 && Self.bytes(of: share, in: hello) == v["client_x25519_public"], "\(String(describing: share))")
        // The length before the key names the 32 bytes; the share begins 2 bytes after the group.
        let group = try #require(Self.field(d, "client_shares[0].group"))
        #expect(share.map { $0.offset == group.offset + 4 } == true)
        #expect(Self.field(d, "key_exchange.length")?.value == .text("32"))
        #expect(Self.field(d, "ke_modes[0]")?.value == .text("psk_dhe_ke (1)"))

        let serverHello = try #require(v["server_hello"])
        let s = Dissector().dissectHandshakeMessages(serverHello)
        #expect(s.refusals.isEmpty && leavesCoverExactly(s.leaves, count: serverHello.count), "\(s)")
        #expect(Self.field(s, "selected_version")?.value == .text("TLS 1.3 (0x0304)"))
        #expect(Self.field(s, "server_share.group")?.value == .text("x25519 (0x001d)"))
        #expect(Self.bytes(of: Self.field(s, "server_share.key_exchange"), in: serverHello) == v["server_x25519_public"])
    }

    @Test("RFC 8448 §3: after its ServerHello, the server's messages in their TLS 1.3 form, with no refusal")
    func rfc8448ServerFlight() throws {
        let v = try Self.vectors("section3")
        let names = ["server_hello", "encrypted_extensions", "certificate", "certificate_verify", "server_finished"]
        let parts = try names.map { try #require(v[$0]) }
        let input = Array(parts.joined())
        let d = Dissector().dissectHandshakeMessages(input)
        #expect(d.refusals.isEmpty && leavesCoverExactly(d.leaves, count: input.count), "\(d)")
        #expect(!d.notes.contains { $0.note.kind == .notModelled || $0.note.kind == .refusedInTLS13 }, "\(d.notes)")
        #expect(d.fields.map(\.value) == ["server_hello", "encrypted_extensions", "certificate", "certificate_verify", "finished"]
            .map { FieldValue.text($0) })
        // EncryptedExtensions: supported_groups then record_size_limit, server_name (RFC 8448 §3).
        #expect(Self.field(d, "named_group_list[0]")?.value == .text("x25519 (0x001d)"))
        // Certificate: an empty certificate_request_context, one entry of 432 bytes with no extensions.
        let context = try #require(Self.field(d, "certificate_request_context.length"))
        #expect(context.value == .text("0") && context.length == 1)
        let certificate = try #require(Self.field(d, "certificate_list[0].cert_data"))
        #expect(certificate.length == 432, "\(certificate)")
        #expect(input[certificate.offset] == 0x30, "a DER SEQUENCE starts the certificate")
        #expect(Self.field(d, "algorithm")?.value == .text("rsa_pss_rsae_sha256 (0x0804)"))
        #expect(Self.field(d, "signature")?.length == 128)
        // Finished: verify_data is SHA-256's 32 bytes for TLS_AES_128_GCM_SHA256.
        let finished = try #require(v["server_finished"])
        let verify = try #require(Self.field(d, "verify_data"))
        #expect(verify.length == 32 && Array(input[verify.offset ..< verify.offset + 32]) == Array(finished.dropFirst(4)))
    }

    @Test("RFC 8448 §3 NewSessionTicket, §4 resumed ClientHello (pre_shared_key, early_data) and EndOfEarlyData")
    func rfc8448Resumption() throws {
        let three = try Self.vectors("section3"), four = try Self.vectors("section4")
        let ticket = try #require(three["new_session_ticket"])
        let t = Self.tls13.dissectHandshakeMessages(ticket)
        #expect(t.refusals.isEmpty && leavesCoverExactly(t.leaves, count: ticket.count), "\(t)")
        #expect(Self.field(t, "max_early_data_size")?.value == .text("1024"))
        #expect(Self.bytes(of: Self.field(t, "ticket_nonce"), in: ticket) == three["ticket_nonce"])

        let hello = try #require(four["client_hello"])
        let h = Dissector().dissectHandshakeMessages(hello)
        #expect(h.refusals.isEmpty && leavesCoverExactly(h.leaves, count: hello.count), "\(h)")
        let binder = try #require(Self.field(h, "binders[0]"))
        #expect(Self.bytes(of: binder, in: hello) == four["psk_binder"], "\(binder)")
        #expect(binder.offset + binder.length == hello.count, "pre_shared_key is the last extension (RFC 8446 §4.2.11)")
        #expect(Self.field(h, "identities[0].identity")?.length == 178)
        #expect(Self.field(h, "obfuscated_ticket_age") != nil)

        let end = try #require(four["end_of_early_data"])
        let e = Self.tls13.dissectHandshakeMessages(end)
        #expect(e.refusals.isEmpty && e.notes.isEmpty && e.fields.first?.value == .text("end_of_early_data"), "\(e)")
    }

    @Test("RFC 8448 §5: a HelloRetryRequest names the group it wants and carries a cookie; the second ClientHello echoes it")
    func rfc8448HelloRetryRequest() throws {
        let v = try Self.vectors("section5")
        let retry = try #require(v["hello_retry_request"])
        let r = Dissector().dissectHandshakeMessages(retry)
        #expect(r.refusals.isEmpty && leavesCoverExactly(r.leaves, count: retry.count), "\(r)")
        #expect(Self.field(r, "selected_group")?.value == .text("secp256r1 (0x0017)"))
        let cookie = try #require(Self.field(r, "cookie"))
        let second = try #require(v["client_hello_2"])
        let c = Dissector().dissectHandshakeMessages(second)
        #expect(c.refusals.isEmpty, "\(c)")
        let echoed = try #require(Self.field(c, "cookie"))
        #expect(Self.bytes(of: echoed, in: second) == Self.bytes(of: cookie, in: retry) && cookie.length > 0)
        #expect(Self.bytes(of: Self.field(c, "client_shares[0].key_exchange"), in: second) == v["client_p256_public"])
    }

    /// A TLSLab client and server's handshake: the server's first flight as records, and its
    /// handshake messages in the clear as the engine wrote them.
    static func serverFlight(seed: UInt64) throws -> (records: [UInt8], messages: [[UInt8]], group: NamedGroup) {
        var p = try TLS13HandshakeTests.parties(seed: seed)
        let hello = p.client.start()
        let step = p.server.receive(hello.output)
        let messages = step.events.compactMap { event -> [UInt8]? in
            if case .handshakeSent(_, let bytes) = event { return bytes }
            return nil
        }
        let group = step.events.lazy.compactMap { event -> NamedGroup? in
            if case .negotiated(_, let group, _) = event { return group }
            return nil
        }.first
        return (step.output, messages, try #require(group))
    }

    @Test("a TLSLab server's flight: ServerHello in the clear, a compatibility ChangeCipherSpec, then protected records")
    func simulatedServerRecords() throws {
        let flight = try Self.serverFlight(seed: 3)
        let d = Dissector().dissectRecords(flight.records)
        #expect(d.refusals.isEmpty && leavesCoverExactly(d.leaves, count: flight.records.count), "\(d)")
        let records = d.fields
        #expect(records.count >= 3)
        #expect(records.first?.value == .text("handshake"), "\(String(describing: records.first))")
        #expect(Self.field(d, "server_share.group")?.value == FieldCursor.describe(flight.group))
        #expect(d.notes.filter { $0.note == .compatibilityChangeCipherSpec }.count == 1, "\(d.notes)")
        let protected = d.notes.filter { $0.note == .tls13EncryptedRecord }
        #expect(protected.count == records.count - 2 && protected.allSatisfy { $0.field == "encrypted_record" }, "\(d.notes)")
        #expect(!d.notes.contains { $0.note.kind == .encrypted }, "TLS 1.3 records are not TLS 1.2's protected records")

        // The same server's messages in the clear, as its engine wrote them (EncryptedExtensions … Finished).
        let clear = Array(flight.messages.joined())
        let m = Dissector().dissectHandshakeMessages(clear)
        #expect(m.refusals.isEmpty && leavesCoverExactly(m.leaves, count: clear.count), "\(m)")
        #expect(!m.notes.contains { $0.note.kind == .notModelled || $0.note.kind == .refusedInTLS13 }, "\(m.notes)")
        #expect(m.fields.map(\.value).contains(.text("certificate_verify")) && m.fields.last?.value == .text("finished"))
    }

    @Test("a TLSLab client's records: a ClientHello offering TLS 1.3 alone, then ChangeCipherSpec and a protected Finished")
    func simulatedClientRecords() throws {
        var p = try TLS13HandshakeTests.parties(seed: 5)
        let hello = p.client.start().output
        let second = p.client.receive(p.server.receive(hello).output).output
        let records = hello + second
        let d = Dissector().dissectRecords(records)
        #expect(d.refusals.isEmpty && leavesCoverExactly(d.leaves, count: records.count), "\(d)")
        #expect(d.notes.map(\.note) == [.tls13Random, .compatibilityChangeCipherSpec, .tls13EncryptedRecord], "\(d.notes)")
        // Without the ClientHello nothing says TLS 1.3: after ChangeCipherSpec the record is read as TLS 1.2 reads it.
        #expect(!Dissector().dissectRecords(second).notes.contains { $0.note == .tls13EncryptedRecord })
    }

    /// A ClientHello offering TLS 1.3 with `keyShare` as its key_share extension_data.
    static func clientHello(keyShare: [UInt8], versions: [UInt8] = [2, 3, 4]) -> [UInt8] {
        let hello = ClientHello(clientVersion: .tls12, random: Random(Array(repeating: 7, count: 32)), sessionID: [],
                                cipherSuites: [CipherSuite(rawValue: TLS13CipherSuite.aes128GCMSHA256.rawValue)],
                                extensions: [.supportedGroups([.x25519, .secp256r1]), .signatureAlgorithms(TLS13SignatureSchemes.offered),
                                             .unknown(.keyShare, keyShare), .unknown(.supportedVersions, versions)])
        var w = ByteWriter()
        hello.encode(to: &w)
        return TLS13Connection.handshakeBytes(.clientHello, w.bytes)
    }

    struct Malformed: Sendable, CustomStringConvertible {
        var description: String
        var keyShare: [UInt8]
        var versions: [UInt8] = [2, 3, 4]
        var alert: String
        var field: String
    }

    static let malformed: [Malformed] = [
        // Two shares for x25519 (RFC 8446 §4.2.8): illegal_parameter.
        Malformed(description: "duplicate group",
                  keyShare: KeyShare.clientShares([KeyShareEntry(group: .x25519, keyExchange: Array(repeating: 9, count: 32)),
                                                   KeyShareEntry(group: .x25519, keyExchange: Array(repeating: 8, count: 32))]).extensionData,
                  alert: "illegal_parameter", field: "client_shares"),
        // client_shares says 40 bytes, 36 follow: decode_error.
        Malformed(description: "short list", keyShare: [0, 40, 0, 0x1d, 0, 32] + Array(repeating: 9, count: 32),
                  alert: "decode_error", field: "client_shares.length"),
        // An empty key_exchange (<1..2^16-1>): decode_error.
        Malformed(description: "empty key", keyShare: [0, 4, 0, 0x1d, 0, 0], alert: "decode_error", field: "key_exchange.length"),
        // versions<2..254> of 3 bytes: decode_error.
        Malformed(description: "odd versions", keyShare: [0, 36, 0, 0x1d, 0, 32] + Array(repeating: 9, count: 32),
                  versions: [3, 3, 4, 3], alert: "decode_error", field: "versions.length"),
    ]

    @Test("a malformed key_share or supported_versions: the dissector names the alert a TLSLab TLS 1.3 server sends, on the field",
          arguments: malformed)
    func malformedExtension(_ c: Malformed) throws {
        let (name, keyShare, versions, alert, field) = (c.description, c.keyShare, c.versions, c.alert, c.field)
        let message = Self.clientHello(keyShare: keyShare, versions: versions)
        let record = TLSRecord(contentType: .handshake, fragment: message).encoded
        var p = try TLS13HandshakeTests.parties(seed: 1)
        let engine = p.server.receive(record)
        #expect(engine.alertSent.map { "\($0.alertDescription)" } == alert, "\(name): the engine sends \(String(describing: engine.alertSent))")

        let d = Dissector().dissectRecords(record)
        let refused = d.notes.filter { $0.note.kind == .refused }
        #expect(refused.count == 1 && refused.first?.note.refusalAlert.map { "\($0)" } == alert, "\(name): \(d.notes)")
        #expect(refused.first.map { $0.field.hasSuffix(field) } == true, "\(name): on \(refused.first?.field ?? "-")")
    }

    @Test("rules of RFC 8446 on decoded bytes: key_share in EncryptedExtensions, a KeyUpdate request of 2, a short Finished")
    func tls13Rules() throws {
        // EncryptedExtensions with key_share, which §4.2's table allows only in the hellos: illegal_parameter.
        let ee: [UInt8] = [8, 0, 0, 10, 0, 8] + [0, 0x33, 0, 4, 0, 0x1d, 0, 0]
        let e = Self.tls13.dissectHandshakeMessages(ee)
        let rule = try #require(e.notes.first { $0.note.kind == .refusedInTLS13 }, "\(e)")
        #expect(rule.note == .refusedInTLS13(.illegalParameter(.extensionNotAllowedInEncryptedExtensions)) && rule.field.hasSuffix("extension_type"))
        #expect(rule.note.refusalAlert == .illegalParameter)

        let update = Self.tls13.dissectHandshakeMessages([24, 0, 0, 1, 2])
        #expect(update.notes.map(\.note) == [.refusedInTLS13(.illegalParameter(.keyUpdateRequestInvalid))], "\(update)")
        #expect(update.notes.first?.field == "request_update")
        let empty = Self.tls13.dissectHandshakeMessages([24, 0, 0, 0])
        #expect(empty.refusals.map(\.alert) == [.decodeError], "\(empty)")
        let fine = Self.tls13.dissectHandshakeMessages([24, 0, 0, 1, 1])
        #expect(fine.notes.isEmpty && Self.field(fine, "request_update")?.value == .text("update_requested (1)"))

        // With its suite known, a Finished of 20 bytes is not SHA-256's 32: decode_error, on verify_data.
        let finished = Dissector(context: HandshakeDecodingContext(version: .tls13), cipherSuite: CipherSuite(rawValue: 0x1301))
            .dissectHandshakeMessages([20, 0, 0, 20] + Array(repeating: 1, count: 20))
        #expect(finished.refusals.map(\.alert) == [.decodeError], "\(finished)")
        #expect(finished.notes.first { $0.note.kind == .refused }?.field == "verify_data")
        // Without the suite, 48 bytes are SHA-384's verify_data.
        #expect(Self.tls13.dissectHandshakeMessages([20, 0, 0, 48] + Array(repeating: 1, count: 48)).notes.isEmpty)
    }

    @Test("in TLS 1.2, the same message types keep their TLS 1.2 reading")
    func tls12Unchanged() {
        // EncryptedExtensions is not a TLS 1.2 message: shown as it is, not read.
        let d = Dissector().dissectHandshakeMessages([8, 0, 0, 2, 0, 0])
        #expect(d.notes.map(\.note.kind) == [.notModelled], "\(d)")
        // A ChangeCipherSpec then application_data in TLS 1.2: the record is protected since ChangeCipherSpec.
        let r = Dissector().dissectRecords([20, 3, 3, 0, 1, 1, 23, 3, 3, 0, 2, 0xaa, 0xbb])
        #expect(r.notes.map(\.note) == [.encrypted(.applicationData)], "\(r)")
    }
}
