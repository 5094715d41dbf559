/// The sentences of the suites issue #39 added: ChaCha20-Poly1305 records (RFC 7905), and what a
/// receiver says when one does not open or its keys do not fit.
extension Explanations {
    static let englishSuites: [String: String] = [
        "badRecordMAC.chaChaRecordTooShort": "a ChaCha20-Poly1305 record needs at least {needed} bytes, got {got}",
        "badRecordMAC.poly1305TagMismatch": "the Poly1305 tag does not verify (wrong key, sequence number or tampered bytes)",
        "recordKeys.chaChaIVLength": "a fixed IV of {have} bytes, where ChaCha20-Poly1305 takes a 12-byte IV from the key block (RFC 7905 §2)",
        "recordKeys.explicitNonceWithChaCha": "an explicit nonce of {have} bytes, where a ChaCha20-Poly1305 record carries none (RFC 7905 §2: record_iv_length 0)",
        "recordKeys.chaChaRefusedKey": "ChaCha20-Poly1305 refused the key or nonce",
        // RFC 5246 §7.4.8: the CertificateVerify scheme must be one the CertificateRequest listed.
        "misbehaved.certificateVerifySchemeNotRequested.scheme": "CertificateVerify signed with {scheme}, which the server's CertificateRequest did not list (it listed {requested})",
        "misbehaved.certificateVerifySchemeNotRequested.none": "CertificateVerify names no signature algorithm; the server's CertificateRequest listed {requested}",
    ]
}

/// The first ChaCha20-Poly1305 record of a run, as values (TextRenderer+ChaCha), and why TLS has a
/// second AEAD.
extension Explanations {
    static let englishChaCha: [String: String] = [
        "run.summary.chacha20": "ECDHE with ChaCha20-Poly1305 (RFC 7905): the record nonce is the sequence number XORed into the IV, none sent",
        "record.chacha.values": "A protected record of the {actor}, sequence number {seq}, as values. ChaCha20-Poly1305 nonce = IV XOR padded sequence number = {iv} XOR {paddedSeq} = {nonce}: the whole 12-byte IV comes from the key block (client_write_IV or server_write_IV), and the 64-bit sequence number, left-padded with zeros to 12 bytes, is XORed into it (RFC 7905 §2). Nothing of the nonce travels: the record is only ciphertext ‖ 16-byte Poly1305 tag, 8 bytes shorter than an AES-GCM record, which sends an 8-byte explicit nonce after its 4-byte salt (RFC 5288 §3). Additional data = seq_num ‖ type ‖ version ‖ length = {seqHex} ‖ {type} ‖ {version} ‖ {length}, the plaintext's length, {plaintext} bytes (RFC 5246 §6.2.3.3). The tag {tag} authenticates the ciphertext and this additional data; the receiver builds the nonce from its own count, so a record replayed, dropped or reordered fails.",
        "record.chacha.why": "Why a second AEAD: AES-GCM is fast where the processor has AES and carry-less multiplication instructions (AES-NI and PCLMULQDQ, the ARMv8 crypto extensions); without them, AES in software is slow, and a table-based AES leaks its key through cache timing. ChaCha20 uses only 32-bit additions, rotations and XORs, so it is fast and constant-time in plain software — on phones and small devices without AES instructions (RFC 7905 §1). Having two unrelated ciphers also leaves a fallback if either is ever weakened.",
    ]
}
