/// The TLS 1.3 key schedule (RFC 8446 §7.1), one stage at a time:
///
///                  0
///                  |
///        PSK ->  HKDF-Extract = Early Secret
///                  +-----> Derive-Secret(., "ext binder" | "res binder", "") = binder_key
///                  +-----> Derive-Secret(., "c e traffic", ClientHello)
///                  +-----> Derive-Secret(., "e exp master", ClientHello)
///                  v
///            Derive-Secret(., "derived", "")
///                  |
///   (EC)DHE -> HKDF-Extract = Handshake Secret
///                  +-----> Derive-Secret(., "c hs traffic", ClientHello...ServerHello)
///                  +-----> Derive-Secret(., "s hs traffic", ClientHello...ServerHello)
///                  v
///            Derive-Secret(., "derived", "")
///                  |
///        0 -> HKDF-Extract = Master Secret
///                  +-----> Derive-Secret(., "c ap traffic", ClientHello...server Finished)
///                  +-----> Derive-Secret(., "s ap traffic", ClientHello...server Finished)
///                  +-----> Derive-Secret(., "exp master", ClientHello...server Finished)
///                  +-----> Derive-Secret(., "res master", ClientHello...client Finished)
///
/// Each stage is its own type, so a secret cannot be asked for before the one it comes from
/// exists; every stage keeps the `steps` computed so far (inputs, label, transcript point, value)
/// so that a trace can show the schedule rather than only its results.
public enum TLS13KeySchedule {
    /// The early stage: the early secret from the PSK (or zeros).
    public struct Early: Sendable, Hashable {
        public let hash: TLS13Hash
        public let earlySecret: [UInt8]
        public private(set) var steps: [TLS13KeyScheduleStep]

        /// The early secret: HKDF-Extract(0, PSK), with Hash.length zeros for an absent PSK.
        public init(hash: TLS13Hash, preSharedKey: [UInt8]? = nil) {
            self.hash = hash
            let zeros = [UInt8](repeating: 0, count: hash.length)
            earlySecret = hash.extract(salt: zeros, ikm: preSharedKey ?? zeros)
            steps = [TLS13KeyScheduleStep(secret: .earlySecret,
                                          derivation: .extract(salt: nil, ikm: preSharedKey == nil ? .zeros : .preSharedKey),
                                          value: earlySecret, hash: hash, key: zeros, inputKeyingMaterial: preSharedKey ?? zeros)]
        }

        /// binder_key: keys the PSK binder that proves the client holds the PSK (RFC 8446 §4.2.11.2).
        public mutating func binderKey(resumption: Bool) -> [UInt8] {
            let label = TLS13Secret.binderLabel(resumption: resumption)
            let empty = hash.digest([])
            let value = hash.deriveSecret(secret: earlySecret, label: label, transcriptHash: empty)
            steps.append(TLS13KeyScheduleStep(secret: .binderKey,
                                              derivation: .deriveSecret(from: .earlySecret, label: label, through: .empty, transcriptHash: empty),
                                              value: value, hash: hash, key: earlySecret,
                                              hkdfLabel: HKDFLabel(length: hash.length, label: label, context: empty).bytes))
            return value
        }

        /// client_early_traffic_secret: protects 0-RTT data, from the ClientHello's hash alone.
        public mutating func clientEarlyTrafficSecret(clientHelloHash: [UInt8]) -> [UInt8] {
            derive(.clientEarlyTrafficSecret, through: .clientHello, transcriptHash: clientHelloHash)
        }

        /// early_exporter_master_secret.
        public mutating func earlyExporterMasterSecret(clientHelloHash: [UInt8]) -> [UInt8] {
            derive(.earlyExporterMasterSecret, through: .clientHello, transcriptHash: clientHelloHash)
        }

        /// The handshake stage: "derived" from the early secret, then HKDF-Extract with the
        /// (EC)DHE shared secret (zeros for a PSK-only handshake).
        public func handshake(sharedSecret: [UInt8]?) -> Handshake {
            var copy = self
            let derived = copy.derive(.derivedFromEarlySecret, through: .empty, transcriptHash: hash.digest([]))
            let zeros = [UInt8](repeating: 0, count: hash.length)
            let secret = hash.extract(salt: derived, ikm: sharedSecret ?? zeros)
            copy.steps.append(TLS13KeyScheduleStep(secret: .handshakeSecret,
                                                   derivation: .extract(salt: .derivedFromEarlySecret, ikm: sharedSecret == nil ? .zeros : .sharedSecret),
                                                   value: secret, hash: hash, key: derived, inputKeyingMaterial: sharedSecret ?? zeros))
            return Handshake(hash: hash, handshakeSecret: secret, steps: copy.steps)
        }

        private mutating func derive(_ secret: TLS13Secret, through point: TLS13TranscriptPoint, transcriptHash: [UInt8]) -> [UInt8] {
            TLS13KeySchedule.derive(secret, from: .earlySecret, base: earlySecret, hash: hash, through: point,
                                    transcriptHash: transcriptHash, steps: &steps)
        }
    }

    /// The handshake stage: the handshake secret and its traffic secrets.
    public struct Handshake: Sendable, Hashable {
        public let hash: TLS13Hash
        public let handshakeSecret: [UInt8]
        public private(set) var steps: [TLS13KeyScheduleStep]

        /// client_ and server_handshake_traffic_secret, over ClientHello…ServerHello: they protect
        /// everything after the ServerHello, the certificate included.
        public mutating func trafficSecrets(helloHash: [UInt8]) -> (client: [UInt8], server: [UInt8]) {
            let client = derive(.clientHandshakeTrafficSecret, through: .serverHello, transcriptHash: helloHash)
            let server = derive(.serverHandshakeTrafficSecret, through: .serverHello, transcriptHash: helloHash)
            return (client, server)
        }

        /// The master stage: "derived" from the handshake secret, then HKDF-Extract with zeros.
        public func master() -> Master {
            var copy = self
            let derived = copy.derive(.derivedFromHandshakeSecret, through: .empty, transcriptHash: hash.digest([]))
            let zeros = [UInt8](repeating: 0, count: hash.length)
            let secret = hash.extract(salt: derived, ikm: zeros)
            copy.steps.append(TLS13KeyScheduleStep(secret: .masterSecret,
                                                   derivation: .extract(salt: .derivedFromHandshakeSecret, ikm: .zeros),
                                                   value: secret, hash: hash, key: derived, inputKeyingMaterial: zeros))
            return Master(hash: hash, masterSecret: secret, steps: copy.steps)
        }

        private mutating func derive(_ secret: TLS13Secret, through point: TLS13TranscriptPoint, transcriptHash: [UInt8]) -> [UInt8] {
            TLS13KeySchedule.derive(secret, from: .handshakeSecret, base: handshakeSecret, hash: hash, through: point,
                                    transcriptHash: transcriptHash, steps: &steps)
        }
    }

    /// The master stage: the application traffic secrets, the exporter and resumption secrets.
    public struct Master: Sendable, Hashable {
        public let hash: TLS13Hash
        public let masterSecret: [UInt8]
        public private(set) var steps: [TLS13KeyScheduleStep]

        /// client_ and server_application_traffic_secret_0, over ClientHello…server Finished.
        public mutating func applicationTrafficSecrets(serverFinishedHash: [UInt8]) -> (client: [UInt8], server: [UInt8]) {
            let client = derive(.clientApplicationTrafficSecret0, through: .serverFinished, transcriptHash: serverFinishedHash)
            let server = derive(.serverApplicationTrafficSecret0, through: .serverFinished, transcriptHash: serverFinishedHash)
            return (client, server)
        }

        /// exporter_master_secret, over ClientHello…server Finished.
        public mutating func exporterMasterSecret(serverFinishedHash: [UInt8]) -> [UInt8] {
            derive(.exporterMasterSecret, through: .serverFinished, transcriptHash: serverFinishedHash)
        }

        /// resumption_master_secret, over ClientHello…client Finished.
        public mutating func resumptionMasterSecret(clientFinishedHash: [UInt8]) -> [UInt8] {
            derive(.resumptionMasterSecret, through: .clientFinished, transcriptHash: clientFinishedHash)
        }

        /// The PSK of the ticket sent with `ticketNonce` (RFC 8446 §4.6.1), from resumption_master_secret.
        public mutating func resumptionPSK(ticketNonce: [UInt8]) -> [UInt8]? {
            guard let step = resumptionPSKStep(ticketNonce: ticketNonce) else { return nil }
            steps.append(step)
            return step.value
        }

        /// The same PSK as a step of its own, left out of `steps`: a client that receives ticket
        /// after ticket derives each at the same cost, and keeps no list that grows with them.
        public func resumptionPSKStep(ticketNonce: [UInt8]) -> TLS13KeyScheduleStep? {
            guard let base = steps.first(where: { $0.secret == .resumptionMasterSecret })?.value else { return nil }
            let value = hash.resumptionPSK(resumptionMasterSecret: base, ticketNonce: ticketNonce)
            return TLS13KeyScheduleStep(secret: .resumptionPSK,
                                        derivation: .expandLabel(from: .resumptionMasterSecret, label: "resumption", context: ticketNonce),
                                        value: value, hash: hash, key: base,
                                        hkdfLabel: HKDFLabel(length: hash.length, label: "resumption", context: ticketNonce).bytes)
        }

        private mutating func derive(_ secret: TLS13Secret, through point: TLS13TranscriptPoint, transcriptHash: [UInt8]) -> [UInt8] {
            TLS13KeySchedule.derive(secret, from: .masterSecret, base: masterSecret, hash: hash, through: point,
                                    transcriptHash: transcriptHash, steps: &steps)
        }
    }

    static func derive(_ secret: TLS13Secret, from base: TLS13Secret, base value: [UInt8], hash: TLS13Hash,
                       through point: TLS13TranscriptPoint, transcriptHash: [UInt8],
                       steps: inout [TLS13KeyScheduleStep]) -> [UInt8] {
        let label = secret.label ?? secret.rawValue
        let out = hash.deriveSecret(secret: value, label: label, transcriptHash: transcriptHash)
        steps.append(TLS13KeyScheduleStep(secret: secret,
                                          derivation: .deriveSecret(from: base, label: label, through: point, transcriptHash: transcriptHash),
                                          value: out, hash: hash, key: value,
                                          hkdfLabel: HKDFLabel(length: hash.length, label: label, context: transcriptHash).bytes))
        return out
    }
}

/// What a traffic secret expands into for the record layer (RFC 8446 §7.3), and the keys derived
/// from a secret for one purpose.
public struct TLS13TrafficKeys: Sendable, Hashable {
    /// [sender]_write_key = HKDF-Expand-Label(Secret, "key", "", key_length)
    public var key: [UInt8]
    /// [sender]_write_iv = HKDF-Expand-Label(Secret, "iv", "", iv_length): XORed with the record
    /// sequence number to make each record's nonce (§5.3).
    public var iv: [UInt8]

    public init(key: [UInt8], iv: [UInt8]) {
        self.key = key
        self.iv = iv
    }

    /// The write key and IV of `secret` for an AEAD with `keyLength`-byte keys and `ivLength`-byte
    /// nonces (16/12 for AES-128-GCM, 32/12 for AES-256-GCM and ChaCha20-Poly1305).
    public init(secret: [UInt8], hash: TLS13Hash, keyLength: Int, ivLength: Int = 12) {
        key = hash.expandLabel(secret: secret, label: "key", context: [], length: keyLength)
        iv = hash.expandLabel(secret: secret, label: "iv", context: [], length: ivLength)
    }
}

extension TLS13Hash {
    /// finished_key = HKDF-Expand-Label(BaseKey, "finished", "", Hash.length) (RFC 8446 §4.4.4),
    /// BaseKey being the sender's handshake traffic secret.
    public func finishedKey(baseKey: [UInt8]) -> [UInt8] {
        expandLabel(secret: baseKey, label: "finished", context: [], length: length)
    }

    /// verify_data = HMAC(finished_key, Transcript-Hash(Handshake Context, Certificate*,
    /// CertificateVerify*)) (RFC 8446 §4.4.4).
    public func finishedVerifyData(baseKey: [UInt8], transcriptHash: [UInt8]) -> [UInt8] {
        hmac(key: finishedKey(baseKey: baseKey), transcriptHash)
    }

    /// application_traffic_secret_N+1 = HKDF-Expand-Label(application_traffic_secret_N,
    /// "traffic upd", "", Hash.length) (RFC 8446 §7.2): what a KeyUpdate moves to.
    public func nextApplicationTrafficSecret(_ secret: [UInt8]) -> [UInt8] {
        expandLabel(secret: secret, label: "traffic upd", context: [], length: length)
    }

    /// The PSK a NewSessionTicket stands for: HKDF-Expand-Label(resumption_master_secret,
    /// "resumption", ticket_nonce, Hash.length) (RFC 8446 §4.6.1).
    public func resumptionPSK(resumptionMasterSecret: [UInt8], ticketNonce: [UInt8]) -> [UInt8] {
        expandLabel(secret: resumptionMasterSecret, label: "resumption", context: ticketNonce, length: length)
    }
}
