/// A handshake signature as a calculation a learner can redo: what is signed, as bytes, and the
/// signature made over it or checked against the public key of the signer's certificate
/// (RFC 5246 §7.4.3 and §7.4.8, RFC 8422 §5.4, RFC 8446 §4.4.3).
extension Explanations {
    static let englishSignatureInput: [String: String] = [
        "derived.signedInput.serverKeyExchange": "Signed input (RFC 5246 §7.4.3, RFC 8422 §5.4) = client_random ‖ server_random ‖ {params}, {bytes} bytes",
        "derived.signedInput.certificateVerify": "Signed input (RFC 5246 §7.4.8) = handshake_messages: every handshake message sent or received from ClientHello up to, not including, this CertificateVerify, each with its type and length, {bytes} bytes",
        "derived.signedInput.tls13": "Signed input (RFC 8446 §4.4.3) = 64 × 0x20 ‖ context string ‖ 00 ‖ Transcript-Hash, the hash of the handshake messages up to and including Certificate; {bytes} bytes, of which the hash is {hashBytes}",
        "derived.signedInput.part": "{name} = {value}",
        "derived.signedInput.contextString": "\"{context}\" = {value}",
        "derived.signedInput.whole": "signed input = {input}",
        "derived.signedInput.wholeBytes": "signed input, whole: {input}",
        "derived.signature.made": "signature = Sign_{algorithm}(private key of the {actor}'s certificate, signed input) = {signature} ({bytes} bytes)",
        "derived.signature.verified": "{actor}: Verify_{algorithm}(public key in the {signer}'s certificate, signed input, signature {signature}) → valid",
        "derived.signature.refused": "{actor}: Verify_{algorithm}(public key in the {signer}'s certificate, signed input, signature {signature}) → invalid",
        "derived.signature.wholeBytes": "signature, whole: {signature}",
    ]
}
