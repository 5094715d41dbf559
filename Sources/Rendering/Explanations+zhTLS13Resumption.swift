/// TLS 1.3 恢复的中文句子（RFC 8446 §2.2、§4.2.11、§4.6.1）：NewSessionTicket、双方由它推导出的 PSK、
/// 带绑定值提出它的 ClientHello、接受它的 ServerHello，以及随后不带证书的握手。
extension Explanations {
    static let chineseTLS13Resumption: [String: String] = [
        "run.summary.tls13-resumption": "TLS 1.3 恢复：第一次握手后服务器发出 NewSessionTicket；第二条连接把它作为 PSK（psk_dhe_ke）连同绑定值交回——不发证书，重新做一次 X25519 交换",
        "phase.tls13.resumed": "用预共享密钥恢复的 TLS 1.3 握手（RFC 8446 §2.2）：客户端提出服务器在先前一条连接上给它的票据，并附上绑定值，证明它持有该票据的 PSK。服务器接受了它，所以既不发 Certificate，也不发 CertificateVerify：它的 Finished 的密钥来自 PSK 和这次握手，足以证明它的身份。在 psk_dhe_ke 模式下双方仍发送密钥共享（§4.2.9），所以这条连接的密钥也来自一次新的 (EC)DHE 交换。",
        "tls13.NewSessionTicket": "NewSessionTicket（RFC 8446 §4.6.1）：握手之后，{sender}在应用流量密钥的保护下给{receiver}一张供以后连接使用的票据：ticket_lifetime（可以使用的秒数，最多 604800）、ticket_age_add（一个随机数，客户端提出票据时把它加到票据的年龄上，使窃听者无法把那个年龄与这张票据对应起来）、ticket_nonce，以及票据本身，一个服务器认得的标签。PSK 本身不在其中：双方各自由自己的 resumption_master_secret 和 nonce 推导出它。这条消息在两条 Finished 之后，所以这次握手的任何握手记录哈希都不包括它。",
        "tls13.ClientHello.psk": "提出预共享密钥的 ClientHello（RFC 8446 §4.2.11）：与首次握手一样，{sender}提出 TLS 1.3 并发出 key_share，psk_key_exchange_modes 写的是 psk_dhe_ke，所以恢复时仍要做一次新的 (EC)DHE 交换（§4.2.9）。它的最后一个扩展 pre_shared_key 带着票据和 obfuscated_ticket_age——票据的年龄（毫秒）加上 ticket_age_add，对 2^32 取模（§4.2.11.1）——以及对这条 ClientHello 截至绑定值之前的部分计算出的绑定值（§4.2.11.2）。",
        "tls13.ServerHello.psk": "接受预共享密钥的 ServerHello（RFC 8446 §4.2.11）：{sender}回以 pre_shared_key，指明它采用的是所提出的哪一个 PSK（selected_identity，从 0 数起），并附上自己的 key_share。early_secret 现在是 HKDF-Extract(0, PSK)，而不是全零；(EC)DHE 共享秘密仍在 handshake_secret 处加入（§7.1），所以密钥同时取决于两者。之后没有 Certificate，也没有 CertificateVerify：只有持有 PSK 的一方才算得出{sender}的 Finished（§2.2）。",
        "tls13.binder": "绑定值（RFC 8446 §4.2.11.2）的算法与 Finished 相同：对票据的 PSK，binder_key = Derive-Secret(early_secret, \"res binder\", \"\")（在 TLS 之外约定的 PSK 用 \"ext binder\"，§7.1），再以它的 finished_key 为密钥，对截至这条 ClientHello（不含绑定值）的握手记录哈希计算 HMAC——其中的各个长度已经把绑定值算在内。没有 PSK 的人算不出它，为一条 ClientHello 算出的绑定值也不适用于另一条。",
        "tls13.line.expandLabel": "{actor}：{secret} = HKDF-Expand-Label({from}, \"{label}\", ticket_nonce {context}, Hash.length) = {value}（RFC 8446 §4.6.1）",
        "tls13.line.ticketSent": "{actor}发出一张票据：ticket_lifetime {lifetime} 秒，ticket_age_add {ageAdd}，ticket_nonce {nonce}，票据 {ticket}",
        "tls13.line.ticketKept": "{actor}保存这张票据供以后连接使用：ticket_lifetime {lifetime} 秒，ticket_age_add {ageAdd}，ticket_nonce {nonce}，票据 {ticket}",
        "tls13.line.pskOffered": "{actor}提出票据 {ticket}：年龄 {age} ms，obfuscated_ticket_age {obfuscated}；对不含绑定值的 ClientHello（握手记录哈希 {hash}）算出的绑定值 = {binder}",
        "tls13.line.binderMatches": "{actor}用它为这张票据保存的 PSK 重新计算绑定值：应为 {expected}，收到 {received}——相同",
        "tls13.line.binderDiffers": "{actor}用它为这张票据保存的 PSK 重新计算绑定值：应为 {expected}，收到 {received}——不同（RFC 8446 §4.2.11：decrypt_error）",
        "tls13.line.pskAccepted": "{actor}：ServerHello 选中了第 {index} 个 PSK——这次握手是恢复",
        "tls13.line.pskAcceptedAge": "{actor}接受第 {index} 个 PSK：obfuscated_ticket_age − ticket_age_add = {age} ms，在票据有效期内",
        "walk.tls13.resumptionPSK": "{actor}由 resumption_master_secret 和票据的 nonce 推导出这张票据的 PSK：双方各自算出它，它从不经过网络（RFC 8446 §4.6.1）。",
        "walk.tls13.ticketSent": "{actor}给{peer}一张以后用来恢复的票据，并保存这张票据所代表的 PSK（RFC 8446 §4.6.1）。",
        "walk.tls13.ticketKept": "{actor}保存这张票据以及它为之推导出的 PSK，以便在以后的连接中提出（RFC 8446 §4.6.1）。",
        "walk.tls13.pskOffered": "{actor}在 pre_shared_key 中提出这张票据，并用对这条 ClientHello 计算的绑定值证明它持有 PSK（RFC 8446 §4.2.11）。",
        "walk.tls13.binderEqual": "{actor}用它为这张票据保存的 PSK 计算绑定值：与收到的相同，所以{peer}持有这个 PSK（RFC 8446 §4.2.11）。",
        "walk.tls13.binderDiffers": "{actor}用它为这张票据保存的 PSK 计算绑定值：与收到的不同，于是{actor}以 decrypt_error 结束握手（RFC 8446 §4.2.11）。",
        "walk.tls13.pskAccepted": "{actor}用这个 PSK 恢复：early_secret 由它得出，服务器不发证书（RFC 8446 §2.2）。",
        "walk.summary.tls13Resumed": "这次握手用先前连接的票据的 PSK 恢复：没有发送也没有检查证书，而一次新的 (EC)DHE 交换仍进入了密钥调度（RFC 8446 §2.2、§4.2.9）。",
    ]
}
