import Testing
import TLSCrypto
@testable import TLSEngine

/// Issue #38, defect 3: RFC 6066 §3's HostName is an ASCII DNS host name. A NUL inside it (which
/// would cut the name short for C code) or any other byte no host name holds is refused with
/// illegal_parameter and a typed reason naming the byte and its offset; before, it got a ServerHello.
@Suite("server_name host_name bytes (RFC 6066 §3)")
struct ServerNameByteTests {
    static func answer(_ name: [UInt8]) throws -> (TLSServer, TLSStep) {
        var server = try ConformanceHardeningTests.server()
        let step = server.receive(ConformanceHardeningTests.helloRecord(
            extensions: [.serverName([ServerName(name: name)])] + ConformanceHardeningTests.groups))
        return (server, step)
    }

    /// Names with a byte no host name holds, and that byte's offset.
    static let badNames: [([UInt8], Int)] = {
        let nul: [UInt8] = Array("good.example".utf8) + [0] + Array(".evil".utf8)
        let leading: [UInt8] = [0, UInt8(ascii: "x")]
        let others: [(String, Int)] = [("a b", 1), ("a\u{7}", 1), ("a/b", 1), ("bücher.example", 1), ("a:443", 1)]
        return [(nul, 12), (leading, 0)] + others.map { (Array($0.0.utf8), $0.1) }
    }()

    @Test("a NUL, a control, a space, a slash or a raw UTF-8 byte: illegal_parameter, the byte and offset in the cause",
          arguments: badNames)
    func refused(_ name: [UInt8], offset: Int) throws {
        let (server, step) = try Self.answer(name)
        #expect(server.failureAlert == .fatal(.illegalParameter))
        #expect(ConformanceHardeningTests.serverHello(in: step) == nil, "no ServerHello")
        let causes = step.events.compactMap { e -> AlertCause? in
            if case .alertSent(let alert, let cause) = e, alert.isFatal { return cause } else { return nil }
        }
        #expect(causes == [.failure(.peerMisbehaved(.serverNameNotHostName(offset: offset, byte: name[offset])))], "\(causes)")
    }

    @Test("host names of letters, digits, hyphens, dots and underscores are answered",
          arguments: ["localhost", "www.example.com", "xn--bcher-kva.example", "my_host.internal", "a-1.b-2", "127.0.0.1"])
    func accepted(_ name: String) throws {
        let (server, step) = try Self.answer(Array(name.utf8))
        #expect(server.failureAlert == nil)
        #expect(ConformanceHardeningTests.serverHello(in: step) != nil)
    }
}
