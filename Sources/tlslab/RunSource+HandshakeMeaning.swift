import Languages
import Rendering
import Scenarios
import TLSEngine
import Trace

extension ResolvedRun {
    /// What a met expectation about the handshake means, with the rule that produced it (the
    /// expectations TLS 1.3 lessons lean on: the version, the group, a HelloRetryRequest, a PSK,
    /// what the eavesdropper reads); nil for the others.
    static func handshakeMeaning(of e: Expectation, facts: [String: FactValue], trace: Trace, _ explanations: Explanations) -> String? {
        switch (e.key, e.value) {
        case ("version", .string("TLS1.3")):
            return explanations("expect.meaning.version13")
        case ("group", .string(let group)) where group != "none":
            return explanations("expect.meaning.group", ["group": group])
        case ("hello_retry_request", .bool(true)):
            return explanations("expect.meaning.helloRetryRequest")
        case ("hello_retry_request", .bool(false)):
            return explanations("expect.meaning.noHelloRetryRequest")
        case ("psk_accepted", .bool(true)):
            return explanations("expect.meaning.pskAccepted")
        case ("eavesdropper_reads", .list(let reads)):
            var out: [String?] = []
            if reads.contains("server_name") { out.append(explanations("expect.meaning.reads.serverName")) }
            let certificate = trace.sentHandshakeMessages(connection: 0).first { $0.actor == .server && $0.type == .certificate }
            if let certificate {
                out.append(explanations(certificate.inClear ? "expect.meaning.reads.certificateInClear" : "expect.meaning.reads.certificateEncrypted"))
            }
            // One sentence: the parts joined with a semicolon, each but the last without its full stop.
            let zh = explanations.language == .zh
            let words = out.compactMap { $0 }
            let parts = words.enumerated().map { i, part in i + 1 < words.count && part.hasSuffix(zh ? "。" : ".") ? String(part.dropLast()) : part }
            return parts.isEmpty ? nil : parts.joined(separator: zh ? "；" : "; ")
        default:
            return nil
        }
    }
}
