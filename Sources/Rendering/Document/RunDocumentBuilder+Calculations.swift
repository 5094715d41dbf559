import TLSCrypto
import TLSEngine
import Trace

/// The handshake's calculations as steps a learner can redo (`Calculation`): read off the engine's
/// `derived`, `sessionResumed` and `signature` events (TLS 1.2 and earlier) and TLS 1.3's
/// (``tls13Calculations(_:actor:)``), every value whole. The master secret a
/// side derived on a connection is remembered for its key block and verify_data there (the engine's
/// own value, from its `masterSecret` event: nothing is recomputed).
extension RunDocumentBuilder {
    struct CalculationState {
        /// master_secret and PRF by side and connection, from the engine's `masterSecret` event, or
        /// from its `sessionResumed` event on an abbreviated handshake (the PRF then from its key block).
        var masters: [MasterKey: (secret: [UInt8], prf: TLSPRF?)] = [:]
        /// Where a resumed session's master secret came from, shown with the key block it feeds (the
        /// `sessionResumed` event has no row of its own on the page).
        var resumed: [MasterKey: Calculation] = [:]
        struct MasterKey: Hashable {
            var actor: Actor
            var connection: Int
        }
    }

    func calculations(for event: TraceEvent, state: inout CalculationState) -> [Calculation] {
        guard case .tls(let tls) = event.kind else { return [] }
        let actor = event.actor
        let here = CalculationState.MasterKey(actor: actor, connection: event.connection)
        typealias V = Calculation.Value
        switch tls {
        case .derived(.rsaPreMasterEncryption(let pre, let padded, let ciphertext, _, let n, let e)):
            return [Calculation(kind: .rsaPremaster, actor: actor, inputs: [V("pre_master_secret", pre), V("n", n), V("e", e)],
                                outputs: [V("EM", padded), V("encrypted_pre_master_secret", ciphertext)])]
        case .derived(.dhAgreement(let p, let g, _, let x, let y, let peer, let pre)):
            return [Calculation(kind: .dhShared, actor: actor,
                                inputs: [V("p", p), V("g", g), V("private_exponent", x), V("peer_public_value", peer)],
                                outputs: [V("public_value", y), V("pre_master_secret", pre)])]
        case .derived(.ecdhAgreement(let curve, let priv, let pub, let peer, let pre)):
            return [Calculation(kind: .ecdhShared, actor: actor,
                                inputs: [V("curve", text: "\(curve)"), V("private_key", priv), V("peer_public_key", peer)],
                                outputs: [V("public_key", pub), V("pre_master_secret", pre)])]
        case .derived(.masterSecret(let pre, let label, let seed, let prf, let master)):
            state.masters[here] = (master, prf)
            let extended = label.contains("extended")
            return [Calculation(kind: extended ? .extendedMasterSecret : .masterSecret, actor: actor,
                                inputs: [V("pre_master_secret", pre), V("label", text: label),
                                         V(extended ? "session_hash" : "seed", seed), V("prf", text: prf.hashName)],
                                outputs: [V("master_secret", master)])]
        case .sessionResumed(let sessionID, let master):
            // RFC 5246 §7.3, §F.1.4: no key exchange; the session's master secret, from its full handshake.
            state.masters[here] = (master, nil)
            state.resumed[here] = Calculation(kind: .resumedMasterSecret, actor: actor, inputs: [V("session_id", sessionID)],
                                              outputs: [V("master_secret", master)])
            return []
        case .derived(.keyBlock(let seed, let prf, let block, let keys)):
            state.masters[here]?.prf = prf
            var inputs = [V]()
            if let master = state.masters[here] { inputs.append(V("master_secret", master.secret)) }
            inputs += [V("label", text: "key expansion"), V("seed", seed), V("prf", text: prf.hashName)]
            // The cut in the order of RFC 5246 §6.3; a part the suite does not use (length 0) is left out.
            let parts = [("client_write_MAC_key", keys.clientWriteMACKey), ("server_write_MAC_key", keys.serverWriteMACKey),
                         ("client_write_key", keys.clientWriteKey), ("server_write_key", keys.serverWriteKey),
                         ("client_write_IV", keys.clientWriteIV), ("server_write_IV", keys.serverWriteIV)]
            let resumed = state.resumed.removeValue(forKey: here).map { [$0] } ?? []
            return resumed + [Calculation(kind: .keyBlock, actor: actor, inputs: inputs,
                                          outputs: [V("key_block", block)] + parts.filter { !$0.1.isEmpty }.map { V($0.0, $0.1) })]
        case .derived(.verifyData(let sender, let label, let hash, let data)):
            var inputs = [V]()
            let master = state.masters[here]
            if let master { inputs.append(V("master_secret", master.secret)) }
            inputs += [V("finished_label", text: label), V("handshake_hash", hash)]
            if let prf = master?.prf { inputs.append(V("prf", text: prf.hashName)) }
            return [Calculation(kind: .verifyData, actor: actor, inputs: inputs, outputs: [V("verify_data", data)],
                                words: ["sender": sender.rawValue])]
        case .signature(let sig):
            let algorithm = sig.scheme.map { "\($0)" } ?? "RSA-MD5-SHA1"
            let words = ["signer": sig.signer.rawValue, "algorithm": algorithm]
            // The signer makes the signature; the peer receives it and checks it (RFC 5246 §4.7).
            let outputs = sig.created ? [V("signed_input", sig.signedData), V("signature", sig.signature)]
                                      : [V("signed_input", sig.signedData), V("valid", text: sig.valid ? "true" : "false")]
            let received = sig.created ? [] : [V("signature", sig.signature)]
            switch sig.purpose {
            case .serverKeyExchange:
                // The engine signs 32 + 32 bytes of randoms followed by the parameters as sent.
                guard sig.signedData.count > 64 else { return [] }
                let input = sig.signedData
                return [Calculation(kind: .serverKeyExchangeSignature, actor: actor,
                                    inputs: [V("client_random", Array(input.prefix(32))), V("server_random", Array(input[32..<64])),
                                             V("params", Array(input.dropFirst(64)))] + received,
                                    outputs: outputs, words: words)]
            case .certificateVerify:
                return [Calculation(kind: .certificateVerifySignature, actor: actor, inputs: received, outputs: outputs, words: words)]
            }
        case .tls13(let fact):
            return tls13Calculations(fact, actor: actor)
        default:
            return []
        }
    }
}
