import PKI
import Trace

/// A certificate or key that did not parse, worded from the parser's typed facts (which field,
/// which ASN.1 type, which rule of X.690 or RFC 5280): the reader's language around names that
/// stay as they are (issue #34: no parser English inside a Chinese sentence).
extension Explanations {
    /// The PKI parser's error.
    public func pkiError(_ error: PKIError) -> String {
        func say(_ key: String, _ values: [String: String] = [:]) -> String { self(key, values) ?? Explanations.english(key, values) ?? key }
        switch error {
        case .malformedCertificate(let m): return say("pkiError.malformedCertificate", ["detail": malformation(m)])
        case let .notACertificate(source, reason): return say("pkiError.notACertificate", ["source": source, "detail": notACertificate(reason)])
        case .unsupportedKey(let why): return say("pkiError.unsupportedKey", ["detail": unsupportedKey(why)])
        }
    }

    /// Why a key cannot be made or sign as asked: key kinds by a lesson file's names, hashes by TLSLab's.
    public func unsupportedKey(_ why: UnsupportedKey) -> String {
        func say(_ key: String, _ values: [String: String] = [:]) -> String { self(key, values) ?? Explanations.english(key, values) ?? key }
        switch why {
        case let .rsaKeySize(bits, label): return say("pkiError.unsupportedKey.rsaKeySize", ["bits": "\(bits)", "label": label])
        case let .generationFailed(kind, label): return say("pkiError.unsupportedKey.generationFailed", ["kind": kind.rawValue, "label": label])
        case .ed25519Signer: return say("pkiError.unsupportedKey.ed25519Signer")
        case .signingFailed(let kind): return say("pkiError.unsupportedKey.signingFailed", ["kind": kind.rawValue])
        case .noRSASignatureAlgorithm(let hash): return say("pkiError.unsupportedKey.noRSASignatureAlgorithm", ["hash": "\(hash)"])
        case .ecdsaHash(let hash): return say("pkiError.unsupportedKey.ecdsaHash", ["hash": "\(hash)"])
        case .weakRSALeafNeedsRSA(let kind): return say("pkiError.unsupportedKey.weakRSALeafNeedsRSA", ["kind": kind.rawValue])
        case .sha1SignatureNeedsRSAIssuer(let kind): return say("pkiError.unsupportedKey.sha1SignatureNeedsRSAIssuer", ["kind": kind.rawValue])
        }
    }

    /// Why a file or blob holds no certificate.
    public func notACertificate(_ reason: NotACertificate) -> String {
        func say(_ key: String, _ values: [String: String] = [:]) -> String { self(key, values) ?? Explanations.english(key, values) ?? key }
        switch reason {
        case .unreadablePEM: return say("pkiError.notACertificate.unreadablePEM")
        case .noCertificateBlock(let labels) where labels.isEmpty: return say("pkiError.notACertificate.noBlock")
        case .noCertificateBlock(let labels):
            return say("pkiError.notACertificate.noCertificateBlock", ["labels": labels.map { TerminalText.escaped($0) }.joined(separator: say("list.separator"))])
        case let .bundleMember(index, m): return say("pkiError.notACertificate.bundleMember", ["index": "\(index)", "detail": malformation(m)])
        case .malformed(let m): return malformation(m)
        }
    }

    /// What is wrong in a certificate's DER or structure.
    public func malformation(_ m: CertificateMalformation) -> String {
        func say(_ key: String, _ values: [String: String] = [:]) -> String { self(key, values) ?? Explanations.english(key, values) ?? key }
        switch m {
        case .derTruncated: return say("pkiError.malformed.derTruncated")
        case .derLength: return say("pkiError.malformed.derLength")
        case .derInvalid: return say("pkiError.malformed.derInvalid")
        case let .notOfType(field, type): return say("pkiError.malformed.notOfType", ["field": field, "type": type])
        case .notConstructed(let field): return say("pkiError.malformed.notConstructed", ["field": field])
        case .notPrimitive(let field): return say("pkiError.malformed.notPrimitive", ["field": field])
        case .wrongElementCount(let field): return say("pkiError.malformed.wrongElementCount", ["field": field])
        case .empty(let field): return say("pkiError.malformed.empty", ["field": field])
        case let .badEncoding(field, type): return say("pkiError.malformed.badEncoding", ["field": field, "type": type])
        case .integerOutOfRange(let field): return say("pkiError.malformed.integerOutOfRange", ["field": field])
        case let .unexpectedTag(field, tag):
            return say("pkiError.malformed.unexpectedTag", ["field": field, "tag": tag.map { say("pkiError.malformed.tag", ["tag": "\($0)"]) } ?? ""])
        case .unusedBits(let field): return say("pkiError.malformed.unusedBits", ["field": field])
        case .twice(let field): return say("pkiError.malformed.twice", ["field": field])
        case .missing(let field): return say("pkiError.malformed.missing", ["field": field])
        case .mustBeAbsent(let field): return say("pkiError.malformed.mustBeAbsent", ["field": field])
        case .unsupportedVersion(let v): return say("pkiError.malformed.unsupportedVersion", ["version": "\(v)"])
        case .extensionsBeforeV3(let v): return say("pkiError.malformed.extensionsBeforeV3", ["version": "\(v)"])
        case .invalidValue(let field): return say("pkiError.malformed.invalidValue", ["field": field])
        }
    }

    static let englishPKIErrors: [String: String] = [
        "pkiError.unsupportedKey.rsaKeySize": "no RSA key of {bits} bits can be generated for the certificate {label}: TLSLab generates RSA keys of 512 to 4096 bits, an even number",
        "pkiError.unsupportedKey.generationFailed": "the {kind} key for the certificate {label} could not be generated",
        "pkiError.unsupportedKey.ed25519Signer": "TLSLab signs certificates with RSA or ECDSA keys, not with Ed25519 keys: an Ed25519 key is a leaf's or a client's key only",
        "pkiError.unsupportedKey.signingFailed": "the issuer's {kind} key did not produce the certificate's signature",
        "pkiError.unsupportedKey.noRSASignatureAlgorithm": "TLSLab signs with RSA over SHA-1, SHA-256, SHA-384 or SHA-512 (sha*WithRSAEncryption), not over {hash}",
        "pkiError.unsupportedKey.ecdsaHash": "TLSLab signs with ECDSA over SHA-256, SHA-384 or SHA-512 (ecdsa-with-SHA*, RFC 5758 §3.2), not over {hash}",
        "pkiError.unsupportedKey.weakRSALeafNeedsRSA": "the rsa-1024-leaf defect needs an RSA key in the leaf, and the file asks for {kind}",
        "pkiError.unsupportedKey.sha1SignatureNeedsRSAIssuer": "the sha1-signature defect signs the leaf with sha1WithRSAEncryption, so its issuer, the intermediate, needs an RSA key, and the file asks for {kind}",
        "pkiError.notACertificate.unreadablePEM": "the text has a -----BEGIN line but is not PEM (RFC 7468 §2)",
        "pkiError.notACertificate.noBlock": "its PEM holds no block",
        "pkiError.notACertificate.noCertificateBlock": "its PEM blocks are {labels}, none of them CERTIFICATE",
        "pkiError.notACertificate.bundleMember": "certificate {index} of the file: {detail}",
        "pkiError.malformed.derTruncated": "the DER ends inside an element (X.690 §8.1)",
        "pkiError.malformed.derLength": "a length is not in DER's form or runs past the end of the bytes (X.690 §8.1.3, §10.1)",
        "pkiError.malformed.derInvalid": "the bytes break a rule of DER (X.690 §8, §10)",
        "pkiError.malformed.notOfType": "{field} is not of type {type}",
        "pkiError.malformed.notConstructed": "{field} must be constructed (hold elements) and is primitive (X.690 §8.1.2.5)",
        "pkiError.malformed.notPrimitive": "{field} must be primitive and holds elements (X.690 §8.1.2.5)",
        "pkiError.malformed.wrongElementCount": "{field} has another number of elements than its definition",
        "pkiError.malformed.empty": "{field} is empty where its definition requires at least one element",
        "pkiError.malformed.badEncoding": "{field} is not a valid {type} encoding (X.690 §8)",
        "pkiError.malformed.integerOutOfRange": "{field} holds a number larger than TLSLab reads",
        "pkiError.malformed.unexpectedTag": "{field} holds an element with a tag its definition does not allow{tag}",
        "pkiError.malformed.tag": " ([{tag}])",
        "pkiError.malformed.unusedBits": "{field} has unused bits where it must have none",
        "pkiError.malformed.twice": "{field} appears twice",
        "pkiError.malformed.missing": "{field} is missing",
        "pkiError.malformed.mustBeAbsent": "{field} is present where it must be absent",
        "pkiError.malformed.unsupportedVersion": "v{version} is none of v1, v2 and v3 (RFC 5280 §4.1.2.1)",
        "pkiError.malformed.extensionsBeforeV3": "a v{version} certificate has extensions, which only v3 may have (RFC 5280 §4.1.2.9)",
        "pkiError.malformed.invalidValue": "the value of {field} breaks its rule",
        "cli.peerFile.privateKey.noPEM": "it has no PEM block (-----BEGIN …-----, RFC 7468 §2)",
        "cli.peerFile.privateKey.encrypted": "it is an ENCRYPTED PRIVATE KEY (RFC 5958 §3), and TLSLab reads unencrypted keys only: decrypt it first (openssl pkey)",
        "cli.peerFile.privateKey.notAPrivateKey": "its PEM blocks are {labels}, none of them PRIVATE KEY, RSA PRIVATE KEY or EC PRIVATE KEY",
        "cli.peerFile.privateKey.unsupportedCurve": "it is an EC key on a curve other than P-256, P-384 and P-521",
        "cli.peerFile.privateKey.malformed": "its {label} block holds no RSA, EC or Ed25519 private key TLSLab can read (RFC 8017 Appendix A.1.2, RFC 5915 §3, RFC 5958 §2)",
    ]

    static let chinesePKIErrors: [String: String] = [
        "pkiError.unsupportedKey.rsaKeySize": "无法为证书 {label} 生成 {bits} 位的 RSA 密钥：TLSLab 只生成 512 到 4096 位、位数为偶数的 RSA 密钥",
        "pkiError.unsupportedKey.generationFailed": "无法为证书 {label} 生成 {kind} 密钥",
        "pkiError.unsupportedKey.ed25519Signer": "TLSLab 用 RSA 或 ECDSA 密钥签发证书，不用 Ed25519 密钥：Ed25519 密钥只能是叶子证书或客户端证书的密钥",
        "pkiError.unsupportedKey.signingFailed": "签发者的 {kind} 密钥没有生成证书的签名",
        "pkiError.unsupportedKey.noRSASignatureAlgorithm": "TLSLab 的 RSA 签名只用 SHA-1、SHA-256、SHA-384 或 SHA-512（sha*WithRSAEncryption），不用 {hash}",
        "pkiError.unsupportedKey.ecdsaHash": "TLSLab 的 ECDSA 签名只用 SHA-256、SHA-384 或 SHA-512（ecdsa-with-SHA*，RFC 5758 §3.2），不用 {hash}",
        "pkiError.unsupportedKey.weakRSALeafNeedsRSA": "rsa-1024-leaf 缺陷要求叶子证书使用 RSA 密钥，而文件要求的是 {kind}",
        "pkiError.unsupportedKey.sha1SignatureNeedsRSAIssuer": "sha1-signature 缺陷用 sha1WithRSAEncryption 签发叶子证书，所以它的签发者（中间证书）需要 RSA 密钥，而文件要求的是 {kind}",
        "pkiError.notACertificate.unreadablePEM": "文本中有 -----BEGIN 行，却不是 PEM 格式（RFC 7468 §2）",
        "pkiError.notACertificate.noBlock": "其中的 PEM 没有任何块",
        "pkiError.notACertificate.noCertificateBlock": "其中的 PEM 块是 {labels}，没有一个是 CERTIFICATE",
        "pkiError.notACertificate.bundleMember": "文件中的第 {index} 张证书：{detail}",
        "pkiError.malformed.derTruncated": "DER 编码在某个元素中间就结束了（X.690 §8.1）",
        "pkiError.malformed.derLength": "某个长度不是 DER 要求的形式，或超出了剩余的字节（X.690 §8.1.3、§10.1）",
        "pkiError.malformed.derInvalid": "这些字节违反了 DER 的规则（X.690 §8、§10）",
        "pkiError.malformed.notOfType": "{field} 不是 {type} 类型",
        "pkiError.malformed.notConstructed": "{field} 应当是构造类型（含有元素），实际却是基本类型（X.690 §8.1.2.5）",
        "pkiError.malformed.notPrimitive": "{field} 应当是基本类型，实际却含有元素（X.690 §8.1.2.5）",
        "pkiError.malformed.wrongElementCount": "{field} 的元素个数与其定义不符",
        "pkiError.malformed.empty": "{field} 为空，而其定义要求至少有一个元素",
        "pkiError.malformed.badEncoding": "{field} 不是有效的 {type} 编码（X.690 §8）",
        "pkiError.malformed.integerOutOfRange": "{field} 中的数值超出了 TLSLab 能读取的范围",
        "pkiError.malformed.unexpectedTag": "{field} 含有一个其定义不允许的标签{tag}",
        "pkiError.malformed.tag": "（[{tag}]）",
        "pkiError.malformed.unusedBits": "{field} 含有未使用的比特，而它必须没有",
        "pkiError.malformed.twice": "{field} 出现了两次",
        "pkiError.malformed.missing": "缺少 {field}",
        "pkiError.malformed.mustBeAbsent": "出现了 {field}，而它必须省略",
        "pkiError.malformed.unsupportedVersion": "v{version} 不是 v1、v2、v3 中的任何一个（RFC 5280 §4.1.2.1）",
        "pkiError.malformed.extensionsBeforeV3": "这张 v{version} 证书带有扩展，而只有 v3 证书可以带扩展（RFC 5280 §4.1.2.9）",
        "pkiError.malformed.invalidValue": "{field} 的值违反了它的规则",
        "cli.peerFile.privateKey.noPEM": "其中没有 PEM 块（-----BEGIN …-----，RFC 7468 §2）",
        "cli.peerFile.privateKey.encrypted": "它是 ENCRYPTED PRIVATE KEY（RFC 5958 §3），而 TLSLab 只读取未加密的私钥：请先解密（openssl pkey）",
        "cli.peerFile.privateKey.notAPrivateKey": "其中的 PEM 块是 {labels}，没有一个是 PRIVATE KEY、RSA PRIVATE KEY 或 EC PRIVATE KEY",
        "cli.peerFile.privateKey.unsupportedCurve": "它是 P-256、P-384、P-521 以外曲线上的 EC 私钥",
        "cli.peerFile.privateKey.malformed": "它的 {label} 块中没有 TLSLab 能读取的 RSA、EC 或 Ed25519 私钥（RFC 8017 附录 A.1.2、RFC 5915 §3、RFC 5958 §2）",
    ]
}
