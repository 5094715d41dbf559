/// Whether a server asks for a client certificate (RFC 5246 §7.4.4).
public enum ClientAuthentication: String, Sendable, Hashable {
    /// No CertificateRequest.
    case none
    /// CertificateRequest; an empty client Certificate is accepted.
    case request
    /// CertificateRequest; an empty client Certificate is a handshake_failure (RFC 5246 §7.4.6).
    case require
}
