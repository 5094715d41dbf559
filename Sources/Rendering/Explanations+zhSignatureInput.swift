/// 握手签名，作为学习者可以重算的一步：签名的是哪些字节，以及对它做出的签名，或用签名方证书中的公钥
/// 对签名的验证（RFC 5246 §7.4.3、§7.4.8，RFC 8422 §5.4，RFC 8446 §4.4.3）。
extension Explanations {
    static let chineseSignatureInput: [String: String] = [
        "derived.signedInput.serverKeyExchange": "签名输入（RFC 5246 §7.4.3、RFC 8422 §5.4）= client_random ‖ server_random ‖ {params}，共 {bytes} 字节",
        "derived.signedInput.certificateVerify": "签名输入（RFC 5246 §7.4.8）= handshake_messages：从 ClientHello 起、到这条 CertificateVerify 之前（不含它）发送和收到的每条握手消息，各带类型和长度字段，共 {bytes} 字节",
        "derived.signedInput.tls13": "签名输入（RFC 8446 §4.4.3）= 64 × 0x20 ‖ 上下文字符串 ‖ 00 ‖ Transcript-Hash，即截至 Certificate（含）的握手消息的哈希；共 {bytes} 字节，其中哈希 {hashBytes} 字节",
        "derived.signedInput.part": "{name} = {value}",
        "derived.signedInput.contextString": "\"{context}\" = {value}",
        "derived.signedInput.whole": "签名输入 = {input}",
        "derived.signedInput.wholeBytes": "签名输入（完整）：{input}",
        "derived.signature.made": "签名 = Sign_{algorithm}（{actor}证书的私钥，签名输入）= {signature}（{bytes} 字节）",
        "derived.signature.verified": "{actor}：Verify_{algorithm}（{signer}证书中的公钥，签名输入，签名 {signature}）→ 有效",
        "derived.signature.refused": "{actor}：Verify_{algorithm}（{signer}证书中的公钥，签名输入，签名 {signature}）→ 无效",
        "derived.signature.wholeBytes": "签名（完整）：{signature}",
    ]
}
