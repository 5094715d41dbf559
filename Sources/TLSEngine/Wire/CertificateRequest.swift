/// RFC 5246 §7.4.4:
/// ```
/// opaque DistinguishedName<1..2^16-1>;
/// struct {
///     ClientCertificateType certificate_types<1..2^8-1>;
///     SignatureAndHashAlgorithm supported_signature_algorithms<2^16-1>;
///     DistinguishedName certificate_authorities<0..2^16-1>;
/// } CertificateRequest;
/// ```
/// supported_signature_algorithms is TLS 1.2 only (nil for TLS 1.0/1.1); it is read as
/// `<2..2^16-2>` of 2-byte entries. Distinguished names are DER, kept opaque.
public struct CertificateRequest: Hashable, Sendable {
    public var certificateTypes: [ClientCertificateType]
    public var supportedSignatureAlgorithms: [SignatureScheme]?
    public var certificateAuthorities: [[UInt8]]

    public init(certificateTypes: [ClientCertificateType] = [.rsaSign],
                supportedSignatureAlgorithms: [SignatureScheme]?,
                certificateAuthorities: [[UInt8]] = []) {
        self.certificateTypes = certificateTypes
        self.supportedSignatureAlgorithms = supportedSignatureAlgorithms
        self.certificateAuthorities = certificateAuthorities
    }

    public func encode(to writer: inout ByteWriter) {
        writer.writeList(certificateTypes, lengthBytes: 1)
        if let algs = supportedSignatureAlgorithms { writer.writeList(algs, lengthBytes: 2) }
        writer.writeVector(lengthBytes: 2) { w in
            for dn in certificateAuthorities { w.writeOpaque(dn, lengthBytes: 2) }
        }
    }

    public init(from reader: inout ByteReader, context: HandshakeDecodingContext) throws(DecodeError) {
        certificateTypes = try reader.readList(of: ClientCertificateType.self, lengthBytes: 1, min: 1, max: 0xff,
                                               elementSize: 1, field: "certificate_types")
        if context.signsWithAlgorithm {
            supportedSignatureAlgorithms = try reader.readList(
                of: SignatureScheme.self, lengthBytes: 2, min: 2, max: 0xfffe, elementSize: 2,
                field: "supported_signature_algorithms")
        } else {
            supportedSignatureAlgorithms = nil
        }
        certificateAuthorities = try reader.readVector(lengthBytes: 2, min: 0, max: 0xffff,
                                                       field: "certificate_authorities") { (list: inout ByteReader) throws(DecodeError) in
            var names: [[UInt8]] = []
            while !list.isAtEnd {
                names.append(try list.readOpaque(lengthBytes: 2, min: 1, max: 0xffff,
                                                 field: "certificate_authorities[\(names.count)]"))
            }
            return names
        }
    }
}
