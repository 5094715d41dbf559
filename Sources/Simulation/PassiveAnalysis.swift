import TLSCrypto
import Trace

/// What the eavesdropper works out after the run, from the recording alone plus what it gets
/// later (a stolen key) or can guess (a predictable seed). Every "learned" value was computed by
/// actually decrypting or deriving it; a wrong guess would not open the records.
enum PassiveAnalysis {
    /// The recorded ClientKeyExchange decrypted with the stolen server key, then the session opened.
    /// `knownSessions` (session ID → master secret) holds what earlier connections gave up: an
    /// abbreviated handshake resumes one of them and opens with the same master secret.
    static func keyTheft(_ tls: RecordedTLS, key: RSAPrivateKey, knownSessions: [[UInt8]: [UInt8]] = [:]) -> [AttackEvent] {
        guard let suite = tls.suite, tls.clientHello != nil else {
            return [.failed(.noHandshake)]
        }
        guard !tls.clientKeyExchangeBody.isEmpty else {
            if let master = knownSessions[tls.sessionID] {
                let opened = open(tls, master: master, how: .resumedSession)
                if !opened.isEmpty { return opened }
            }
            return [.failed(.noClientKeyExchange)]
        }
        let ciphertext: [UInt8]
        if case .rsa(let c)? = tls.clientKeyExchange { ciphertext = c } else { ciphertext = tls.clientKeyExchangeBody }
        guard let decrypted = try? key.decryptPKCS1v15(ciphertext), decrypted.count == 48 else {
            return [.failed(suite.keyExchange == .rsa ? .notDecrypted : .forwardSecrecy(suite: suite.suite, keyExchange: suite.keyExchange))]
        }
        return [.learned(secret: .preMasterSecret, value: decrypted, how: .premasterDecrypted)]
            + open(tls, preMaster: decrypted, from: .decrypted)
    }

    /// Tries every seed of the weak generator until one reproduces the client_random seen on the
    /// wire, then takes the premaster the same generator produced next.
    static func seedSearch(_ tls: RecordedTLS, weak: WeakRandom, clientHelloTime: Int64) -> [AttackEvent] {
        guard let hello = tls.clientHello else { return [.failed(.noClientHello)] }
        let ms = clientHelloTime / 1_000
        let window = Int64(max(0, weak.clockWindowMilliseconds)), pids = min(max(0, weak.processIDSpace), 1 << 16)
        var tried = 0
        for clock in (ms - window)...(ms + window) {
            for pid in 0..<pids {
                tried += 1
                let seed = WeakRandom.seed(clockMilliseconds: clock, processID: UInt16(truncatingIfNeeded: pid))
                let generator = WeakRandom.generator(seed: seed)
                guard generator.bytes(count: 32) == tls.clientRandom else { continue }
                var events: [AttackEvent] = [.seedSearch(candidates: tried, found: seed)]
                guard tls.suite?.keyExchange == .rsa else {
                    return events + [.failed(.ephemeralFromSeed)]
                }
                let v = hello.clientVersion
                let preMaster = [v.major, v.minor] + generator.bytes(count: 46)
                let opened = open(tls, preMaster: preMaster, from: .regenerated)
                if opened.isEmpty { return events + [.failed(.regeneratedDidNotOpen)] }
                events.append(.learned(secret: .preMasterSecret, value: preMaster, how: .premasterRegenerated(seed: seed)))
                return events + opened
            }
        }
        return [.seedSearch(candidates: tried, found: nil), .failed(.noSeed)]
    }

    /// Opens the recorded records with a premaster; empty when the Finished does not verify.
    /// `from`: how the premaster was obtained.
    static func open(_ tls: RecordedTLS, preMaster: [UInt8], from: SecretSource.Premaster) -> [AttackEvent] {
        guard let master = tls.masterSecret(preMaster: preMaster) else { return [] }
        // RFC 7627: with extended master secret the PRF seed is the session hash of the recorded
        // handshake messages, not the two randoms.
        return open(tls, master: master, how: .masterSecret(from: from, extendedMasterSecret: tls.extendedMasterSecret))
    }

    static func open(_ tls: RecordedTLS, master: [UInt8], how: SecretSource) -> [AttackEvent] {
        guard let opened = tls.open(master: master), opened.finishedVerified else { return [] }
        var events: [AttackEvent] = [
            .learned(secret: .masterSecret, value: opened.masterSecret, how: how),
            .learned(secret: .clientWriteKey, value: opened.keys.clientWriteKey, how: .keyBlock),
            .learned(secret: .serverWriteKey, value: opened.keys.serverWriteKey, how: .keyBlock),
        ]
        let request = opened.clientRecords.filter { $0.0 == .applicationData }.flatMap(\.1)
        let response = opened.serverRecords.filter { $0.0 == .applicationData }.flatMap(\.1)
        if !request.isEmpty {
            events.append(.learned(secret: .httpRequest, value: request, how: .recordedApplicationData))
            if let cookie = HTTPCookieLine.find(in: request) {
                events.append(.learned(secret: .httpCookie, value: cookie, how: .decryptedRequest))
            }
        }
        if !response.isEmpty {
            events.append(.learned(secret: .httpResponse, value: response, how: .recordedApplicationData))
        }
        return events
    }
}
