import Foundation
import Testing
import TestSupport
@testable import Trace

/// The knowledge panel's byte search agrees with Foundation's `firstRange(of:)` on random streams,
/// on planted values, at both ends, and on the edge cases (empty value, value longer than the stream).
@Suite("Knowledge: the byte search")
struct KnowledgeByteSearchTests {
    @Test func agreesWithFirstRange() {
        var random = SplitMix64(seed: 20)
        for round in 0..<400 {
            // A small alphabet makes partial matches common.
            let stream = (0..<Int.random(in: 0...300, using: &random)).map { _ in UInt8.random(in: 0...3, using: &random) }
            var value = (0..<Int.random(in: 0...6, using: &random)).map { _ in UInt8.random(in: 0...3, using: &random) }
            if round % 3 == 0, stream.count >= 4 {
                let start = Int.random(in: 0...(stream.count - 4), using: &random)
                value = Array(stream[start..<(start + Int.random(in: 1...(stream.count - start), using: &random))])
            }
            #expect(Trace.bytes(stream, contain: value) == (value.isEmpty || stream.firstRange(of: value) != nil),
                    "\(stream) ∋ \(value)")
        }
        #expect(Trace.bytes([1, 2, 3], contain: [1, 2, 3]))
        #expect(Trace.bytes([9, 1, 2, 3], contain: [2, 3]))
        #expect(!Trace.bytes([1, 2], contain: [1, 2, 3]))
        #expect(!Trace.bytes([1, 1, 2, 1], contain: [1, 2, 2]))
    }
}
