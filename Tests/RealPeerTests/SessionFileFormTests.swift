import RealPeer
import TLSEngine
import Testing

/// Issue #37 item 6: the TLS 1.2 session file and the TLS 1.3 ticket file share one `name: value`
/// reader; both round-trip, and a malformed file of either form is refused with its line or field.
@Suite("Session files: one field reader for the TLS 1.2 and TLS 1.3 forms")
struct SessionFileFormTests {
    static let session = TLSSession(sessionID: Array(repeating: 7, count: 32), version: .tls12, cipherSuite: CipherSuite(rawValue: 0xC02F),
                                    masterSecret: Array(0 ..< 48), extendedMasterSecret: true, encryptThenMAC: false)
    static let ticket = TLS13StoredTicket(
        ticket: TLS13ResumptionTicket(message: TLS13NewSessionTicket(lifetime: 7200, ageAdd: 0xDEAD_BEEF, nonce: [0, 1], ticket: Array(repeating: 9, count: 40),
                                                                     extensions: [.unknown(.earlyData, EarlyDataIndication.maxEarlyDataSize(16384).extensionData)]),
                                      psk: Array(repeating: 3, count: 32), suite: .aes128GCMSHA256),
        receivedAtMilliseconds: 1_800_000_000_123)

    @Test func bothFormsRoundTrip() throws {
        #expect(try SessionFile.session(from: SessionFile.text(Self.session)) == Self.session)
        #expect(try TLS13TicketFile.ticket(from: TLS13TicketFile.text(Self.ticket)) == Self.ticket)
        var plain = Self.ticket
        plain.ticket.message.extensions = []
        #expect(try TLS13TicketFile.ticket(from: TLS13TicketFile.text(plain)) == plain)
    }

    /// The same faults give the same located errors in both forms.
    @Test func malformedFilesAreRefusedWithTheLineOrField() {
        let tls12 = SessionFile.text(Self.session), tls13 = TLS13TicketFile.text(Self.ticket)
        let cases: [(String, SessionFile.FormatError)] = [  // (file text, error); a text with the 1.3 header line or psk is the 1.3 form
            (tls12.replacingOccurrences(of: "\nversion: 0303", with: "\nversion 0303"), .notNameValue(line: 2)),
            (tls13.replacingOccurrences(of: "\ncipher_suite: 1301", with: "\ncipher_suite 1301"), .notNameValue(line: 2)),
            (tls12 + "session_id: 00\n", .givenTwice(line: 8, name: "session_id")),
            (tls13 + "psk: 00\n", .givenTwice(line: 10, name: "psk")),
            (tls12 + "colour: blue\n", .unknownField("colour")),
            (tls13 + "colour: blue\n", .unknownField("colour")),
            (tls12.replacingOccurrences(of: "master_secret: 00", with: "master_secret: "), .hexExpected(name: "master_secret", lengths: 48 ... 48)),
            (tls13.replacingOccurrences(of: "psk: 03", with: "psk: "), .hexExpected(name: "psk", lengths: 32 ... 32)),
            (tls12.replacingOccurrences(of: "encrypt_then_mac: false", with: "encrypt_then_mac: no"), .booleanExpected(name: "encrypt_then_mac")),
            (tls13.replacingOccurrences(of: "ticket_lifetime: 7200", with: "ticket_lifetime: -1"), .numberExpected(name: "ticket_lifetime")),
            (tls13.replacingOccurrences(of: "received_at_ms: 1800000000123", with: "received_at_ms: soon"), .numberExpected(name: "received_at_ms")),
            (tls13.replacingOccurrences(of: "max_early_data_size: 16384", with: "max_early_data_size: 99999999999"), .numberExpected(name: "max_early_data_size")),
            (tls12.replacingOccurrences(of: "encrypt_then_mac: false\n", with: ""), .missing(name: "encrypt_then_mac")),
            (tls13.replacingOccurrences(of: "ticket_age_add: 3735928559\n", with: ""), .missing(name: "ticket_age_add")),
            (String(tls12.drop { $0 != "\n" }), .notASessionFile),
            (String(tls13.drop { $0 != "\n" }), .notASessionFile),
        ]
        for (text, error) in cases {
            #expect(throws: error) {
                if text.contains("psk:") {
                    _ = try TLS13TicketFile.ticket(from: text)
                } else {
                    _ = try SessionFile.session(from: text)
                }
            }
        }
    }
}
