/// What a lesson showed when an application received nothing (`client_received: ""`,
/// `server_received: ""`): a sentence of its own, not "received “”" (issue #34), in English and Chinese.
extension Explanations {
    static let englishLessonReceivedNothing: [String: String] = [
        "lesson.check.client_received.nothing": "The client's application received nothing.",
        "lesson.check.server_received.nothing": "The server's application received nothing.",
    ]

    static let chineseLessonReceivedNothing: [String: String] = [
        "lesson.check.client_received.nothing": "客户端应用什么也没有收到。",
        "lesson.check.server_received.nothing": "服务器应用什么也没有收到。",
    ]
}
