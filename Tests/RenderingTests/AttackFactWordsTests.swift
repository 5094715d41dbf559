import Rendering
import TCPSim
import TLSEngine
import Testing
import Trace

/// Issue #32 §2.21: an attack's position, how it obtained a secret and why it failed are typed
/// facts in the trace; the catalogue words every one, in English and Chinese, with its values.
@Suite("Attack facts are worded by the catalogue")
struct AttackFactWordsTests {
    static let address = IPv4Address(203, 0, 113, 66)
    static let positions: [AttackPosition] = [.manInTheMiddle(host: "example.com", address: address),
                                              .manInTheMiddle(host: nil, address: address), .onPath]
    static let sources: [SecretSource] = [
        .premasterDecrypted, .premasterRegenerated(seed: 1_234_567),
        .masterSecret(from: .decrypted, extendedMasterSecret: false), .masterSecret(from: .regenerated, extendedMasterSecret: false),
        .masterSecret(from: .decrypted, extendedMasterSecret: true), .masterSecret(from: .regenerated, extendedMasterSecret: true),
        .resumedSession, .keyBlock, .recordedApplicationData, .decryptedRequest,
        .relayedAndDecrypted, .relayedInPlaintext, .relayedRequest,
    ]
    static let failures: [AttackFailure] = [
        .noHandshake, .noClientHello, .noClientKeyExchange, .notDecrypted,
        .forwardSecrecy(suite: .TLS_DHE_RSA_WITH_AES_128_GCM_SHA256, keyExchange: .dheRSA),
        .forwardSecrecy(suite: .TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256, keyExchange: .ecdheRSA),
        .tls13ForwardSecrecy, .ephemeralFromSeed, .regeneratedDidNotOpen, .noSeed,
    ]

    static func worded(_ catalogue: Explanations) -> [String] {
        positions.map(catalogue.attackPosition) + sources.map(catalogue.secretSource) + failures.map(catalogue.attackFailure)
    }

    @Test func everyFactIsASentenceInBothLanguages() {
        for catalogue in [Explanations.english, Explanations.chinese] {
            let lines = Self.worded(catalogue)
            for line in lines {
                // A missing key would show as the key itself; a value not filled in keeps its braces.
                #expect(!line.hasPrefix("position.") && !line.hasPrefix("how.") && !line.hasPrefix("failed."), "\(line)")
                #expect(!line.contains("{"), "\(line)")
            }
            #expect(Set(lines).count == lines.count, "each fact has its own sentence")
        }
    }

    /// The values reach the sentence as the simulation stated them before the facts were typed.
    @Test func theValuesAreWordedAsBefore() {
        let english = Explanations.english
        #expect(english.attackPosition(.manInTheMiddle(host: "example.com", address: Self.address))
            .hasPrefix("the client's connection to example.com ends at the attacker 203.0.113.66 "))
        #expect(english.secretSource(.premasterRegenerated(seed: 1_234_567))
            == "regenerated: the same generator, seeded 1234567, drew it right after client_random")
        #expect(english.attackFailure(.forwardSecrecy(suite: .TLS_DHE_RSA_WITH_AES_128_GCM_SHA256, keyExchange: .dheRSA))
            .hasPrefix("TLS_DHE_RSA_WITH_AES_128_GCM_SHA256 uses ephemeral DH keys: "))
        #expect(english.attackFailure(.forwardSecrecy(suite: .TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256, keyExchange: .ecdheRSA))
            .hasPrefix("TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256 uses ephemeral ECDH keys: "))
        #expect(english.attackPosition(.onPath) == "sits on the path between client and server and can change, drop or add segments")
    }
}
