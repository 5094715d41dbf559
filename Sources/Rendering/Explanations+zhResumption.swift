/// 会话因过期而不恢复时的中文句子：服务器的有效期（``TLSEvent/sessionExpired(_:)``）或客户端票据的
/// ticket_lifetime_hint（``TLSEvent/sessionTicketExpired(_:)``）。
extension Explanations {
    static let chineseResumption: [String: String] = [
        "ladder.sessionExpired": "{actor}不恢复客户端提供的会话（{offer}）：它已建立 {age} 秒，达到或超过 {lifetime} 秒的有效期——改为完整握手（RFC 5246 附录 F.1.4，RFC 5077 §5.6）",
        "ladder.sessionAgeUnknown": "{actor}不恢复客户端提供的会话（{offer}）：无法得知它建立了多久，而只有不到 {lifetime} 秒的会话才能恢复——改为完整握手（RFC 5246 附录 F.1.4，RFC 5077 §5.6）",
        "ladder.ticketExpired": "{actor}不提供它的会话：票据是 {age} 秒前收到的，已达到或超过 {hint} 秒的 ticket_lifetime_hint，而这段时间一过客户端就删除票据及其会话（RFC 5077 §3.3）——改为完整握手",
        "ladder.resumptionDeclined.extendedMasterSecretOnlyInHello": "{actor}不恢复客户端提供的会话（{offer}）：该会话建立时没有使用扩展主密钥，而这次的 ClientHello 提供了它，所以服务器不得执行简化握手，改为完整握手（RFC 7627 §5.3）",
        "session.offer.sessionID": "会话 ID",
        "session.offer.ticket": "票据",
    ]
}
