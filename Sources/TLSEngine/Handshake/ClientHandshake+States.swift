import TLSCrypto

// What the client's states hold (rustls's `Expect…` values, `rustls/src/client/tls12.rs`): each
// case of ``ClientHandshake/State`` carries the data that state needs and no other, so that "the
// key exchange exists here" or "a session is being resumed here" is a fact of the type rather than
// an optional beside the enum. What every state shares — the randoms, the suite, the transcript,
// the keys — is the one ``ConnectionContext``.
extension ClientHandshake {
    /// `expectServerHello`: what the ClientHello offered, which the ServerHello is checked against
    /// (RFC 5246 §7.4.1.4) and which decides whether the server resumed (§7.3).
    struct ExpectServerHello {
        /// The ClientHello actually sent (a ``DualVersionClient``'s combined one once adopted): a
        /// ServerHello may answer only the extensions it carried.
        var hello: ClientHello
        /// The session ID the ClientHello carried: the session's, or (offering a ticket for a session
        /// without one) a fresh one, so that the server's echo says it resumed (RFC 5077 §3.4).
        var offeredSessionID: [UInt8]
        /// The session offered: the configuration's, unless its ticket expired (RFC 5077 §3.3); nil
        /// when none was, and then only a full handshake can follow.
        var offeredSession: TLSSession?
    }

    /// `expectCertificate`: a full handshake's ServerHello fixed the suite (RFC 5246 §7.4.1.3).
    struct ExpectCertificate {
        /// The suite the ServerHello chose: the certificate's key must fit it (RFC 8422 §5.3,
        /// RFC 5246 §7.4.2), and it says whether a ServerKeyExchange follows (§7.4.3).
        var suite: CipherSuiteParameters
        /// The suite's key exchange, before the server's parameters.
        var keyExchange: any ClientKeyAgreement
    }

    /// `expectServerKeyExchange`, `expectCertificateRequestOrServerHelloDone` and
    /// `expectServerHelloDone`: the key exchange under way and the key of the server's accepted
    /// certificate, which checks the ServerKeyExchange signature (RFC 5246 §7.4.3) and, in RSA key
    /// transport, encrypts the premaster secret (§7.4.7.1).
    struct PendingKeyExchange {
        /// The suite the ServerHello chose: the master secret's keys are cut for it (RFC 5246 §6.3).
        let suite: CipherSuiteParameters
        var keyExchange: any ClientKeyAgreement
        let serverKey: VerificationKey
    }

    /// Which handshake the server's Finished ends (RFC 5246 §7.3, Figures 1 and 2).
    enum Kind {
        /// A new session: it is kept, when it has an ID or a ticket, after the server's Finished.
        /// Our ChangeCipherSpec and Finished already went out.
        case full
        /// The abbreviated handshake, resuming the session the ClientHello offered: our
        /// ChangeCipherSpec follows the server's Finished and switches on `writeKeys`.
        case abbreviated(resuming: TLSSession, writeKeys: PendingProtection)

        var isAbbreviated: Bool { if case .abbreviated = self { true } else { false } }
    }

    /// A non-empty NewSessionTicket (RFC 5077 §3.3), with the driver's clock reading when it
    /// arrived: the start of its lifetime hint.
    struct ReceivedTicket {
        var message: NewSessionTicket
        var receivedAt: SessionTime?
    }

    /// `expectNewSessionTicket`, `expectChangeCipherSpec` and `expectFinished`: the server's
    /// ChangeCipherSpec and Finished are next, ending a full or abbreviated handshake, under the
    /// master secret the key exchange or the resumed session gave (the ChangeCipherSpec states also
    /// carry the server's pending record protection, which its ChangeCipherSpec switches on).
    struct ExpectServerFinished {
        var kind: Kind
        /// The master secret: the server's Finished is checked with it (RFC 5246 §7.4.9).
        let secret: HandshakeSecret
        /// The ticket this handshake's NewSessionTicket carried (RFC 5077 §3.3): nil when the server
        /// sent none, or an empty one ("the server has none to give after all").
        var ticket: ReceivedTicket? = nil
    }
}
