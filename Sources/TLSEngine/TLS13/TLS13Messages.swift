/// The handshake message bodies whose TLS 1.3 shape differs from TLS 1.2's (RFC 8446 §4.3–§4.4).
/// ClientHello, ServerHello (and HelloRetryRequest), CertificateVerify and Finished keep TLS 1.2's
/// wire shape and use the same types.

/// EncryptedExtensions (RFC 8446 §4.3.1): `struct { Extension extensions<0..2^16-1>; }`. The
/// server's answers that do not shape the key exchange (ALPN, server_name, supported_groups…)
/// travel here, after the handshake keys exist, rather than in the ServerHello an eavesdropper
/// reads.
public struct EncryptedExtensions: TLSCodable, Hashable {
    public var extensions: [TLSExtension]

    public init(extensions: [TLSExtension]) { self.extensions = extensions }

    public func encode(to writer: inout ByteWriter) {
        writer.writeList(extensions, lengthBytes: 2)
    }

    public init(from reader: inout ByteReader) throws(DecodeError) {
        extensions = try TLSExtension.decodeBlock(from: &reader) ?? []
    }
}

/// Certificate in TLS 1.3 (RFC 8446 §4.4.2):
///
///     struct { opaque cert_data<1..2^24-1>; Extension extensions<0..2^16-1>; } CertificateEntry;
///     struct { opaque certificate_request_context<0..2^8-1>;
///              CertificateEntry certificate_list<0..2^24-1>; } Certificate;
///
/// Each certificate carries its own extensions (an OCSP response, an SCT), and a client's
/// Certificate echoes the context of the CertificateRequest it answers (empty in the handshake).
public struct TLS13CertificateMessage: TLSCodable, Hashable {
    public struct Entry: Hashable, Sendable {
        public var certificate: [UInt8]
        public var extensions: [TLSExtension]

        public init(certificate: [UInt8], extensions: [TLSExtension] = []) {
            self.certificate = certificate
            self.extensions = extensions
        }
    }

    public var requestContext: [UInt8]
    public var entries: [Entry]

    public init(requestContext: [UInt8] = [], entries: [Entry]) {
        self.requestContext = requestContext
        self.entries = entries
    }

    /// The DER certificates, the sender's first.
    public var certificateList: [[UInt8]] { entries.map(\.certificate) }

    public func encode(to writer: inout ByteWriter) {
        writer.writeOpaque(requestContext, lengthBytes: 1)
        writer.writeVector(lengthBytes: 3) { w in
            for entry in entries {
                w.writeOpaque(entry.certificate, lengthBytes: 3)
                w.writeList(entry.extensions, lengthBytes: 2)
            }
        }
    }

    public init(from reader: inout ByteReader) throws(DecodeError) {
        requestContext = try reader.readOpaque(lengthBytes: 1, min: 0, max: 0xff, field: "certificate_request_context", as: .hex)
        entries = try reader.readVector(lengthBytes: 3, min: 0, max: 0xff_ffff,
                                        field: "certificate_list") { (list: inout ByteReader) throws(DecodeError) in
            var entries: [Entry] = []
            while !list.isAtEnd {
                let name = "certificate_list[\(entries.count)]"
                // When dissecting, each CertificateEntry is one structure: its certificate, then its extensions.
                entries.append(try list.readStructure(name, pushPath: false) { (entry: inout ByteReader) throws(DecodeError) in
                    let cert = try entry.readOpaque(lengthBytes: 3, min: 1, max: 0xff_ffff, field: name + ".cert_data", as: .certificate)
                    return Entry(certificate: cert, extensions: try TLSExtension.decodeBlock(from: &entry) ?? [])
                })
            }
            return entries
        }
    }
}

/// CertificateRequest in TLS 1.3 (RFC 8446 §4.3.2), sent inside the server's encrypted flight:
///
///     struct { opaque certificate_request_context<0..2^8-1>;
///              Extension extensions<2..2^16-1>; } CertificateRequest;
///
/// The context (empty in the handshake) is echoed in the client's Certificate; signature_algorithms
/// must be among the extensions: the schemes the server accepts in the client's CertificateVerify.
public struct TLS13CertificateRequest: TLSCodable, Hashable {
    public var context: [UInt8]
    public var extensions: [TLSExtension]

    public init(context: [UInt8] = [], extensions: [TLSExtension]) {
        self.context = context
        self.extensions = extensions
    }

    /// The schemes of its signature_algorithms extension (nil: it has none, which §4.3.2 forbids).
    public var signatureSchemes: [SignatureScheme]? {
        if case .signatureAlgorithms(let schemes)? = extensions.first(ofType: .signatureAlgorithms) { return schemes }
        return nil
    }

    public func encode(to writer: inout ByteWriter) {
        writer.writeOpaque(context, lengthBytes: 1)
        writer.writeList(extensions, lengthBytes: 2)
    }

    public init(from reader: inout ByteReader) throws(DecodeError) {
        context = try reader.readOpaque(lengthBytes: 1, min: 0, max: 0xff, field: "certificate_request_context", as: .hex)
        extensions = try TLSExtension.decodeBlock(from: &reader) ?? []
    }
}

/// What a TLS 1.3 CertificateVerify signs (RFC 8446 §4.4.3): 64 bytes of 0x20, a context string
/// naming the signer's role, one 0 byte, then the transcript hash up to the Certificate.
///
/// - The 64 spaces fill a whole hash block before anything the peer chose, so a TLS 1.2 signature
///   (which starts with the peer's random) can never be replayed as a TLS 1.3 one.
/// - The context string separates the server's signature from a client's: neither can be
///   reflected back as the other.
/// - The transcript hash binds the signature to this handshake: the key share, the randoms, the
///   certificate — the forward-secret exchange is signed, which TLS 1.2's RSA key transport never
///   was.
public enum TLS13CertificateVerifyContent {
    public static let serverContext = "TLS 1.3, server CertificateVerify"
    public static let clientContext = "TLS 1.3, client CertificateVerify"

    /// The bytes the `signer` signs over `transcriptHash`.
    public static func signedContent(signer: TLSRole, transcriptHash: [UInt8]) -> [UInt8] {
        let context = signer == .server ? serverContext : clientContext
        return [UInt8](repeating: 0x20, count: 64) + Array(context.utf8) + [0x00] + transcriptHash
    }

    /// The parts of signed `content` (RFC 8446 §4.4.3): the 64 bytes of 0x20, the context string
    /// (which names the signer), the 0 separator and the transcript hash; nil for bytes of another form.
    public static func parts(of content: [UInt8]) -> (padding: [UInt8], signer: TLSRole, context: String, transcriptHash: [UInt8])? {
        let padding = [UInt8](repeating: 0x20, count: 64)
        for (signer, context) in [(TLSRole.server, serverContext), (.client, clientContext)] {
            let prefix = padding + Array(context.utf8) + [0x00]
            if content.count > prefix.count, content.starts(with: prefix) {
                return (padding, signer, context, Array(content.dropFirst(prefix.count)))
            }
        }
        return nil
    }
}
