import TLSCrypto

/// The words of a lesson run's own problems (the `script_errors` and DH `error` facts, issue #34):
/// a TCP step that could not be carried out, Diffie-Hellman arithmetic that refused the numbers.
/// The step names (`send`, `listen`) are the lesson file's own words and stay as they are.
extension Explanations {
    /// Why finite-field Diffie-Hellman refused its numbers.
    public func dhError(_ error: DHError) -> String {
        switch error {
        case .peerValueOutOfRange: return phrase("dhError.peerValueOutOfRange")
        case .peerValueNotInSubgroup: return phrase("dhError.peerValueNotInSubgroup")
        case let .peerValueTooLong(count, limit): return phrase("dhError.peerValueTooLong", ["count": "\(count)", "limit": "\(limit)"])
        case .invalidPrivateExponent: return phrase("dhError.invalidPrivateExponent")
        case .invalidGroup: return phrase("dhError.invalidGroup")
        case .arithmetic: return phrase("dhError.arithmetic")
        }
    }

    static let englishRunProblems: [String: String] = [
        "runProblem.noConnection.client": "{action}: the client has no connection at this step",
        "runProblem.noConnection.server": "{action}: the server has no connection at this step",
        "runProblem.refusedCall": "{action}: the simulated TCP refuses the call: {error} (RFC 9293 §3.10)",
        "runProblem.separator": "; ",
        "dhError.peerValueOutOfRange": "a public value is not in 2 … p−2 (RFC 7919 §5.1)",
        "dhError.peerValueNotInSubgroup": "a public value is not in the group's prime-order subgroup (NIST SP 800-56A Rev. 3 §5.6.2.3.1)",
        "dhError.peerValueTooLong": "a public value has {count} bytes, more than p's {limit} (RFC 5246 §7.4.3)",
        "dhError.invalidPrivateExponent": "a private exponent is not in 1 … p−2",
        "dhError.invalidGroup": "the group cannot be used: p is below 5, or g is not in 2 … p−1",
        "dhError.arithmetic": "the big-number arithmetic refused these numbers",
    ]

    static let chineseRunProblems: [String: String] = [
        "runProblem.noConnection.client": "{action}：此时客户端没有连接",
        "runProblem.noConnection.server": "{action}：此时服务器没有连接",
        "runProblem.refusedCall": "{action}：模拟的 TCP 拒绝了这次调用：{error}（RFC 9293 §3.10）",
        "runProblem.separator": "；",
        "dhError.peerValueOutOfRange": "有一个公开值不在 2 … p−2 之间（RFC 7919 §5.1）",
        "dhError.peerValueNotInSubgroup": "有一个公开值不在群的素数阶子群中（NIST SP 800-56A Rev. 3 §5.6.2.3.1）",
        "dhError.peerValueTooLong": "有一个公开值长 {count} 字节，比 p 的 {limit} 字节还长（RFC 5246 §7.4.3）",
        "dhError.invalidPrivateExponent": "有一个私有指数不在 1 … p−2 之间",
        "dhError.invalidGroup": "这个群无法使用：p 小于 5，或 g 不在 2 … p−1 之间",
        "dhError.arithmetic": "大数运算拒绝了这些数",
    ]
}
