import Foundation
import HTTP2
import PKI
@testable import Simulation
import TestSupport
import Testing
import TLSEngine
import Trace
import Trust

/// The certificate refusals' alerts (`TLSAlertTable`) against the alert a real OpenSSL client sends: `s_server` presents each
/// defective hierarchy (built by `PKIHierarchy`) on loopback, `s_client -msg -verify_return_error`
/// refuses it, and the fatal alert it writes is compared with ours. Heavy (a process pair per
/// defect): runs with TLSLAB_HEAVY=1.
@Suite(.serialized) struct OpenSSLAlertTests {
    static let enabled = ProcessInfo.processInfo.environment["TLSLAB_HEAVY"] == "1" && executable != nil

    static let executable: String? = {
        for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
            let candidate = "\(dir)/openssl"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }()

    /// Runs openssl with `arguments` in `dir`, stdin empty, at most `timeout` seconds; stdout+stderr.
    static func run(_ arguments: [String], in dir: URL, timeout: TimeInterval = 10) throws -> String {
        let result = try ExternalTool.run(try #require(executable), arguments, currentDirectory: dir.path,
                                          mergingErrorIntoOutput: true, timeout: timeout)
        return result.stdoutText
    }

    /// The fatal alert s_client sent (from its `-msg` trace), e.g. "bad_certificate".
    static func alertSentByOpenSSL(_ h: PKIHierarchy) throws -> String? {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tlslab-alert-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        for file in h.pemFiles { try file.contents.write(to: dir.appendingPathComponent(file.name), atomically: true, encoding: .utf8) }
        for attempt in 0..<5 {
            let port = 20_000 + Int((UInt32(getpid()) &* 7919 &+ UInt32(attempt) &* 104_729 &+ UInt32(h.spec.defect.hashValue & 0xFFFF)) % 40_000)
            // SECLEVEL 0 so that the server itself agrees to present SHA-1 / RSA-1024 certificates.
            let server = try ExternalTool.Background(try #require(executable),
                                                     ["s_server", "-accept", "\(port)", "-cert", "leaf.pem", "-key", "server.key",
                                                      "-cert_chain", "server-chain.pem", "-naccept", "1", "-tls1_2", "-cipher", "DEFAULT@SECLEVEL=0"],
                                                     currentDirectory: dir.path, mergingErrorIntoOutput: true)
            defer { server.stop() }
            let listening = server.waitForOutput(containing: "ACCEPT", timeout: 5)
            guard listening else { continue }
            let output = try run(["s_client", "-connect", "127.0.0.1:\(port)", "-tls1_2", "-msg", "-verify_return_error",
                                  "-CAfile", "root.pem", "-auth_level", "2", "-attime", String(h.now),
                                  "-verify_hostname", h.spec.primaryHost], in: dir)
            guard output.contains("CONNECTED") else { continue }
            // ">>> TLS 1.2, Alert [length 0002], fatal bad_certificate"
            let line = output.split(separator: "\n").first { $0.hasPrefix(">>> ") && $0.contains("Alert") && $0.contains("fatal") }
            return line.flatMap { $0.split(separator: " ").last.map(String.init) }
        }
        throw OpenSSLUnavailable()
    }

    struct OpenSSLUnavailable: Error {}

    @Test(.enabled(if: enabled, "TLSLAB_HEAVY=1 and openssl needed"), arguments: PKIDefect.allCases)
    func ourAlertIsOpenSSLs(defect: PKIDefect) throws {
        let h = try PKIHierarchy(PKIHierarchySpec(seed: 4, defect: defect))
        let verdict = PolicyTrustEvaluator(anchors: h.anchors, time: h.now).decide(chain: h.serverChainDER, host: h.spec.primaryHost)
        let sent = try Self.alertSentByOpenSSL(h)
        let ours = verdict.refusal.map { TLSAlertTable.alert(for: $0).name ?? "?" }
        #expect(sent == ours, "\(defect): OpenSSL sent \(sent ?? "no alert"), we \(ours ?? "none")")
    }
}
