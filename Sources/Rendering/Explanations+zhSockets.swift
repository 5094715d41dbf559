/// The Chinese catalogue's slice for a real peer's socket notes and socket errors
/// (Explanations+Sockets.swift). System call names (connect()、accept()、read()、close()) stay as
/// they are; strerror(3) and gai_strerror(3) texts are the C library's own.
extension Explanations {
    static let chineseSockets: [String: String] = [
        "socket.connectFailed": "connect() 到 {host}:{port} 失败：{error}",
        "socket.connected": "connect() 返回：{local} → {remote}（内核完成了三次握手）",
        "socket.accepted": "accept() 返回：{remote} → {local}（内核完成了三次握手）",
        "socket.writeFailed": "写入 {bytes} 字节失败：{error}",
        "socket.notSentFrames": "没有发出：{frames}——对方已经关闭了 TLS 连接",
        "socket.notSentBytes": "没有发出：{bytes} 字节——对方已经关闭了 TLS 连接",
        "socket.serverKeptSending": "服务器一直在发送：读取 {bytes} 字节后停止排空",
        "socket.clientKeptSending": "我们结束后客户端仍在发送：读取 {bytes} 字节后停止排空",
        "socket.closed": "close()：写出 {written} 字节，读入 {read} 字节，共 {reads} 次读取",
        "socket.handshakeDeadline": "握手期限 {ms} ms 已过",
        "socket.requestDeadline": "请求期限 {ms} ms 已过",
        "socket.responseDeadline": "响应期限 {ms} ms 已过",
        "socket.responseLimit": "响应达到了 {bytes} 字节的上限：停止读取",
        "socket.serverClosed": "read() 返回 0：服务器关闭了连接",
        "socket.clientClosed": "read() 返回 0：客户端关闭了连接",
        "socketError.lookup": "无法解析 {host}：{reason}",
        "socketError.noAddress": "无法解析 {host}：没有地址",
        "socketError.notIPv4": "无法解析 {host}：不是 IPv4 地址",
        "socketError.system": "{call} 失败：{reason}",
        "socketError.connectTimeout": "等待 connect() 到 {host}:{port} 超时（{ms} ms）",
        "socketError.dataTimeout": "等待来自 {address} 的数据超时（{ms} ms）",
        "socketError.deadline": "期限已过",
    ]
}
