import TLSCrypto

/// A certificate hierarchy built from a `PKIHierarchySpec`: root CA → intermediate CA → server leaf,
/// a client CA → client leaf, with the spec's defect built in. Deterministic: the same spec gives
/// the same certificates and keys byte for byte; keys are shared through `PKIKeyCache`.
public struct PKIHierarchy: Sendable {
    /// The client-side identity: chain (leaf first) and its private key.
    public struct ClientIdentity: Sendable {
        public let chain: [X509Certificate]
        public let privateKey: SigningKey
        public var leaf: X509Certificate { chain[0] }
        public var chainDER: [[UInt8]] { chain.map(\.der) }
    }

    public let spec: PKIHierarchySpec
    /// The server's root CA: the trust anchor clients are given.
    public let root: X509Certificate
    public let rootKey: SigningKey
    /// The issuing intermediate CA (CA:FALSE with `.intermediateNotCA`, pathLen 0 with `.pathLenExceeded`).
    public let intermediate: X509Certificate
    public let intermediateKey: SigningKey
    /// `.pathLenExceeded` only: the sub-CA under the intermediate that issues the leaf.
    public let subIntermediate: X509Certificate?
    /// The server leaf as presented (the renewed one for the renewal defects, self-signed for `.selfSignedLeaf`).
    public let leaf: X509Certificate
    /// The server's private key (matches `leaf`).
    public let serverKey: SigningKey
    /// Renewal defects only: the leaf before renewal (identical to the `.none` hierarchy's leaf of the same seed).
    public let originalLeaf: X509Certificate?
    /// What the server sends in its Certificate message, leaf first.
    public let serverChain: [X509Certificate]
    /// The anchors a client of this server should trust: the root.
    public let roots: [X509Certificate]
    /// The client CA (a separate root) that a mutual-TLS server trusts.
    public let clientRoot: X509Certificate
    /// A client certificate (EKU clientAuth) issued by `clientRoot`, with its key.
    public let client: ClientIdentity

    /// The simulated time the hierarchy is meant for.
    public var now: Int64 { spec.now }
    /// `serverChain` as DER, ready for a TLS Certificate message.
    public var serverChainDER: [[UInt8]] { serverChain.map(\.der) }
    /// A trust store holding `roots` (the simulated system roots of a client).
    public var systemStore: TrustStore { TrustStore.system(roots) }
    /// Anchors for a client that trusts `roots`.
    public var anchors: AnchorSelection { AnchorSelection(system: systemStore) }
    /// Every certificate with a file-friendly label (root, intermediate, …), for export.
    public var labelledCertificates: [(label: String, certificate: X509Certificate)] {
        var all: [(String, X509Certificate)] = [("root", root), ("intermediate", intermediate)]
        if let subIntermediate { all.append(("sub-intermediate", subIntermediate)) }
        all.append(("leaf", leaf))
        if let originalLeaf { all.append(("original-leaf", originalLeaf)) }
        all += [("client-root", clientRoot), ("client", client.leaf)]
        return all
    }

    /// PEM files to hand to OpenSSL or to write next to a scenario: `<label>.pem` for every
    /// certificate, `server-chain.pem` (leaf first), `server.key` and `client.key` (PKCS#8).
    /// These are simulation keys, derived from the public seed: never use them for anything real.
    public var pemFiles: [(name: String, contents: String)] {
        labelledCertificates.map { ("\($0.label).pem", $0.certificate.pem) }
            + [("server-chain.pem", serverChain.map(\.pem).joined(separator: "\n")), ("server.key", serverKey.pem), ("client.key", client.privateKey.pem)]
    }

    /// Builds the hierarchy. Throws only for unusable specs (key sizes RSA cannot generate, empty names,
    /// an RSA-only defect — `.rsa1024Leaf`, `.sha1Signature` — with an EC key where it applies).
    public init(_ spec: PKIHierarchySpec) throws(PKIError) {
        self.spec = spec
        let seed = spec.seed
        let bits = spec.keyBits
        let day: Int64 = 86_400
        let now = spec.now
        let kinds = spec.keyKinds
        func key(_ label: String, _ kind: PKIKeyKind, _ size: Int = bits) throws(PKIError) -> SigningKey {
            try PKIKeyCache.signingKey(seed: seed, label: label, kind: kind, bits: size)
        }
        if spec.defect == .rsa1024Leaf, kinds.leaf != .rsa {
            throw .unsupportedKey(.weakRSALeafNeedsRSA(leaf: kinds.leaf))
        }
        if spec.defect == .sha1Signature, kinds.intermediate != .rsa {
            throw .unsupportedKey(.sha1SignatureNeedsRSAIssuer(intermediate: kinds.intermediate))
        }
        func serial(_ label: String) -> [UInt8] {
            var bytes = Array(HashAlgorithm.sha256.digest(Array("TLSLab serial|\(seed)|\(label)".utf8)).prefix(16))
            bytes[0] = (bytes[0] & 0x7F) | 0x01   // positive, 16 octets, never a leading zero
            return bytes
        }
        func name(_ cn: String) -> [CertificateTemplate.NameAttribute] { [.organization(spec.organization), .commonName(cn)] }
        let caUsage: Set<CertificateTemplate.KeyUsageBit> = [.keyCertSign, .cRLSign]
        // RSA leaves may encrypt the premaster (keyEncipherment); an EC key only signs here, and RFC 5480 §3
        // forbids keyEncipherment for id-ecPublicKey.
        let serverUsage: Set<CertificateTemplate.KeyUsageBit> = kinds.leaf == .rsa ? [.digitalSignature, .keyEncipherment] : [.digitalSignature]

        // Root and intermediate.
        let rootKey = try key("root", kinds.root)
        let root = try CertificateBuilder.selfSigned(
            CertificateTemplate(serialNumber: serial("root"), subject: name(spec.rootName), notBefore: now - 365 * day,
                                notAfter: now + 3650 * day, basicConstraints: .init(isCA: true), keyUsage: caUsage), key: rootKey)
        let intermediateKey = try key("intermediate", kinds.intermediate)
        let intermediateConstraints: CertificateTemplate.BasicConstraints = switch spec.defect {
            case .intermediateNotCA: .init(isCA: false)
            default: .init(isCA: true, pathLength: 0)
        }
        let intermediate = try CertificateBuilder.build(
            CertificateTemplate(serialNumber: serial("intermediate"), subject: name(spec.intermediateName), notBefore: now - 180 * day,
                                notAfter: now + 1825 * day, basicConstraints: intermediateConstraints, keyUsage: caUsage),
            subjectKey: intermediateKey.publicKey, issuer: root, issuerKey: rootKey)

        // The leaf's issuer (a sub-CA under a pathLen-0 intermediate for `.pathLenExceeded`).
        var issuer = intermediate
        var issuerKey = intermediateKey
        var subIntermediate: X509Certificate?
        if spec.defect == .pathLenExceeded {
            let subKey = try key("sub-intermediate", kinds.intermediate)
            let sub = try CertificateBuilder.build(
                CertificateTemplate(serialNumber: serial("sub-intermediate"), subject: name(spec.intermediateName + " 2"),
                                    notBefore: now - 90 * day, notAfter: now + 1000 * day,
                                    basicConstraints: .init(isCA: true, pathLength: 0), keyUsage: caUsage),
                subjectKey: subKey.publicKey, issuer: intermediate, issuerKey: intermediateKey)
            subIntermediate = sub
            issuer = sub
            issuerKey = subKey
        }

        // The server leaf.
        func leafTemplate(_ label: String, from: Int64, until: Int64) -> CertificateTemplate {
            var template = CertificateTemplate(serialNumber: serial(label), subject: name(spec.primaryHost),
                                               notBefore: now + from, notAfter: now + until,
                                               basicConstraints: .init(isCA: false), keyUsage: serverUsage,
                                               extendedKeyUsage: [CertificateExtensions.serverAuth])
            template.addSubjectAltNames(spec.serverHosts)
            return template
        }
        let normalLeafKey = try key("leaf", kinds.leaf)
        var template = leafTemplate("leaf", from: spec.leafValidFrom, until: spec.leafValidUntil)
        var leafKey = normalLeafKey
        var signingKey = issuerKey
        var originalLeaf: X509Certificate?
        var selfSigned = false
        switch spec.defect {
        case .none, .missingIntermediate, .intermediateNotCA, .pathLenExceeded:
            break
        case .expired:
            template.notBefore = now - 400 * day
            template.notAfter = now - 35 * day
        case .notYetValid:
            template.notBefore = now + 30 * day
            template.notAfter = now + 400 * day
        case .wrongHost:
            template.subject = name(spec.wrongHostName)
            template.dnsNames = []
            template.ipAddresses = []
            template.addSubjectAltNames([spec.wrongHostName])
        case .sha1Signature:
            template.signatureHash = .sha1
        case .rsa1024Leaf:
            leafKey = try key("leaf", .rsa, 1024)
        case .wrongIssuer:
            signingKey = try key("rogue-ca", kinds.intermediate)
        case .clientAuthOnlyEKU:
            template.extendedKeyUsage = [CertificateExtensions.clientAuth]
        case .selfSignedLeaf:
            selfSigned = true
        case .renewedSameKey, .renewedNewKey:
            originalLeaf = try CertificateBuilder.build(template, subjectKey: normalLeafKey.publicKey, issuer: issuer, issuerKey: issuerKey)
            template = leafTemplate("leaf-renewed", from: -1 * day, until: 730 * day)
            if spec.defect == .renewedNewKey { leafKey = try key("leaf-renewed", kinds.leaf) }
        }
        let leaf: X509Certificate
        if selfSigned {
            leaf = try CertificateBuilder.selfSigned(template, key: leafKey)
        } else {
            leaf = try CertificateBuilder.build(template, subjectKey: leafKey.publicKey, issuer: issuer, issuerKey: signingKey)
        }

        // Client CA and client certificate.
        let clientRootKey = try key("client-root", kinds.clientRoot)
        let clientRoot = try CertificateBuilder.selfSigned(
            CertificateTemplate(serialNumber: serial("client-root"), subject: name(spec.clientCAName), notBefore: now - 365 * day,
                                notAfter: now + 3650 * day, basicConstraints: .init(isCA: true), keyUsage: caUsage), key: clientRootKey)
        let clientKey = try key("client", kinds.client)
        let clientLeaf = try CertificateBuilder.build(
            CertificateTemplate(serialNumber: serial("client"), subject: name(spec.clientName), notBefore: now - 30 * day,
                                notAfter: now + 365 * day, basicConstraints: .init(isCA: false), keyUsage: [.digitalSignature],
                                extendedKeyUsage: [CertificateExtensions.clientAuth]),
            subjectKey: clientKey.publicKey, issuer: clientRoot, issuerKey: clientRootKey)

        self.root = root
        self.rootKey = rootKey
        self.intermediate = intermediate
        self.intermediateKey = intermediateKey
        self.subIntermediate = subIntermediate
        self.leaf = leaf
        self.serverKey = leafKey
        self.originalLeaf = originalLeaf
        switch spec.defect {
        case .missingIntermediate, .selfSignedLeaf: serverChain = [leaf]
        case .pathLenExceeded: serverChain = [leaf] + (subIntermediate.map { [$0] } ?? []) + [intermediate]
        default: serverChain = [leaf, intermediate]
        }
        roots = [root]
        self.clientRoot = clientRoot
        client = ClientIdentity(chain: [clientLeaf], privateKey: clientKey)
    }

    /// A `ServerTrust` for what this server presents, as seen by a client trusting `roots` at `now` that asked for `host` (default: the primary host).
    public func serverTrust(anchors: AnchorSelection? = nil, host: String? = nil) -> ServerTrust {
        ServerTrust(presented: serverChain, anchors: anchors ?? self.anchors, time: now, host: host ?? spec.primaryHost)
    }

    /// The `ChainValidator` verdict for a client that trusts `roots`, connecting to `host` (default: the primary host).
    public func validateServerChain(host: String? = nil) -> ChainValidationResult {
        ChainValidator(anchors: anchors, purpose: .sslServer(host: host ?? spec.primaryHost), time: now).validate(serverChain)
    }
}
