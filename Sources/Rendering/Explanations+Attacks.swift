import Trace

/// The words for what attackers and the eavesdropper did, from the trace's typed facts.
extension Explanations {
    /// Where the attacker sits.
    public func attackPosition(_ position: AttackPosition) -> String {
        switch position {
        case .manInTheMiddle(let host?, let address): return phrase("position.mitm", ["host": host, "address": "\(address)"])
        // Without a server name (no SNI) the sentence names no host: the catalogue words "the server".
        case .manInTheMiddle(nil, let address): return phrase("position.mitm.unnamedServer", ["address": "\(address)"])
        case .onPath: return phrase("position.onPath")
        }
    }

    /// How a secret was obtained.
    public func secretSource(_ source: SecretSource) -> String {
        switch source {
        case .premasterDecrypted: return phrase("how.premaster.decrypted")
        case .premasterRegenerated(let seed): return phrase("how.premaster.regenerated", ["seed": "\(seed)"])
        case .masterSecret(.decrypted, false): return phrase("how.master.randoms.decrypted")
        case .masterSecret(.regenerated, false): return phrase("how.master.randoms.regenerated")
        case .masterSecret(.decrypted, true): return phrase("how.master.sessionHash.decrypted")
        case .masterSecret(.regenerated, true): return phrase("how.master.sessionHash.regenerated")
        case .resumedSession: return phrase("how.master.resumed")
        case .keyBlock: return phrase("how.keyBlock")
        case .recordedApplicationData: return phrase("how.appData")
        case .decryptedRequest: return phrase("how.cookie")
        case .relayedAndDecrypted: return phrase("how.mitm.decrypted")
        case .relayedInPlaintext: return phrase("how.mitm.plain")
        case .relayedRequest: return phrase("how.mitm.cookie")
        }
    }

    /// Why an attack did not work.
    public func attackFailure(_ failure: AttackFailure) -> String {
        switch failure {
        case .noHandshake: return phrase("failed.noHandshake")
        case .noClientHello: return phrase("failed.noClientHello")
        case .noClientKeyExchange: return phrase("failed.noClientKeyExchange")
        case .notDecrypted: return phrase("failed.notDecrypted")
        case .forwardSecrecy(let suite, let keyExchange):
            // DHE is finite-field Diffie-Hellman; the other ephemeral exchanges are elliptic-curve.
            return phrase("failed.forwardSecrecy", ["suite": "\(suite)", "kind": keyExchange == .dheRSA ? "DH" : "ECDH"])
        case .tls13ForwardSecrecy: return phrase("failed.tls13ForwardSecrecy")
        case .ephemeralFromSeed: return phrase("failed.ephemeralFromSeed")
        case .regeneratedDidNotOpen: return phrase("failed.regeneratedDidNotOpen")
        case .noSeed: return phrase("failed.noSeed")
        }
    }
}
