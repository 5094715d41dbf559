/// The Chinese of `Explanations+SignatureFaults.swift` (issue #34).
extension Explanations {
    static let chineseSignatureFaults: [String: String] = [
        "signatureAlgorithm.rsaPSS": "RSASSA-PSS（{parameters}）",
        "signatureAlgorithm.rsaPSSUnusable": "RSASSA-PSS（参数是 TLSLab 无法使用的）",
        "signatureAlgorithm.unknown": "未知算法（{oid}）",
        "pss.parameters": "{hash}，MGF1-{maskHash}，盐长 {salt}",
        "keyKind.other": "密钥 {oid}",
        "signature.pssParametersUnusable": "无法验证这个 RSASSA-PSS 签名：{why}",
        "pkcs1Block.signatureLength": "签名长 {bytes} 字节，模数长 {modulus} 字节（RFC 8017 §8.2.2 第 1 步）",
        "pkcs1Block.representativeOutOfRange": "把签名看作一个数，它不小于模数（RFC 8017 §5.2.2 第 1 步）",
        "pkcs1Block.notBlockType1": "这个块不以 00 01 开头（RFC 8017 §9.2 第 5 步）",
        "pkcs1Block.noZeroSeparator": "FF 填充后面不是 00 字节（RFC 8017 §9.2 第 5 步）",
        "pkcs1Block.shortPadding": "FF 填充只有 {count} 字节，少于 RFC 8017 §9.2 第 4 步要求的 8 字节",
        "pkcs1Block.malformedDigestInfo": "00 字节后面的内容不是 DER 编码的 DigestInfo（RFC 8017 §9.2 第 2 步）",
        "rsaKeyFault.encoding": "它的 subjectPublicKey 不是 DER 编码的 RSAPublicKey（RFC 8017 §A.1.1）",
        "rsaKeyFault.numbers": "它的模数或公钥指数不是 TLSLab 接受的（RFC 8017 §3.1：n 为奇数，3 ≤ e < n 且 e 为奇数；n 为 256 到 16,384 位）",
        "rsaKeyFault.operation": "用它做 RSA 公钥运算失败了（RFC 8017 §5.2.2）",
    ]
}
