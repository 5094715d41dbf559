import TLSCrypto
import TLSEngine
import Trace

/// A calculation of the handshake a learner can redo, as the engine's events carry it: its inputs,
/// the rule (the formula, a catalogue entry with its RFC section, chosen by `kind`) and what comes
/// out, every value whole. Built from the engine's `derived`, `sessionResumed` and `signature` events only: no value
/// here is computed by a renderer.
public struct Calculation: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// pre_master_secret, its PKCS#1 v1.5 block and the block encrypted to the server's RSA key (n, e) (RFC 5246 §7.4.7.1).
        case rsaPremaster = "rsa_premaster"
        /// Finite-field Diffie-Hellman: own public value and Z, the premaster (RFC 5246 §8.1.2).
        case dhShared = "dh_shared"
        /// ECDH: the shared x-coordinate, the premaster (RFC 8422 §5.10).
        case ecdhShared = "ecdh_shared"
        /// master_secret from the premaster and the two randoms (RFC 5246 §8.1).
        case masterSecret = "master_secret"
        /// master_secret from the premaster and the session hash (RFC 7627 §4).
        case extendedMasterSecret = "extended_master_secret"
        /// An abbreviated handshake's master_secret: the resumed session's, from its full handshake (RFC 5246 §7.3, §F.1.4).
        case resumedMasterSecret = "resumed_master_secret"
        /// key_block and its cut into keys and IVs (RFC 5246 §6.3).
        case keyBlock = "key_block"
        /// Finished.verify_data (RFC 5246 §7.4.9).
        case verifyData = "verify_data"
        /// What a ServerKeyExchange signs (RFC 5246 §7.4.3, RFC 8422 §5.4).
        case serverKeyExchangeSignature = "server_key_exchange_signature"
        /// What a CertificateVerify signs (RFC 5246 §7.4.8).
        case certificateVerifySignature = "certificate_verify_signature"
    }

    /// One named value: bytes (shown and copied in hex) or a short ASCII text (a PRF label, a hash
    /// name, a curve), shown and copied in quotes.
    public struct Value: Sendable, Hashable {
        /// The value's name as the RFC spells it (`client_random`, `pre_master_secret`): not translated.
        public var name: String
        public var bytes: [UInt8]
        public var isText: Bool

        public init(_ name: String, _ bytes: [UInt8]) {
            self.name = name
            self.bytes = bytes
            isText = false
        }

        public init(_ name: String, text: String) {
            self.name = name
            bytes = Array(text.utf8)
            isText = true
        }

        /// The text the value is shown and copied as: its bytes in hex, or its text.
        public var shown: String { isText ? String(decoding: bytes, as: UTF8.self) : Hex.string(bytes) }
    }

    public var kind: Kind
    /// Who calculates.
    public var actor: Actor
    public var inputs: [Value]
    public var outputs: [Value]
    /// Values the formula's words take (`params`: ServerECDHParams or ServerDHParams; `signer`; `algorithm`).
    public var words: [String: String] = [:]
}

extension TLSPRF {
    /// The PRF's name as RFC 5246 §5 writes it: P_SHA256, P_SHA384; TLS 1.0/1.1's P_MD5 ⊕ P_SHA-1 (RFC 4346 §5).
    var hashName: String {
        switch self {
        case .tls10: "P_MD5 xor P_SHA-1"
        case .sha256: "P_SHA256"
        case .sha384: "P_SHA384"
        }
    }
}
