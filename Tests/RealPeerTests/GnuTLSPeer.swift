import Foundation
import RealPeer
import Testing
import TestSupport

/// GnuTLS's command-line peers, driven by what they print rather than by the clock: every wait
/// ends as soon as the awaited line appears (or the tool exits), and the deadlines are only there
/// so that a broken peer cannot hang the run.
enum GnuTLS {
    /// How long any one step may take on a loaded machine; reached only when something is broken.
    static let patience: Double = 90

    /// gnutls-cli against `port`: waits for "Handshake was completed", then sends `request` and waits
    /// until `until` appears in its output (stdin stays open meanwhile, so gnutls-cli cannot close
    /// the connection before the answer arrives). Returns everything it printed.
    static func client(port: UInt16, pki: TestPKI, priority: String, caFile: String = "root.pem",
                       request: String = "GET / HTTP/1.0\r\n\r\n", until: String) throws -> String {
        let tool = try Tools.need(Tools.find("gnutls-cli"), "gnutls-cli is not on the PATH (Debian: gnutls-bin)")
        let child = try Child(tool, ["--port", "\(port)", "--x509cafile", caFile, "--sni-hostname", "localhost",
                                     "--verify-hostname", "localhost", "--priority", priority, "127.0.0.1"], in: pki.dir)
        defer { child.stop() }
        guard child.wait(for: "- Handshake was completed", seconds: patience) else { return child.output }
        child.send(request)
        _ = child.wait(for: until, seconds: patience)
        return child.output
    }

    /// gnutls-serv --http on a free port (retried when the port was taken meanwhile), ready once it
    /// says it is listening.
    static func server(pki: TestPKI, priority: String, certificate: String = "chain.pem",
                       key: String = "leaf.key", extra: [String] = []) throws -> (Child, UInt16) {
        let tool = try Tools.need(Tools.find("gnutls-serv"), "gnutls-serv is not on the PATH (Debian: gnutls-bin)")
        var last = ""
        for _ in 0 ..< 5 {
            guard let port = freePort() else { continue }
            let child = try Child(tool, ["--http", "--port", "\(port)", "--x509certfile", certificate, "--x509keyfile", key,
                                         "--priority", priority] + extra, in: pki.dir)
            if child.wait(for: "listening", seconds: patience) { return (child, port) }
            last = child.output
            child.stop()
        }
        throw PeerTestFailure("gnutls-serv did not start: \(last)")
    }
}
