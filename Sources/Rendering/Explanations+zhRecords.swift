/// 记录层的“为什么”的中文：记录版本与 client_version、第一条 AES-GCM 记录的 nonce 和附加数据、每个 ClientHello 扩展。
extension Explanations {
    static let chineseRecords: [String: String] = [
        "tls.recordVersion.lower": "承载 ClientHello 的记录以 5 字节的记录头 {header} 开头：内容类型 16（握手）、记录版本 {record}、长度 {length}——所以 TCP 为它传输 {total} 个字节。记录版本不是客户端的报价：报价是 ClientHello.client_version，{hello}。在服务器选定版本之前，客户端可以在记录头里写一个更低的值，例如 03 01，因为有些旧服务器会拒绝版本号它不认识的记录；服务器必须接受那里任何以 03 开头的值（RFC 5246 附录 E.1）。ServerHello 选定之后，记录里带的就是选定的版本。",
        "tls.recordVersion.same": "承载 ClientHello 的记录以 5 字节的记录头 {header} 开头：内容类型 16（握手）、记录版本 {record}、长度 {length}——所以 TCP 为它传输 {total} 个字节。这里记录版本等于 ClientHello.client_version（{hello}），但它们是两个不同的字段：报价是 client_version。在服务器选定之前，客户端可以在记录头里写一个更低的值，例如 03 01，因为有些旧服务器会拒绝版本号它不认识的记录；服务器必须接受那里任何以 03 开头的值（RFC 5246 附录 E.1）。",
        "record.gcm.values": "{actor}的第一条受保护记录（序号 {seq}）的具体值。AES-GCM nonce = 盐值 ‖ 显式部分 = {salt} ‖ {explicit} = {nonce}：4 字节的盐值来自密钥块，8 个显式字节放在记录开头一起传输（RFC 5288 §3）。附加数据 = seq_num ‖ 类型 ‖ 版本 ‖ 长度 = {seqHex} ‖ {type} ‖ {version} ‖ {length}：长度是明文的长度，{plaintext} 字节（RFC 5246 §6.2.3.3）。认证标签 {tag} 认证密文和这段附加数据；其中的序号从不传输，接收方用自己的计数，所以被重放、丢弃或调换顺序的记录都会验证失败。",
        "walk.tls.rsaDecryptionSubstituted": "解密没有得到有效的预主密钥，{actor}却不声张：它用替代的预主密钥继续，于是双方现在持有不同的预主密钥，握手会像任何密钥错误时一样在 Finished 失败（RFC 5246 §7.4.7.1）。",
        "attack.line.earlyCCS": "{actor}紧跟在 ClientHello 之后向服务器注入一条 ChangeCipherSpec 记录（14 03 03 00 01 01），作为新的 TCP 字节，seq={seq}：这时还没有任何密钥",
        "attack.earlyCCS": "在密钥存在之前到达的 ChangeCipherSpec（CVE-2014-0224）。ChangeCipherSpec 是一种独立的记录类型，而不是握手消息，所以握手的状态机必须自己检查它何时可以到来：只能在 ClientKeyExchange 之后、预主密钥和密钥都已存在时（RFC 5246 §7.1、§7.4）。这里服务器等的是 ClientKeyExchange；此刻到来的 ChangeCipherSpec 顺序不对，服务器以 unexpected_message 拒绝它（RFC 5246 §7.2.2）。0.9.8za、1.0.0m 和 1.0.1h 之前的 OpenSSL 接受了它，换用了由空主密钥推导出的密钥，而路径上的攻击者也算得出这些密钥：于是它能读取并篡改这条连接。",
        "carried.forged": "攻击者伪造的",
        "ext.heading": "这个 ClientHello 中每个扩展的作用：",
        "ext.server_name": "server_name（RFC 6066 §3）：客户端要访问的主机名，以明文发送，这样托管多个网站的服务器能在任何加密开始之前选对证书；这也是窃听者能看到网站名称的原因。",
        "ext.signature_algorithms": "signature_algorithms（RFC 5246 §7.4.1.4.1）：客户端接受的签名与哈希组合，最想要的在前，用于 ServerKeyExchange 的签名和证书；服务器必须用其中之一签名。",
        "ext.supported_groups": "supported_groups（RFC 8422 §5.1.1、RFC 7919）：客户端能用来做 (EC)DHE 的椭圆曲线和有限域群；服务器从中选一个用于它的 ServerKeyExchange。",
        "ext.signature_algorithms.tls13": "signature_algorithms（RFC 8446 §4.2.3）：客户端在服务器的 CertificateVerify 中接受的签名方案，最想要的在前（没有 signature_algorithms_cert 时也用于证书）；服务器必须用其中之一为 CertificateVerify 签名。",
        "ext.signature_algorithms.tls13or12": "signature_algorithms（RFC 8446 §4.2.3、RFC 5246 §7.4.1.4.1）：客户端接受的签名方案，最想要的在前：在 TLS 1.3 中用于服务器的 CertificateVerify（以及证书），在 TLS 1.2 中用于 ServerKeyExchange 的签名和证书；服务器必须用其中之一签名。",
        "ext.supported_groups.tls13": "supported_groups（RFC 8446 §4.2.7）：客户端能用来做 (EC)DHE 的组，最想要的在前；服务器从中选一个，并回以该组的 key_share（§4.2.8）。",
        "ext.supported_groups.tls13or12": "supported_groups（RFC 8446 §4.2.7、RFC 8422 §5.1.1）：客户端能用来做 (EC)DHE 的组，最想要的在前；TLS 1.3 服务器回以其中一个组的 key_share（§4.2.8），TLS 1.2 服务器把其中一个用于它的 ServerKeyExchange。",
        "ext.key_share": "key_share（RFC 8446 §4.2.8）：客户端的临时公开值，它猜服务器会选的每个组各一个，这样服务器在 ServerHello 中就能完成 (EC)DHE 交换。",
        "ext.psk_key_exchange_modes": "psk_key_exchange_modes（RFC 8446 §4.2.9）：客户端用预共享密钥恢复会话的方式：psk_dhe_ke 再加一次新的 (EC)DHE 交换，psk_ke 只用该密钥。",
        "ext.supported_versions": "supported_versions（RFC 8446 §4.2.1）：客户端会说的 TLS 版本，最想要的在前；服务器在自己的 supported_versions 中写出它选的版本，而 legacy_version 字段仍是 03 03。",
        "ext.ec_point_formats": "ec_point_formats（RFC 8422 §5.1.2）：客户端能读的曲线点编码；唯一仍在使用的未压缩格式必须支持。",
        "ext.extended_master_secret": "extended_master_secret（RFC 7627 §5.1）：内容为空；它要求用整个握手的哈希而不是两个随机数来计算主密钥，这样中间人就无法让两条连接得到相同的主密钥（三次握手攻击）。",
        "ext.renegotiation_info": "renegotiation_info（RFC 5746 §3.2）：首次握手时内容为空；它表明客户端支持安全重协商，这样这条连接上以后的握手会绑定到这次握手的 Finished 值上，攻击者无法把自己的握手拼接在客户端的握手前面。",
        "ext.session_ticket": "SessionTicket（RFC 5077 §3.2）：内容为空时，表明客户端能保存票据；里面带着票据时，表示它要恢复票据中保存的会话。",
        "ext.alpn": "application_layer_protocol_negotiation（RFC 7301 §3.1）：客户端会说的应用层协议，最想要的在前；服务器在 ServerHello 中选一个。",
        "ext.encrypt_then_mac": "encrypt_then_mac（RFC 7366 §2）：内容为空；对 CBC 套件，它要求对密文而不是明文计算 MAC，这样接收方先验证 MAC 再解密，填充错误就无法和其他任何伪造区分开来。",
    ]
}
