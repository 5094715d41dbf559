import Foundation
import HTTP2
@testable import Rendering
@testable import Simulation
import TCPSim
import TLSEngine
import Testing
import Trace
import Trust

/// The ladder's columns, the TLS messages each segment carries, the chain validation trace, and
/// the knowledge panel at the key points.
@Suite("Ladder columns, carried messages, chain checks, knowledge at key points")
struct LadderRenderingTests {
    static func trace(_ run: BuiltInRun, mss: Int? = nil) throws -> Trace {
        var setup = try run.setup(seed: 1)
        if let mss { setup.tcpConfig.mss = mss }
        return Simulation(setup).run()
    }

    @Test(arguments: [60, 80, 132])
    func columnsFitTheWidthAndArrowsJoinTheRails(width: Int) throws {
        for run in [BuiltInRun.rsa, .mitmTrusting, .lossy, .http10] {
            let lines = TextRenderer(width: width).render(try Self.trace(run))
            #expect(lines.allSatisfy { $0.count <= width }, "\(run) at \(width): \(lines.filter { $0.count > width })")
            let bytes = TextRenderer(verbosity: .bytes, width: width).render(try Self.trace(run))
            #expect(bytes.allSatisfy { $0.count <= width }, "\(run) bytes at \(width): \(bytes.filter { $0.count > width }.prefix(3))")
            // Headings fit too (they were 64 columns wide).
            #expect(lines.contains { $0.hasPrefix("── TLS handshake") || $0.hasPrefix("── Outcome") })
            let header = try #require(lines.first)
            #expect(header.contains("time") && header.contains("client") && header.contains("server"))
            #expect(header.contains("attacker") == (run == .mitmTrusting))
            // Each arrow runs from one rail to another: its tail (├ or ┤) and head (▶ or ◀) sit on
            // the line in the right order.
            let arrows = lines.filter { $0.contains("▶│") || $0.contains("│◀") }
            #expect(arrows.count > 10)
            for line in arrows {
                let chars = Array(line)
                if let head = chars.firstIndex(of: "▶"), let tail = chars.firstIndex(of: "├") {
                    #expect(tail < head, "\(line)")
                }
                if let head = chars.firstIndex(of: "◀"), let tail = chars.firstIndex(of: "┤") {
                    #expect(head < tail, "\(line)")
                }
            }
        }
    }

    @Test func segmentsNameTheTLSMessagesTheyCarry() throws {
        let text = TextRenderer(width: 200).render(try Self.trace(.rsa)).joined(separator: "\n")
        #expect(text.contains(" · ClientHello\n"), "\(text)")
        #expect(text.contains("· ServerHello, Certificate, ServerHelloDone"))
        #expect(text.contains("· ClientKeyExchange, ChangeCipherSpec, Finished (encrypted)"))
        #expect(text.contains("· application data"))
        #expect(text.contains("· Alert close_notify"))
        // A small MSS splits the server's flight: the Certificate spans segments.
        let split = TextRenderer(width: 200).render(try Self.trace(.rsa, mss: 300)).joined(separator: "\n")
        #expect(split.contains("Certificate (part)"), "\(split)")
        let plain = TextRenderer(width: 200).render(try Self.trace(.httpPlain)).joined(separator: "\n")
        #expect(plain.contains("· HTTP (no TLS)"))
    }

    /// The spans cover every payload byte a TLS run sends, with no gap and no overlap.
    @Test func streamSpansTileEveryStream() throws {
        let trace = try Self.trace(.keepAlive)
        var byStream: [String: [StreamSpan]] = [:]
        for span in trace.streamSpans { byStream["\(span.source)>\(span.destination)", default: []].append(span) }
        #expect(byStream.count == 2)
        for (stream, spans) in byStream {
            var next = 0
            for span in spans.sorted(by: { $0.offset < $1.offset }) {
                #expect(span.offset == next, "\(stream): gap or overlap at \(next)")
                next = span.offset + span.length
            }
            let sent = trace.events.reduce(0) { total, e in
                if case .tcp(.sent(let p)) = e.kind, "\(p.sourceEndpoint)>\(p.destinationEndpoint)" == stream,
                   !p.segment.payload.isEmpty { return max(total, Int(p.segment.seq.rawValue &- spans[0].firstSequence) + p.segment.payload.count) }
                return total
            }
            #expect(next == sent, "\(stream): spans cover \(next) bytes, the stream holds \(sent)")
        }
    }

    @Test func chainValidationIsShownLinkByLink() throws {
        let normal = TextRenderer(width: 120).render(try Self.trace(.wrongHost)).joined(separator: "\n")
        #expect(normal.contains("link 0 (leaf): O=TLSLab Demo, CN=example.com"))
        #expect(normal.contains("link 1 (anchor)"))
        #expect(normal.contains("✓ signature") && normal.contains("✗ FAIL name"))
        #expect(normal.contains("recoverable trust failure"))
        #expect(!normal.contains("(TBSCertificate) ="), "Hash1/Hash2 values only at the bytes level")
        let bytes = TextRenderer(verbosity: .bytes, width: 1200).render(try Self.trace(.rsa)).joined(separator: "\n")
        #expect(bytes.contains("Hash1 = SHA-256(TBSCertificate) = ") && bytes.contains("Hash2 = digest recovered"))
        #expect(bytes.contains("PKCS#1 v1.5 block (signature^e mod n) = 0001ffff"))
        #expect(bytes.contains("DigestInfo = 3031300d060960864801650304020105000420"), "SHA-256 DigestInfo prefix (RFC 8017 §9.2)")
        let summary = TextRenderer(verbosity: .summary, width: 120).render(try Self.trace(.rsa)).joined(separator: "\n")
        #expect(!summary.contains("link 0"))
    }

    @Test func chainValidationJSONIsConsistent() throws {
        let lines = JSONLinesRenderer().render(try Self.trace(.rsa))
        let objects = try lines.map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        let chain = try #require(objects.first { $0["event"] as? String == "chain_validation" })
        #expect(chain["result"] as? String == "unspecified")
        let checks = try #require(chain["checks"] as? [[String: Any]])
        #expect(checks.allSatisfy { $0["passed"] as? Bool == true })
        let signature = try #require(checks.first { $0["kind"] as? String == "signature" })
        let hash1 = try #require(signature["hash1"] as? String), hash2 = try #require(signature["hash2"] as? String)
        let block = try #require(signature["pkcs1_block"] as? String), info = try #require(signature["digest_info"] as? String)
        #expect(hash1 == hash2 && hash1.count == 64)
        #expect(block.hasPrefix("0001ff") && block.hasSuffix("00" + info) && info.hasSuffix(hash1))
        #expect(block.count == 512, "as long as the 2048-bit modulus")
    }

    @Test func knowledgePanelAtTheKeyPoints() throws {
        let lines = TextRenderer(width: 100).render(try Self.trace(.rsa))
        func index(_ text: String) -> Int? { lines.firstIndex { $0.contains(text) } }
        let keyExchange = try #require(index("once the key exchange is complete"))
        let finished = try #require(index("once both Finished messages checked out"))
        let end = try #require(index("at the end of the run"))
        let clientKeyExchange = try #require(index("TLS ClientKeyExchange"))
        let http = try #require(index("HTTP request over TLS"))
        #expect(clientKeyExchange < keyExchange && keyExchange < finished && finished < http && http < end)
        // After the key exchange both sides hold the session keys; the eavesdropper does not.
        let row = try #require(lines[keyExchange...].first { $0.hasPrefix("client_write_key") })
        #expect(row.trimmingCharacters(in: .whitespaces) == "client_write_key    knows    knows      —", "\(row)")
        // A failed handshake passes no key point: one panel, at the end.
        let failed = TextRenderer(width: 100).render(try Self.trace(.untrusted))
        #expect(failed.filter { $0.contains("── Who knows what") }.count == 1)
        // Key theft: the afterwards column at the end.
        let theft = TextRenderer(width: 100).render(try Self.trace(.keyTheftRSA))
        let last = try #require(theft.lastIndex { $0.contains("── Who knows what") })
        #expect(theft[last + 1].contains("afterwards"))
    }

    @Test func timeColumnStaysAlignedPastOneMinute() throws {
        let lines = TextRenderer(width: 100).render(try Self.trace(.http10))
        let timed = lines.filter { $0.range(of: #"^ *[0-9]+\.[0-9]ms  "#, options: .regularExpression) != nil }
        #expect(timed.contains { $0.hasPrefix("60") } && timed.contains { $0.hasPrefix("    0.0ms") },
                "times from 0 ms to past one minute (TIME-WAIT)")
        let columns = Set(timed.map { line in Array(line).firstIndex(of: "s") ?? -1 })
        #expect(columns.count == 1, "every time ends in the same column: \(columns)")
    }
}
