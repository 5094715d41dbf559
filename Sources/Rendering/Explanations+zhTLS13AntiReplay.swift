/// 0-RTT 防重放的句子：记录 ClientHello（RFC 8446 §8.2）和新鲜度检查（§8.3），与
/// Explanations+TLS13AntiReplay.swift 一一对应；以及后来的连接中 NewSessionTicket 的不同之处。
extension Explanations {
    static let chineseTLS13AntiReplay: [String: String] = [
        "run.summary.tls13-0rtt-recorded": "TLS 1.3 0-RTT 被重放给会记录 ClientHello 的服务器：副本在新鲜度窗口内到达，但它的 PSK 绑定值已被记录，所以服务器接受 PSK、拒绝早期数据，继续进行 1-RTT 握手（RFC 8446 §8.2、§8.3）",
        "tls13.NewSessionTicket.again": "又一个 NewSessionTicket（RFC 8446 §4.6.1），在这条连接的握手之后：一张新票据，带新的 ticket_age_add 和新的票据标签。它的 PSK 来自这条连接的 resumption_master_secret，所以即使 ticket_nonce 相同，也与之前那张票据的 PSK 不同；各字段的含义与第一张票据相同。",
        "tls13.earlyRefusal.outsideFreshnessWindow": "这条 ClientHello 的预期到达时间（票据创建时间 + 估计的往返时间 + 客户端给出的票据年龄，§8.3）落在服务器的记录窗口之外，它可能是被重放的旧 ClientHello，而窗口外的 ClientHello 从不被记录（§8.2）",
        "tls13.earlyRefusal.replayedClientHello": "服务器在窗口内已经记录过这条 ClientHello 的 PSK 绑定值，所以这是重放：按照 §8.2 允许的做法，服务器接受 PSK 但不接受 0-RTT 数据，继续进行 1-RTT 握手",
        "tls13.line.freshnessChecked": "{actor}进行新鲜度检查（RFC 8446 §8.3）：票据创建于 {created} ms + 估计的往返时间 {rtt} ms + 客户端给出的票据年龄 {age} ms = 预期到达时间 {expected} ms；它的时钟是 {now} ms；记录窗口 ±{window} ms：{verdict}",
        "tls13.freshness.fresh": "在窗口内",
        "tls13.freshness.stale": "在窗口外",
        "tls13.line.clientHelloRecorded": "{actor}记录 ClientHello：以 PSK 绑定值 {binder} 记下这条消息，只要它的预期到达时间（{expected} ms）还在窗口内就一直保留：同样的 ClientHello 再来时，它的 0-RTT 数据不会被接受（RFC 8446 §8.2）",
        "walk.tls13.freshnessChecked": "{actor}比较这条 ClientHello 应该到达的时间——它签发票据的时间，加上当时测得的往返时间，再加上客户端在 obfuscated_ticket_age 中给出的票据年龄——和自己的时钟；只有落在窗口内的 ClientHello，它的 0-RTT 数据才可能被接受（RFC 8446 §8.3）。",
        "walk.tls13.clientHelloRecorded": "{actor}接受 0-RTT 数据，并记录这条 ClientHello 的绑定值；窗口内这条 ClientHello 的副本会发现它已被记录，只能得到 1-RTT 握手（RFC 8446 §8.2）。",
    ]
}
