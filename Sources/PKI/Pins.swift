import Crypto

/// Certificate and public-key pins as the usual recipes compute them with
/// `openssl dgst -sha256 -binary | openssl enc -base64` (the pin format of ATS's NSPinnedLeafIdentities, SPKI-SHA256-BASE64).
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
