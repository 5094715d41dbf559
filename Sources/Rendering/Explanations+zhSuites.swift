/// 第 39 号议题加入的套件的中文：ChaCha20-Poly1305 记录（RFC 7905），以及记录打不开或密钥不合适时接收方的说法。
extension Explanations {
    static let chineseSuites: [String: String] = [
        "badRecordMAC.chaChaRecordTooShort": "ChaCha20-Poly1305 记录至少需要 {needed} 字节，实际只有 {got} 字节",
        "badRecordMAC.poly1305TagMismatch": "Poly1305 认证标签验证不通过（密钥或序号不对，或字节被篡改）",
        "recordKeys.chaChaIVLength": "固定 IV 有 {have} 字节，而 ChaCha20-Poly1305 需要从密钥块取 12 字节的 IV（RFC 7905 §2）",
        "recordKeys.explicitNonceWithChaCha": "给了 {have} 字节的显式 nonce，而 ChaCha20-Poly1305 记录不带显式 nonce（RFC 7905 §2：record_iv_length 为 0）",
        "recordKeys.chaChaRefusedKey": "ChaCha20-Poly1305 拒绝了密钥或 nonce",
        "misbehaved.certificateVerifySchemeNotRequested.scheme": "CertificateVerify 用 {scheme} 签名，而服务器的 CertificateRequest 没有列出它（列出的是 {requested}）",
        "misbehaved.certificateVerifySchemeNotRequested.none": "CertificateVerify 没有注明签名算法；服务器的 CertificateRequest 列出的是 {requested}",
    ]
}

/// 一次运行中第一条 ChaCha20-Poly1305 记录的具体值（TextRenderer+ChaCha），以及 TLS 为什么有第二种 AEAD。
extension Explanations {
    static let chineseChaCha: [String: String] = [
        "run.summary.chacha20": "使用 ChaCha20-Poly1305 的 ECDHE（RFC 7905）：记录的 nonce 是序号异或进 IV 得到的，不随记录传输",
        "record.chacha.values": "{actor}的一条受保护记录（序号 {seq}）的具体值。ChaCha20-Poly1305 nonce = IV XOR 补齐的序号 = {iv} XOR {paddedSeq} = {nonce}：整个 12 字节的 IV 都来自密钥块（client_write_IV 或 server_write_IV），64 位序号在左边补零到 12 字节后与它异或（RFC 7905 §2）。nonce 的任何部分都不传输：记录里只有密文 ‖ 16 字节的 Poly1305 认证标签，比 AES-GCM 记录短 8 字节——AES-GCM 在 4 字节的盐值之外还要传输 8 字节的显式 nonce（RFC 5288 §3）。附加数据 = seq_num ‖ 类型 ‖ 版本 ‖ 长度 = {seqHex} ‖ {type} ‖ {version} ‖ {length}，长度是明文的长度，{plaintext} 字节（RFC 5246 §6.2.3.3）。认证标签 {tag} 认证密文和这段附加数据；接收方用自己的计数构造 nonce，所以被重放、丢弃或调换顺序的记录都会验证失败。",
        "record.chacha.why": "为什么要有第二种 AEAD：在有 AES 和无进位乘法指令的处理器上（AES-NI 和 PCLMULQDQ、ARMv8 加密扩展），AES-GCM 很快；没有这些指令时，软件实现的 AES 很慢，而查表实现的 AES 还会通过缓存时间泄露密钥。ChaCha20 只用 32 位加法、循环移位和异或，所以纯软件实现也又快又是常数时间——适合没有 AES 指令的手机和小型设备（RFC 7905 §1）。两种互不相关的密码并存，也让其中一种万一被削弱时还有后备。",
    ]
}
