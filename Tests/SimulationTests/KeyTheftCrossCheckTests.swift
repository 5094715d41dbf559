import Foundation
import TestSupport
import HTTP2
@testable import Simulation
import TLSEngine
import Testing
import Trace
import Trust

/// Independent check of the key-theft decryption: Python's `cryptography` package, given only the
/// recorded bytes and the stolen key, decrypts the premaster, derives the extended master secret
/// and the keys with its own PRF, and opens the client's request — the same bytes the simulated
/// eavesdropper claims to have learned.
@Suite("Key theft cross-checked with Python cryptography")
struct KeyTheftCrossCheckTests {
    static func python() -> String? {
        for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let path = "\(dir)/python3"
            guard FileManager.default.isExecutableFile(atPath: path) else { continue }
            return (try? Self.run(path, ["-c", "import cryptography"])) != nil ? path : nil
        }
        return nil
    }

    static func run(_ tool: String, _ arguments: [String]) throws -> String {
        let result = try ExternalTool.run(tool, arguments)
        guard result.succeeded else { throw CrossCheckFailed(output: result.stdoutText + result.stderrText) }
        return result.stdoutText
    }
    struct CrossCheckFailed: Error { let output: String }

    static let script = #"""
    import sys, hmac, hashlib
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import padding
    from cryptography.hazmat.primitives.ciphers.aead import AESGCM
    up, down, pem = bytes.fromhex(sys.argv[1]), bytes.fromhex(sys.argv[2]), sys.argv[3].encode()
    def records(s):
        out, p = [], 0
        while p + 5 <= len(s):
            n = int.from_bytes(s[p+3:p+5], "big"); out.append((s[p], s[p+1:p+3], s[p+5:p+5+n])); p += 5 + n
        return out
    def split(s):
        hs, prot, ccs = b"", [], False
        for t, v, f in records(s):
            if ccs: prot.append((t, v, f))
            elif t == 22: hs += f
            elif t == 20: ccs = True
        msgs, p = [], 0
        while p + 4 <= len(hs):
            n = int.from_bytes(hs[p+1:p+4], "big"); msgs.append(hs[p:p+4+n]); p += 4 + n
        return msgs, prot
    cmsgs, cprot = split(up)
    smsgs, _ = split(down)
    cr, sr = cmsgs[0][6:38], smsgs[0][6:38]
    cke = next(m for m in cmsgs if m[0] == 16)
    key = serialization.load_pem_private_key(pem, password=None)
    pre = key.decrypt(cke[6:], padding.PKCS1v15())
    def prf(secret, label, seed, n):
        out, a = b"", label + seed
        while len(out) < n:
            a = hmac.new(secret, a, hashlib.sha256).digest()
            out += hmac.new(secret, a + label + seed, hashlib.sha256).digest()
        return out[:n]
    transcript = cmsgs[0] + b"".join(smsgs) + b"".join(cmsgs[1:cmsgs.index(cke) + 1])
    master = prf(pre, b"extended master secret", hashlib.sha256(transcript).digest(), 48)
    kb = prf(master, b"key expansion", sr + cr, 40)
    ckey, civ = kb[0:16], kb[32:36]
    seq, request = 0, b""
    for t, v, f in cprot:
        pt_len = len(f) - 8 - 16
        aad = seq.to_bytes(8, "big") + bytes([t]) + v + pt_len.to_bytes(2, "big")
        pt = AESGCM(ckey).decrypt(civ + f[:8], f[8:], aad)
        if t == 23: request += pt
        seq += 1
    print(pre.hex(), master.hex(), request.hex())
    """#

    @Test func pythonOpensTheSameRecordingWithTheStolenKey() throws {
        guard let python = Self.python() else {
            print("skipped: python3 with the `cryptography` package is not available")
            return
        }
        let trace = Simulation(try BuiltInRun.keyTheftRSA.setup(seed: 11)).run()
        let flow = try #require(trace.recordedFlows.first)
        let output = try Self.run(python, ["-c", Self.script, Hex.string(flow.clientToServer), Hex.string(flow.serverToClient),
                                           DemoPKI.serverKeyPEM])
        let parts = output.split(separator: " ").map { String($0).trimmingCharacters(in: .whitespacesAndNewlines) }
        #expect(parts.count == 3)
        let learned = Dictionary(trace.learned(by: .eavesdropper).map { ($0.secret, Hex.string($0.value)) }, uniquingKeysWith: { a, _ in a })
        #expect(parts.first == learned[.preMasterSecret])
        #expect(parts.dropFirst().first == learned[.masterSecret])
        #expect(parts.last == learned[.httpRequest])
        #expect(parts.dropFirst().first == trace.summary.masterSecret.map(Hex.string), "and it is the session's real master secret")
    }
}
