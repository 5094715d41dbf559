/// 页面上学习者可以重算的计算（`HTMLRenderer.calculations`）：每个计算的标题和公式，附所依据的 RFC
/// 章节，以及复制按钮的文字。键和 `{placeholders}` 与 ``Explanations/englishHTMLCalculations`` 相同。
extension Explanations {
    static let chineseHTMLCalculations: [String: String] = [
        "html.calc.inputs": "输入",
        "html.calc.outputs": "输出",
        "html.calc.copy": "复制",
        "html.calc.copy.label": "完整复制 {name}",
        "html.calc.copyAll": "复制整个计算",
        "html.calc.copyAll.label": "以纯文本复制这一计算：公式、输入和输出，每个值都完整",
        "html.calc.copied": "已复制",
        "html.calc.selected": "已选中：按 Ctrl+C（⌘C）复制",
        "html.calc.rsaPremaster": "计算：{actor}生成预主密钥，并用服务器的 RSA 公钥加密",
        "html.calc.rsaPremaster.formula": "pre_master_secret = client_version（2 字节）‖ 46 个随机字节（RFC 5246 §7.4.7.1）。EM = 00 ‖ 02 ‖ PS ‖ 00 ‖ pre_master_secret，其中 PS 是非零的随机填充，使 EM 与模数等长（RFC 8017 §7.2.1）。encrypted_pre_master_secret = EM^e mod n，(n, e) 是服务器证书中的公钥（RFC 8017 §5.1.1）；客户端在 ClientKeyExchange 中发送它（RFC 5246 §7.4.7.1）。",
        "html.calc.dhShared": "计算：{actor}的 Diffie-Hellman 公开值和共享秘密",
        "html.calc.dhShared.formula": "public_value = g^private_exponent mod p，发给对方（RFC 5246 §7.4.3、§7.4.7.2）。Z = peer_public_value^private_exponent mod p；pre_master_secret 是去掉开头全零字节的 Z（RFC 5246 §8.1.2）。",
        "html.calc.ecdhShared": "计算：{actor}的 ECDH 公开值和共享秘密",
        "html.calc.ecdhShared.formula": "public_key = private_key × G（曲线的基点）；共享点是 private_key × peer_public_key，pre_master_secret 是它的 x 坐标，每个字节都保留，开头的零也不去掉（RFC 8422 §5.10）。对于 x25519，两者都是 RFC 7748 §5 的 X25519 函数，求公开值时用基点 u = 9（RFC 7748 §6.1）。",
        "html.calc.masterSecret": "计算：{actor}推导主密钥",
        "html.calc.masterSecret.formula": "master_secret = PRF(pre_master_secret, \"master secret\", client_random ‖ server_random)[0..47]（RFC 5246 §8.1）：种子是 ClientHello.random ‖ ServerHello.random。PRF(secret, label, seed) = P_hash(secret, label ‖ seed)，其中 P_hash(secret, s) = HMAC_hash(secret, A(1) ‖ s) ‖ HMAC_hash(secret, A(2) ‖ s) ‖ …，A(0) = s，A(i) = HMAC_hash(secret, A(i−1))；prf 给出所用的哈希（RFC 5246 §5）。",
        "html.calc.extendedMasterSecret": "计算：{actor}推导扩展主密钥",
        "html.calc.extendedMasterSecret.formula": "master_secret = PRF(pre_master_secret, \"extended master secret\", session_hash)[0..47]（RFC 7627 §4），其中 session_hash = Hash(handshake_messages)：从 ClientHello 起、到 ClientKeyExchange（含）为止的每条握手消息，用 PRF 的哈希计算（RFC 7627 §3）。PRF 与 RFC 5246 §5 相同：P_hash(secret, label ‖ seed)。",
        "html.calc.resumedMasterSecret": "会话恢复：{actor}沿用所恢复会话的主密钥",
        "html.calc.resumedMasterSecret.formula": "简化握手没有密钥交换：双方沿用 session_id 所指会话在其完整握手中得到的 master_secret（RFC 5246 §7.3）；使用会话票据时，服务器从票据中读出它（RFC 5077 §3.4、§4）。随后用本次连接新的 ClientHello.random 和 ServerHello.random 从它推导密钥块（RFC 5246 §6.3、§F.1.4），所以本次连接的密钥与之前那次连接的不同。",
        "html.calc.keyBlock": "计算：{actor}把主密钥扩展成密钥块，再切分成各个密钥",
        "html.calc.keyBlock.formula": "key_block = PRF(master_secret, \"key expansion\", server_random ‖ client_random)，按需要的长度生成，依次切分为 client_write_MAC_key、server_write_MAC_key、client_write_key、server_write_key、client_write_IV、server_write_IV（RFC 5246 §6.3）；套件不用的部分长度为 0，不列出。种子是 ServerHello.random ‖ ClientHello.random。",
        "html.calc.verifyData": "计算：{actor}计算{sender}的 Finished 中的 verify_data",
        "html.calc.verifyData.formula": "verify_data = PRF(master_secret, finished_label, handshake_hash)[0..11]，其中 handshake_hash = Hash(handshake_messages)：本次握手中这条 Finished 之前的每条握手消息，用 PRF 的哈希计算（RFC 5246 §7.4.9）。",
        "html.calc.serverKeyExchangeSignature": "计算：{signer}在 ServerKeyExchange 中签名的内容（{algorithm}）",
        "html.calc.serverKeyExchangeSignature.formula": "signed_input = client_random ‖ server_random ‖ params，params 是 ServerKeyExchange 中按原样发送的 ServerDHParams 或 ServerECDHParams（RFC 5246 §7.4.3、RFC 8422 §5.4）；signature 用 {algorithm} 和{signer}证书的私钥对 signed_input 生成，用该证书中的公钥验证（RFC 5246 §4.7）。",
        "html.calc.certificateVerifySignature": "计算：{signer}在 CertificateVerify 中签名的内容（{algorithm}）",
        "html.calc.certificateVerifySignature.formula": "signed_input = handshake_messages：从 ClientHello 起、到这条 CertificateVerify 之前（不含它）发送和收到的每条握手消息（RFC 5246 §7.4.8）；signature 用 {algorithm} 和{signer}证书的私钥对它生成，用该证书中的公钥验证（RFC 5246 §4.7）。",
    ]
}
