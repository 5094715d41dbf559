import TLSCrypto
import TLSEngine
import Trace

/// The JSON Lines objects of TLS 1.3 facts (RFC 8446): `tls13_secret` for each key-schedule step
/// (which secret, HKDF-Extract or Derive-Secret, its inputs, label and transcript point, the
/// value), `tls13_traffic_keys`, `tls13_shared_secret`, `tls13_key_share`, `tls13_record`,
/// `tls13_state`, `tls13_certificate_verify` and `tls13_finished`.
extension JSONLinesRenderer {
    func tls13Fields(_ fact: TLS13Event) -> [(String, JSONValue)]? {
        func hex(_ b: [UInt8]) -> JSONValue { .string(Hex.string(b)) }
        switch fact {
        case .keySchedule(let step):
            var fields: [(String, JSONValue)] = [("event", .string("tls13_secret")), ("secret", .string(step.secret.rawValue))]
            switch step.derivation {
            case .extract(let salt, let ikm):
                fields += [("derivation", .string("hkdf_extract")), ("salt", .string(salt?.rawValue ?? "zeros")), ("ikm", .string(ikm.rawValue))]
            case .deriveSecret(let from, let label, let through, let hash):
                fields += [("derivation", .string("derive_secret")), ("from", .string(from.rawValue)), ("label", .string(label)),
                           ("transcript_through", .string(through.rawValue)), ("transcript_hash", hex(hash))]
            case .expandLabel(let from, let label, let context):
                fields += [("derivation", .string("hkdf_expand_label")), ("from", .string(from.rawValue)), ("label", .string(label)),
                           ("context", hex(context))]
            }
            return fields + [("value", hex(step.value))]
        case .trafficKeysInstalled(let direction, let secret, let generation, let keys, _, _):
            return [("event", .string("tls13_traffic_keys")), ("use", .string(direction.rawValue)), ("secret", .string(secret.rawValue)),
                    ("generation", .number(String(generation))), ("key", hex(keys.key)), ("iv", hex(keys.iv))]
        case .sharedSecret(let group, let value, _, _, _):
            return [("event", .string("tls13_shared_secret")), ("group", .string("\(group)")), ("value", hex(value))]
        case .keyShareGenerated(let group, let publicKey):
            return [("event", .string("tls13_key_share")), ("group", .string("\(group)")), ("public_key", hex(publicKey))]
        case .recordSealed(let record), .recordOpened(let record):
            let sealed = if case .recordSealed = fact { true } else { false }
            return [("event", .string("tls13_record")), ("action", .string(sealed ? "sealed" : "opened")),
                    ("outer_header", hex(Array(record.record.prefix(TLSRecord.headerLength)))),
                    ("inner_content_type", .string("\(record.contentType)")), ("sequence_number", .number(String(record.sequenceNumber))),
                    ("nonce", hex(record.nonce)), ("padding", .number(String(record.paddingLength))),
                    ("length", .number(String(record.content.count)))]
        case .stateChanged(let from, let to):
            return [("event", .string("tls13_state")), ("from", .string(from.rawValue)), ("to", .string(to.rawValue))]
        case .certificateVerifySigned(let scheme, let content, _):
            return [("event", .string("tls13_certificate_verify")), ("action", .string("signed")), ("scheme", .string("\(scheme)")),
                    ("signed_content", hex(content))]
        case .certificateVerifyChecked(let scheme, let content, _, let valid):
            return [("event", .string("tls13_certificate_verify")), ("action", .string("checked")), ("scheme", .string("\(scheme)")),
                    ("signed_content", hex(content)), ("valid", .bool(valid))]
        case .finishedChecked(let expected, let received):
            return [("event", .string("tls13_finished")), ("expected", hex(expected)), ("received", hex(received)),
                    ("equal", .bool(expected == received))]
        case .certificateRequested(let context, let schemes):
            return [("event", .string("tls13_certificate_request")), ("context", hex(context)),
                    ("signature_algorithms", .array(schemes.map { .string("\($0)") }))]
        case .helloRetryRequested(let group):
            return [("event", .string("tls13_hello_retry_request")), ("group", .string("\(group)"))]
        case .emptyClientCertificate:
            return [("event", .string("tls13_client_certificate")), ("certificates", .number("0"))]
        case .transcriptRestarted(let hash):
            return [("event", .string("tls13_message_hash")), ("hash", hex(hash))]
        case .newSessionTicketSent(let ticket), .newSessionTicketReceived(let ticket):
            let sent = if case .newSessionTicketSent = fact { true } else { false }
            return [("event", .string("tls13_new_session_ticket")), ("action", .string(sent ? "sent" : "received")),
                    ("ticket_lifetime", .number(String(ticket.message.lifetime))), ("ticket_age_add", .number(String(ticket.message.ageAdd))),
                    ("ticket_nonce", hex(ticket.message.nonce)), ("ticket", hex(ticket.message.ticket)), ("psk", hex(ticket.psk))]
        case .pskOffered(let identity, let age, let truncatedHash, let binder):
            return [("event", .string("tls13_psk_offered")), ("identity", hex(identity.identity)),
                    ("ticket_age_ms", .number(String(age))), ("obfuscated_ticket_age", .number(String(identity.obfuscatedTicketAge))),
                    ("truncated_transcript_hash", hex(truncatedHash)), ("binder", hex(binder))]
        case .pskBinderChecked(let truncatedHash, let expected, let received):
            return [("event", .string("tls13_psk_binder")), ("truncated_transcript_hash", hex(truncatedHash)), ("expected", hex(expected)),
                    ("received", hex(received)), ("equal", .bool(expected == received))]
        case .pskAccepted(let index, let age):
            return [("event", .string("tls13_psk_accepted")), ("selected_identity", .number(String(index)))]
                + (age.map { [("ticket_age_ms", JSONValue.number(String($0)))] } ?? [])
        case .earlyDataOffered(let size):
            return [("event", .string("tls13_early_data")), ("action", .string("offered")), ("max_early_data_size", .number(String(size)))]
        case .earlyDataSent(let length), .earlyDataReceived(let length):
            let sent = if case .earlyDataSent = fact { true } else { false }
            return [("event", .string("tls13_early_data")), ("action", .string(sent ? "sent" : "received")), ("length", .number(String(length)))]
        case .earlyDataAccepted:
            return [("event", .string("tls13_early_data")), ("action", .string("accepted"))]
        case .applicationProtocolSelected(let name):
            return [("event", .string("tls13_alpn")), ("alpn", .string(name.description))]
        case .earlyDataRejected(let why):
            return [("event", .string("tls13_early_data")), ("action", .string("rejected")), ("reason", .string(why.rawValue))]
        case .earlyRecordSkipped(let length):
            return [("event", .string("tls13_early_data")), ("action", .string("skipped")), ("record_length", .number(String(length)))]
        case .ticketDiscardedAtOnce:
            return [("event", .string("tls13_ticket_discarded")), ("reason", .string("lifetime_zero"))]
        case .oldestTicketDropped(let kept):
            return [("event", .string("tls13_ticket_dropped")), ("kept", .number(String(kept)))]
        case .ticketRedeemed(let identity):
            return [("event", .string("tls13_ticket_redeemed")), ("identity", hex(identity))]
        case .freshnessChecked(let c):
            return [("event", .string("tls13_freshness_check")), ("ticket_created_ms", .number(String(c.ticketCreatedMilliseconds))),
                    ("estimated_rtt_ms", .number(String(c.estimatedRTTMilliseconds))), ("ticket_age_ms", .number(String(c.clientTicketAgeMilliseconds))),
                    ("expected_arrival_ms", .number(String(c.expectedArrivalMilliseconds))), ("now_ms", .number(String(c.nowMilliseconds))),
                    ("window_ms", .number(String(c.windowMilliseconds))), ("fresh", .bool(c.fresh))]
        case .clientHelloRecorded(let r):
            return [("event", .string("tls13_client_hello_recorded")), ("binder", hex(r.binder)),
                    ("expected_arrival_ms", .number(String(r.expectedArrivalMilliseconds)))]
        default:
            return nil
        }
    }
}
