import Testing
import TLSCrypto

@Suite("ECDH key pairs for ECDHE (RFC 8422, RFC 7748)")
struct ECDHTests {
    /// RFC 7748 §6.1 test vector (Alice and Bob).
    @Test func x25519RFC7748Vector() throws {
        let alice = try ECDHKeyPair(curve: .x25519, privateKey: Hex.bytes("77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a"))
        let bob = try ECDHKeyPair(curve: .x25519, privateKey: Hex.bytes("5dab087e624a8a4b79e17f8b83800ee66f3bb1292618b6fd1c2f8b27ff88e0eb"))
        #expect(Hex.string(alice.publicKeyBytes) == "8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a")
        #expect(Hex.string(bob.publicKeyBytes) == "de9edb7d7b7dc1b4d35b61c2ece435373f8343c85b78674dadfc7e146f882b4f")
        let shared = "4a5d9d5ba4ce2de1728e3bf480350f25e07e21c947d19e3376f09b3c1e161742"
        #expect(Hex.string(try alice.sharedSecret(peerPublicKey: bob.publicKeyBytes)) == shared)
        #expect(Hex.string(try bob.sharedSecret(peerPublicKey: alice.publicKeyBytes)) == shared)
    }

    /// P-256 with d = 1: the public key is the generator G (SEC 2 §2.4.2 / FIPS 186-4 D.1.2.3).
    @Test func p256GeneratorForScalarOne() throws {
        let one = try ECDHKeyPair(curve: .secp256r1, privateKey: [UInt8](repeating: 0, count: 31) + [1])
        #expect(Hex.string(one.publicKeyBytes) == "04"
                + "6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296"
                + "4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5")
        // Agreement with d = 1 gives the peer's own x-coordinate.
        let other = try ECDHKeyPair(curve: .secp256r1, using: HMACDRBG(seed: 8))
        #expect(try one.sharedSecret(peerPublicKey: other.publicKeyBytes) == Array(other.publicKeyBytes[1...32]))
    }

    /// RFC 5903 §8.2 (ECP-384): both public keys and the shared x-coordinate (also checked against
    /// Python's `cryptography` when the vector was copied).
    @Test func p384RFC5903Vector() throws {
        let i = try ECDHKeyPair(curve: .secp384r1, privateKey: Hex.bytes(
            "099f3c7034d4a2c699884d73a375a67f7624ef7c6b3c0f160647b67414dce655e35b538041e649ee3faef896783ab194"))
        let r = try ECDHKeyPair(curve: .secp384r1, privateKey: Hex.bytes(
            "41cb0779b4bdb85d47846725fbec3c9430fab46cc8dc5060855cc9bda0aa2942e0308312916b8ed2960e4bd55a7448fc"))
        #expect(Hex.string(i.publicKeyBytes) == "04"
                + "667842d7d180ac2cde6f74f37551f55755c7645c20ef73e31634fe72b4c55ee6de3ac808acb4bdb4c88732aee95f41aa"
                + "9482ed1fc0eeb9cafc4984625ccfc23f65032149e0e144ada024181535a0f38eeb9fcff3c2c947dae69b4c634573a81c")
        #expect(Hex.string(r.publicKeyBytes) == "04"
                + "e558dbef53eecde3d3fccfc1aea08a89a987475d12fd950d83cfa41732bc509d0d1ac43a0336def96fda41d0774a3571"
                + "dcfbec7aacf3196472169e838430367f66eebe3c6e70c416dd5f0c68759dd1fff83fa40142209dff5eaad96db9e6386c")
        let shared = "11187331c279962d93d604243fd592cb9d0a926f422e47187521287e7156c5c4d603135569b9e9d09cf5d4a270f59746"
        #expect(Hex.string(try i.sharedSecret(peerPublicKey: r.publicKeyBytes)) == shared)
        #expect(Hex.string(try r.sharedSecret(peerPublicKey: i.publicKeyBytes)) == shared)
        // A P-256 point is the wrong length for P-384; a point off the curve is refused.
        let p256 = try ECDHKeyPair(curve: .secp256r1, using: HMACDRBG(seed: 3))
        #expect(throws: ECDHError.invalidPeerKeyLength(have: 65, need: 97)) { try i.sharedSecret(peerPublicKey: p256.publicKeyBytes) }
        var off = r.publicKeyBytes
        off[96] ^= 1
        #expect(throws: ECDHError.peerKeyNotOnCurve) { try i.sharedSecret(peerPublicKey: off) }
    }

    /// secp521r1 (RFC 8422 §5.1.1 code point 25): two keys and their shared secret computed by Python's
    /// `cryptography` (OpenSSL), from the scalars SHA-512("tlslab p521 a") and SHA-512("tlslab p521 b"),
    /// left-padded to 66 bytes. The premaster keeps its leading zero bits: 66 bytes (RFC 8422 §5.10).
    @Test func p521AgreesWithPythonCryptography() throws {
        let a = try ECDHKeyPair(curve: .secp521r1, privateKey: Hex.bytes(
            "0000feb52c2e1b2daf3b366e66194161a61b9c26e8111025ecfcb60a1cd5e956fe24b791a47d297e82e857152e915798dba0f11fa059821abfe12953c5d0f229f05b"))
        #expect(Hex.string(a.publicKeyBytes) == "0401a04262dd13a0f762b3abad06a16ec5c6a718e0e7d58110d09a293938cb09795e8433eeecb74be421f35ae28f569568f415d698f4930759f52a34712b7381be00a100a6e8036ff899f19ec987c98d97d1f8386b866885815f15ef280fa05bd698d1e85867d3e7051eed829518e8337746c770faac3e9fb6f33fa42074951a83bfde2027")
        let peer = Hex.bytes("04015e0c6c813783c5bbed4c20fe4bc84c9c209b8d51af7b0ac069a6d139ea43ae0ccedaff9f769fe6dc7bccf8916029ea6846bc54aca6e4f85093279893c30bca6a7d003c940e40a4ff26b4aea9ae2f9b9c641d5a83c526a2c9176a30e9db14e26ef50b6ad5354fabcc4c2154a14dac763bc1e54ef7b8b7cc40bdcdc12ab0cdfaef422819")
        #expect(Hex.string(try a.sharedSecret(peerPublicKey: peer)) == "0145aa6ba2c7ce6e23517b53ff3a30a3a14879b58a0f984b0d5d4447d2f570b587bf1c6c48cd890ad6fedac1c70b0d230e60bd7d0e9e76f7a05df29c2a0ce4aea9f2")
        var off = peer
        off[132] ^= 1
        #expect(throws: ECDHError.peerKeyNotOnCurve) { try a.sharedSecret(peerPublicKey: off) }
        #expect(ECDHCurve.secp521r1.namedGroup == 25 && ECDHCurve.secp521r1.publicKeyLength == 133)
    }

    @Test(arguments: ECDHCurve.allCases)
    func wireFormsAndDeterminism(curve: ECDHCurve) throws {
        let a = try ECDHKeyPair(curve: curve, using: HMACDRBG(seed: 11))
        let b = try ECDHKeyPair(curve: curve, using: HMACDRBG(seed: 11))
        #expect(a == b)
        #expect(a.privateKeyBytes.count == curve.privateKeyLength)
        #expect(a.publicKeyBytes.count == curve.publicKeyLength)
        if curve != .x25519 { #expect(a.publicKeyBytes.first == 0x04) }
        let c = try ECDHKeyPair(curve: curve, using: HMACDRBG(seed: 12))
        #expect(try a.sharedSecret(peerPublicKey: c.publicKeyBytes).count == curve.sharedSecretLength)
    }

    @Test func p256ScalarsOutOfRangeAreRejectedAndRedrawn() throws {
        let n = Hex.bytes("ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551")
        #expect(throws: ECDHError.invalidPrivateKey) { try ECDHKeyPair(curve: .secp256r1, privateKey: [UInt8](repeating: 0, count: 32)) }
        #expect(throws: ECDHError.invalidPrivateKey) { try ECDHKeyPair(curve: .secp256r1, privateKey: n) }
        #expect(throws: ECDHError.invalidPrivateKey) { try ECDHKeyPair(curve: .secp256r1, privateKey: [UInt8](repeating: 0xff, count: 32)) }
        #expect(throws: ECDHError.invalidPrivateKey) { try ECDHKeyPair(curve: .x25519, privateKey: [1, 2, 3]) }
        var nMinusOne = n
        nMinusOne[31] -= 1
        #expect(throws: Never.self) { try ECDHKeyPair(curve: .secp256r1, privateKey: nMinusOne) }

        // A source that first yields invalid scalars (0, then n), then a valid one.
        let scripted = ScriptedRandom([[UInt8](repeating: 0, count: 32), n, [UInt8](repeating: 0, count: 31) + [1]])
        let pair = try ECDHKeyPair(curve: .secp256r1, using: scripted)
        #expect(pair.privateKeyBytes.last == 1)
        let stuck = ScriptedRandom([])  // always zeros
        #expect(throws: ECDHError.randomSourceExhausted) { try ECDHKeyPair(curve: .secp256r1, using: stuck) }
    }

    @Test func badPeerKeysAreRejected() throws {
        let p256 = try ECDHKeyPair(curve: .secp256r1, using: HMACDRBG(seed: 21))
        let x25519 = try ECDHKeyPair(curve: .x25519, using: HMACDRBG(seed: 22))
        #expect(throws: ECDHError.invalidPeerKeyLength(have: 64, need: 65)) {
            try p256.sharedSecret(peerPublicKey: Array(p256.publicKeyBytes.dropFirst()))
        }
        #expect(throws: ECDHError.invalidPeerKeyLength(have: 33, need: 32)) { try x25519.sharedSecret(peerPublicKey: [UInt8](repeating: 9, count: 33)) }
        var compressedTag = p256.publicKeyBytes
        compressedTag[0] = 0x02
        #expect(throws: ECDHError.unsupportedPointFormat(0x02)) { try p256.sharedSecret(peerPublicKey: compressedTag) }
        var offCurve = p256.publicKeyBytes
        offCurve[64] ^= 1
        #expect(throws: ECDHError.peerKeyNotOnCurve) { try p256.sharedSecret(peerPublicKey: offCurve) }
        #expect(throws: ECDHError.peerKeyNotOnCurve) { try ECDHKeyPair.validatePeerPublicKey(offCurve, curve: .secp256r1) }
        // X25519 low-order points (RFC 7748 §6.1: all-zero output): u = 0 and u = 1.
        #expect(throws: ECDHError.lowOrderPeerKey) { try x25519.sharedSecret(peerPublicKey: [UInt8](repeating: 0, count: 32)) }
        #expect(throws: ECDHError.lowOrderPeerKey) { try x25519.sharedSecret(peerPublicKey: [1] + [UInt8](repeating: 0, count: 31)) }
    }
}

/// Yields the scripted byte strings in order, then zeros.
final class ScriptedRandom: RandomSource {
    private var script: [[UInt8]]

    init(_ script: [[UInt8]]) { self.script = script }

    func bytes(count: Int) -> [UInt8] {
        guard !script.isEmpty else { return [UInt8](repeating: 0, count: count) }
        let next = script.removeFirst()
        return Array((next + [UInt8](repeating: 0, count: max(0, count - next.count))).prefix(count))
    }
}
