/// Why a `tlslab bench` measurement gave no figure, in Chinese (issue #34); the keys and what fills
/// them are described in `Explanations+BenchFailures.swift`.
extension Explanations {
    static let chineseBenchFailures: [String: String] = [
        "cli.bench.failure.ownSignatureNotVerified": "基准测试的密钥验证不了它自己生成的签名",
        "cli.bench.failure.verificationsFailed": "基准测试期间有 {count} 次验证失败",
        "cli.bench.failure.handshakeChildExited": "bench handshake-child（{variant}）以状态 {status} 退出",
        "cli.bench.failure.handshakeChildOutputUnreadable": "bench handshake-child（{variant}）的输出无法读取：{excerpt}",
        "cli.bench.failure.handshakeNotSuccessful": "{variant} 的基准测试运行没有成功：{outcome}",
        "cli.bench.failure.openSSLSetup": "无法准备 OpenSSL 服务器：无法在 {directory} 下写入它的证书、密钥和 DH 参数",
        "cli.bench.failure.openSSLSetup.reason": "无法准备 OpenSSL 服务器：无法在 {directory} 下写入它的证书、密钥和 DH 参数：{reason}",
        "cli.bench.failure.noPort": "找不到空闲的回环端口",
        "cli.bench.failure.serverDidNotStart": "openssl s_server（{kind}）在 5 秒内没有开始监听",
        "cli.bench.failure.sTimeUnparsable": "无法读取 openssl s_time 的输出：{excerpt}",
        "cli.bench.failure.spawn": "无法启动 {path}：{reason}",
        "cli.bench.failure.pipe": "无法创建管道：{reason}",
        "cli.bench.failure.speedUnknownFormat": "无法读取 `openssl speed` 输出中“{row}”的结果：{why}。输出格式未知；输出的最后几行是：\n{excerpt}",
        "cli.bench.failure.speedNoRow": "没有一行以“{row}”开头",
        "cli.bench.failure.speedValuesNotNumbers": "这一行的值不全是数字：{values}",
        "cli.bench.failure.speedNoHeader": "上方没有表头行给出它的 {columns} 列的名称",
        "cli.bench.failure.speedMissingColumn": "`openssl speed` 的“{row}”行没有“{column}”列（它的表头：{header}）",
        "cli.bench.failure.bulkIncomplete": "批量传输在收到 {expected} 字节中的 {received} 字节后停止",
        "cli.bench.failure.floodChildExited": "tcp-flood 子进程以状态 {status} 退出",
        "cli.bench.failure.floodChildOutputUnreadable": "tcp-flood 子进程的输出无法读取：{excerpt}",
        "cli.bench.failure.floodNotAllHalfOpen": "tcp-flood：{connections} 条连接中只有 {halfOpen} 条处于半开状态",
        "cli.bench.failure.noPTYFunctions": "伪终端：C 库中没有 posix_openpt 及相关函数",
        "cli.bench.failure.pty": "伪终端：{call} 失败：{reason}",
        "cli.bench.failure.ptySpawn": "无法在伪终端上启动 tlslab：{reason}",
        "cli.bench.failure.noScreen": "tlslab 在 10 秒内没有在伪终端上画出第一屏（收到 {bytes} 字节）",
    ]
}
