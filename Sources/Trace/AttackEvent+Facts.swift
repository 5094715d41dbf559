import TCPSim
import TLSEngine

/// Where an attacker sits, as facts; the catalogue words them (`position.*`).
public enum AttackPosition: Sendable, Hashable {
    /// The client's connection ends at the attacker's `address`, which opens its own connection to
    /// the real server and relays; `host` is the server name the client asked for (nil: it sent none).
    case manInTheMiddle(host: String?, address: IPv4Address)
    /// On the path between client and server: it can change, drop or add segments.
    case onPath
}

/// How an attacker or the eavesdropper obtained a secret: what it really computed or decrypted.
/// The catalogue words each (`how.*`).
public enum SecretSource: Sendable, Hashable {
    /// How the premaster behind a master secret was obtained.
    public enum Premaster: Sendable, Hashable { case decrypted, regenerated }

    /// The stolen private key decrypted the recorded ClientKeyExchange (RFC 5246 §7.4.7.1).
    case premasterDecrypted
    /// The predictable generator, seeded `seed`, drew it right after client_random.
    case premasterRegenerated(seed: UInt64)
    /// The PRF over that premaster and the recorded randoms (RFC 5246 §8.1), or, with extended
    /// master secret, the session hash of the recorded handshake messages (RFC 7627 §4).
    case masterSecret(from: Premaster, extendedMasterSecret: Bool)
    /// The resumed session's master secret, already recovered from an earlier connection.
    case resumedSession
    /// The key block expanded from the master secret (RFC 5246 §6.3).
    case keyBlock
    /// The recorded application data, decrypted.
    case recordedApplicationData
    /// Read from the decrypted request.
    case decryptedRequest
    /// A relaying attacker's: decrypted with the keys it shares with the client.
    case relayedAndDecrypted
    /// A relaying attacker's: read as it passed, plain HTTP having no encryption.
    case relayedInPlaintext
    /// A relaying attacker's: read from the request it relayed.
    case relayedRequest
}

/// Why an attack did not work, as facts; the catalogue words each (`failed.*`).
public enum AttackFailure: Sendable, Hashable {
    /// No TLS handshake in the recording.
    case noHandshake
    /// No ClientHello in the recording.
    case noClientHello
    /// No ClientKeyExchange (an abbreviated handshake reused an older master secret the
    /// eavesdropper does not have).
    case noClientKeyExchange
    /// The ClientKeyExchange did not decrypt with the stolen key.
    case notDecrypted
    /// `suite` uses ephemeral (EC)DH keys (`keyExchange`): the ClientKeyExchange is a public value,
    /// not a ciphertext.
    case forwardSecrecy(suite: CipherSuite, keyExchange: KeyExchangeAlgorithm)
    /// TLS 1.3: nothing was encrypted to the stolen key (RFC 8446 §1.2, §E.1).
    case tls13ForwardSecrecy
    /// The seed is known, but reproducing an ephemeral (EC)DH key is not modelled.
    case ephemeralFromSeed
    /// The regenerated premaster did not open the records.
    case regeneratedDidNotOpen
    /// No seed in the searched space reproduces client_random.
    case noSeed
}
