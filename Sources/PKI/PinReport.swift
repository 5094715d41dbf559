/// One line-group of `tlslab pin FILE...`: who the certificate is and its two pins.
public struct PinReport: Sendable, Hashable {
    public let source: String
    /// Position of the certificate inside its file (0-based).
    public let index: Int
    public let subject: String
    public let issuer: String
    public let certificatePin: String
    public let publicKeyPin: String

    /// Reports for every certificate of a PEM bundle or a DER file; anything else is
    /// `PKIError.notACertificate` naming `source`.
    public static func reports(for data: [UInt8], source: String) throws(PKIError) -> [PinReport] {
        let certificates = try X509Certificate.parseAll(data, source: source)
        return certificates.enumerated().map { index, cert in
            PinReport(source: source, index: index, subject: cert.subject.description, issuer: cert.issuer.description,
                      certificatePin: Pins.certificatePin(cert), publicKeyPin: Pins.publicKeyPin(cert))
        }
    }

    // The words around these values ("subject:", "public-key pin:") are the catalogue's: `tlslab pin`
    // prints them (`cli.pin.*`), in the chosen language.
}
