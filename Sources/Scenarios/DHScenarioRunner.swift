import BigNum
import TLSCrypto

/// Runs a `kind: dh` world with the engine's own Diffie-Hellman arithmetic (``DHKeyPair``), then
/// lets the eavesdropper search: it knows p, g and both public values, tries x = 1, 2, … until
/// g^x mod p equals the client's public value, and raises the server's public value to that x.
enum DHScenarioRunner {
    static func run(_ w: DHWorld) -> ScenarioRun {
        let group = DHGroup(name: "p\(w.p)-g\(w.g)", p: BigInt(w.p), g: BigInt(w.g),
                            securityNote: "a teaching group small enough to search by hand", isTeachingOnly: true,
                            shortExponentBits: 2)
        var f: [String: FactValue] = ["group_bits": .int(group.bitWidth)]
        do {
            let client = try DHKeyPair(group: group, privateExponent: BigInt(w.clientPrivate))
            let server = try DHKeyPair(group: group, privateExponent: BigInt(w.serverPrivate))
            let clientShared = try client.sharedSecret(peerPublicValue: server.publicValue, validation: .none)
            let serverShared = try server.sharedSecret(peerPublicValue: client.publicValue, validation: .none)
            f["client_public"] = int(client.publicValue)
            f["server_public"] = int(server.publicValue)
            f["client_shared"] = int(clientShared)
            f["server_shared"] = int(serverShared)
            // RFC 7919 §5.1: a peer value must satisfy 1 < y < p-1 (y = p-1 has order 2).
            var rejected: [String] = []
            if (try? DHKeyPair.validatePeer(client.publicValue, in: group)) == nil { rejected.append("client_public") }
            if (try? DHKeyPair.validatePeer(server.publicValue, in: group)) == nil { rejected.append("server_public") }
            f["range_check_rejects"] = .list(rejected)
            // The eavesdropper's exhaustive search over exponents.
            var tries = 0
            var recovered: FactValue = .null
            var x = 1
            while x < w.p {
                tries += 1
                let candidate = try group.g.power(BigInt(x), modulus: group.p)
                if candidate == client.publicValue {
                    recovered = int(try server.publicValue.power(BigInt(x), modulus: group.p))
                    f["eavesdropper_exponent"] = .int(x)
                    break
                }
                x += 1
            }
            f["eavesdropper_tries"] = .int(tries)
            f["eavesdropper_recovers"] = recovered
        } catch {
            f["error"] = .string("\(error)")
        }
        return ScenarioRun(facts: f, trace: nil, verdict: nil)
    }

    static func int(_ v: BigInt) -> FactValue { v.intValue.map(FactValue.int) ?? .string(v.description) }
}
