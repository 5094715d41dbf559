import TLSCrypto

/// The master secret once it exists (RFC 5246 §8.1: derived from the premaster secret, or the
/// resumed session's, §7.3) and the suite whose keys are cut from it (§6.3). The handshake states
/// after the key exchange carry it: both Finished messages (§7.4.9) and the session kept use it, so
/// "the master secret exists here" is a fact of the state's type.
struct HandshakeSecret {
    let masterSecret: [UInt8]
    let suite: CipherSuiteParameters
}

/// One direction's record protection, cut from the key block (RFC 5246 §6.3), that a
/// ChangeCipherSpec has not yet switched on (§7.1): the state that waits for that ChangeCipherSpec
/// carries it, and the ChangeCipherSpec consumes it.
struct PendingProtection {
    let protector: RecordProtector
    /// The suite it protects with, as the ``TLSEvent/keysActivated(direction:suite:)`` event names it.
    let suite: CipherSuite
}
