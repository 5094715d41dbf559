@testable import Rendering
import Languages
import Simulation
import TCPSim
import Testing
import Trace

/// `x` on a TCP step shows the segment's header field by field (it used to show nothing more):
/// the fields are the ones TCPSim's codec writes and reads back, at their RFC 9293 §3.1 offsets.
@Suite("Walkthrough: a segment's bytes")
struct WalkthroughSegmentBytesTests {
    @Test(arguments: [Language.en, .zh])
    func xOnASegmentShowsItsHeader(language: Language) throws {
        let explanations = language.explanations
        let trace = Simulation(try BuiltInRun.rsa.setup(seed: 1)).run()
        let walk = Walkthrough(title: "rsa", trace: trace, width: 120, explanations: explanations)
        let document = walk.words.document(for: trace)
        var segments = 0
        for step in walk.steps where step.kind == .event {
            guard case .tcp(.sent(let p)) = trace.events[step.eventIndex].kind else { continue }
            segments += 1
            let extra = step.detailWithBytes.filter { !step.detail.contains($0) }
            #expect(!extra.isEmpty, "step \(step.label): x shows nothing more")
            let text = extra.joined(separator: "\n")
            #expect(text.contains("sequence_number = \(p.segment.seq.rawValue)"), "\(text)")
            #expect(text.contains("acknowledgment_number = \(p.segment.ack?.rawValue ?? 0)"), "\(text)")
            #expect(text.contains("window = \(p.segment.window)"), "\(text)")
            #expect(text.contains("RFC 9293 §3.1"), "\(text)")
            // The header shown is the codec's own: it reads back to the segment sent.
            let header = try #require(document.steps[step.eventIndex].segment?.bytes)
            let decoded = try TCPSegment.decode(header + p.segment.payload, source: p.source, destination: p.destination)
            #expect(decoded.seq == p.segment.seq && decoded.ack == p.segment.ack && decoded.flags == p.segment.flags)
        }
        #expect(segments > 5)
    }

    /// `x` on a TLS 1.3 step shows the protected record that carries it and what it decrypts to, named
    /// as RFC 8446 §5.2 names it (TLSInnerPlaintext), never TLS 1.2's TLSPlaintext.
    @Test(arguments: [Language.en, .zh])
    func xOnATLS13StepShowsItsProtectedRecord(language: Language) throws {
        let explanations = language.explanations
        let trace = Simulation(try BuiltInRun.tls13.setup(seed: 1)).run()
        let walk = Walkthrough(title: "tls13", trace: trace, width: 120, explanations: explanations)
        let protected = walk.steps.filter { step in step.records.contains { $0.protection?.tls13 == true } }
        #expect(protected.count > 4, "the server's EncryptedExtensions … Finished, the client's Finished, the HTTP data")
        for step in protected {
            let text = step.detailWithBytes.joined(separator: "\n")
            #expect(text.contains("TLSInnerPlaintext") && !text.contains("TLSPlaintext"), "\(step.label): \(text.suffix(400))")
            #expect(text.contains("opaque_type") && text.contains("encrypted_record.tag"), "\(step.label)")
        }
    }
}
