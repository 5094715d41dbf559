/// RFC 5246 §7.4.2:
/// ```
/// opaque ASN.1Cert<1..2^24-1>;
/// struct { ASN.1Cert certificate_list<0..2^24-1>; } Certificate;
/// ```
/// The sender's certificate first, each following one certifying the one before. The DER bytes
/// are kept opaque here; the PKI layer parses them.
public struct CertificateMessage: TLSCodable, Hashable {
    public var certificateList: [[UInt8]]

    public init(certificateList: [[UInt8]]) { self.certificateList = certificateList }

    public func encode(to writer: inout ByteWriter) {
        writer.writeVector(lengthBytes: 3) { w in
            for cert in certificateList { w.writeOpaque(cert, lengthBytes: 3) }
        }
    }

    public init(from reader: inout ByteReader) throws(DecodeError) {
        certificateList = try reader.readVector(lengthBytes: 3, min: 0, max: 0xff_ffff,
                                                field: "certificate_list") { (list: inout ByteReader) throws(DecodeError) in
            var certs: [[UInt8]] = []
            while !list.isAtEnd {
                certs.append(try list.readOpaque(lengthBytes: 3, min: 1, max: 0xff_ffff,
                                                 field: "certificate_list[\(certs.count)]", as: .certificate))
            }
            return certs
        }
    }
}
