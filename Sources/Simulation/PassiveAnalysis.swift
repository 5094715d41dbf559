import TLSCrypto
import TLSEngine

/// What the eavesdropper works out after the run, from the recording alone plus what it gets
/// later (a stolen key) or can guess (a predictable seed). Every "learned" value was computed by
/// actually decrypting or deriving it; a wrong guess would not open the records.
enum PassiveAnalysis {
    /// The recorded ClientKeyExchange decrypted with the stolen server key, then the session opened.
    /// `knownSessions` (session ID → master secret) holds what earlier connections gave up: an
    /// abbreviated handshake resumes one of them and opens with the same master secret.
    static func keyTheft(_ tls: RecordedTLS, key: RSAPrivateKey, knownSessions: [[UInt8]: [UInt8]] = [:]) -> [AttackEvent] {
        guard let suite = tls.suite, tls.clientHello != nil else {
            return [.failed("no TLS handshake in the recording")]
        }
        guard !tls.clientKeyExchangeBody.isEmpty else {
            if let master = knownSessions[tls.sessionID] {
                let opened = open(tls, master: master, how: "the resumed session's master secret, already recovered from an earlier connection")
                if !opened.isEmpty { return opened }
            }
            return [.failed("the recording holds no ClientKeyExchange (an abbreviated handshake reuses an older master secret the eavesdropper does not have)")]
        }
        let ciphertext: [UInt8]
        if case .rsa(let c)? = tls.clientKeyExchange { ciphertext = c } else { ciphertext = tls.clientKeyExchangeBody }
        guard let decrypted = try? key.decryptPKCS1v15(ciphertext), decrypted.count == 48 else {
            let why = suite.keyExchange == .rsa
                ? "the ClientKeyExchange did not decrypt with the stolen key"
                : "\(suite.suite) uses ephemeral \(suite.keyExchange == .dheRSA ? "DH" : "ECDH") keys: the ClientKeyExchange is the client's public value, not a ciphertext, so the stolen RSA key does not decrypt it (it only signed the ServerKeyExchange). Both private values were erased after the handshake: forward secrecy"
            return [.failed(why)]
        }
        return [.learned(secret: "premaster secret", value: decrypted,
                         how: "decrypted the recorded ClientKeyExchange with the stolen private key")]
            + open(tls, preMaster: decrypted, how: "from the decrypted premaster")
    }

    /// Tries every seed of the weak generator until one reproduces the client_random seen on the
    /// wire, then takes the premaster the same generator produced next.
    static func seedSearch(_ tls: RecordedTLS, weak: WeakRandom, clientHelloTime: Int64) -> [AttackEvent] {
        guard let hello = tls.clientHello else { return [.failed("no ClientHello in the recording")] }
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
                    return events + [.failed("the seed is known, but reproducing an ephemeral (EC)DH key is not modelled here")]
                }
                let v = hello.clientVersion
                let preMaster = [v.major, v.minor] + generator.bytes(count: 46)
                let opened = open(tls, preMaster: preMaster, how: "from the premaster regenerated with the guessed seed")
                if opened.isEmpty { return events + [.failed("the regenerated premaster did not open the records")] }
                events.append(.learned(secret: "premaster secret", value: preMaster,
                                       how: "regenerated: the same generator, seeded \(seed), drew it right after client_random"))
                return events + opened
            }
        }
        return [.seedSearch(candidates: tried, found: nil), .failed("no seed in the searched space reproduces client_random")]
    }

    /// Opens the recorded records with a premaster; empty when the Finished does not verify.
    static func open(_ tls: RecordedTLS, preMaster: [UInt8], how: String) -> [AttackEvent] {
        guard let master = tls.masterSecret(preMaster: preMaster) else { return [] }
        // RFC 7627: with extended master secret the PRF seed is the session hash of the recorded
        // handshake messages, not the two randoms.
        let seed = tls.extendedMasterSecret ? "the session hash of the recorded handshake messages" : "the recorded randoms"
        return open(tls, master: master, how: "PRF over the premaster and \(seed), \(how)")
    }

    static func open(_ tls: RecordedTLS, master: [UInt8], how: String) -> [AttackEvent] {
        guard let opened = tls.open(master: master), opened.finishedVerified else { return [] }
        var events: [AttackEvent] = [
            .learned(secret: "master secret", value: opened.masterSecret, how: how),
            .learned(secret: "client_write_key", value: opened.keys.clientWriteKey, how: "key block expanded from the master secret"),
            .learned(secret: "server_write_key", value: opened.keys.serverWriteKey, how: "key block expanded from the master secret"),
        ]
        let request = opened.clientRecords.filter { $0.0 == .applicationData }.flatMap(\.1)
        let response = opened.serverRecords.filter { $0.0 == .applicationData }.flatMap(\.1)
        if !request.isEmpty {
            events.append(.learned(secret: "HTTP request", value: request, how: "decrypted the recorded application data"))
            if let cookie = cookieLine(request) {
                events.append(.learned(secret: "HTTP cookie", value: cookie, how: "read from the decrypted request"))
            }
        }
        if !response.isEmpty {
            events.append(.learned(secret: "HTTP response", value: response, how: "decrypted the recorded application data"))
        }
        return events
    }

    /// The first `Cookie:` header line of an HTTP message, as bytes.
    static func cookieLine(_ bytes: [UInt8]) -> [UInt8]? {
        let text = String(decoding: bytes, as: UTF8.self)
        return text.split(separator: "\r\n").first { $0.lowercased().hasPrefix("cookie:") }.map { Array($0.utf8) }
    }
}
