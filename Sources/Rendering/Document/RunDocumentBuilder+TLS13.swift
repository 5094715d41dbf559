import TLSCrypto
import TLSEngine
import Trace

/// The ladder's TLS 1.3 lines (RFC 8446): the sentence for each 1.3 message, the key schedule step
/// by step with its inputs, the traffic keys, the first protected record of each side (outer
/// header 17 03 03, the inner content type) and the CertificateVerify and Finished checks.
extension RunDocumentBuilder {
    /// The catalogue key of a TLS 1.3 message's sentence.
    func tls13ExplanationKey(_ m: HandshakeMessage, fromClientRole: Bool) -> String {
        if case .serverHello(let hello) = m, hello.random.bytes == TLS13HelloValues.helloRetryRequestRandom { return "tls13.HelloRetryRequest" }
        switch m {
        case .clientHello(let hello) where hello.extensions?.contains(type: .earlyData) == true: return "tls13.ClientHello.earlyData"
        case .clientHello(let hello) where hello.extensions?.contains(type: .preSharedKey) == true: return "tls13.ClientHello.psk"
        case .serverHello(let hello) where hello.extensions?.contains(type: .preSharedKey) == true: return "tls13.ServerHello.psk"
        case .other(.encryptedExtensions, let body) where Self.answersEarlyData(body): return "tls13.EncryptedExtensions.earlyData"
        default: break
        }
        switch m.type {
        case .clientHello: return "tls13.ClientHello"
        case .serverHello: return "tls13.ServerHello"
        case .encryptedExtensions: return "tls13.EncryptedExtensions"
        case .certificateRequest: return "tls13.CertificateRequest"
        case .certificate: return fromClientRole ? "tls13.Certificate.client" : "tls13.Certificate"
        case .certificateVerify: return fromClientRole ? "tls13.CertificateVerify.client" : "tls13.CertificateVerify"
        case .finished: return "tls13.Finished"
        case .newSessionTicket: return "tls13.NewSessionTicket"
        case .endOfEarlyData: return "tls13.EndOfEarlyData"
        case .keyUpdate: return "tls13.KeyUpdate"
        default: return ""
        }
    }

    /// EncryptedExtensions whose extensions include early_data: the server accepted 0-RTT data (RFC 8446 §4.2.10).
    static func answersEarlyData(_ body: [UInt8]) -> Bool {
        var r = ByteReader(body)
        return (try? EncryptedExtensions(from: &r))?.extensions.contains(type: .earlyData) == true
    }

    func tls13Lines(_ fact: TLS13Event, actor: Actor, state: inout LadderState) -> [LadderEntry] {
        guard verbosity != .summary else { return [] }
        let who = ["actor": name(actor)]
        // Every `tls13.line.*` sentence names its actor ("{actor}: …", "{actor} computes …").
        func line(_ key: String, _ values: [String: String]) -> LadderEntry {
            namingActor(detail(say(key, who.merging(values) { a, _ in a })))
        }
        switch fact {
        case .keyShareGenerated(let group, let publicKey):
            return [line("tls13.line.keyShare", ["group": "\(group)", "public": short(publicKey)])]
        case .sharedSecret(let group, let value, _, _, _):
            var out = [line("tls13.line.sharedSecret", ["group": "\(group)", "value": short(value)])]
            if !state.explained.contains("tls13.sharedSecret") {
                state.explained.insert("tls13.sharedSecret")
                out += explain(Sentence("tls13.sharedSecret", ["actor": actor.rawValue]))
            }
            return out
        case .helloRetryRequested(let group):
            return [line("tls13.line.helloRetry", ["group": "\(group)"])]
        case .transcriptRestarted(let hash):
            return [line("tls13.line.messageHash", ["hash": short(hash)])]
        case .keySchedule(let step):
            var out: [LadderEntry]
            switch step.derivation {
            case .extract(let salt, let ikm):
                let saltText = salt.map { "\($0.rawValue)" } ?? say("tls13.input.zeros")
                let ikmText = switch ikm {
                case .zeros: say("tls13.input.zeros")
                case .preSharedKey: say("tls13.input.psk")
                case .sharedSecret: say("tls13.input.sharedSecret")
                }
                out = [line("tls13.line.extract", ["secret": step.secret.rawValue, "salt": saltText, "ikm": ikmText, "value": short(step.value)])]
            case .deriveSecret(let from, let label, let through, let hash):
                let messages = switch through {
                case .empty: say("tls13.messages.empty")
                case .clientHello: say("tls13.messages.clientHello")
                case .serverHello: say("tls13.messages.serverHello")
                case .serverFinished: say("tls13.messages.serverFinished")
                case .clientFinished: say("tls13.messages.clientFinished")
                }
                out = [line("tls13.line.derive", ["secret": step.secret.rawValue, "from": from.rawValue, "label": label,
                                                  "messages": messages, "hash": short(hash), "value": short(step.value)])]
            case .expandLabel(let from, let label, let context):
                out = [line("tls13.line.expandLabel", ["secret": step.secret.rawValue, "from": from.rawValue, "label": label,
                                                       "context": Hex.string(context), "value": short(step.value)])]
            }
            if step.secret == .earlySecret, !state.explained.contains("tls13.keySchedule") {
                state.explained.insert("tls13.keySchedule")
                out += explain(Sentence("tls13.keySchedule"))
            }
            return out
        case .trafficKeysInstalled(let direction, let secret, _, let keys, _, _):
            return [line(direction == .write ? "tls13.line.writeKeys" : "tls13.line.readKeys",
                         ["secret": secret.rawValue, "key": short(keys.key), "iv": short(keys.iv)])]
        case .recordSealed(let record):
            // Said once a run for each side, at its first protected record (also in the walkthrough).
            guard !state.protectedRecordShown.contains(actor) else { return [] }
            state.protectedRecordShown.insert(actor)
            let header = Hex.string(Array(record.record.prefix(TLSRecord.headerLength)))
            // "The {actor}'s first protected record: …": it names its actor.
            return explain(Sentence("tls13.record", ["actor": actor.rawValue, "header": header,
                                                     "inner": "\(record.contentType) (\(record.contentType.rawValue))",
                                                     "seq": "\(record.sequenceNumber)", "nonce": Hex.string(record.nonce),
                                                     "padding": "\(record.paddingLength)"])).map(namingActor)
        case .certificateRequested(let context, let schemes):
            return [line("tls13.line.certificateRequested", ["context": context.isEmpty ? "\"\"" : Hex.string(context),
                                                             "schemes": schemes.map { "\($0)" }.joined(separator: ", ")])]
        case .emptyClientCertificate:
            return [line(actor == .client ? "tls13.line.emptyClientCertificateSent" : "tls13.line.emptyClientCertificateReceived", [:])]
        case .certificateVerifySigned(let scheme, let content, let signature):
            return [line("tls13.line.certificateVerifySigned", ["scheme": "\(scheme)", "bytes": "\(content.count)"])]
                + tls13SignatureInputLines(scheme: scheme, content: content, signature: signature, actor: actor, created: true, valid: true)
        case .certificateVerifyChecked(let scheme, let content, let signature, let valid):
            return [line(valid ? "tls13.line.certificateVerifyValid" : "tls13.line.certificateVerifyInvalid", ["scheme": "\(scheme)"])]
                + tls13SignatureInputLines(scheme: scheme, content: content, signature: signature, actor: actor,
                                           created: false, valid: valid)
        case .finishedChecked(let expected, let received):
            return [line(expected == received ? "tls13.line.finishedMatches" : "tls13.line.finishedDiffers",
                         ["expected": short(expected), "received": short(received)])]
        case .newSessionTicketSent(let ticket), .newSessionTicketReceived(let ticket):
            let sent = if case .newSessionTicketSent = fact { true } else { false }
            return [line(sent ? "tls13.line.ticketSent" : "tls13.line.ticketKept",
                         ["lifetime": "\(ticket.message.lifetime)", "ageAdd": "\(ticket.message.ageAdd)",
                          "nonce": Hex.string(ticket.message.nonce), "ticket": short(ticket.message.ticket)])]
        case .pskOffered(let identity, let age, let truncatedHash, let binder):
            var out = [line("tls13.line.pskOffered", ["ticket": short(identity.identity), "age": "\(age)",
                                                      "obfuscated": "\(identity.obfuscatedTicketAge)",
                                                      "hash": short(truncatedHash), "binder": short(binder)])]
            if !state.explained.contains("tls13.binder") {
                state.explained.insert("tls13.binder")
                out += explain(Sentence("tls13.binder"))
            }
            return out
        case .pskBinderChecked(_, let expected, let received):
            return [line(expected == received ? "tls13.line.binderMatches" : "tls13.line.binderDiffers",
                         ["expected": short(expected), "received": short(received)])]
        case .pskAccepted(let index, let age):
            return [line(age == nil ? "tls13.line.pskAccepted" : "tls13.line.pskAcceptedAge",
                         ["index": "\(index)", "age": age.map { "\($0)" } ?? ""])]
        case .earlyDataOffered(let size):
            var out = [line("tls13.line.earlyDataOffered", ["size": "\(size)"])]
            if !state.explained.contains("tls13.earlyData") {
                state.explained.insert("tls13.earlyData")
                out += explain(Sentence("tls13.earlyData"))
            }
            return out
        case .earlyDataSent(let length):
            return [line("tls13.line.earlyDataSent", ["bytes": "\(length)"])]
        case .earlyDataReceived(let length):
            return [line("tls13.line.earlyDataReceived", ["bytes": "\(length)"])]
        case .earlyDataAccepted:
            return [line("tls13.line.earlyDataAccepted", [:])]
        case .applicationProtocolSelected(let name):
            return [line("tls13.line.applicationProtocolSelected", ["protocol": name.description])]
        case .earlyDataRejected(let why):
            let reason = switch why {
            case .pskNotSelected: say("tls13.earlyRefusal.pskNotSelected")
            case .ticketAllowsNone: say("tls13.earlyRefusal.ticketAllowsNone")
            case .parametersDiffer: say("tls13.earlyRefusal.parametersDiffer")
            case .serverDeclines: say("tls13.earlyRefusal.serverDeclines")
            case .helloRetryRequest: say("tls13.earlyRefusal.helloRetryRequest")
            case .outsideFreshnessWindow: say("tls13.earlyRefusal.outsideFreshnessWindow")
            case .replayedClientHello: say("tls13.earlyRefusal.replayedClientHello")
            }
            return [line("tls13.line.earlyDataRejected", ["reason": reason])]
        case .earlyRecordSkipped(let length):
            return [line("tls13.line.earlyRecordSkipped", ["bytes": "\(length)"])]
        case .ticketDiscardedAtOnce:
            return [line("tls13.line.ticketDiscardedAtOnce", [:])]
        case .oldestTicketDropped(let kept):
            return [line("tls13.line.oldestTicketDropped", ["kept": "\(kept)"])]
        case .ticketRedeemed(let identity):
            return [line("tls13.line.ticketRedeemed", ["ticket": short(identity)])]
        case .freshnessChecked(let c):
            return [line("tls13.line.freshnessChecked", ["created": "\(c.ticketCreatedMilliseconds)", "rtt": "\(c.estimatedRTTMilliseconds)",
                                                         "age": "\(c.clientTicketAgeMilliseconds)", "expected": "\(c.expectedArrivalMilliseconds)",
                                                         "now": "\(c.nowMilliseconds)", "window": "\(c.windowMilliseconds)",
                                                         "verdict": say(c.fresh ? "tls13.freshness.fresh" : "tls13.freshness.stale")])]
        case .clientHelloRecorded(let r):
            return [line("tls13.line.clientHelloRecorded", ["binder": short(r.binder), "expected": "\(r.expectedArrivalMilliseconds)"])]
        default:
            return []
        }
    }
}
