import Foundation
import Testing
@testable import TLSEngine

/// Long sweeps for CI in release mode (TLSLAB_HEAVY=1).
@Suite("Heavy codec sweeps", .enabled(if: ProcessInfo.processInfo.environment["TLSLAB_HEAVY"] == "1"))
struct HeavyCodecTests {
    @Test("round trip, truncation and trailing bytes over 20,000 more seeds")
    func sweep() throws {
        for seed in UInt64(501) ... 20_500 {
            var gen = MessageGenerator(seed: seed)
            for kind in 0 ..< MessageGenerator.kindCount {
                let (message, ctx) = gen.message(kind: kind)
                let bytes = message.encoded
                #expect(try HandshakeMessage(decoding: bytes, context: ctx) == message)
                for cut in 0 ..< bytes.count {
                    #expect(decodeError { () throws(DecodeError) in
                        try HandshakeMessage(decoding: Array(bytes[..<cut]), context: ctx)
                    }?.alert == .decodeError)
                }
                let d = Dissector(context: ctx).dissectHandshakeMessages(bytes)
                #expect(leavesCoverExactly(d.leaves, count: bytes.count))
            }
        }
    }
}
