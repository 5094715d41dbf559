import Foundation
@testable import Rendering
import Simulation
import TestSupport
import Testing
import TLSEngine
import Trace

/// The engine's typed reasons — an unexpected message, an internal failure, unusable record keys,
/// a decoder's field rule, a refused (EC)DH public value, the RSA premaster countermeasure — are
/// worded by the catalogue in English and in Chinese, every case; none is left in the engine's words.
@Suite("Engine reasons worded in both languages")
struct EngineReasonWordingTests {
    /// One example of every case (each list is checked against its enum's case names below).
    static let expected: [ExpectedMessage] = [
        .restOfHandshakeMessage, .changeCipherSpecAtMessageBoundary,
        .serverKeyExchange(.dheRSA), .keyExchangeMessage(.rsa),
    ] + TLSStateName.allCases.map(ExpectedMessage.inState)
    static let arrived: [ArrivedMessage] = [.handshake(.serverHelloDone), .content(.applicationData)]
        + KeyExchangeParameters.allCases.map { .keyExchangeParameters($0, in: .clientKeyExchange) }
    static let internalFailures: [InternalFailure] = [
        .versionRangeUnusable(minimum: .tls12, maximum: .tls10), .applicationProtocolOfferUnencodable, .rsaKeyTransportWithoutRSAKey,
        .schemeDoesNotFitKey(.rsaPKCS1SHA256, keyIsECDSA: true), .schemeDoesNotFitKey(.ecdsaSECP256r1SHA256, keyIsECDSA: false),
        .rsaModulusTooSmallForMD5SHA1(modulusBytes: 32, neededBytes: 47), .signingFailed(.rsaPSSRSAESHA256), .signingFailed(nil),
        .ephemeralKeyGenerationFailed(.dheRSA), .keyAgreementFailed(.ecdheRSA), .rsaEncryptionFailed, .sessionTicketEncryptionFailed,
        .keySchedule(.keyBlockTooShort(have: 10, need: 40)), .keySchedule(.invalidRandomLength(31)),
        .keySchedule(.invalidMasterSecretLength(47)), .keySchedule(.transcriptHashNotSelected), .keySchedule(.transcriptHashAlreadySelected),
        .applicationDataBeforeHandshake,
    ]
    static let recordKeys: [RecordKeysFault] = [
        .writeKeyLength(have: 15, need: 16), .macKeyLength(have: 0, need: 32), .fixedIVLength(have: 16, aead: true),
        .fixedIVLength(have: 4, aead: false), .gcmExplicitNonceLength(have: 12, need: 8), .cbcExplicitIVLength(have: 8, need: 16),
        .explicitIVInTLS10, .cipherRefusedKey(aead: true), .cipherRefusedKey(aead: false),
        .chaChaIVLength(have: 4), .explicitNonceWithChaCha(have: 8), .chaChaRefusedKey,
    ]
    static let malformed: [MalformedReason] = [
        .zeroLengthFragment(.alert), .recordMajorVersion(2), .changeCipherSpecValue(7), .unknownServerNameType(1),
        .serverProtocolNameCount(2), .sslv2MessageType(4), .ticketStateFlags(extendedMasterSecret: 2, encryptThenMAC: 0),
    ]
    static let illegal: [IllegalParameterReason] = [.noTLSCipherSuiteInSSLv2Hello, .curveTypeNotNamed(.explicitChar2), .duplicateKeyShareGroup]
    static let needsKeyExchange: [KeyExchangeUnavailable] = [.notKnownYet, .rsaHasNoServerKeyExchange]
    static let dh: [DHPublicValueFault] = [.atMostOne, .atLeastPMinusOne, .longerThanPrime(bytes: 257, limit: 256), .notInPrimeOrderSubgroup]
    static let ecdh: [ECDHPublicKeyFault] = [.wrongLength(have: 64, need: 65), .notUncompressed(formatByte: 2), .notOnCurve, .lowOrder]
    static let countermeasures: [PremasterDecryptionFault] = [.notPKCS1Block, .wrongLength(47), .versionMismatch(found: .tls10, offered: .tls12)]

    /// Every failure built from the examples above.
    static var errors: [TLSError] {
        expected.flatMap { e in arrived.map { TLSError.inappropriateMessage(expected: e, got: $0) } }
            + internalFailures.map(TLSError.internalError)
            + recordKeys.map { .recordProtection(.invalidKeys($0)) }
            + malformed.map { .invalidMessage(.malformed(field: "f", reason: $0)) }
            + illegal.map { .invalidMessage(.illegalParameter(field: "f", reason: $0)) }
            + needsKeyExchange.map { .invalidMessage(.needsKeyExchange(.serverKeyExchange, reason: $0)) }
            + dh.flatMap { f in [true, false].map { .peerMisbehaved(.invalidDHPublicValue(inServerKeyExchange: $0, reason: f)) } }
            + ecdh.flatMap { f in [true, false].map { .peerMisbehaved(.invalidECDHPublicKey(inServerKeyExchange: $0, reason: f)) } }
    }

    /// The failures whose words live only in the catalogue (the engine keeps a debugging line).
    static func wordedOnlyByTheCatalogue(_ error: TLSError) -> Bool {
        switch error {
        case .inappropriateMessage, .internalError, .recordProtection(.invalidKeys), .invalidMessage(.malformed),
             .invalidMessage(.illegalParameter), .invalidMessage(.needsKeyExchange),
             .peerMisbehaved(.invalidDHPublicValue), .peerMisbehaved(.invalidECDHPublicKey):
            return true
        default:
            return false
        }
    }

    /// A case's name from its mirror (a case with a payload), else its default text (types with a
    /// `description` of their own print something else).
    static func caseName(_ value: Any) -> String {
        Mirror(reflecting: value).children.first?.label ?? String("\(value)".prefix { $0 != "(" })
    }

    /// The examples hold every case: the names are those of the enums' declarations (read from the
    /// source, so a new case without an example fails here).
    @Test func theExamplesCoverEveryCase() throws {
        let declared: [(String, [Any])] = [
            ("Session/InappropriateMessage.swift#ExpectedMessage", Self.expected), ("Session/InappropriateMessage.swift#ArrivedMessage", Self.arrived),
            ("Session/InternalFailure.swift#InternalFailure", Self.internalFailures), ("Record/RecordKeysFault.swift#RecordKeysFault", Self.recordKeys),
            ("Wire/DecodeFault.swift#MalformedReason", Self.malformed), ("Wire/DecodeFault.swift#IllegalParameterReason", Self.illegal),
            ("Wire/DecodeFault.swift#KeyExchangeUnavailable", Self.needsKeyExchange),
            ("KeyExchange/PublicValueFault.swift#DHPublicValueFault", Self.dh), ("KeyExchange/PublicValueFault.swift#ECDHPublicKeyFault", Self.ecdh),
            ("KeyExchange/PublicValueFault.swift#PremasterDecryptionFault", Self.countermeasures),
        ]
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        for (place, examples) in declared {
            let parts = place.split(separator: "#").map(String.init)
            let source = try String(contentsOf: root.appendingPathComponent("Sources/TLSEngine/\(parts[0])"), encoding: .utf8)
            let body = try #require(source.components(separatedBy: "public enum \(parts[1]):").dropFirst().first)
                .components(separatedBy: "\n}").first ?? ""
            let cases = Set(body.split(separator: "\n").compactMap { line -> String? in
                let text = line.trimmingCharacters(in: .whitespaces)
                guard text.hasPrefix("case ") else { return nil }
                return String(text.dropFirst(5).prefix { $0.isLetter || $0.isNumber })
            })
            #expect(!cases.isEmpty, "\(place)")
            #expect(Set(examples.map(Self.caseName)) == cases, "\(place)")
        }
    }

    @Test func everyReasonIsWordedInBothLanguages() {
        for error in Self.errors {
            let english = Explanations.english.failure(error), chinese = Explanations.chinese.failure(error)
            for text in [english, chinese] {
                #expect(!text.contains("{") && !text.contains("inappropriate.") && !text.contains("internal.")
                        && !text.contains("recordKeys.") && !text.contains("malformed.") && !text.contains("illegal.")
                        && !text.contains("needsKeyExchange.") && !text.contains("PublicValue.") && !text.contains("PublicKey.")
                        && !text.contains("accepts.") && !text.contains("arrived."), "\(error): \(text)")
            }
            #expect(english != chinese && english != error.description, "\(error): \(english)")
            #expect(chinese.contains { ChineseTypography.isHan($0) }, "\(error): \(chinese)")
            let runs = ChineseLayoutTests.englishRuns(in: chinese)
            #expect(runs.isEmpty, "\(error): English \(runs) in: \(chinese)")
        }
        for fault in Self.countermeasures {
            let english = Explanations.english.premasterDecryptionFault(fault), chinese = Explanations.chinese.premasterDecryptionFault(fault)
            #expect(!english.contains("{") && !chinese.contains("{") && english != chinese)
            #expect(ChineseLayoutTests.englishRuns(in: chinese).isEmpty, "\(chinese)")
        }
        #expect(Explanations.english.premasterDecryptionFault(.versionMismatch(found: .tls10, offered: .tls12))
                == "the premaster's version is 03 01 (TLS 1.0), the ClientHello offered 03 03 (TLS 1.2)")
    }

    /// The rule, its RFC section and what it guards against are said (spot checks in both languages).
    @Test func sentencesNameTheirRule() throws {
        // An early ChangeCipherSpec (tls/early-ccs-refused injects one right after the ClientHello) is
        // refused by the state that awaits ClientKeyExchange: RFC 5246 §7.4's order rule, the error
        // `Issue35LessonTests.earlyChangeCipherSpecIsRefused` finds on the lesson's alert. The attack's
        // own sentence says when a ChangeCipherSpec may come (§7.1) and names CVE-2014-0224.
        let early = TLSError.inappropriateMessage(expected: .inState(.expectClientKeyExchange), got: .content(.changeCipherSpec))
        for catalogue in [Explanations.english, Explanations.chinese] {
            let text = catalogue.failure(early)
            #expect(text.contains("RFC 5246 §7.4") && text.contains("ClientKeyExchange") && text.contains("change_cipher_spec"), "\(text)")
            let attack = try #require(catalogue("attack.earlyCCS"))
            #expect(attack.contains("RFC 5246 §7.1") && attack.contains("CVE-2014-0224") && attack.contains("unexpected_message"), "\(attack)")
        }
        let dh = TLSError.peerMisbehaved(.invalidDHPublicValue(inServerKeyExchange: true, reason: .atMostOne))
        #expect(Explanations.english.failure(dh).contains("RFC 7919 §5.1") && Explanations.chinese.failure(dh).contains("RFC 7919 §5.1"))
        let ec = TLSError.peerMisbehaved(.invalidECDHPublicKey(inServerKeyExchange: false, reason: .notOnCurve))
        #expect(Explanations.english.failure(ec).contains("RFC 8422 §5.11") && Explanations.chinese.failure(ec).contains("RFC 8422 §5.11"))
        #expect(Explanations.english.failure(.inappropriateMessage(expected: .inState(.expectServerHello), got: .handshake(.finished)))
                .hasPrefix("illegal_parameter") == false)
    }

    /// The JSON Lines `cause` is the catalogue's English line, not the engine's debugging one.
    @Test func jsonCauseIsTheCataloguesEnglish() throws {
        let trace = try Self.malformedClientHelloTrace()
        let line = try #require(JSONLinesRenderer().render(trace).first { $0.contains("\"tls_alert\"") })
        #expect(line.contains("RFC 6066 §3"), "\(line)")
        #expect(line.contains("\"description\":\"decode_error\""), "\(line)")
    }

    /// A ClientHello whose server_name entry has name_type 1 (RFC 6066 §3 knows only host_name(0)):
    /// the server answers decode_error, and the Chinese ladder says why in Chinese.
    @Test func malformedClientHelloInChineseHasNoEnglishSentence() throws {
        let trace = try Self.malformedClientHelloTrace()
        let exempt = ChineseLayoutTests.engineText(trace)
        #expect(exempt.isEmpty, "nothing in this trace is the engine's own words: \(exempt)")
        var sawWhy = false
        for verbosity in TextRenderer.Verbosity.allCases where verbosity != .bytes {
            let chinese = TextRenderer(verbosity: verbosity, width: 100_000, color: false, explanations: .chinese).render(trace)
            for line in ChineseLayoutTests.lines(chinese) {
                if line.contains("server_name.name_type") { sawWhy = true }
                let runs = ChineseLayoutTests.englishRuns(in: line)
                #expect(runs.isEmpty, "\(verbosity): English words \(runs) in: \(line)")
            }
        }
        #expect(sawWhy, "the alert's cause is shown")
        // The same check finds the English ladder's sentence (so it can fail).
        let english = TextRenderer(verbosity: .normal, width: 100_000, color: false).render(trace)
        #expect(ChineseLayoutTests.lines(english).contains { !ChineseLayoutTests.englishRuns(in: $0).isEmpty })
    }

    static func malformedClientHelloTrace() throws -> Trace {
        let setup = try BuiltInRun.rsa.setup(seed: 1)
        var client = TLSClient(configuration: setup.client)
        var server = TLSServer(configuration: setup.server)
        var bytes = client.start().output
        let name = Array(try #require(setup.client.serverName).utf8)
        let at = try #require((0...(bytes.count - name.count)).first { Array(bytes[$0..<$0 + name.count]) == name })
        #expect(bytes[at - 3] == 0, "host_name(0) before the name's length")
        bytes[at - 3] = 1
        let step = server.receive(bytes)
        #expect(step.events.contains {
            if case .alertSent(let alert, .failure(.invalidMessage(.malformed(_, .unknownServerNameType(1))))) = $0 {
                return alert.alertDescription == .decodeError
            }
            return false
        }, "decode_error for the unknown name type")
        return Trace(events: step.events.map { TraceEvent(time: 0, actor: .server, kind: .tls($0), peer: .client) })
    }
}
