/// "What this lesson showed" in plain sentences (issue #33): every fact a lesson's `expect` block can
/// state has a sentence that says what the run did, in the catalogue (`lesson.check.*`, English and
/// Chinese). A value with its own sentence (`handshake: failure`, `ems: false`, `retransmissions: 0`)
/// uses it; otherwise the fact's sentence takes the value (`suite: {value}`), with a singular form for 1.
enum LessonCheckWords {
    struct Wording {
        var general: String? = nil
        var one: String? = nil
        var byValue: [String: String] = [:]
    }

    /// The expectation's name → its catalogue keys (literal: one search finds each sentence).
    static let wordings: [String: Wording] = [
        "handshake": .init(byValue: ["success": "lesson.check.handshake.success", "failure": "lesson.check.handshake.failure", "none": "lesson.check.handshake.none"]),
        "alert": .init(general: "lesson.check.alert", byValue: ["none": "lesson.check.alert.none"]),
        "alert_sent_by": .init(byValue: ["client": "lesson.check.alert_sent_by.client", "server": "lesson.check.alert_sent_by.server", "none": "lesson.check.alert_sent_by.none"]),
        "suite": .init(general: "lesson.check.suite", byValue: ["none": "lesson.check.suite.none"]),
        "group": .init(general: "lesson.check.group", byValue: ["none": "lesson.check.group.none"]),
        "hello_retry_request": .init(byValue: ["true": "lesson.check.hello_retry_request.yes", "false": "lesson.check.hello_retry_request.no"]),
        "psk_accepted": .init(byValue: ["true": "lesson.check.psk_accepted.yes", "false": "lesson.check.psk_accepted.no"]),
        "early_data_accepted": .init(general: "lesson.check.early_data_accepted", one: "lesson.check.early_data_accepted.one", byValue: ["0": "lesson.check.early_data_accepted.zero"]),
        "early_data_refused": .init(general: "lesson.check.early_data_refused", byValue: ["[]": "lesson.check.early_data_refused.none"]),
        "downgrade_sentinel": .init(byValue: ["true": "lesson.check.downgrade_sentinel.yes", "false": "lesson.check.downgrade_sentinel.no"]),
        "downgrade_detected": .init(byValue: ["true": "lesson.check.downgrade_detected.yes", "false": "lesson.check.downgrade_detected.no"]),
        "eavesdropper_reads": .init(general: "lesson.check.eavesdropper_reads"),
        "version": .init(general: "lesson.check.version", byValue: ["none": "lesson.check.version.none"]),
        "ems": .init(byValue: ["true": "lesson.check.ems.yes", "false": "lesson.check.ems.no"]),
        "resumed": .init(byValue: ["true": "lesson.check.resumed.yes", "false": "lesson.check.resumed.no"]),
        "alpn": .init(general: "lesson.check.alpn", byValue: ["none": "lesson.check.alpn.none"]),
        "master_secret_label": .init(general: "lesson.check.master_secret_label", byValue: ["none": "lesson.check.master_secret_label.none"]),
        "master_from_randoms": .init(byValue: ["true": "lesson.check.master_from_randoms.yes", "false": "lesson.check.master_from_randoms.no"]),
        "trust": .init(byValue: ["accepted": "lesson.check.trust.accepted", "rejected": "lesson.check.trust.rejected", "not_evaluated": "lesson.check.trust.not_evaluated"]),
        "disposition": .init(general: "lesson.check.disposition", byValue: ["none": "lesson.check.disposition.none"]),
        "reason_includes": .init(general: "lesson.check.reason_includes"),
        "first_failing_check": .init(general: "lesson.check.first_failing_check", byValue: ["none": "lesson.check.first_failing_check.none"]),
        "client_authenticated": .init(byValue: ["true": "lesson.check.client_authenticated.yes", "false": "lesson.check.client_authenticated.no"]),
        "server_key": .init(general: "lesson.check.server_key", byValue: ["none": "lesson.check.server_key.none"]),
        "server_certificate_bytes": .init(general: "lesson.check.server_certificate_bytes"),
        "server_signature": .init(general: "lesson.check.server_signature", byValue: ["none": "lesson.check.server_signature.none"]),
        "server_signature_bytes": .init(general: "lesson.check.server_signature_bytes"),
        "client_signature": .init(general: "lesson.check.client_signature", byValue: ["none": "lesson.check.client_signature.none"]),
        "client_signature_bytes": .init(general: "lesson.check.client_signature_bytes"),
        "client_certificate_disposition": .init(general: "lesson.check.client_certificate_disposition", byValue: ["none": "lesson.check.client_certificate_disposition.none"]),
        "eavesdropper_learns": .init(general: "lesson.check.eavesdropper_learns"),
        "client_learns": .init(general: "lesson.check.client_learns"),
        "server_learns": .init(general: "lesson.check.server_learns"),
        "eavesdropper_learns_afterwards": .init(general: "lesson.check.eavesdropper_learns_afterwards"),
        "attacker_learns": .init(general: "lesson.check.attacker_learns"),
        "connections": .init(general: "lesson.check.connections", one: "lesson.check.connections.one"),
        "full_handshakes": .init(general: "lesson.check.full_handshakes", one: "lesson.check.full_handshakes.one"),
        "abbreviated_handshakes": .init(general: "lesson.check.abbreviated_handshakes", one: "lesson.check.abbreviated_handshakes.one"),
        "requests": .init(general: "lesson.check.requests", one: "lesson.check.requests.one"),
        "responses": .init(general: "lesson.check.responses", one: "lesson.check.responses.one"),
        "requests_served": .init(general: "lesson.check.requests_served", one: "lesson.check.requests_served.one"),
        "round_trips": .init(general: "lesson.check.round_trips"),
        "round_trips_to_first_byte": .init(general: "lesson.check.round_trips_to_first_byte", byValue: ["-1": "lesson.check.round_trips_to_first_byte.never"]),
        "cpu_us": .init(general: "lesson.check.cpu_us"),
        "last_response_us": .init(general: "lesson.check.last_response_us", byValue: ["-1": "lesson.check.last_response_us.never"]),
        "http2": .init(byValue: ["h2": "lesson.check.http2.h2", "h2c": "lesson.check.http2.h2c", "none": "lesson.check.http2.none"]),
        "streams": .init(general: "lesson.check.streams", one: "lesson.check.streams.one"),
        "pushed_responses": .init(general: "lesson.check.pushed_responses", one: "lesson.check.pushed_responses.one"),
        "http2_error": .init(general: "lesson.check.http2_error", byValue: ["none": "lesson.check.http2_error.none"]),
        "request_header_blocks": .init(general: "lesson.check.request_header_blocks"),
        "hpack_raw_bytes": .init(general: "lesson.check.hpack_raw_bytes"),
        "hpack_encoded_bytes": .init(general: "lesson.check.hpack_encoded_bytes"),
        "http_response": .init(byValue: ["true": "lesson.check.http_response.yes", "false": "lesson.check.http_response.no"]),
        "url_error": .init(byValue: ["none": "lesson.check.url_error.none", "NSURLErrorCancelled": "lesson.check.url_error.NSURLErrorCancelled", "other": "lesson.check.url_error.other"]),
        "response_altered": .init(byValue: ["true": "lesson.check.response_altered.yes", "false": "lesson.check.response_altered.no"]),
        "client_response_includes": .init(general: "lesson.check.client_response_includes"),
        "client_tcp_state": .init(general: "lesson.check.client_tcp_state"),
        "server_tcp_state": .init(general: "lesson.check.server_tcp_state", byValue: ["none": "lesson.check.server_tcp_state.none"]),
        "client_tcp_states": .init(general: "lesson.check.client_tcp_states"),
        "server_tcp_states": .init(general: "lesson.check.server_tcp_states"),
        "retransmissions": .init(general: "lesson.check.retransmissions", one: "lesson.check.retransmissions.one", byValue: ["0": "lesson.check.retransmissions.zero"]),
        "client_retransmissions": .init(general: "lesson.check.client_retransmissions", one: "lesson.check.client_retransmissions.one", byValue: ["0": "lesson.check.client_retransmissions.zero"]),
        "server_retransmissions": .init(general: "lesson.check.server_retransmissions", one: "lesson.check.server_retransmissions.one", byValue: ["0": "lesson.check.server_retransmissions.zero"]),
        "segments_duplicated": .init(general: "lesson.check.segments_duplicated", one: "lesson.check.segments_duplicated.one"),
        "out_of_order_buffered": .init(general: "lesson.check.out_of_order_buffered", one: "lesson.check.out_of_order_buffered.one"),
        "unacceptable_segments": .init(general: "lesson.check.unacceptable_segments", one: "lesson.check.unacceptable_segments.one"),
        "client_state": .init(general: "lesson.check.client_state"),
        "server_state": .init(general: "lesson.check.server_state", byValue: ["none": "lesson.check.server_state.none"]),
        "client_states": .init(general: "lesson.check.client_states"),
        "server_states": .init(general: "lesson.check.server_states"),
        "client_received": .init(general: "lesson.check.client_received", byValue: ["": "lesson.check.client_received.nothing"]),
        "server_received": .init(general: "lesson.check.server_received", byValue: ["": "lesson.check.server_received.nothing"]),
        "accepted": .init(byValue: ["true": "lesson.check.accepted.yes", "false": "lesson.check.accepted.no"]),
        "client_error": .init(byValue: ["none": "lesson.check.client_error.none", "refused": "lesson.check.client_error.refused", "reset": "lesson.check.client_error.reset", "timedOut": "lesson.check.client_error.timedOut", "aborted": "lesson.check.client_error.aborted"]),
        "backlog_drops": .init(general: "lesson.check.backlog_drops", one: "lesson.check.backlog_drops.one"),
        "resets_sent": .init(general: "lesson.check.resets_sent", one: "lesson.check.resets_sent.one"),
        "syn_cookies_accepted": .init(general: "lesson.check.syn_cookies_accepted", one: "lesson.check.syn_cookies_accepted.one"),
        "segments": .init(general: "lesson.check.segments"),
        "ats": .init(byValue: ["allowed": "lesson.check.ats.allowed", "blocked": "lesson.check.ats.blocked"]),
        "group_bits": .init(general: "lesson.check.group_bits"),
        "client_public": .init(general: "lesson.check.client_public"),
        "server_public": .init(general: "lesson.check.server_public"),
        "client_shared": .init(general: "lesson.check.client_shared"),
        "server_shared": .init(general: "lesson.check.server_shared"),
        "range_check_rejects": .init(general: "lesson.check.range_check_rejects"),
        "eavesdropper_tries": .init(general: "lesson.check.eavesdropper_tries"),
        "eavesdropper_exponent": .init(general: "lesson.check.eavesdropper_exponent"),
        "eavesdropper_recovers": .init(general: "lesson.check.eavesdropper_recovers"),
        "summary": .init(general: "lesson.check.summary"),
    ]
}

extension Explanations {
    /// The sentence saying what an expectation `key` with the expected value `value` (as the lesson
    /// frame prints it) showed; nil for a fact without one.
    public func checkSentence(key: String, value: String) -> String? {
        var name = key
        var values = ["value": value]
        // `summary.cipher_suite`: a field of the run's JSON summary, worded by the summary's sentence.
        let parts = key.split(separator: ".", maxSplits: 1)
        if parts.count == 2, parts[0] == "summary" {
            name = String(parts[0])
            values["field"] = String(parts[1])
        }
        guard let wording = LessonCheckWords.wordings[name] else { return nil }
        let catalogueKey = wording.byValue[value] ?? (value == "1" ? wording.one : nil) ?? wording.general
        return catalogueKey.flatMap { self($0, values) }
    }
}
