import TLSEngine
import Trace

/// A handshake signature as a calculation a learner can redo: what exactly is signed, as bytes
/// (its parts, the rule that puts them together, the whole input), the signature that comes out
/// (or the check with the certificate's public key). Shown with the bytes (`--verbosity bytes`, the
/// walkthrough and the HTML page): the formula with its values, shortened unless `fullValues`; the
/// whole input and signature as extra byte lines when they were shortened, so they can be copied.
extension RunDocumentBuilder {
    /// TLS 1.2 and earlier: ServerKeyExchange signs client_random ‖ server_random ‖ params
    /// (RFC 5246 §7.4.3, RFC 8422 §5.4); CertificateVerify signs every handshake message before it
    /// (RFC 5246 §7.4.8; TLS 1.0/1.1 with MD5 ‖ SHA-1 and no scheme, RFC 4346 §7.4.8).
    func signatureInputLines(_ sig: SignatureTrace, actor: Actor, keyExchange: KeyExchangeAlgorithm?) -> [LadderEntry] {
        guard verbosity == .bytes else { return [] }
        let input = sig.signedData
        var out: [LadderEntry]
        switch sig.purpose {
        case .serverKeyExchange:
            // The engine builds the input as 32 + 32 bytes of randoms followed by the parameters as sent.
            guard input.count > 64 else { return [] }
            let params = keyExchange.map { $0.isECDHE ? "ServerECDHParams" : "ServerDHParams" } ?? "params"
            out = [calculation("derived.signedInput.serverKeyExchange", ["params": params, "bytes": "\(input.count)"]),
                   calculation("derived.signedInput.part", ["name": "client_random", "value": Hex.string(input.prefix(32))], indent: 2),
                   calculation("derived.signedInput.part", ["name": "server_random", "value": Hex.string(input[32..<64])], indent: 2),
                   calculation("derived.signedInput.part", ["name": params, "value": short(Array(input.dropFirst(64)), sized: false)], indent: 2)]
        case .certificateVerify:
            out = [calculation("derived.signedInput.certificateVerify", ["bytes": "\(input.count)"])]
        }
        out += signatureOutcomeLines(input: input, signature: sig.signature, algorithm: sig.scheme.map { "\($0)" } ?? "RSA-MD5-SHA1",
                                     signer: sig.signer.rawValue, actor: actor, created: sig.created, valid: sig.valid)
        return out
    }

    /// TLS 1.3 CertificateVerify: 64 × 0x20 ‖ context string ‖ 0x00 ‖ Transcript-Hash (RFC 8446 §4.4.3).
    /// The signer's role is read off the context string ("TLS 1.3, server CertificateVerify").
    func tls13SignatureInputLines(scheme: SignatureScheme, content: [UInt8], signature: [UInt8], actor: Actor,
                                  created: Bool, valid: Bool) -> [LadderEntry] {
        guard verbosity == .bytes, content.count > 65, let zero = content.dropFirst(64).firstIndex(of: 0) else { return [] }
        let context = Array(content[64..<zero])
        let hash = Array(content[(zero + 1)...])
        let signer: TLSRole = context == Array("TLS 1.3, client CertificateVerify".utf8) ? .client : .server
        var out = [calculation("derived.signedInput.tls13", ["bytes": "\(content.count)", "hashBytes": "\(hash.count)"]),
                   calculation("derived.signedInput.part", ["name": "64 × 20", "value": Hex.string(content.prefix(64))], indent: 2),
                   calculation("derived.signedInput.contextString", ["context": String(decoding: context, as: UTF8.self),
                                                                      "value": Hex.string(context)], indent: 2),
                   calculation("derived.signedInput.part", ["name": "00", "value": "00"], indent: 2),
                   calculation("derived.signedInput.part", ["name": "Transcript-Hash", "value": Hex.string(hash)], indent: 2)]
        out += signatureOutcomeLines(input: content, signature: signature, algorithm: "\(scheme)", signer: signer.rawValue,
                                     actor: actor, created: created, valid: valid)
        return out
    }

    /// The whole input, then the signature made with the signer's private key or the check of it
    /// with the public key in the signer's certificate; the whole values again as byte lines when shortened.
    private func signatureOutcomeLines(input: [UInt8], signature: [UInt8], algorithm: String, signer: String, actor: Actor,
                                       created: Bool, valid: Bool) -> [LadderEntry] {
        var out = [calculation("derived.signedInput.whole", ["input": short(input, sized: false)], indent: 2)]
        if created {
            out.append(calculation("derived.signature.made", ["actor": actor.rawValue, "algorithm": algorithm,
                                                             "signature": short(signature, sized: false), "bytes": "\(signature.count)"], indent: 2))
        } else {
            out.append(calculation(valid ? "derived.signature.verified" : "derived.signature.refused",
                                   ["actor": actor.rawValue, "signer": signer, "algorithm": algorithm, "signature": short(signature, sized: false)],
                                   indent: 2))
        }
        // The values were cut (`03037e6c…a603235b`): the whole ones with the bytes, to copy.
        if !fullValues, input.count > 16 {
            out.append(calculation("derived.signedInput.wholeBytes", ["input": Hex.string(input)], indent: 2).onlyWithBytes)
        }
        if !fullValues, signature.count > 16 {
            out.append(calculation("derived.signature.wholeBytes", ["signature": Hex.string(signature)], indent: 2).onlyWithBytes)
        }
        return out
    }

    /// A value line worded from the catalogue and kept as its key and values (parties as `Actor`
    /// raw values), so a surface can word it again in its reader's language.
    private func calculation(_ key: String, _ values: [String: String], indent: Int = 0) -> LadderEntry {
        let sentence = Sentence(key, values)
        var entry = detail(explanations.sentence(sentence), indent: indent)
        entry.sentence = sentence
        return entry
    }
}
