import TLSEngine

/// What an attacker or observer did or worked out.
public enum AttackEvent: Sendable, Hashable {
    /// Where the attacker sits and what it will do.
    case position(AttackPosition)
    /// A byte of a handshake message changed in flight.
    case tampered(message: String, sender: Actor, offset: Int, old: UInt8, new: UInt8)
    /// Suites removed from the ClientHello, and how the message kept its length.
    case strippedSuites(removed: [CipherSuite], kept: [CipherSuite], how: SuiteStripping)
    /// The TLS 1.3 extensions removed from the ClientHello (supported_versions, key_share,
    /// psk_key_exchange_modes), their bytes replaced by a padding extension of `paddingBytes`.
    case strippedTLS13(removed: [ExtensionType], paddingBytes: Int)
    /// A copy of an application-data record sent again as new TCP bytes.
    case replayed(recordBytes: Int, seq: UInt32)
    /// A ChangeCipherSpec record injected toward the server before any key exists, as new TCP bytes at `seq`.
    case injectedChangeCipherSpec(seq: UInt32)
    /// The client's first TLS 1.3 flight with 0-RTT data recorded from the wire: `bytes` bytes in
    /// `records` records (ClientHello, [ChangeCipherSpec], early data).
    case recordedEarlyFlight(bytes: Int, records: Int)
    /// That flight sent to the server again, on a new TCP connection of the attacker's own.
    case replayedEarlyFlight(bytes: Int)
    /// The server's private key reached the eavesdropper.
    case keyStolen(modulusBits: Int)
    /// The seed search of a predictable generator: how many guesses, and the seed if found.
    case seedSearch(candidates: Int, found: UInt64?)
    /// A secret the attacker or eavesdropper obtained, with how (it really computed or decrypted it).
    case learned(secret: Secret, value: [UInt8], how: SecretSource)
    /// An attempt that did not work, and why.
    case failed(AttackFailure)
}
