/// TLS 1.3 运行的句子（RFC 8446）：密钥调度的每一步、受保护记录的外层头部与内层内容类型、谁知道哪个 1.3 秘密、1.3 一方的失败。
extension Explanations {
    static let chineseTLS13: [String: String] = [
        "run.summary.tls13": "TLS 1.3（RFC 8446），1-RTT：ClientHello 里带上 X25519 密钥共享，TLS_AES_128_GCM_SHA256，证书被加密",
        "cause.tls13": "{failure}（RFC 8446 §6.2：{alert}）",
    ]
}
