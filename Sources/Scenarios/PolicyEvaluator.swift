import PKI
import TLSCrypto
import TLSEngine

/// What the client's policy decided about the server's chain (recorded for `expect`).
public struct TrustVerdict: Sendable {
    public var accepted: Bool
    public var disposition: ChallengeDisposition
    /// The system evaluation's first failing check (nil: the chain is valid for the host).
    public var firstFailingCheck: ChainCheck.Kind?
    public var reasons: [String]
}

/// Holds the verdict the evaluator reached during the run.
final class VerdictRecorder {
    var verdict: TrustVerdict?
    var clientAuthenticated = false
}

/// The engine's server-certificate decision made the NSURLSession way: a ServerTrust challenge
/// answered by the scenario's policy (system default, AFSecurityPolicy, seed 001's modes).
struct PolicyEvaluator: PeerCertificateEvaluator {
    let world: TLSWorld
    let recorder: VerdictRecorder

    func anchors() -> AnchorSelection {
        let system = TrustStore.system(world.trustStore.compactMap { world.certificates[$0]?.certificate })
        guard let custom = world.customAnchors else { return AnchorSelection(system: system) }
        return AnchorSelection(system: system,
                               custom: TrustStore(name: "app anchors", anchors: custom.compactMap { world.certificates[$0]?.certificate }),
                               anchorsOnly: world.anchorsOnly)
    }

    func evaluate(chain: [[UInt8]], role: TLSRole, serverName: String?) -> CertificateDecision {
        var certificates: [X509Certificate] = []
        for der in chain {
            guard let c = try? X509Certificate(der: der) else {
                return .reject(.badCertificate, reason: "certificate \(certificates.count) does not parse")
            }
            certificates.append(c)
        }
        guard let leaf = certificates.first else { return .reject(.handshakeFailure, reason: "the server sent no certificate") }
        let host = serverName ?? world.host
        let trust = ServerTrust(presented: certificates, anchors: anchors(), time: world.now)
        let outcome: ChallengeOutcome
        switch world.policy {
        case .system:
            outcome = ChallengeResolver.resolve(method: .serverTrust, disposition: .performDefaultHandling, trust: trust, host: host,
                                                reasons: ["no delegate: default handling"])
        case .afnetworking(let policy, _):
            outcome = ChallengeResolver.afNetworking(policy: policy, method: .serverTrust, trust: trust, host: host)
        case .seed001(let mode):
            outcome = Seed001Policies.challengeMode(mode, trust: trust, host: host)
        case .webContainer:
            outcome = Seed001Policies.webContainer(method: .serverTrust, trust: trust, host: host)
        case .imageDownloader(let allowInvalid):
            outcome = Seed001Policies.imageDownloader(method: .serverTrust, allowInvalidSSLCertificates: allowInvalid,
                                                      ownCredential: false, trust: trust, host: host)
        }
        let failure = trust.defaultEvaluation(host: host).firstFailure
        recorder.verdict = TrustVerdict(accepted: outcome.handshakeContinues, disposition: outcome.disposition,
                                        firstFailingCheck: failure?.kind, reasons: outcome.reasons)
        let why = outcome.reasons.joined(separator: "; ")
        guard outcome.handshakeContinues else {
            return .reject(Self.alert(for: failure?.kind), reason: "\(outcome.disposition.rawValue): \(why)")
        }
        guard let key = try? RSAPublicKey(subjectPublicKeyInfoDER: leaf.publicKey.der) else {
            return .reject(.unsupportedCertificate, reason: "the leaf key is \(leaf.publicKey.kind), not RSA")
        }
        return .accept(leafPublicKey: key, summary: "\(outcome.disposition.rawValue): \(why)")
    }

    /// RFC 5246 §7.2.2 alerts for the first failing check; a refusal with a valid chain (a pin
    /// mismatch) is bad_certificate.
    static func alert(for kind: ChainCheck.Kind?) -> AlertDescription {
        switch kind {
        case .validity: return .certificateExpired
        case .anchor, .pathBuilding: return .unknownCA
        case .signature: return .decryptError
        case .algorithmStrength, .criticalExtensions: return .unsupportedCertificate
        case .name, .caFlag, .keyCertSign, .pathLength, .extendedKeyUsage, .endEntity, .none: return .badCertificate
        }
    }
}

/// The server's decision about a client certificate (mutual TLS): CAs, validity, subject whitelist.
struct ClientCertificateEvaluator: PeerCertificateEvaluator {
    let policy: MutualTLSPolicy
    let time: Int64
    let recorder: VerdictRecorder

    func evaluate(chain: [[UInt8]], role: TLSRole, serverName: String?) -> CertificateDecision {
        let certificates = chain.compactMap { try? X509Certificate(der: $0) }
        guard certificates.count == chain.count else { return .reject(.badCertificate, reason: "a client certificate does not parse") }
        let (outcome, reasons, _) = policy.evaluate(clientChain: certificates.isEmpty ? nil : certificates, time: time)
        switch outcome {
        case .accept:
            guard let leaf = certificates.first, let key = try? RSAPublicKey(subjectPublicKeyInfoDER: leaf.publicKey.der) else {
                return .reject(.handshakeFailure, reason: reasons.joined(separator: "; "))
            }
            recorder.clientAuthenticated = true
            return .accept(leafPublicKey: key, summary: reasons.joined(separator: "; "))
        case .reject(let alert):
            return .reject(AlertDescription(rawValue: alert.code), reason: reasons.joined(separator: "; "))
        }
    }
}
