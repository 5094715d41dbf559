import TLSCrypto

/// A Finished MAC as computed, with every value it came from (RFC 8446 §4.4.4):
///
///     finished_key = HKDF-Expand-Label(BaseKey, "finished", "", Hash.length)
///     verify_data  = HMAC(finished_key, Transcript-Hash(Handshake Context, Certificate*, CertificateVerify*))
///
/// BaseKey is the sender's handshake traffic secret; a PSK binder is the same computation with
/// binder_key over the transcript up to the ClientHello without its binders (§4.2.11.2).
public struct TLS13FinishedMAC: Sendable, Hashable {
    public var hash: TLS13Hash
    /// Which secret BaseKey is: client_ or server_handshake_traffic_secret (the Finished's sender), or binder_key.
    public var baseKey: TLS13Secret
    public var baseKeyValue: [UInt8]
    public var finishedKey: [UInt8]
    public var transcriptHash: [UInt8]
    /// The Finished's verify_data, or the binder.
    public var verifyData: [UInt8]

    public init(hash: TLS13Hash, baseKey: TLS13Secret, baseKeyValue: [UInt8], transcriptHash: [UInt8]) {
        self.hash = hash
        self.baseKey = baseKey
        self.baseKeyValue = baseKeyValue
        self.transcriptHash = transcriptHash
        finishedKey = hash.finishedKey(baseKey: baseKeyValue)
        verifyData = hash.hmac(key: finishedKey, transcriptHash)
    }
}
