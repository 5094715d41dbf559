import PKI
import TLSCrypto

/// The certificates and keys a run used, for `tlslab export --pki` and for anyone who wants to
/// check them with OpenSSL: the chain the server sends (leaf first) and its key, the root CAs of
/// the run's PKI (whether or not the client trusts them), and the client's identity when it has one.
public struct PKIMaterial: Sendable {
    public var serverChain: [X509Certificate]
    public var serverKey: SigningKey?
    public var roots: [X509Certificate]
    public var clientChain: [X509Certificate]
    public var clientKey: SigningKey?

    public init(serverChain: [X509Certificate], serverKey: SigningKey?, roots: [X509Certificate],
                clientChain: [X509Certificate] = [], clientKey: SigningKey? = nil) {
        self.serverChain = serverChain
        self.serverKey = serverKey
        self.roots = roots
        self.clientChain = clientChain
        self.clientKey = clientKey
    }

    /// File name → PEM text, as `export --pki DIR` writes them; `secret` marks a private key (written 0600).
    public var pemFiles: [(name: String, text: String, secret: Bool)] {
        var files: [(String, String, Bool)] = []
        if !serverChain.isEmpty { files.append(("server-chain.pem", serverChain.map(\.pem).joined(separator: "\n") + "\n", false)) }
        if let serverKey { files.append(("server-key.pem", serverKey.pem + "\n", true)) }
        if !roots.isEmpty { files.append(("roots.pem", roots.map(\.pem).joined(separator: "\n") + "\n", false)) }
        if !clientChain.isEmpty { files.append(("client-chain.pem", clientChain.map(\.pem).joined(separator: "\n") + "\n", false)) }
        if let clientKey { files.append(("client-key.pem", clientKey.pem + "\n", true)) }
        return files
    }
}
