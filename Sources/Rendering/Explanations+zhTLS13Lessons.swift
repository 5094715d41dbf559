/// TLS 1.3 课程（场景文件中的 `version: "1.3"`）的中文句子：为什么 1.3 场景拒绝某个 TLS 1.2 的键，附上
/// RFC 8446 中删除它所设置内容的规则；以及 TLS 1.3 课程所依赖的期望的含义。
extension Explanations {
    static let chineseTLS13Lessons: [String: String] = [
        "html.index.topic.tls13": "TLS 1.3 握手",
        "cli.compareCommand.html": "同时把对比写成一个自包含的 HTML 页面：表格、原因、谁知道哪个秘密，以及按阶段并排的两条时序图。",
        "scenario.tls13.versionRange": "矛盾：version \"1.3\" 把这一方固定在 TLS 1.3（supported_versions，RFC 8446 §4.2.1）；{key} 在 TLS 1.0–1.2 之间选择版本，在 1.3 课程中不起作用",
        "scenario.tls13.ems": "矛盾：extended_master_secret（RFC 7627）不是 TLS 1.3 的扩展（RFC 8446 §4.2）：1.3 密钥调度中的每个秘密都已经包含握手记录的哈希（§7.1）",
        "scenario.tls13.dhGroup": "矛盾：TLS 1.3 没有 ServerKeyExchange，也没有由服务器选择的 Diffie-Hellman 素数（RFC 8446 §1.2）：群是 supported_groups 中的一个命名群，其公开值在 key_share 中发送（§4.2.7、§4.2.8）；请使用 server.groups",
        "scenario.tls13.minDHBits": "矛盾：TLS 1.3 没有由服务器选择、需要限定大小的 Diffie-Hellman 素数，只有命名群（RFC 8446 §4.2.7）；请使用 client.groups",
        "scenario.tls13.alpn": "矛盾：TLSLab 的 TLS 1.3 引擎不发送 ALPN，所以 {side}.alpn 永远不会被发送；ALPN 在 TLS 1.2 课程中展示",
        "scenario.tls13.h2": "矛盾：基于 TLS 的 HTTP/2 通过 ALPN 选定（RFC 9113 §3.2），而 TLSLab 的 TLS 1.3 引擎不发送 ALPN；请使用 mode keep-alive 或 http/1.0",
        "scenario.tls13.resumptionTicket": "矛盾：TLS 1.3 用一种 PSK 交换取代了会话 ID 和 RFC 5077 的会话票据（RFC 8446 §1.2、§2.2）；请写 resumption: true，即使用服务器 NewSessionTicket 中的 PSK",
        "scenario.tls13.earlyCCS": "矛盾：TLS 1.3 的一方会丢弃在第一个 ClientHello 之后、对方 Finished 之前到达的、只含一个字节 01 的 ChangeCipherSpec 记录（RFC 8446 §5），所以提前发送 ChangeCipherSpec 的攻击（CVE-2014-0224）无从下手",
        "scenario.tls13.attack": "矛盾：攻击者类型 {kind} 在 version \"1.3\" 下没有建模；应为以下之一：eavesdropper、steal_server_key、mitm",
        "scenario.tls13.keyOnlyFor13": "键“{key}”只适用于 version \"1.3\"（TLS 1.3 在 supported_groups 中列出它的群，并发送 key_share，RFC 8446 §4.2.7、§4.2.8）；请在顶层加上 version: \"1.3\"",
        "scenario.tls13.rsaSuite": "{suite} 使用 RSA 密钥传输，TLS 1.3 已将其删除（RFC 8446 §1.2：静态 RSA 和 Diffie-Hellman 密码套件都已去掉，每次密钥交换都是临时的）；应为以下之一：{list}",
        "scenario.tls13.cbcSuite": "{suite} 用 CBC 和 HMAC 保护记录，TLS 1.3 已将其删除（RFC 8446 §1.2：只保留 AEAD 算法）；应为以下之一：{list}",
        "scenario.tls13.tls12Suite": "{suite} 是 TLS 1.2 的密码套件：TLS 1.3 的密码套件只指定 AEAD 和哈希，密钥交换在 supported_groups 和 key_share 中另行协商（RFC 8446 §4.1.1、§B.4）；应为以下之一：{list}",
        "scenario.tls13.listedTwice": "矛盾：{name} 列出了两次",
        "scenario.tls13.noGroup": "至少需要一个群",
        "scenario.tls13.shareNotOffered": "矛盾：key_share 提供了 {group}，但 client.groups 没有列出它；每个密钥共享都必须属于 supported_groups 中的某个群（RFC 8446 §4.2.8）",
        "scenario.tls13.withoutTLS": "矛盾：version \"1.3\" 是一个 TLS 版本，而这次运行设置了 tls: false",
        "expect.meaning.version13": "双方使用的是 TLS 1.3：ServerHello 的 legacy_version 仍是 03 03，并在 supported_versions 中写明 03 04，这是 TLS 1.3 的 ServerHello 给出版本的唯一位置（RFC 8446 §4.1.3、§4.2.1）。",
        "expect.meaning.group": "(EC)DHE 共享秘密来自两个临时的 {group} 公开值：在 TLS 1.3 中是 key_share 中的条目（RFC 8446 §4.2.8），在 TLS 1.2 中是 ServerKeyExchange 和 ClientKeyExchange 中的点（RFC 8422 §5.4）。",
        "expect.meaning.helloRetryRequest": "第一个 ClientHello 中没有服务器所选群的密钥共享，所以服务器回以指明该群的 HelloRetryRequest，客户端再发送第二个 ClientHello：多了一次往返（RFC 8446 §4.1.1、§4.1.4）。",
        "expect.meaning.noHelloRetryRequest": "客户端的第一个密钥共享属于服务器接受的群，所以握手只用了一次往返（RFC 8446 §2、§4.1.1）。",
        "expect.meaning.pskAccepted": "服务器接受了客户端用票据提供的 PSK（它在 ServerHello 中的 pre_shared_key），所以那次握手没有发送 Certificate 和 CertificateVerify：绑定值和 Finished 证明双方都持有这个 PSK（RFC 8446 §2.2、§4.2.11）。",
        "expect.meaning.reads.serverName": "服务器的名字在 ClientHello 的 server_name 中以明文传输，它在任何密钥存在之前就已发送（RFC 6066 §3；RFC 8446 §4.1.2）。",
        "expect.meaning.reads.certificateInClear": "服务器的 Certificate 以明文经过线路，与每一次 TLS 1.2 完整握手一样（RFC 5246 §7.4.2）。",
        "expect.meaning.reads.certificateEncrypted": "服务器的 Certificate 从未原样出现在线路上：在 TLS 1.3 中，它在 ServerHello 之后用服务器握手流量密钥保护发送（RFC 8446 §2、§4.4.2）。",
    ]
}
