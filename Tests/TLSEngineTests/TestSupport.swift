import Foundation
import Testing
@testable import TLSEngine
import TestSupport

/// The property tests' seeded generator (SplitMix64, shared in TestSupport).
typealias SeededGenerator = SplitMix64

/// The shared fixtures directory, found from this file's path.
enum Fixtures {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures")

    static func vectors() throws -> [String: Any] {
        let data = try Data(contentsOf: directory.appendingPathComponent("tls12-vectors.json"))
        guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw FixtureError.malformed("top level is not an object")
        }
        return object
    }

    /// The real OpenSSL 3.0 RSA-key-exchange handshake (`rsa_kx_openssl_real`).
    static func opensslHandshake() throws -> (messages: [[UInt8]], clientRandom: [UInt8], serverRandom: [UInt8],
                                              encryptedPreMaster: [UInt8], clientVerifyData: [UInt8],
                                              clientFinishedRecord: [UInt8]) {
        guard let v = try vectors()["rsa_kx_openssl_real"] as? [String: Any],
              let hexes = v["handshake_messages_in_order(hex, each with 4-byte header)"] as? [String],
              let cr = (v["client_random"] as? String).flatMap(Hex.bytes),
              let sr = (v["server_random"] as? String).flatMap(Hex.bytes),
              let epms = (v["encrypted_pre_master_secret(256 bytes, without the 2-byte length prefix)"] as? String).flatMap(Hex.bytes),
              let outputs = v["outputs"] as? [String: Any],
              let cvd = (outputs["client_verify_data"] as? String).flatMap(Hex.bytes),
              let cfr = (v["client_encrypted_finished_record"] as? String).flatMap(Hex.bytes)
        else { throw FixtureError.malformed("rsa_kx_openssl_real fields") }
        let messages = try hexes.map { hex throws(FixtureError) -> [UInt8] in
            guard let b = Hex.bytes(hex) else { throw FixtureError.malformed("hex") }
            return b
        }
        return (messages, cr, sr, epms, cvd, cfr)
    }
}

enum FixtureError: Error { case malformed(String) }

/// Runs `body` and returns the DecodeError it throws, or nil if it succeeds.
func decodeError<T>(_ body: () throws(DecodeError) -> T) -> DecodeError? {
    do {
        _ = try body()
        return nil
    } catch {
        return error
    }
}

/// Checks that the leaves of a dissection cover `0 ..< count` exactly once, in order.
func leavesCoverExactly(_ leaves: [DissectedField], count: Int) -> Bool {
    var next = 0
    for leaf in leaves {
        if leaf.offset != next || leaf.length < 0 { return false }
        next = leaf.end
    }
    return next == count
}
