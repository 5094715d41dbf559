import Foundation
import BigNum
import TLSCrypto
#if canImport(Glibc)
import Glibc
#endif

// MARK: - Our measurements

/// The operations measured, on a fixed RSA-2048 key generated from seed 2048.
public struct CryptoBench {
    public enum Row {
        public static let privateSilent = BenchOperation.rsaPrivate(.sideChannelSilent)
        public static let privateFast = BenchOperation.rsaPrivate(.variableTime)
        public static let privateBlinded = BenchOperation.rsaPrivate(.blinded)
        public static let publicOp = BenchOperation.rsaPublic
        public static let ffdhe = BenchOperation.ffdheAgreement
        public static let keygen = BenchOperation.rsaKeyGeneration
        public static let order = [privateSilent, privateFast, privateBlinded, publicOp, ffdhe, keygen]
        /// The crypto issue's targets: public op and DH ≥ 0.9×, private op ≥ 0.5× of `openssl speed`.
        public static let targets: [BenchOperation: BenchTarget] = [
            privateSilent: .ratio(atLeast: 0.5), privateFast: .ratio(atLeast: 0.5), privateBlinded: .ratio(atLeast: 0.5),
            publicOp: .ratio(atLeast: 0.9), ffdhe: .ratio(atLeast: 0.9),
        ]
    }

    public let seconds: Double
    public let wallClock: Bool
    public let key: RSAPrivateKey
    public let clock = ContinuousClock()

    public init(seconds: Double, wallClock: Bool) throws {
        self.seconds = seconds
        self.wallClock = wallClock
        key = try RSAPrivateKey.generate(bits: 2048, using: BenchRandom(seed: 2048))
    }

    /// Runs `body` repeatedly for `seconds` of wall-clock time; returns operations per second of
    /// this thread's CPU time (what `openssl speed` divides by: user time, unless `-elapsed`),
    /// or of wall-clock time with `--elapsed`. CPU time keeps the ratio honest on a shared machine.
    public func rate(_ body: () throws -> Void) rethrows -> Double {
        try body()   // warm-up
        var count = 0
        let start = clock.now
        let cpuStart = CPUTime.thread()
        let budget = Duration.milliseconds(Int64(seconds * 1000))
        var elapsed = Duration.zero
        repeat {
            for _ in 0..<8 { try body() }
            count += 8
            elapsed = clock.now - start
        } while elapsed < budget
        let divisor = wallClock ? elapsed.benchSeconds : CPUTime.thread() - cpuStart
        return Double(count) / divisor
    }

    public func privateOpsPerSecond(_ variant: RSAPrivateKey.Exponentiation) throws -> Double {
        let source = BenchRandom(seed: 7)
        let inputs = try (0..<16).map { _ in try BigInt.random(below: key.publicKey.modulus, using: source) }
        var index = 0
        return try rate {
            _ = try key.privateOperation(inputs[index & 15], exponentiation: variant)
            index += 1
        }
    }

    /// The private operation with base blinding (``RSABlinding``, its pair from a seeded source) over
    /// variable-time `mpz_powm`.
    public func blindedPrivateOpsPerSecond() throws -> Double {
        let source = BenchRandom(seed: 7)
        let inputs = try (0..<16).map { _ in try BigInt.random(below: key.publicKey.modulus, using: source) }
        let blinding = try RSABlinding(for: key.publicKey, using: BenchRandom(seed: 10))
        var index = 0
        return try rate {
            _ = try key.privateOperation(inputs[index & 15], blinding: blinding)
            index += 1
        }
    }

    /// The public operation as TLS uses it: `RSAPublicKey.verifyPKCS1v15` of a SHA-256 signature
    /// (what `openssl speed` times as "verify": RSA_verify of a digest, padding check included).
    public func publicOpsPerSecond() throws -> Double {
        let message = Array("tlslab bench".utf8)
        let signature = try key.signPKCS1v15(message: message, hash: .sha256)
        let publicKey = key.publicKey
        guard publicKey.verifyPKCS1v15(signature: signature, message: message, hash: .sha256) else {
            throw BenchFailure.ownSignatureNotVerified
        }
        var failures = 0
        let measured = rate {
            if !publicKey.verifyPKCS1v15(signature: signature, message: message, hash: .sha256) { failures += 1 }
        }
        guard failures == 0 else { throw BenchFailure.verificationsFailed(count: failures) }
        return measured
    }

    /// One ffdhe2048 agreement as the DHE key exchange computes it: `DHKeyPair.sharedSecret` (peer value
    /// validation and y^x mod p) with the short exponent of ``DHGroup/ffdhe2048`` (256 bits), on key pairs
    /// made beforehand — as `openssl speed ffdh2048` times only the derivation.
    public func agreementsPerSecond() throws -> Double {
        let source = BenchRandom(seed: 9)
        let pairs = try (0..<16).map { _ in try DHKeyPair(group: .ffdhe2048, exponentSize: .short, using: source) }
        var index = 0
        return try rate {
            _ = try pairs[index & 15].sharedSecret(peerPublicValue: pairs[(index + 5) & 15].publicValue)
            index += 1
        }
    }

    /// RSA-2048 keys per second: `count` keys from seeds firstSeed… (the mean, as a rate).
    public func keysPerSecond(count: Int, firstSeed: Int) throws -> Double {
        let start = clock.now
        let cpuStart = CPUTime.thread()
        for seed in firstSeed..<(firstSeed + count) {
            _ = try RSAPrivateKey.generate(bits: 2048, using: BenchRandom(seed: seed))
        }
        let divisor = wallClock ? (clock.now - start).benchSeconds : CPUTime.thread() - cpuStart
        return Double(count) / divisor
    }
}

/// A seeded source for the benchmark's keys and inputs: SHA-256 in counter mode.
public final class BenchRandom: RandomSource {
    private let seed: [UInt8]
    private var counter: UInt64 = 0
    private var buffer: [UInt8] = []

    public init(seed value: Int) {
        seed = Array("tlslab-bench-\(value)".utf8)
    }

    public func bytes(count: Int) -> [UInt8] {
        while buffer.count < count {
            let block = (0..<8).map { UInt8(truncatingIfNeeded: counter >> (56 - 8 * $0)) }
            buffer += HashAlgorithm.sha256.digest(seed + block)
            counter += 1
        }
        defer { buffer.removeFirst(count) }
        return Array(buffer.prefix(count))
    }
}

/// CPU time in seconds, from the C library.
public enum CPUTime {
    /// This thread's CPU time.
    public static func thread() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) * 1e-9
    }

    /// User CPU time of all waited-for child processes.
    public static func children() -> Double {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_CHILDREN.rawValue), &usage)
        return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) * 1e-6
    }
}

extension Duration {
    public var benchSeconds: Double {
        let (s, attoseconds) = components
        return Double(s) + Double(attoseconds) * 1e-18
    }
}
