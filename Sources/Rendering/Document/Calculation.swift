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
        /// TLS 1.3: this side's key_share public value and the (EC)DHE shared secret (RFC 8446 §4.2.8, §7.4).
        case tls13KeyShare = "tls13_key_share"
        /// TLS 1.3 key schedule: HKDF-Extract(salt, IKM) (RFC 8446 §7.1).
        case tls13Extract = "tls13_extract"
        /// TLS 1.3 key schedule: Derive-Secret(Secret, Label, Messages) (RFC 8446 §7.1).
        case tls13DeriveSecret = "tls13_derive_secret"
        /// TLS 1.3 key schedule: HKDF-Expand-Label with a context of its own (the resumption PSK, RFC 8446 §4.6.1).
        case tls13ExpandLabel = "tls13_expand_label"
        /// TLS 1.3: a traffic secret's write key and IV (RFC 8446 §7.3).
        case tls13TrafficKeys = "tls13_traffic_keys"
        /// TLS 1.3: finished_key and a Finished's verify_data (RFC 8446 §4.4.4).
        case tls13Finished = "tls13_finished"
        /// TLS 1.3: the PSK binder, a Finished MAC keyed from binder_key (RFC 8446 §4.2.11.2).
        case tls13PSKBinder = "tls13_psk_binder"
        /// TLS 1.3: what a CertificateVerify signs (RFC 8446 §4.4.3).
        case tls13CertificateVerify = "tls13_certificate_verify"
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
    /// Values the formula's words take (`sender`, `signer`, `algorithm`; TLS 1.3: `group`, `secret`,
    /// `from`, `label`, `salt`, `ikm`, `messages`), as the engine names them.
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

extension TLS13Hash {
    /// The hash's name as FIPS 180-4 writes it: the Hash of HKDF and HMAC (RFC 8446 §7.1).
    var hashName: String {
        switch self {
        case .sha256: "SHA-256"
        case .sha384: "SHA-384"
        }
    }
}
