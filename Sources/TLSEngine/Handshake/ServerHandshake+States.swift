import TLSCrypto

// What the server's states hold (rustls's `Expect…` values, `rustls/src/server/tls12.rs`): each
// case of ``ServerHandshake/State`` carries the data that state needs and no other, so that "the
// key exchange exists here" or "the client's certificate key is known here" is a fact of the type
// rather than an optional beside the enum. What every state shares is the one ``ConnectionContext``.
extension ServerHandshake {
    /// `expectClientCertificate`: our CertificateRequest went out (RFC 5246 §7.4.4).
    struct ExpectClientCertificate {
        /// The suite our ServerHello chose: the master secret's keys are cut for it (RFC 5246 §6.3).
        let suite: CipherSuiteParameters
        /// The key exchange our ServerHello flight started.
        var keyExchange: any ServerKeyAgreement
        /// The schemes our CertificateRequest listed (TLS 1.2): a CertificateVerify must use one.
        var requestedSchemes: [SignatureScheme]
    }

    /// `expectClientKeyExchange`: the key exchange waits for the client's half (RFC 5246 §7.4.7).
    struct ExpectClientKeyExchange {
        let suite: CipherSuiteParameters
        var keyExchange: any ServerKeyAgreement
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

    /// Which handshake the client's Finished ends (RFC 5246 §7.3, Figures 1 and 2).
    enum Kind {
        /// A new session: our ChangeCipherSpec, switching on `writeKeys`, and our Finished follow
        /// the client's Finished.
        case full(writeKeys: PendingProtection)
        /// The abbreviated handshake: our ChangeCipherSpec and Finished went first.
        case abbreviated

        var isAbbreviated: Bool { if case .abbreviated = self { true } else { false } }
    }

    /// `expectChangeCipherSpec` and `expectFinished` (and what `expectCertificateVerify` goes on to):
    /// the client's ChangeCipherSpec and Finished are next, under the master secret the key exchange
    /// or the resumed session gave (the states before the ChangeCipherSpec also carry the client's
    /// pending record protection, which its ChangeCipherSpec switches on).
    struct ExpectClientFinished {
        var kind: Kind
        /// The master secret: the client's Finished is checked with it (RFC 5246 §7.4.9).
        let secret: HandshakeSecret
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
