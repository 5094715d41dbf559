/// TLS 1.2 与 TLS 1.3 之间的版本协商（RFC 8446 §4.1.3、§4.2.1、附录 D）的中文词条：同时支持两个版本的一方
/// 选了哪个版本、为什么，服务器写入的降级哨兵值，客户端的拒绝，以及从 ClientHello 中剥掉 TLS 1.3 的路径上攻击者。
extension Explanations {
    static let chineseVersionNegotiation: [String: String] = [
        "run.summary.tls13-downgrade": "攻击者从同时提供 1.3 和 1.2 的 ClientHello 中剥掉 TLS 1.3：服务器用 1.2 回答，随机数里带着 DOWNGRD 哨兵值，客户端拒绝（illegal_parameter，RFC 8446 §4.1.3）",
        "ladder.versionChosen.clientOffersTLS13": "{actor}选择 TLS 1.3：ClientHello 的 supported_versions 列出 {offered}，服务器按这个列表选择版本，而不看 legacy_version（RFC 8446 §4.2.1）",
        "ladder.versionChosen.clientOffersOnlyOlder": "{actor}选择 {version}：ClientHello 的 supported_versions 列出 {offered}，其中没有 03 04，所以服务器取列表中自己支持的最高版本（RFC 8446 §4.2.1）",
        "ladder.versionChosen.tls13Disabled": "{actor}选择 {version}：ClientHello 的 supported_versions 列出 {offered}，但这台服务器不支持 TLS 1.3（或关闭了它），所以取列表中自己支持的最高版本（RFC 8446 §4.2.1）",
        "ladder.versionChosen.noSupportedVersions": "{actor}选择 {version}：ClientHello 没有 supported_versions 扩展，说明客户端只支持 TLS 1.2 或更早的版本；同时支持 TLS 1.2 的服务器必须按 RFC 5246 的规则，根据 legacy_version {legacy} 协商 TLS 1.2 或更低的版本（RFC 8446 §4.2.1、附录 D.2）",
        "ladder.versionChosen.serverSelectsTLS13": "{actor}继续使用 TLS 1.3：ServerHello 的 supported_versions 选定了 03 04（RFC 8446 §4.1.3、§4.2.1）",
        "ladder.versionChosen.serverHelloWithoutSupportedVersions": "{actor}把 ServerHello 当作 {version} 来读：它没有 supported_versions 扩展；协商 TLS 1.3 之前版本的服务器必须省略这个扩展，改为在 legacy_version 中写明该版本（RFC 8446 §4.1.3）",
        "ladder.sentinelWritten": "{actor}支持 TLS 1.3，却协商了 {version}：它的 server_random 的最后 8 个字节是降级哨兵值 {sentinel}（RFC 8446 §4.1.3）",
        "tls.downgradeSentinel": "降级哨兵值（RFC 8446 §4.1.3）：路径上的攻击者可以从 ClientHello 中删掉 TLS 1.3，同时支持 TLS 1.2 的服务器随后就会用 1.2 回答。所以，支持 TLS 1.3 却协商了 TLS 1.2 的服务器，会把 44 4F 57 4E 47 52 44 01（\"DOWNGRD\" 加 01；TLS 1.1 及更低版本为 00）写成 ServerHello.random 的最后 8 个字节；提供过 TLS 1.3 的客户端如果读到以它结尾的 1.2 ServerHello，就以 illegal_parameter 中止握手。攻击者无法悄悄去掉哨兵值：使用 (EC)DHE 套件时，服务器在 ServerKeyExchange 中的签名覆盖了双方的随机数。使用静态 RSA 密钥交换时没有任何签名，哨兵值也就起不到保护作用。",
        "cause.tls13.downgrade": "ServerHello 没有 supported_versions，说明它回答的是 TLS 1.3 之前的版本，但它的随机数以降级哨兵值 \"DOWNGRD\" 结尾：支持 TLS 1.3 的服务器读到的 ClientHello 并没有提供 TLS 1.3，说明这份提议在路上被改过；提供过 TLS 1.3 的客户端必须以 illegal_parameter 中止握手（RFC 8446 §4.1.3）",
        "walk.tls.versionChosen.tls13": "{actor}现在知道这条连接使用 TLS 1.3，这是由 supported_versions 决定的（RFC 8446 §4.2.1）：ServerHello 及其后的消息都是 TLS 1.3 的消息（RFC 8446）。",
        "walk.tls.versionChosen.older": "{actor}现在知道这条连接使用 TLS 1.3 之前的版本，这是在没有 supported_versions 的情况下决定的（RFC 8446 §4.2.1）：ServerHello 及其后的消息都是 TLS 1.2 的消息（RFC 5246）。",
        "walk.tls.sentinelWritten": "{actor}支持 TLS 1.3，却回答了更早的版本，所以在它的随机数里做了标记：提供过 TLS 1.3 的客户端由此能看出，自己的提议并没有按原样到达（RFC 8446 §4.1.3）。",
        "attack.line.strippedTLS13": "{actor}从 ClientHello 中删掉 {removed}；用一个含 {bytes} 个零字节的 padding 扩展保持其长度不变",
        "attack.stripTLS13": "版本降级攻击：攻击者删掉了提供 TLS 1.3 的扩展（supported_versions、key_share、psk_key_exchange_modes），服务器于是看到一个只支持 TLS 1.2 的客户端，并用 TLS 1.2 回答（RFC 8446 §4.2.1）。ClientHello 没有任何人签名，TLS 1.2 只在握手结束时的 Finished 中比较双方的握手；ServerHello.random 中的降级哨兵值让客户端在 ServerHello 时就能发现（RFC 8446 §4.1.3）。",
    ]
}
