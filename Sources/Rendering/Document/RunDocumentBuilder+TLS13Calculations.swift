import TLSCrypto
import TLSEngine
import Trace

/// TLS 1.3's calculations as steps a learner can redo (`Calculation`), read off the engine's TLS 1.3
/// events, every value whole: the (EC)DHE shared secret of key_share (RFC 8446 §7.4), each step of the
/// key schedule (§7.1) with the values it took, each traffic secret's key and IV (§7.3), each Finished
/// MAC and PSK binder (§4.4.4, §4.2.11.2) and what a CertificateVerify signs (§4.4.3). Nothing here is
/// computed: the values are the engine's, cut where the engine says the parts are.
extension RunDocumentBuilder {
    func tls13Calculations(_ fact: TLS13Event, actor: Actor) -> [Calculation] {
        typealias V = Calculation.Value
        switch fact {
        case .sharedSecret(let group, let value, let privateKey, let publicKey, let peerPublicKey):
            return [Calculation(kind: .tls13KeyShare, actor: actor,
                                inputs: [V("group", text: "\(group)"), V("private_key", privateKey), V("peer_public_key", peerPublicKey)],
                                outputs: [V("public_key", publicKey), V("shared_secret", value)], words: ["group": "\(group)"])]
        case .keySchedule(let step):
            let hash = V("hash", text: step.hash.hashName)
            let output = [V(step.secret.rawValue, step.value)]
            switch step.derivation {
            case .extract(let salt, let ikm):
                return [Calculation(kind: .tls13Extract, actor: actor,
                                    inputs: [hash, V("salt", step.key), V("IKM", step.inputKeyingMaterial ?? [])], outputs: output,
                                    words: ["secret": step.secret.rawValue, "salt": salt?.rawValue ?? "zeros", "ikm": ikm.rawValue])]
            case .deriveSecret(let from, let label, let through, let transcriptHash):
                return [Calculation(kind: .tls13DeriveSecret, actor: actor,
                                    inputs: [hash, V(from.rawValue, step.key), V("label", text: label), V("transcript_hash", transcriptHash),
                                             V("HkdfLabel", step.hkdfLabel ?? [])], outputs: output,
                                    words: ["secret": step.secret.rawValue, "from": from.rawValue, "label": label, "messages": through.rawValue])]
            case .expandLabel(let from, let label, let context):
                return [Calculation(kind: .tls13ExpandLabel, actor: actor,
                                    inputs: [hash, V(from.rawValue, step.key), V("label", text: label), V("context", context),
                                             V("HkdfLabel", step.hkdfLabel ?? [])], outputs: output,
                                    words: ["secret": step.secret.rawValue, "from": from.rawValue, "label": label])]
            }
        case .trafficKeysInstalled(_, let secret, let generation, let keys, let value, let hash):
            guard let sender = Self.sender(of: secret) else { return [] }
            let name = Self.trafficSecretName(secret, generation: generation)
            return [Calculation(kind: .tls13TrafficKeys, actor: actor, inputs: [V("hash", text: hash.hashName), V(name, value)],
                                outputs: [V("\(sender.rawValue)_write_key", keys.key), V("\(sender.rawValue)_write_iv", keys.iv)],
                                words: ["secret": name, "sender": sender.rawValue])]
        case .finishedComputed(let mac):
            let inputs = [V("hash", text: mac.hash.hashName), V(mac.baseKey.rawValue, mac.baseKeyValue), V("transcript_hash", mac.transcriptHash)]
            if mac.baseKey == .binderKey {
                return [Calculation(kind: .tls13PSKBinder, actor: actor, inputs: inputs,
                                    outputs: [V("finished_key", mac.finishedKey), V("binder", mac.verifyData)])]
            }
            guard let sender = Self.sender(of: mac.baseKey) else { return [] }
            return [Calculation(kind: .tls13Finished, actor: actor, inputs: inputs,
                                outputs: [V("finished_key", mac.finishedKey), V("verify_data", mac.verifyData)],
                                words: ["sender": sender.rawValue, "secret": mac.baseKey.rawValue])]
        case .certificateVerifySigned(let scheme, let content, let signature),
             .certificateVerifyChecked(let scheme, let content, let signature, _):
            guard let parts = TLS13CertificateVerifyContent.parts(of: content) else { return [] }
            var inputs = [V("padding", parts.padding), V("context_string", text: parts.context), V("separator", [0]),
                          V("transcript_hash", parts.transcriptHash), V("signature_scheme", text: "\(scheme)")]
            var outputs = [V("content", content)]
            // The signer makes the signature; the peer receives it and checks it (RFC 8446 §4.4.3).
            if case .certificateVerifyChecked(_, _, _, let valid) = fact {
                inputs.append(V("signature", signature))
                outputs.append(V("valid", text: valid ? "true" : "false"))
            } else {
                outputs.append(V("signature", signature))
            }
            return [Calculation(kind: .tls13CertificateVerify, actor: actor, inputs: inputs, outputs: outputs,
                                words: ["signer": parts.signer == .server ? Actor.server.rawValue : Actor.client.rawValue, "algorithm": "\(scheme)"])]
        default:
            return []
        }
    }

    /// The side whose records a traffic secret protects, or whose Finished a handshake traffic
    /// secret keys (RFC 8446 §7.1, §7.3, §4.4): [sender]_write_key.
    static func sender(of secret: TLS13Secret) -> Actor? {
        switch secret {
        case .clientEarlyTrafficSecret, .clientHandshakeTrafficSecret, .clientApplicationTrafficSecret0: .client
        case .serverHandshakeTrafficSecret, .serverApplicationTrafficSecret0: .server
        default: nil
        }
    }

    /// application_traffic_secret_N after N KeyUpdates (RFC 8446 §7.2); other secrets by their name.
    static func trafficSecretName(_ secret: TLS13Secret, generation: Int) -> String {
        switch secret {
        case .clientApplicationTrafficSecret0 where generation > 0: "client_application_traffic_secret_\(generation)"
        case .serverApplicationTrafficSecret0 where generation > 0: "server_application_traffic_secret_\(generation)"
        default: secret.rawValue
        }
    }
}
