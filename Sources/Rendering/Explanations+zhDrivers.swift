/// The Chinese catalogue's slice for the drivers' typed facts (Explanations+Drivers.swift):
/// the virtual CPU's operations and how a suite-stripping attacker kept the ClientHello's length.
extension Explanations {
    static let chineseDrivers: [String: String] = [
        "compute.rsaPublicKeyEncryption": "RSA 公钥加密",
        "compute.rsaPrivateKeyDecryption": "RSA 私钥解密",
        "compute.dhAgreement": "DH 密钥协商",
        "compute.ecdhAgreement": "ECDH 密钥协商",
        "compute.rsaSignature": "RSA 签名",
        "compute.rsaSignatureCheck": "RSA 验证签名",
        "compute.ecdsaSignature": "ECDSA 签名",
        "compute.ecdsaSignatureCheck": "ECDSA 验证签名",
        "compute.certificateSignatureChecks": "{count} 次证书签名验证",
        "attack.line.strippedHow": "（{how}）",
        "strip.nothingToStrip": "ClientHello 里没有要删掉的密码套件",
        "strip.paddingExtension": "腾出的 {bytes} 个字节放进了一个填充扩展（padding），消息长度因此不变",
        "strip.paddingExtensionBlock": "腾出的字节成了一个填充扩展（padding），消息长度因此不变",
        "strip.overwritten": "每个被删掉的密码套件都改写成了 {suite}，消息长度因此不变",
        "position.mitm.unnamedServer": "客户端到服务器的连接终止在攻击者 {address} 处（伪造的 DNS 应答或恶意的接入点）；攻击者另开一条到真正服务器的连接，居中转发",
        "tcpUserError.connectionDoesNotExist": "连接不存在",
        "tcpUserError.connectionClosing": "连接正在关闭",
        "tcpUserError.connectionAlreadyExists": "连接已存在",
        "tcpUserError.unknownHost": "模拟网络上没有主机 {address}",
        "tcpUserError.portInUse": "端口 {port} 已被占用",
        "cli.check.missingPath": "没有这个文件或目录：{path}",
        "cli.check.noFiles": "{paths} 下没有场景文件（*.yaml）",
        "h2.line.flags": " [{flags}]",
        "h2.line.settings": "：{settings}",
        "h2.line.rstStream": "：{code}",
        "h2.line.headerPath": "{name} {value}，",
        "h2.line.headerBlock": "：{path}{count} 个头部字段，HPACK {raw} → {encoded} 字节",
        "h2.line.promisedBlock": "——{path}{count} 个头部字段，HPACK {raw} → {encoded} 字节",
    ]
}
