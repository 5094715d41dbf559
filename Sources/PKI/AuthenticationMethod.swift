/// The NSURLSession authentication-challenge layer : which method the challenge is,
/// what the delegate answers, and whether the handshake then continues.
public enum AuthenticationMethod: String, Sendable, Hashable, CaseIterable {
    /// `NSURLAuthenticationMethodServerTrust`: the server's certificate chain is to be judged.
    case serverTrust
    /// `NSURLAuthenticationMethodClientCertificate`: the server asked for a client certificate.
    case clientCertificate
}
