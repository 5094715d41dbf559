/// The sentences of TLS 1.3 client authentication (RFC 8446 §4.3.2, §4.4.2, §4.4.3): the
/// CertificateRequest inside the server's encrypted flight, the client's Certificate and its
/// CertificateVerify with the client context string.
extension Explanations {
    static let englishTLS13ClientAuth: [String: String] = [
        "run.summary.tls13-client-auth": "TLS 1.3 with a client certificate: CertificateRequest inside the server's encrypted flight; the client answers with Certificate, CertificateVerify (\"TLS 1.3, client CertificateVerify\") and Finished",
        "tls13.CertificateRequest": "CertificateRequest (RFC 8446 §4.3.2): the {sender} asks the {receiver} for a certificate. It travels after EncryptedExtensions, under the server handshake traffic key, so an eavesdropper does not learn that the server asked; in TLS 1.2 it was in the clear. certificate_request_context is empty during the handshake (the client echoes it in its Certificate), and the signature_algorithms extension, which must be present, lists the schemes the {sender} accepts in the client's CertificateVerify.",
        "tls13.Certificate.client": "Certificate (RFC 8446 §4.4.2), from the {sender}: its certificate chain, leaf first, with the request's certificate_request_context echoed, sent after the server's Finished under the client handshake traffic key — encrypted, unlike TLS 1.2's. The {receiver} checks the signatures up to a client CA it accepts, the validity dates, and that the key may be used for client authentication; an empty list, when the {receiver} requires a certificate, ends the handshake with certificate_required (§4.4.2.4).",
        "tls13.CertificateVerify.client": "CertificateVerify (RFC 8446 §4.4.3), from the {sender}: it signs, with the private key of its certificate, 64 spaces (0x20), the context string \"{context}\", a zero byte and the transcript hash up to its own Certificate — a transcript that holds the server's whole flight, its Finished included. The context string differs from the server's, so a server's signature can never pass for a client's, nor the other way round; the {receiver} checks it with the public key of the certificate it just accepted.",
        "tls13.line.certificateRequested": "{actor}: CertificateRequest with certificate_request_context {context} and signature_algorithms {schemes}",
        "walk.tls13.certificateRequested": "The server asks the client for a certificate, inside its encrypted flight; the client will answer after the server's Finished (RFC 8446 §4.3.2).",
    ]
}
