import BigNum
import TLSCrypto
import Trace

/// Runs a `kind: dh` world with the engine's own Diffie-Hellman arithmetic (``DHKeyPair``), then
/// lets the eavesdropper search: it knows p, g and both public values, tries x = 1, 2, … until
/// g^x mod p equals the client's public value, and raises the server's public value to that x.
/// The trace holds every step with its numbers (``DHStep``).
enum DHScenarioRunner {
    static func run(_ w: DHWorld) -> ScenarioRun {
        let group = DHGroup(name: "p\(w.p)-g\(w.g)", p: BigInt(w.p), g: BigInt(w.g),
                            isTeachingOnly: true, shortExponentBits: 2)
        var f: [String: FactValue] = ["group_bits": .int(group.bitWidth)]
        var steps: [(Actor, DHStep)] = [(.network, .group(p: w.p, g: w.g, bits: group.bitWidth))]
        // The eavesdropper's arithmetic, its refusal typed as the key pair's are.
        func power(_ base: BigInt, _ exponent: Int) throws(DHError) -> BigInt {
            do throws(BigNumError) { return try base.power(BigInt(exponent), modulus: group.p) } catch { throw .arithmetic(error) }
        }
        do throws(DHError) {
            let client = try DHKeyPair(group: group, privateExponent: BigInt(w.clientPrivate))
            let server = try DHKeyPair(group: group, privateExponent: BigInt(w.serverPrivate))
            let clientShared = try client.sharedSecret(peerPublicValue: server.publicValue, validation: .none)
            let serverShared = try server.sharedSecret(peerPublicValue: client.publicValue, validation: .none)
            f["client_public"] = int(client.publicValue)
            f["server_public"] = int(server.publicValue)
            f["client_shared"] = int(clientShared)
            f["server_shared"] = int(serverShared)
            // Every value is below p ≤ 1000003, so each fits an Int.
            let A = small(client.publicValue), B = small(server.publicValue)
            steps += [(.client, .privateExponent(side: .client, value: w.clientPrivate)),
                      (.server, .privateExponent(side: .server, value: w.serverPrivate)),
                      (.client, .publicValue(side: .client, g: w.g, exponent: w.clientPrivate, p: w.p, value: A)),
                      (.server, .publicValue(side: .server, g: w.g, exponent: w.serverPrivate, p: w.p, value: B)),
                      (.client, .sent(side: .client, value: A)),
                      (.server, .sent(side: .server, value: B))]
            // RFC 7919 §5.1: a peer value must satisfy 1 < y < p-1 (y = p-1 has order 2).
            var rejected: [String] = []
            let clientOK = (try? DHKeyPair.validatePeer(client.publicValue, in: group)) != nil
            let serverOK = (try? DHKeyPair.validatePeer(server.publicValue, in: group)) != nil
            if !clientOK { rejected.append("client_public") }
            if !serverOK { rejected.append("server_public") }
            f["range_check_rejects"] = .list(rejected)
            steps += [(.server, .rangeCheck(side: .server, value: A, p: w.p, passed: clientOK)),
                      (.client, .rangeCheck(side: .client, value: B, p: w.p, passed: serverOK)),
                      (.client, .shared(side: .client, peerValue: B, exponent: w.clientPrivate, p: w.p, value: small(clientShared))),
                      (.server, .shared(side: .server, peerValue: A, exponent: w.serverPrivate, p: w.p, value: small(serverShared))),
                      (.network, .agreement(client: small(clientShared), server: small(serverShared)))]
            // The eavesdropper's exhaustive search over exponents.
            var tries = 0
            var recovered: FactValue = .null
            var found: (Int, Int)?
            var x = 1
            while x < w.p {
                tries += 1
                let candidate = try power(group.g, x)
                if candidate == client.publicValue {
                    let secret = try power(server.publicValue, x)
                    recovered = int(secret)
                    found = (x, small(secret))
                    f["eavesdropper_exponent"] = .int(x)
                    break
                }
                x += 1
            }
            f["eavesdropper_tries"] = .int(tries)
            f["eavesdropper_recovers"] = recovered
            steps.append((.eavesdropper, .search(target: A, tries: tries, exponent: found?.0, recovered: found?.1)))
        } catch {
            f["error"] = .problems([.dh(error)])
        }
        let events = steps.map { TraceEvent(time: 0, actor: $0.0, kind: .lesson(.dh($0.1))) }
        return ScenarioRun(facts: f, trace: Trace(events: events), verdict: nil)
    }

    static func int(_ v: BigInt) -> FactValue { v.intValue.map(FactValue.int) ?? .string(v.description) }
    static func small(_ v: BigInt) -> Int { v.intValue ?? -1 }
}
