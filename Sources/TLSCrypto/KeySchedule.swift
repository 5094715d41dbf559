/// The TLS 1.2 key schedule (RFC 5246 §6.3, §7.4.9, §8.1; RFC 7627 §4) over one ``TLSPRF``:
///
///     master_secret = PRF(pre_master_secret, "master secret",
///                         ClientHello.random + ServerHello.random)[0..47]
///     master_secret = PRF(pre_master_secret, "extended master secret",
///                         session_hash)[0..47]                          (RFC 7627)
///     key_block     = PRF(master_secret, "key expansion",
///                         server_random + client_random)
///     verify_data   = PRF(master_secret, finished_label, Hash(handshake_messages))[0..11]
///
/// Watch the order of the randoms: client first for the master secret, server first for the
/// key block.
public struct KeySchedule: Sendable, Hashable {
    /// RFC 5246 §8.1: the master secret is always exactly 48 bytes.
    public static let masterSecretLength = 48
    /// RFC 5246 §7.4.9: verify_data_length is 12 for every cipher suite in RFC 5246.
    public static let verifyDataLength = 12
    /// RFC 5246 §7.4.1.2: each hello random is 32 bytes.
    public static let randomLength = 32

    /// The ASCII labels of RFC 5246 §6.3, §7.4.9, §8.1 and RFC 7627 §4.
    public enum Label {
        public static let masterSecret = "master secret"
        public static let extendedMasterSecret = "extended master secret"
        public static let keyExpansion = "key expansion"
        public static let clientFinished = "client finished"
        public static let serverFinished = "server finished"
    }

    /// Which side sends a Finished message.
    public enum Sender: String, Sendable, Hashable {
        case client
        case server

        /// finished_label (RFC 5246 §7.4.9).
        public var finishedLabel: String {
            self == .client ? Label.clientFinished : Label.serverFinished
        }
    }

    public let prf: TLSPRF

    public init(prf: TLSPRF) {
        self.prf = prf
    }

    /// master_secret from the premaster secret and both hello randoms, client first (RFC 5246 §8.1).
    public func masterSecret(preMasterSecret: [UInt8], clientRandom: [UInt8], serverRandom: [UInt8]) throws(KeyScheduleError) -> [UInt8] {
        try Self.checkRandom(clientRandom)
        try Self.checkRandom(serverRandom)
        return prf.derive(secret: preMasterSecret, label: Label.masterSecret,
                          seed: clientRandom + serverRandom, count: Self.masterSecretLength)
    }

    /// The extended master secret from the session hash: the transcript hash of the handshake from
    /// ClientHello up to and including ClientKeyExchange (RFC 7627 §4).
    public func extendedMasterSecret(preMasterSecret: [UInt8], sessionHash: [UInt8]) -> [UInt8] {
        prf.derive(secret: preMasterSecret, label: Label.extendedMasterSecret,
                   seed: sessionHash, count: Self.masterSecretLength)
    }

    /// `count` bytes of key_block, server random first (RFC 5246 §6.3).
    public func keyBlock(masterSecret: [UInt8], clientRandom: [UInt8], serverRandom: [UInt8], count: Int) throws(KeyScheduleError) -> [UInt8] {
        try Self.checkMasterSecret(masterSecret)
        try Self.checkRandom(clientRandom)
        try Self.checkRandom(serverRandom)
        return prf.derive(secret: masterSecret, label: Label.keyExpansion,
                          seed: serverRandom + clientRandom, count: count)
    }

    /// The key block for a suite's layout, cut into MAC keys, write keys and IVs (RFC 5246 §6.3).
    public func keys(masterSecret: [UInt8], clientRandom: [UInt8], serverRandom: [UInt8], layout: KeyBlockLayout) throws(KeyScheduleError) -> KeyBlock {
        let bytes = try keyBlock(masterSecret: masterSecret, clientRandom: clientRandom,
                                 serverRandom: serverRandom, count: layout.totalLength)
        return try KeyBlock(splitting: bytes, layout: layout)
    }

    /// Finished.verify_data from the transcript hash (RFC 5246 §7.4.9). For TLS 1.0/1.1 the hash
    /// is MD5(handshake_messages) ‖ SHA-1(handshake_messages) (RFC 2246 §7.4.9).
    public func verifyData(masterSecret: [UInt8], sender: Sender, handshakeHash: [UInt8]) throws(KeyScheduleError) -> [UInt8] {
        try Self.checkMasterSecret(masterSecret)
        return prf.derive(secret: masterSecret, label: sender.finishedLabel,
                          seed: handshakeHash, count: Self.verifyDataLength)
    }

    private static func checkRandom(_ random: [UInt8]) throws(KeyScheduleError) {
        guard random.count == randomLength else { throw .invalidRandomLength(random.count) }
    }

    private static func checkMasterSecret(_ secret: [UInt8]) throws(KeyScheduleError) {
        guard secret.count == masterSecretLength else { throw .invalidMasterSecretLength(secret.count) }
    }
}
