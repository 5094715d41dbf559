import PKI
import TLSCrypto

/// Why the certificates and keys compiled into TLSLab do not load (`BuiltInPKIFailure`): a fault of
/// the build, said with the certificate's name and the typed cause (issue #34: no error's English
/// description inside a sentence).
extension Explanations {
    public func builtInPKIFailure(_ failure: BuiltInPKIFailure) -> String {
        func say(_ key: String, _ values: [String: String] = [:]) -> String { self(key, values) ?? Explanations.english(key, values) ?? key }
        switch failure {
        case let .certificate(label, error): return say("builtInPKI.certificate", ["label": label, "detail": pkiError(error)])
        case .noCertificate(let label): return say("builtInPKI.noCertificate", ["label": label])
        case let .key(label, .invalidKeyEncoding): return say("builtInPKI.key.encoding", ["label": label])
        case let .key(label, _): return say("builtInPKI.key.numbers", ["label": label])
        case .clientKey: return say("builtInPKI.clientKey")
        case .clientCertificate(let error): return say("builtInPKI.clientCertificate", ["detail": pkiError(error)])
        }
    }

    static let englishBuiltInPKI: [String: String] = [
        "builtInPKI.certificate": "the certificate {label} built into TLSLab does not parse: {detail}",
        "builtInPKI.noCertificate": "the PEM of the certificate {label} built into TLSLab holds no CERTIFICATE block (RFC 7468 §5.1)",
        "builtInPKI.key.encoding": "the private key of {label} built into TLSLab is not an RSA private key in PEM (RSA PRIVATE KEY, RFC 8017 Appendix A.1.2, or PRIVATE KEY, RFC 5208 §5)",
        "builtInPKI.key.numbers": "the numbers of the private key of {label} built into TLSLab do not make an RSA private key (RFC 8017 §3.2)",
        "builtInPKI.clientKey": "no P-256 key could be generated for the demo client certificate",
        "builtInPKI.clientCertificate": "the demo client certificate cannot be built: {detail}",
        "cli.builtInRun.failed": "the built-in run {name} cannot be set up: {reason}",
    ]

    static let chineseBuiltInPKI: [String: String] = [
        "builtInPKI.certificate": "TLSLab 内置的证书 {label} 无法解析：{detail}",
        "builtInPKI.noCertificate": "TLSLab 内置证书 {label} 的 PEM 中没有 CERTIFICATE 块（RFC 7468 §5.1）",
        "builtInPKI.key.encoding": "TLSLab 内置的 {label} 私钥不是 PEM 格式的 RSA 私钥（RSA PRIVATE KEY，RFC 8017 附录 A.1.2；或 PRIVATE KEY，RFC 5208 §5）",
        "builtInPKI.key.numbers": "TLSLab 内置的 {label} 私钥中的数值构不成 RSA 私钥（RFC 8017 §3.2）",
        "builtInPKI.clientKey": "无法为演示客户端证书生成 P-256 密钥",
        "builtInPKI.clientCertificate": "无法生成演示客户端证书：{detail}",
        "cli.builtInRun.failed": "内置运行 {name} 无法准备：{reason}",
    ]
}
