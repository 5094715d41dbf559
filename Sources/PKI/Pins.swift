import Crypto

/// Certificate and public-key pins as the seeds compute them with
/// `openssl dgst -sha256 -binary | openssl enc -base64` (seed 001; ATS's SPKI-SHA256-BASE64).
public enum Pins {
    /// base64(SHA-256(certificate DER)).
    public static func certificatePin(_ certificate: X509Certificate) -> String {
        base64(Array(SHA256.hash(data: certificate.der)))
    }

    /// base64(SHA-256(SubjectPublicKeyInfo DER)).
    public static func publicKeyPin(_ certificate: X509Certificate) -> String {
        base64(Array(SHA256.hash(data: certificate.publicKey.der)))
    }

    /// RFC 4648 §4 base64 with padding.
    public static func base64(_ bytes: [UInt8]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
        var out = ""
        var index = 0
        while index < bytes.count {
            let chunk = Array(bytes[index..<min(index + 3, bytes.count)])
            let value = (UInt32(chunk[0]) << 16) | (UInt32(chunk.count > 1 ? chunk[1] : 0) << 8) | UInt32(chunk.count > 2 ? chunk[2] : 0)
            for position in 0..<4 {
                if position <= chunk.count {
                    out.append(alphabet[Int((value >> UInt32(18 - 6 * position)) & 0x3F)])
                } else {
                    out.append("=")
                }
            }
            index += 3
        }
        return out
    }
}

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

    /// Text for the terminal (no printing here: the CLI prints it).
    public var text: String {
        """
        \(source) [\(index)]
          subject:          \(subject)
          issuer:           \(issuer)
          certificate pin:  \(certificatePin)
          public-key pin:   \(publicKeyPin)
        """
    }
}
