import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Go's crypto/tls as a real peer: Tests/Interop/go/tlspeer.go (standard library only), built once per
/// test run with `go build` into a temporary directory. Go's caches, module path and home go there too,
/// and the module proxy is off, so the build works offline, as root, on a fresh machine. Without `go`
/// the tests are skipped with the reason (failed under CI, where `.ci/run` installs golang-go).
enum GoPeer {
    static let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Interop/go/tlspeer.go").path

    /// The built program, or why it could not be built; nil without `go` on the PATH.
    private static let built: Result<String, PeerTestFailure>? = {
        guard let go = Tools.find("go") else { return nil }
        let temporary = FileManager.default.temporaryDirectory, me = ProcessInfo.processInfo.processIdentifier
        // Earlier runs' builds (Go's cache is some 16 MB), whose processes are gone, are removed.
        for name in (try? FileManager.default.contentsOfDirectory(atPath: temporary.path)) ?? [] where name.hasPrefix("tlslab-go-") {
            if let pid = Int32(name.dropFirst("tlslab-go-".count)), pid != me, kill(pid, 0) != 0 {
                try? FileManager.default.removeItem(at: temporary.appendingPathComponent(name))
            }
        }
        let dir = temporary.appendingPathComponent("tlslab-go-\(me)")
        do {
            try? FileManager.default.removeItem(at: dir)
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            let program = dir.appendingPathComponent("tlspeer").path
            let environment = ["GOCACHE": dir.appendingPathComponent("cache").path, "GOPATH": dir.appendingPathComponent("path").path,
                               "HOME": dir.path, "GOFLAGS": "", "GOPROXY": "off", "GOTOOLCHAIN": "local", "CGO_ENABLED": "0"]
            let r = try runTool(go, ["build", "-o", program, source], in: dir, environment: environment, timeout: 300)
            guard r.status == 0 else { return .failure(PeerTestFailure("go build \(source): \(r.output)")) }
            return .success(program)
        } catch {
            return .failure(PeerTestFailure("go build: \(error)"))
        }
    }()

    /// The built tlspeer: skipped without `go` (failed under CI); a failed build fails the test.
    static func program() throws -> String {
        guard let built else { try Tools.unavailable("go is not on the PATH (Debian: golang-go)") }
        return try built.get()
    }

    /// `tlspeer client …` against 127.0.0.1:`port` (connections in one process share a ClientSessionCache).
    static func client(port: UInt16, pki: TestPKI, _ arguments: [String]) throws -> String {
        try runTool(program(), ["client", "-addr", "127.0.0.1:\(port)", "-ca", "root.pem"] + arguments, in: pki.dir, timeout: 60).output
    }

    /// `tlspeer server …` on a port the kernel picks (read from its first line).
    static func server(pki: TestPKI, _ arguments: [String]) throws -> (Child, UInt16) {
        let child = try Child(program(), ["server", "-cert", "chain.pem", "-key", "leaf.key"] + arguments, in: pki.dir)
        guard child.wait(for: "PORT ", seconds: 10),
              let line = child.output.split(separator: "\n").first(where: { $0.hasPrefix("PORT ") }),
              let port = UInt16(line.dropFirst(5).trimmingCharacters(in: .whitespaces)) else {
            child.stop()
            throw PeerTestFailure("the Go server did not start: \(child.output)")
        }
        return (child, port)
    }

    /// The facts line tlspeer printed for connection `n` (`connection=N version=… resumed=…`), split into words.
    static func facts(_ output: String, connection n: Int) -> [String: String]? {
        guard let line = output.split(separator: "\n").first(where: { $0.hasPrefix("connection=\(n) ") }) else { return nil }
        var facts: [String: String] = [:]
        for word in line.split(separator: " ") {
            let parts = word.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { facts[String(parts[0])] = String(parts[1]) }
        }
        return facts
    }
}
