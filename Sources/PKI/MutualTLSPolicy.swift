/// Server-side client authentication (two-way authentication; RFC 5246 §7.4.4, §7.4.6).
public struct MutualTLSPolicy: Sendable {
    public enum ClientAuthentication: String, Sendable, Hashable, CaseIterable {
        /// No CertificateRequest is sent.
        case none
        /// CertificateRequest sent; an empty answer is accepted.
        case request
        /// CertificateRequest sent; an empty answer aborts with handshake_failure.
        case require
    }

    /// What the server decides.
    public enum Outcome: Sendable, Equatable {
        case accept(authenticatedSubject: String?)
        case reject(CertificateRefusal)
    }

    public var mode: ClientAuthentication
    /// The CAs client certificates must chain to.
    public var clientCAs: [X509Certificate]
    /// When set, the client leaf's subject (the DN text or its CN) must be listed.
    public var subjectWhitelist: [String]?

    public init(mode: ClientAuthentication, clientCAs: [X509Certificate] = [], subjectWhitelist: [String]? = nil) {
        self.mode = mode
        self.clientCAs = clientCAs
        self.subjectWhitelist = subjectWhitelist
    }

    /// Judges the client's Certificate message (`nil` or empty = no certificate) at `time`.
    public func evaluate(clientChain: [X509Certificate]?, time: Int64) -> (outcome: Outcome, reasons: [TrustReason], evaluation: ChainValidationResult?) {
        var reasons: [TrustReason] = []
        guard mode != .none else {
            return (.accept(authenticatedSubject: nil), [.clientAuthenticationOff], nil)
        }
        guard let chain = clientChain, let leaf = chain.first else {
            if mode == .require {
                return (.reject(.noCertificate), [.clientCertificateMissing], nil)
            }
            return (.accept(authenticatedSubject: nil), [.clientCertificateOptionalMissing], nil)
        }
        let store = TrustStore(name: .clientCAs, anchors: clientCAs)
        let validator = ChainValidator(anchors: AnchorSelection(system: store), purpose: .sslClient, time: time)
        let result = validator.validate(chain)
        if let failure = result.firstFailure {
            // The same refusal a client makes of a server's chain (OpenSSL's server answers it with the
            // same alert: tls_process_client_certificate maps verify_result through ssl_verify_alarm_type).
            reasons.append(.clientChainFails(failure))
            return (.reject(CertificateRefusal(failing: failure)), reasons, result)
        }
        reasons.append(.clientChainValid)
        if let whitelist = subjectWhitelist {
            let subject = leaf.subject.description
            let allowed = whitelist.contains(subject) || leaf.subject.commonNames.contains { whitelist.contains($0) }
            guard allowed else {
                reasons.append(.subjectWhitelisted(subject: subject, allowed: false))
                return (.reject(.subjectNotAllowed), reasons, result)
            }
            reasons.append(.subjectWhitelisted(subject: subject, allowed: true))
        }
        return (.accept(authenticatedSubject: leaf.subject.description), reasons, result)
    }
}
