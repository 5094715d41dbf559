/// TLS 1.3 客户端认证的中文句子（RFC 8446 §4.3.2、§4.4.2、§4.4.3）：服务器加密部分中的 CertificateRequest、
/// 客户端的 Certificate，以及带客户端上下文字符串的 CertificateVerify；以及在 TLS 1.3 上重演的 1.2 攻击：
/// 持有自己证书的中间人、事后被盗的服务器私钥。
extension Explanations {
    static let chineseTLS13ClientAuth: [String: String] = [
        "run.summary.tls13-client-auth": "带客户端证书的 TLS 1.3：CertificateRequest 在服务器加密发送的消息中；客户端回以 Certificate、CertificateVerify（\"TLS 1.3, client CertificateVerify\"）和 Finished",
        "tls13.CertificateRequest": "CertificateRequest（RFC 8446 §4.3.2）：{sender}向{receiver}索要证书。它在 EncryptedExtensions 之后、用服务器握手流量密钥保护，所以窃听者不知道服务器要过证书；在 TLS 1.2 中它以明文传输。握手期间 certificate_request_context 为空（客户端在自己的 Certificate 中原样带回），必须出现的 signature_algorithms 扩展列出{sender}在客户端 CertificateVerify 中接受的签名方案。",
        "tls13.Certificate.client": "Certificate（RFC 8446 §4.4.2），来自{sender}：它的证书链，叶子证书在前，原样带回请求中的 certificate_request_context，在服务器的 Finished 之后用客户端握手流量密钥保护发送——与 TLS 1.2 不同，它是加密的。{receiver}逐级验证签名，直到它接受的某个客户端 CA，并检查有效期，以及该密钥是否可用于客户端认证；若{receiver}要求证书而列表为空，握手以 certificate_required 结束（§4.4.2.4）。",
        "tls13.CertificateVerify.client": "CertificateVerify（RFC 8446 §4.4.3），来自{sender}：它用证书对应的私钥，对 64 个空格（十六进制 20）、上下文字符串 \"{context}\"、一个零字节和截至它自己的 Certificate 的握手记录哈希签名——这份握手记录包含服务器发送的全部消息，连同它的 Finished。这个上下文字符串与服务器的不同，所以服务器的签名永远不能冒充客户端的签名，反之亦然；{receiver}用它刚接受的证书中的公钥验证它。",
        "tls13.line.certificateRequested": "{actor}：CertificateRequest，certificate_request_context {context}，signature_algorithms {schemes}",
        "run.summary.tls13-mitm": "TLS 1.3，持有自己证书的中间人：客户端拒绝了它，与 TLS 1.2 相同",
        "run.summary.tls13-key-theft": "录下 TLS 1.3 会话，事后服务器私钥被盗：什么也解不开（临时 (EC)DHE，RFC 8446 §1.2）",
        "attack.keyTheft.tls13": "TLS 1.3 中的前向安全：窃听者录下了一切，随后拿到了服务器的私钥。TLS 1.3 取消了 RSA 密钥传输和静态 (EC)DH（RFC 8446 §1.2）：服务器的私钥只为它的 CertificateVerify 签过名（§4.4.3），而每一个流量密钥都来自两份临时密钥共享算出的 (EC)DHE 共享秘密，双方在握手后就丢弃了这些临时密钥。所以录下的流量仍然解不开（§E.1：握手之后长期签名密钥泄露，不会危及会话密钥）。不过，偷到私钥的人确实能从此冒充服务器。",
        "failed.tls13ForwardSecrecy": "录下的内容中没有任何东西是用被盗 RSA 私钥对应的公钥加密的：密钥交换以两份 key_share 公开值的形式经过网络，这把私钥只为 CertificateVerify 签过名；共享秘密背后的临时私钥在握手后已经销毁（RFC 8446 §1.2、§E.1）",
        "tls13.line.emptyClientCertificateSent": "{actor}：没有可以回答 CertificateRequest 的证书（没有配置，或者没有一个用请求列出的签名方案的）：发送空的 Certificate，不发送 CertificateVerify（RFC 8446 §4.4.2、§4.4.3）",
        "tls13.line.emptyClientCertificateReceived": "{actor}：客户端的 Certificate 是空的，后面也没有 CertificateVerify：客户端没有发送证书；服务器只是请求证书，所以握手在没有客户端认证的情况下继续（RFC 8446 §4.4.2、§4.4.2.4）",
        "walk.tls13.emptyClientCertificate": "客户端没有发送证书：它的 Certificate 是空的，后面也没有 CertificateVerify（RFC 8446 §4.4.2、§4.4.3）。",
        "walk.tls13.certificateRequested": "服务器在它加密发送的消息中向客户端索要证书；客户端将在服务器的 Finished 之后回答（RFC 8446 §4.3.2）。",
    ]
}
