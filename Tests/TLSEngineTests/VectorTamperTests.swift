import Testing
@testable import TLSEngine

@Suite("Tampering with the OpenSSL vector")
struct VectorTamperTests {
    /// Every single-bit flip of every message: decoding either fails with a typed error or gives
    /// a message whose encoding is exactly the tampered bytes (so nothing is silently normalised).
    @Test("every bit flip is rejected or re-encodes exactly")
    func bitFlips() throws {
        let v = try Fixtures.opensslHandshake()
        let ctx = HandshakeDecodingContext(keyExchange: .rsa)
        var rejected: [AlertDescription: Int] = [:]
        var accepted = 0
        for message in v.messages {
            for i in 0 ..< message.count {
                for bit in 0 ..< 8 {
                    var bytes = message
                    bytes[i] ^= UInt8(1) << UInt8(bit)
                    do {
                        let decoded = try HandshakeMessage(decoding: bytes, context: ctx)
                        #expect(decoded.encoded == bytes)
                        accepted += 1
                    } catch {
                        rejected[error.alert, default: 0] += 1
                    }
                }
            }
        }
        #expect(accepted + rejected.values.reduce(0, +) == v.messages.map(\.count).reduce(0, +) * 8)
        #expect(Set(rejected.keys).isSubset(of: [.decodeError, .illegalParameter, .unexpectedMessage]))
        #expect((rejected[.decodeError] ?? 0) > 100 && accepted > 1000)
    }

    @Test("random bytes into RecordReader: records or a typed error, never a crash (500 seeds)")
    func recordReaderFuzz() {
        for seed in UInt64(1) ... 500 {
            var rng = SeededGenerator(seed: seed)
            var reader = RecordReader()
            // Half the inputs start like a real record so the length paths get exercised.
            var bytes = rng.bytes(0 ... 300)
            if rng.bool() { bytes = [rng.pick([20, 21, 22, 23]), 3, UInt8(rng.int(0 ... 4))] + bytes }
            reader.append(bytes)
            do {
                let records = try reader.drain()
                let consumed = records.map { $0.fragment.count + 5 }.reduce(0, +)
                #expect(consumed + reader.bufferedByteCount == bytes.count)
            } catch {
                #expect([.decodeError, .unexpectedMessage, .recordOverflow].contains(error.alert))
            }
        }
    }
}
