/// 服务器因会话过期而不恢复会话时的中文句子（``TLSEvent/sessionExpired(_:)``）。
extension Explanations {
    static let chineseResumption: [String: String] = [
        "ladder.sessionExpired": "{actor}不恢复客户端提供的会话（{offer}）：它已建立 {age} 秒，达到或超过 {lifetime} 秒的有效期——改为完整握手（RFC 5246 附录 F.1.4，RFC 5077 §5.6）",
        "ladder.sessionAgeUnknown": "{actor}不恢复客户端提供的会话（{offer}）：无法得知它建立了多久，而只有不到 {lifetime} 秒的会话才能恢复——改为完整握手（RFC 5246 附录 F.1.4，RFC 5077 §5.6）",
        "session.offer.sessionID": "会话 ID",
        "session.offer.ticket": "票据",
    ]
}
