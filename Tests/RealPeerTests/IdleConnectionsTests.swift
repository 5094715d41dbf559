import Foundation
import RealPeer
import Testing
#if canImport(Glibc)
import Glibc
import TestSupport
#endif

/// Issue #22, item 8: idle connections must not starve `serve`. Each connection waits for its
/// client on its own thread without a work permit, so 500 clients that connect and say nothing
/// leave a real client's handshake as quick as ever; each idle one is still closed by its deadline.
@Suite("RealPeer: 500 idle connections and one real client", .serialized, CrossCheckRequirement.trait(Tools.openssl != nil, missing: "openssl is not on the PATH"))
struct IdleConnectionsTests {
    @Test("500 idle connections do not delay a real client (--concurrent 4)")
    func fiveHundredIdle() throws {
        let pki = try TestPKI.require()
        DescriptorLimit.raise(to: 1_300)  // both ends of every connection are in this process
        let thread = try ServerRoleTests.server(pki: pki, timeout: 20_000, concurrency: 4)
        defer { thread.stop() }
        var idle: [TCPSocket] = []
        defer { for socket in idle { socket.close() } }
        for _ in 0 ..< 500 { idle.append(try TCPSocket.connect(host: "127.0.0.1", port: thread.port)) }
        // Every idle client has its TCP connection and says nothing; give the server time to accept them all.
        usleep(500_000)
        let started = Date()
        let ok = try ServerRoleTests.sClient(thread.port, pki: pki, [])
        let elapsed = Date().timeIntervalSince(started)
        #expect(ok.output.contains("TLSLab serve: this connection"), "\(ok.output.suffix(600))")
        #expect(elapsed < 5, "served in \(elapsed) s beside 500 idle connections")
        #expect(thread.waitFor(1, seconds: 5))
        // The real client finished first; the 500 are still open (their 20 s read timeout has not passed).
        #expect(thread.connections.count == 1, "\(thread.connections.map(\.englishLogLine).prefix(3))")
        #expect(thread.connections.first?.failureText == nil, "\(thread.connections.first?.englishLogLine ?? "")")
        // The idle clients leave: each connection ends on its own, none was lost.
        for socket in idle { socket.close() }
        idle = []
        #expect(thread.waitFor(501, seconds: 20), "\(thread.connections.count) of 501 connections reported")
        let disconnected = thread.connections.dropFirst().filter {
            if case .peerClosedDuringHandshake(.client, _)? = $0.failure { true } else { false }
        }
        #expect(disconnected.count == 500)
    }

    @Test("an idle connection is closed at its own deadline while others are served")
    func idleDeadline() throws {
        let pki = try TestPKI.require()
        let thread = try ServerRoleTests.server(pki: pki, timeout: 1_000, concurrency: 1)
        defer { thread.stop() }
        let silent = try TCPSocket.connect(host: "127.0.0.1", port: thread.port)
        defer { silent.close() }
        // With one work permit, the silent client holds none while it waits.
        let ok = try ServerRoleTests.sClient(thread.port, pki: pki, [])
        #expect(ok.output.contains("TLSLab serve: this connection"), "\(ok.output.suffix(600))")
        let started = Date()
        let nothing = try silent.read(timeoutMilliseconds: 5_000)
        #expect(nothing.isEmpty && Date().timeIntervalSince(started) < 3)
        #expect(thread.waitFor(2, seconds: 5))
        #expect(thread.connections.last?.failureText?.contains("timed out") == true, "\(thread.connections.map(\.englishLogLine))")
    }
}
