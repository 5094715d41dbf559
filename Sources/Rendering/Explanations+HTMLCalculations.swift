/// The page's calculations a learner can redo (`HTMLRenderer.calculations`): each one's heading and
/// formula with the RFC section it follows, and the copy buttons' words.
extension Explanations {
    static let englishHTMLCalculations: [String: String] = [
        "html.calc.inputs": "Inputs",
        "html.calc.outputs": "Output",
        "html.calc.copy": "Copy",
        "html.calc.copy.label": "Copy {name} in full",
        "html.calc.copyAll": "Copy the calculation",
        "html.calc.copyAll.label": "Copy this calculation as plain text: its formula, inputs and output, every value whole",
        "html.calc.copied": "Copied",
        "html.calc.selected": "Selected: press Ctrl+C (⌘C) to copy",
        "html.calc.rsaPremaster": "Calculation: {actor} makes the premaster and encrypts it to the server's RSA key",
        "html.calc.rsaPremaster.formula": "pre_master_secret = client_version (2 bytes) ‖ 46 random bytes (RFC 5246 §7.4.7.1). EM = 00 ‖ 02 ‖ PS ‖ 00 ‖ pre_master_secret, where PS is nonzero random padding that makes EM as long as the modulus (RFC 8017 §7.2.1). encrypted_pre_master_secret = EM^e mod n, with the public key (n, e) in the server's certificate (RFC 8017 §5.1.1); the client sends it in its ClientKeyExchange (RFC 5246 §7.4.7.1).",
        "html.calc.dhShared": "Calculation: {actor}'s Diffie-Hellman public value and shared secret",
        "html.calc.dhShared.formula": "public_value = g^private_exponent mod p, sent to the peer (RFC 5246 §7.4.3, §7.4.7.2). Z = peer_public_value^private_exponent mod p; pre_master_secret = Z with its leading zero bytes removed (RFC 5246 §8.1.2).",
        "html.calc.ecdhShared": "Calculation: {actor}'s ECDH public value and shared secret",
        "html.calc.ecdhShared.formula": "public_key = private_key × G, the curve's base point; the shared point is private_key × peer_public_key, and pre_master_secret is its x-coordinate with every byte kept, leading zeros too (RFC 8422 §5.10). For x25519 both are the X25519 function of RFC 7748 §5, with the base point u = 9 for the public value (RFC 7748 §6.1).",
        "html.calc.masterSecret": "Calculation: {actor} derives the master secret",
        "html.calc.masterSecret.formula": "master_secret = PRF(pre_master_secret, \"master secret\", client_random ‖ server_random)[0..47] (RFC 5246 §8.1): the seed is ClientHello.random ‖ ServerHello.random. PRF(secret, label, seed) = P_hash(secret, label ‖ seed), where P_hash(secret, s) = HMAC_hash(secret, A(1) ‖ s) ‖ HMAC_hash(secret, A(2) ‖ s) ‖ …, A(0) = s, A(i) = HMAC_hash(secret, A(i−1)); prf names the hash (RFC 5246 §5).",
        "html.calc.extendedMasterSecret": "Calculation: {actor} derives the extended master secret",
        "html.calc.extendedMasterSecret.formula": "master_secret = PRF(pre_master_secret, \"extended master secret\", session_hash)[0..47] (RFC 7627 §4), where session_hash = Hash(handshake_messages): every handshake message from the ClientHello up to and including the ClientKeyExchange, hashed with the PRF's hash (RFC 7627 §3). The PRF is RFC 5246 §5's: P_hash(secret, label ‖ seed).",
        "html.calc.resumedMasterSecret": "Resumption: {actor} takes the master secret of the session it resumes",
        "html.calc.resumedMasterSecret.formula": "An abbreviated handshake has no key exchange: both sides take the master_secret the session named by session_id got in its full handshake (RFC 5246 §7.3); with a session ticket, the server reads it from the ticket (RFC 5077 §3.4, §4). The key block is then derived from it with this connection's new ClientHello.random and ServerHello.random (RFC 5246 §6.3, §F.1.4), so this connection's keys differ from the earlier connection's.",
        "html.calc.keyBlock": "Calculation: {actor} expands the master secret into the key block and cuts it into keys",
        "html.calc.keyBlock.formula": "key_block = PRF(master_secret, \"key expansion\", server_random ‖ client_random), as long as needed, cut in this order: client_write_MAC_key, server_write_MAC_key, client_write_key, server_write_key, client_write_IV, server_write_IV (RFC 5246 §6.3); a part the suite does not use has length 0 and is not listed. The seed is ServerHello.random ‖ ClientHello.random.",
        "html.calc.verifyData": "Calculation: {actor} computes the verify_data of the {sender}'s Finished",
        "html.calc.verifyData.formula": "verify_data = PRF(master_secret, finished_label, handshake_hash)[0..11], where handshake_hash = Hash(handshake_messages): every handshake message of this handshake before this Finished, hashed with the PRF's hash (RFC 5246 §7.4.9).",
        "html.calc.serverKeyExchangeSignature": "Calculation: what the {signer} signs in its ServerKeyExchange ({algorithm})",
        "html.calc.serverKeyExchangeSignature.formula": "signed_input = client_random ‖ server_random ‖ params, where params are the ServerKeyExchange's ServerDHParams or ServerECDHParams as sent (RFC 5246 §7.4.3, RFC 8422 §5.4); signature is made over signed_input with {algorithm} and the private key of the {signer}'s certificate, and checked with the public key in that certificate (RFC 5246 §4.7).",
        "html.calc.certificateVerifySignature": "Calculation: what the {signer} signs in its CertificateVerify ({algorithm})",
        "html.calc.certificateVerifySignature.formula": "signed_input = handshake_messages: every handshake message sent or received from the ClientHello up to, not including, this CertificateVerify (RFC 5246 §7.4.8); signature is made over it with {algorithm} and the private key of the {signer}'s certificate, and checked with the public key in that certificate (RFC 5246 §4.7).",
    ]
}
