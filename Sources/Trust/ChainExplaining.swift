import PKI
import TLSEngine

/// An evaluator that can show the whole chain validation behind its decision: every check per
/// link, in order, with pass/fail, Hash1/Hash2 and the recovered PKCS#1 block. The engine's
/// decision carries only the alert and a sentence; the simulation asks for this (validation is a
/// pure function of the chain, the anchors and the simulated clock) and puts it in the trace.
public protocol ChainExplaining {
    func chainValidation(chain: [[UInt8]], role: TLSRole, serverName: String?) -> ChainValidationResult?
}

extension ChainTrustEvaluator: ChainExplaining {
    public func chainValidation(chain: [[UInt8]], role: TLSRole, serverName: String?) -> ChainValidationResult? {
        var certificates: [X509Certificate] = []
        for der in chain {
            guard let certificate = try? X509Certificate(der: der) else { return nil }
            certificates.append(certificate)
        }
        guard !certificates.isEmpty else { return nil }
        let purpose: ChainValidator.Purpose = role == .server ? .sslServer(host: serverName) : .sslClient
        return ChainValidator(anchors: anchors, purpose: purpose, time: time, rejectWeakAlgorithms: rejectWeakAlgorithms)
            .validate(certificates)
    }
}

extension PolicyTrustEvaluator: ChainExplaining {
    public func chainValidation(chain: [[UInt8]], role: TLSRole, serverName: String?) -> ChainValidationResult? {
        decide(chain: chain, host: serverName ?? "").evaluation
    }
}
