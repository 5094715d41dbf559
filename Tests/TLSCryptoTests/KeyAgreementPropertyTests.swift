import Testing
import TLSCrypto

/// Over many seeds, both sides of every key agreement compute the same secret.
@Suite("Key agreement properties")
struct KeyAgreementPropertyTests {
    static let seeds: [UInt64] = Array(0..<200)

    @Test func ffdhe2048BothSidesAgree() throws {
        for seed in Self.seeds {
            let random = HMACDRBG(seed: seed)
            let client = try DHKeyPair(group: .ffdhe2048, using: random)
            let server = try DHKeyPair(group: .ffdhe2048, using: random)
            #expect(client.privateExponent.bitWidth <= 256)
            let z1 = try client.preMasterSecret(peerPublicValue: server.publicValueBytes)
            let z2 = try server.preMasterSecret(peerPublicValue: client.publicValueBytes)
            #expect(z1 == z2, "seed \(seed)")
            #expect(z1.first != 0)
        }
    }

    @Test(arguments: ECDHCurve.allCases)
    func ecdhBothSidesAgree(curve: ECDHCurve) throws {
        for seed in Self.seeds {
            let random = HMACDRBG(seed: seed)
            let client = try ECDHKeyPair(curve: curve, using: random)
            let server = try ECDHKeyPair(curve: curve, using: random)
            let s1 = try client.sharedSecret(peerPublicKey: server.publicKeyBytes)
            let s2 = try server.sharedSecret(peerPublicKey: client.publicKeyBytes)
            #expect(s1 == s2, "seed \(seed)")
            #expect(s1.count == curve.sharedSecretLength)
        }
    }

    /// 5000 seeds in release mode (TLSLAB_HEAVY=1): the stripped premaster is 255 bytes about 1 time
    /// in 256, and always equals the padded Z without its leading zeros.
    @Test(.enabled(if: heavyTestsEnabled, "set TLSLAB_HEAVY=1 to run the 5000-seed DH sweep"))
    func ffdhe2048HeavySweep() throws {
        var short = 0
        for seed in UInt64(1000)..<6000 {
            let random = HMACDRBG(seed: seed)
            let client = try DHKeyPair(group: .ffdhe2048, using: random)
            let server = try DHKeyPair(group: .ffdhe2048, using: random)
            let padded = try client.sharedSecretPadded(peerPublicValue: server.publicValueBytes)
            let premaster = try server.preMasterSecret(peerPublicValue: client.publicValueBytes)
            #expect(premaster == DHKeyPair.stripLeadingZeros(padded))
            if premaster.count < 256 { short += 1 }
        }
        #expect(short > 0 && short < 60)
    }
}
