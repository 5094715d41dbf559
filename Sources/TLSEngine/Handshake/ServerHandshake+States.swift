import TLSCrypto

// What the server's states hold (rustls's `Expect…` values, `rustls/src/server/tls12.rs`): each
// case of ``ServerHandshake/State`` carries the data that state needs and no other, so that "the
// key exchange exists here" or "the client's certificate key is known here" is a fact of the type
// rather than an optional beside the enum. What every state shares is the one ``ConnectionContext``.
extension ServerHandshake {
    /// `expectClientCertificate`: our CertificateRequest went out (RFC 5246 §7.4.4).
    struct ExpectClientCertificate {
        /// The key exchange our ServerHello flight started.
        var keyExchange: any KeyExchange
        /// The schemes our CertificateRequest listed (TLS 1.2): a CertificateVerify must use one.
        var requestedSchemes: [SignatureScheme]
    }

    /// `expectClientKeyExchange`: the key exchange waits for the client's half (RFC 5246 §7.4.7).
    struct ExpectClientKeyExchange {
        var keyExchange: any KeyExchange
        /// What checks the client's CertificateVerify, when its Certificate carried a chain we
        /// accepted (RFC 5246 §7.4.8: only then does one follow); nil otherwise.
        var clientCertificate: ExpectCertificateVerify?
    }

    /// `expectCertificateVerify`: the client proves it holds its certificate's key (RFC 5246 §7.4.8).
    struct ExpectCertificateVerify {
        /// The key of the client's accepted certificate.
        let clientKey: VerificationKey
        /// The schemes our CertificateRequest listed (TLS 1.2).
        let requestedSchemes: [SignatureScheme]
    }

    /// How the chosen suite's key exchange runs, with what the choice made sure of (RFC 5246
    /// §7.4.3): DHE a group, ECDHE a curve, and both a scheme to sign their ServerKeyExchange.
    enum KeyExchangePlan {
        /// RSA key transport: no ServerKeyExchange.
        case rsa
        case dhe(DHGroup, signedWith: SignatureScheme)
        case ecdhe(ECDHCurve, signedWith: SignatureScheme)

        /// The scheme the ServerKeyExchange is signed with; nil for RSA, which sends none.
        var signatureScheme: SignatureScheme? {
            switch self {
            case .rsa: nil
            case .dhe(_, let scheme), .ecdhe(_, let scheme): scheme
            }
        }
    }
}
