import Testing
import TestSupport
import TLSCrypto

@Suite("Finite-field Diffie-Hellman (RFC 7919, RFC 3526, RFC 5246 §8.1.2)")
struct DHTests {
    // MARK: Groups

    @Test(arguments: DHGroup.standardGroups)
    func standardGroupsAreSafePrimes(group: DHGroup) {
        #expect(group.g == BigInt(2))
        #expect(!group.isTeachingOnly)
        #expect(group.p.isProbablePrime(rounds: 8))
        #expect(((group.p - .one) >> 1).isProbablePrime(rounds: 8), "(p-1)/2 must be prime")
        #expect(group.shortExponentBits >= 225 && group.shortExponentBits < group.bitWidth / 4)
    }

    /// The primes follow the formulas printed in the RFCs:
    /// RFC 7919 Appendix A: p = 2^b - 2^(b-64) + {[2^(b-130) e] + X} * 2^64 - 1;
    /// RFC 3526 §3: p = 2^2048 - 2^1984 - 1 + 2^64 * {[2^1918 pi] + 124476}.
    @Test func primesMatchTheRFCFormulas() throws {
        let cases: [(DHGroup, Int, Int)] = [(.ffdhe2048, 2048, 560316), (.ffdhe3072, 3072, 2625351), (.ffdhe4096, 4096, 5736041)]
        for (group, b, x) in cases {
            let expected = try (BigInt.one << b) - (BigInt.one << (b - 64))
                + ((try Self.floorOfE(shiftedBy: b - 130)) + BigInt(x)) * (BigInt.one << 64) - .one
            #expect(group.p == expected, "\(group.name)")
            #expect(group.bitWidth == b)
        }
        let modp = try (BigInt.one << 2048) - (BigInt.one << 1984) - .one
            + (BigInt.one << 64) * ((try Self.floorOfPi(shiftedBy: 1918)) + BigInt(124476))
        #expect(DHGroup.modp2048.p == modp)
    }

    /// The RFC text's first and last 64 bits, as printed.
    @Test func primesMatchTheRFCTextEnds() {
        #expect(DHGroup.ffdhe2048.p.hexString.hasPrefix("ffffffffffffffffadf85458a2bb4a9a"))
        #expect(DHGroup.ffdhe3072.p.hexString.hasSuffix("25e41d2b66c62e37ffffffffffffffff"))
        #expect(DHGroup.ffdhe4096.p.hexString.hasSuffix("c68a007e5e655f6affffffffffffffff"))
        #expect(DHGroup.modp2048.p.hexString.hasPrefix("ffffffffffffffffc90fdaa22168c234c4c6628b80dc1cd1"))
        #expect(DHGroup.modp2048.p.hexString.hasSuffix("15728e5a8aacaa68ffffffffffffffff"))
    }

    /// The same primes as OpenSSL's built-in named groups (`openssl genpkey -genparam … | openssl asn1parse`).
    @Test(CrossCheckRequirement.trait(ExternalTool.openssl != nil, missing: "openssl is not on the PATH (named-group comparison)"),
          arguments: [("ffdhe2048", DHGroup.ffdhe2048), ("ffdhe3072", .ffdhe3072), ("ffdhe4096", .ffdhe4096), ("modp_2048", .modp2048)])
    func primesMatchOpenSSL(openSSLName: String, group: DHGroup) throws {
        let openssl = try #require(ExternalTool.openssl)
        let result = try ExternalTool.run("/bin/sh", ["-c",
            "'\(openssl)' genpkey -genparam -algorithm DH -pkeyopt group:\(openSSLName) | '\(openssl)' asn1parse"])
        try #require(result.status == 0, "openssl failed: \(result.stderr)")
        let integers = result.stdout.split(separator: "\n").filter { $0.contains("INTEGER") }
            .compactMap { $0.split(separator: ":").last.map(String.init) }
        try #require(integers.count >= 2)
        #expect(try BigInt(integers[0], radix: 16) == group.p)
        #expect(try BigInt(integers[1], radix: 16) == group.g)
    }

    @Test func teachingGroupsAreMarked() {
        for group in DHGroup.teachingGroups {
            #expect(group.isTeachingOnly)
            #expect(group.bitWidth < 64, "a teaching group is small enough to search by hand")
        }
        #expect(DHGroup.standardGroups.allSatisfy { !$0.isTeachingOnly && $0.bitWidth >= 2048 })
        #expect(DHGroup.named("ffdhe2048") == .ffdhe2048)
        #expect(DHGroup.named("nope") == nil)
    }

    // MARK: Toy examples

    /// The project seed: g = 7, p = 5, x1 = 2, x2 = 5 → P1 = 4, P2 = 2, S = 4.
    @Test func blackboardExample() throws {
        let group = DHGroup.blackboardExample
        let one = try DHKeyPair(group: group, privateExponent: BigInt(2))
        let two = try DHKeyPair(group: group, privateExponent: BigInt(5))
        #expect(one.publicValue == BigInt(4))
        #expect(two.publicValue == BigInt(2))
        #expect(try one.sharedSecret(peerPublicValue: two.publicValue) == BigInt(4))
        // P1 = 4 = p-1 is the order-2 element: validation rejects it; unchecked, S = (-1)^5 = 4.
        #expect(throws: DHError.peerValueOutOfRange) { try two.sharedSecret(peerPublicValue: one.publicValue) }
        #expect(try two.sharedSecret(peerPublicValue: one.publicValue, validation: .none) == BigInt(4))
    }

    /// p = 23, g = 5 with a = 6, b = 15: A = 8, B = 19, S = 2 (the classic textbook example).
    @Test func textbookExample() throws {
        let alice = try DHKeyPair(group: .toy23, privateExponent: BigInt(6))
        let bob = try DHKeyPair(group: .toy23, privateExponent: BigInt(15))
        #expect(alice.publicValue == BigInt(8))
        #expect(bob.publicValue == BigInt(19))
        #expect(try alice.sharedSecret(peerPublicValue: bob.publicValue) == BigInt(2))
        #expect(try bob.sharedSecret(peerPublicValue: alice.publicValue) == BigInt(2))
        let random = HMACDRBG(seed: 23)
        for _ in 0..<20 {
            let pair = try DHKeyPair(group: .toy23, using: random)
            #expect(pair.privateExponent >= BigInt(2) && pair.privateExponent <= BigInt(21))
        }
    }

    // MARK: Validation

    @Test func peerValuesOutsideTheRangeAreRejected() throws {
        let group = DHGroup.ffdhe2048
        let pair = try DHKeyPair(group: group, using: HMACDRBG(seed: 1))
        for bad in [BigInt.zero, .one, group.p - .one, group.p, group.p + .one] {
            #expect(throws: DHError.peerValueOutOfRange) { try pair.sharedSecret(peerPublicValue: bad) }
        }
        #expect(throws: DHError.peerValueOutOfRange) { try pair.sharedSecret(peerPublicValue: .one, validation: .none) }
        #expect(throws: DHError.peerValueOutOfRange) { try pair.preMasterSecret(peerPublicValue: []) }
        #expect(throws: DHError.peerValueOutOfRange) { try pair.preMasterSecret(peerPublicValue: [0, 0, 1]) }
        let tooLong = [UInt8](repeating: 0xff, count: group.byteWidth + 1)
        #expect(throws: DHError.peerValueTooLong(byteCount: 257, limit: 256)) { try pair.preMasterSecret(peerPublicValue: tooLong) }
        // Leading zero bytes on the wire are fine.
        let peer = try DHKeyPair(group: group, using: HMACDRBG(seed: 2))
        #expect(try pair.preMasterSecret(peerPublicValue: [0, 0] + peer.publicValueBytes)
                == (try pair.preMasterSecret(peerPublicValue: peer.publicValueBytes)))
        #expect(throws: DHError.invalidPrivateExponent) { try DHKeyPair(group: group, privateExponent: .zero) }
        #expect(throws: DHError.invalidPrivateExponent) { try DHKeyPair(group: group, privateExponent: group.p - .one) }
        #expect(throws: DHError.invalidPrivateExponent) { try DHKeyPair(group: group, exponentSize: .bits(1), using: HMACDRBG(seed: 3)) }
        let broken = DHGroup(name: "broken", p: 23, g: 1, isTeachingOnly: true, shortExponentBits: 3)
        #expect(throws: DHError.self) { try DHKeyPair(group: broken, using: HMACDRBG(seed: 4)) }
    }

    @Test func exponentSizes() throws {
        let random = HMACDRBG(seed: 99)
        let short = try DHKeyPair(group: .ffdhe2048, using: random)
        #expect(short.privateExponent.bitWidth <= 256 && short.privateExponent.bitWidth > 240)
        let larger = try DHKeyPair(group: .ffdhe4096, using: random)
        #expect(larger.privateExponent.bitWidth <= 325 && larger.privateExponent.bitWidth > 300)
        let full = try DHKeyPair(group: .ffdhe2048, exponentSize: .full, using: random)
        #expect(full.privateExponent.bitWidth > 2000)
        #expect(full.privateExponent < DHGroup.ffdhe2048.p - .one)
        // Deterministic for a seed.
        #expect(try DHKeyPair(group: .ffdhe2048, using: HMACDRBG(seed: 5))
                == (try DHKeyPair(group: .ffdhe2048, using: HMACDRBG(seed: 5))))
    }

    // MARK: dhe_ffdhe2048_leading_zero

    @Test func leadingZeroVector() throws {
        let vector = try Vectors.object(try Vectors.load(), "dhe_ffdhe2048_leading_zero")
        let outputs = try Vectors.object(vector, "outputs")
        let client = try DHKeyPair(group: .ffdhe2048, privateExponent: BigInt(bigEndian: try Vectors.hex(vector, "client_private")))
        let server = try DHKeyPair(group: .ffdhe2048, privateExponent: BigInt(bigEndian: try Vectors.hex(vector, "server_private")))
        #expect(client.publicValueBytes == (try Vectors.hex(vector, "client_public_Yc")))
        #expect(server.publicValueBytes == (try Vectors.hex(vector, "server_public_Ys")))

        let padded = try client.sharedSecretPadded(peerPublicValue: server.publicValueBytes)
        #expect(padded == (try Vectors.hex(vector, "Z_padded_to_256(as cryptography exchange() returns)")))
        #expect(padded.count == 256 && padded[0] == 0)
        let premaster = try client.preMasterSecret(peerPublicValue: server.publicValueBytes)
        #expect(premaster == (try server.preMasterSecret(peerPublicValue: client.publicValueBytes)))
        #expect(premaster == (try Vectors.hex(vector, "pre_master_secret(TLS1.2: leading zero bytes stripped)")))
        #expect(premaster.count == 255)
        #expect(premaster == DHKeyPair.stripLeadingZeros(padded))

        let synthetic = try Vectors.object(try Vectors.object(try Vectors.load(), "rsa_kx_synthetic"), "inputs")
        let clientRandom = try Vectors.hex(vector, "client_random")
        let serverRandom = try Vectors.hex(vector, "server_random")
        let schedule = KeySchedule(prf: .sha256)
        let master = try schedule.masterSecret(preMasterSecret: premaster, clientRandom: clientRandom, serverRandom: serverRandom)
        #expect(master == (try Vectors.hex(outputs, "master_secret")))
        try KeyScheduleTests().checkKeyBlocks(outputs: outputs, master: master,
                                              clientRandom: clientRandom, serverRandom: serverRandom)
        #expect(try schedule.verifyData(masterSecret: master, sender: .client,
                                        handshakeHash: try Vectors.hex(synthetic, "handshake_hash_for_client_finished(SHA256)"))
                == (try Vectors.hex(outputs, "client_verify_data")))
        #expect(try schedule.verifyData(masterSecret: master, sender: .server,
                                        handshakeHash: try Vectors.hex(synthetic, "handshake_hash_for_server_finished(SHA256)"))
                == (try Vectors.hex(outputs, "server_verify_data")))

        // Forgetting to strip the zero gives a different, wrong master secret.
        let wrong = try schedule.masterSecret(preMasterSecret: padded, clientRandom: clientRandom, serverRandom: serverRandom)
        #expect(wrong == (try Vectors.hex(vector, "wrong_master_if_not_stripped")))
        #expect(wrong != master)
    }

    /// Full public-key validation (SP 800-56A §5.6.2.3.1): for a named safe-prime group q = (p-1)/2
    /// is known, honest values g^x lie in the order-q subgroup, and p − g^x (order 2q) is refused. The
    /// refused value shows why: with only the range check, the "shared secret" it yields is Z or p − Z
    /// as the private exponent is even or odd — one bit of the secret exponent leaks per such value.
    @Test(arguments: DHGroup.standardGroups)
    func subgroupValidation(group: DHGroup) throws {
        let q = try #require(group.subgroupOrder)
        #expect(q + q + .one == group.p)
        let random = HMACDRBG(seed: Array("subgroup \(group.name)".utf8))
        let honest = try DHKeyPair(group: group, using: random)
        try DHKeyPair.validatePeer(honest.publicValue, in: group, validation: .subgroup)
        let negated = group.p - honest.publicValue
        try DHKeyPair.validatePeer(negated, in: group)  // the range check alone lets it through
        #expect(throws: DHError.peerValueNotInSubgroup) { try DHKeyPair.validatePeer(negated, in: group, validation: .subgroup) }
        #expect(throws: DHError.peerValueNotInSubgroup) { try DHKeyPair.validatePeer(group.p - BigInt(2), in: group, validation: .subgroup) }
        try DHKeyPair.validatePeer(BigInt(4), in: group, validation: .subgroup)
        for seed in 0..<4 {
            let victim = try DHKeyPair(group: group, exponentSize: .bits(64), using: HMACDRBG(seed: [UInt8(seed)]))
            #expect(throws: DHError.peerValueNotInSubgroup) { try victim.sharedSecret(peerPublicValue: negated, validation: .subgroup) }
            let leaked = try victim.sharedSecret(peerPublicValue: negated)
            let real = try victim.sharedSecret(peerPublicValue: honest.publicValue)
            #expect(leaked == (victim.privateExponent.isOdd ? group.p - real : real))
        }
    }

    /// Groups without a known q (one a server chose; the teaching groups) get the range check only.
    @Test func subgroupOrderOnlyForNamedSafePrimeGroups() throws {
        for group in DHGroup.teachingGroups { #expect(group.subgroupOrder == nil) }
        let chosen = DHGroup(name: "server-supplied-2048", p: DHGroup.ffdhe2048.p, g: 5, isTeachingOnly: false,
                             shortExponentBits: 256)
        #expect(chosen.subgroupOrder == nil)
        try DHKeyPair.validatePeer(chosen.p - BigInt(2), in: chosen, validation: .subgroup)
    }

    /// OpenSSL agrees: `openssl pkeyutl -derive` (which validates the peer key against the named
    /// group it recognises from p and g) derives the same Z from an honest value and refuses p − y.
    static let openSSLDerive = """
        import sys, subprocess, tempfile, os
        from cryptography.hazmat.primitives.asymmetric import dh
        from cryptography.hazmat.primitives import serialization as s
        openssl = sys.argv[1]
        for line in sys.stdin:
            p, g, x, peer = (int(v, 16) for v in line.split())
            numbers = dh.DHParameterNumbers(p, g)
            mine = dh.DHPrivateNumbers(x, dh.DHPublicNumbers(pow(g, x, p), numbers)).private_key()
            theirs = dh.DHPublicNumbers(peer, numbers).public_key()
            with tempfile.TemporaryDirectory() as d:
                k, q = os.path.join(d, "k.pem"), os.path.join(d, "peer.pem")
                open(k, "wb").write(mine.private_bytes(s.Encoding.PEM, s.PrivateFormat.PKCS8, s.NoEncryption()))
                open(q, "wb").write(theirs.public_bytes(s.Encoding.PEM, s.PublicFormat.SubjectPublicKeyInfo))
                r = subprocess.run([openssl, "pkeyutl", "-derive", "-inkey", k, "-peerkey", q], capture_output=True)
                print(r.stdout.hex() if r.returncode == 0 else "rejected")
        """

    @Test(CrossCheckRequirement.trait(ExternalTool.pythonWithCryptography != nil && ExternalTool.openssl != nil,
                                      missing: "python3 with `cryptography` and openssl are needed (DH subgroup cross-check)"))
    func subgroupValidationMatchesOpenSSL() throws {
        let python = try #require(ExternalTool.pythonWithCryptography)
        let openssl = try #require(ExternalTool.openssl)
        let random = HMACDRBG(seed: Array("subgroup openssl".utf8))
        var lines: [String] = []
        var expected: [String] = []
        for group in [DHGroup.ffdhe2048, .modp2048] {
            let ours = try DHKeyPair(group: group, using: random)
            let theirs = try DHKeyPair(group: group, using: random)
            for peer in [theirs.publicValue, group.p - theirs.publicValue] {
                lines.append([group.p.hexString, group.g.hexString, ours.privateExponent.hexString, peer.hexString].joined(separator: " "))
                let z = Result { () throws(DHError) -> [UInt8] in
                    try ours.sharedSecretPadded(peerPublicValue: peer.bigEndianBytes, validation: .subgroup)
                }
                switch z {
                case .success(let bytes): expected.append(Hex.string(bytes))
                case .failure(let error): expected.append(error == .peerValueNotInSubgroup ? "rejected" : "\(error)")
                }
            }
        }
        #expect(expected.filter { $0 == "rejected" }.count == 2)
        let result = try ExternalTool.run(python, ["-c", Self.openSSLDerive, openssl], stdin: lines.joined(separator: "\n") + "\n")
        try #require(result.status == 0, "python failed: \(result.stderr)")
        #expect(result.stdout.split(separator: "\n").map(String.init) == expected)
    }

    // MARK: Python `cryptography` cross-check

    static let pythonExchange = """
        import sys
        from cryptography.hazmat.primitives.asymmetric import dh
        for line in sys.stdin:
            p, g, x, peer = (int(v, 16) for v in line.split())
            numbers = dh.DHParameterNumbers(p, g)
            mine = dh.DHPrivateNumbers(x, dh.DHPublicNumbers(pow(g, x, p), numbers)).private_key()
            print(mine.exchange(dh.DHPublicNumbers(peer, numbers).public_key()).hex())
        """

    @Test(CrossCheckRequirement.trait(ExternalTool.pythonWithCryptography != nil,
                                      missing: "python3 with the `cryptography` package is not available (DH cross-check)"))
    func sharedSecretsMatchPythonCryptography() throws {
        let python = try #require(ExternalTool.pythonWithCryptography)
        let random = HMACDRBG(seed: Array("dh cross-check".utf8))
        var lines: [String] = []
        var expected: [[UInt8]] = []
        for group in [DHGroup.ffdhe2048, .modp2048, .ffdhe3072] {
            for size in [DHKeyPair.ExponentSize.short, .full] {
                let ours = try DHKeyPair(group: group, exponentSize: size, using: random)
                let theirs = try DHKeyPair(group: group, exponentSize: size, using: random)
                lines.append([group.p.hexString, group.g.hexString, ours.privateExponent.hexString,
                              theirs.publicValue.hexString].joined(separator: " "))
                expected.append(try ours.sharedSecretPadded(peerPublicValue: theirs.publicValueBytes))
            }
        }
        let result = try ExternalTool.run(python, ["-c", Self.pythonExchange], stdin: lines.joined(separator: "\n") + "\n")
        try #require(result.status == 0, "python failed: \(result.stderr)")
        let answers = result.stdout.split(separator: "\n").map { Hex.bytes(String($0)) }
        #expect(answers == expected)
    }

    // MARK: Helpers for the RFC formulas

    /// ⌊2^k · e⌋ from e = Σ 1/n! (n < 800, far more terms than 2^k needs for k ≤ 4000).
    static func floorOfE(shiftedBy k: Int) throws -> BigInt {
        let terms = 800
        var factorial = BigInt.one
        for n in 1...terms { factorial = factorial * BigInt(n) }
        var sum = BigInt.zero
        var term = factorial  // N!/0!
        for n in 0..<terms {
            sum = sum + term
            term = try term.quotientAndRemainder(dividingBy: BigInt(n + 1)).quotient
        }
        return try ((try sum << k).quotientAndRemainder(dividingBy: factorial)).quotient
    }

    /// ⌊2^k · π⌋ by Machin's formula π = 16 atan(1/5) - 4 atan(1/239), in fixed point with 64 guard bits.
    static func floorOfPi(shiftedBy k: Int) throws -> BigInt {
        let scale = try BigInt.one << (k + 64)
        func arctanInverse(_ x: Int) throws -> BigInt {
            var sum = BigInt.zero
            var power = try scale.quotientAndRemainder(dividingBy: BigInt(x)).quotient
            let xSquared = BigInt(x * x)
            var n = 1
            var positive = true
            while !power.isZero {
                let term = try power.quotientAndRemainder(dividingBy: BigInt(n)).quotient
                sum = positive ? sum + term : sum - term
                power = try power.quotientAndRemainder(dividingBy: xSquared).quotient
                n += 2
                positive.toggle()
            }
            return sum
        }
        let pi = BigInt(16) * (try arctanInverse(5)) - BigInt(4) * (try arctanInverse(239))
        return pi >> 64
    }
}
