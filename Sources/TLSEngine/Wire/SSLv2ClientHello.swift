/// The SSL 2.0-compatible CLIENT-HELLO (RFC 5246 Appendix E.2), which old clients sent as their
/// first bytes so that SSL 2.0 servers could answer too. A TLS server may accept it (OpenSSL does):
/// ```
/// uint8 V2CipherSpec[3];
/// struct {
///     uint16 msg_length;            // high bit set: a 2-byte header, no padding
///     uint8 msg_type;               // 1
///     Version version;
///     uint16 cipher_spec_length;    // a multiple of 3
///     uint16 session_id_length;
///     uint16 challenge_length;      // 16…32
///     V2CipherSpec cipher_specs[V2ClientHello.cipher_spec_length];
///     opaque session_id[V2ClientHello.session_id_length];
///     opaque challenge[V2ClientHello.challenge_length];
/// } V2ClientHello;
/// ```
/// It reads as a ClientHello with: the TLS suites among the cipher specs (those whose first byte is
/// 0), the challenge right-aligned in a 32-byte random with leading zeros, compression null, no
/// extensions. The handshake hash covers the message as received, from msg_type on (E.2: "the
/// first message ... is hashed"; OpenSSL hashes these bytes).
public enum SSLv2ClientHello {
    /// The message after its 2-byte length header: msg_type through challenge.
    public static func decode(_ message: [UInt8]) throws(DecodeError) -> ClientHello {
        var r = ByteReader(message)
        let type = try r.readUInt8(field: "v2.msg_type")
        guard type == 1 else { throw .malformed(field: "v2.msg_type", reason: .sslv2MessageType(type)) }
        let version = try ProtocolVersion(from: &r)
        let specLength = Int(try r.readUInt16(field: "v2.cipher_spec_length"))
        let sessionLength = Int(try r.readUInt16(field: "v2.session_id_length"))
        let challengeLength = Int(try r.readUInt16(field: "v2.challenge_length"))
        guard specLength > 0, specLength % 3 == 0 else {
            throw .lengthOutOfRange(field: "v2.cipher_specs", length: specLength, min: 3, max: 0xfffd)
        }
        guard sessionLength == 0 || sessionLength == 16 else {
            throw .lengthOutOfRange(field: "v2.session_id", length: sessionLength, min: 0, max: 16)
        }
        guard (16 ... 32).contains(challengeLength) else {
            throw .lengthOutOfRange(field: "v2.challenge", length: challengeLength, min: 16, max: 32)
        }
        let specs = try r.readBytes(specLength, field: "v2.cipher_specs")
        let sessionID = try r.readBytes(sessionLength, field: "v2.session_id")
        let challenge = try r.readBytes(challengeLength, field: "v2.challenge")
        try r.expectEnd(field: "V2ClientHello")
        var suites: [CipherSuite] = []
        for i in stride(from: 0, to: specs.count, by: 3) where specs[i] == 0 {
            suites.append(CipherSuite(rawValue: UInt16(specs[i + 1]) << 8 | UInt16(specs[i + 2])))
        }
        guard !suites.isEmpty else {
            throw .illegalParameter(field: "v2.cipher_specs", reason: .noTLSCipherSuiteInSSLv2Hello)
        }
        return ClientHello(clientVersion: version, random: Random([UInt8](repeating: 0, count: 32 - challengeLength) + challenge),
                           sessionID: sessionID, cipherSuites: suites, compressionMethods: [.null], extensions: nil)
    }
}
