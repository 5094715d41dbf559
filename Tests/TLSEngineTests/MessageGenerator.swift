@testable import TLSEngine

/// Random but valid messages of every kind, with the context needed to decode them.
struct MessageGenerator {
    var rng: SeededGenerator

    init(seed: UInt64) { rng = SeededGenerator(seed: seed) }

    /// Extension types the codec decodes structurally; `unknown` must avoid them.
    static let modelledExtensions: Set<UInt16> = [0, 10, 11, 13, 16, 22, 23, 35, 0xff01]

    mutating func version() -> ProtocolVersion {
        rng.pick([.tls10, .tls11, .tls12, .tls12, ProtocolVersion(rawValue: rng.u16())])
    }

    mutating func random() -> Random { Random(rng.bytes(32)) }

    mutating func hostName() -> String {
        let letters = Array("abcdefghijklmnopqrstuvwxyz0123456789-.")
        return String((0 ..< rng.int(1 ... 20)).map { _ in rng.pick(letters) })
    }

    mutating func extensionValue(of kind: Int) -> TLSExtension {
        switch kind {
        case 0: return .serverName(rng.int(0 ... 3) == 0 ? [] : (0 ..< rng.int(1 ... 3)).map { _ in ServerName(hostName: hostName()) })
        case 1: return .signatureAlgorithms((0 ..< rng.int(1 ... 10)).map { _ in SignatureScheme(rawValue: rng.u16()) })
        case 2: return .supportedGroups((0 ..< rng.int(1 ... 8)).map { _ in NamedGroup(rawValue: rng.u16()) })
        case 3: return .ecPointFormats((0 ..< rng.int(1 ... 3)).map { _ in ECPointFormat(rawValue: rng.u8()) })
        case 4: return .extendedMasterSecret
        case 5: return .renegotiationInfo(rng.bytes(0 ... 40))
        case 6: return .sessionTicket(rng.bytes(0 ... 40))
        case 7: return .encryptThenMAC
        case 8: return .applicationLayerProtocolNegotiation((0 ..< rng.int(1 ... 4)).map { _ in ProtocolName(bytes: rng.bytes(1 ... 12)) })
        default:
            var type = rng.u16()
            while Self.modelledExtensions.contains(type) { type = rng.u16() }
            return .unknown(ExtensionType(rawValue: type), rng.bytes(0 ... 20))
        }
    }

    mutating func extensions() -> [TLSExtension]? {
        if rng.int(0 ... 5) == 0 { return nil }
        var out: [TLSExtension] = []
        var seen = Set<ExtensionType>()
        for _ in 0 ..< rng.int(0 ... 8) {
            let ext = extensionValue(of: rng.int(0 ... 10))
            if seen.insert(ext.type).inserted { out.append(ext) }
        }
        return out
    }

    /// RFC 7301 §3.1: a ServerHello's ALPN names exactly one protocol (anything else is a decode_error).
    static func serverHelloForm(_ ext: TLSExtension) -> TLSExtension {
        guard case .applicationLayerProtocolNegotiation(let names) = ext, let first = names.first else { return ext }
        return .applicationLayerProtocolNegotiation([first])
    }

    mutating func clientHello() -> ClientHello {
        ClientHello(clientVersion: version(), random: random(), sessionID: rng.bytes(0 ... 32),
                    cipherSuites: (0 ..< rng.int(1 ... 20)).map { _ in CipherSuite(rawValue: rng.u16()) },
                    compressionMethods: (0 ..< rng.int(1 ... 3)).map { _ in CompressionMethod(rawValue: rng.u8()) },
                    extensions: extensions())
    }

    mutating func serverHello() -> ServerHello {
        ServerHello(serverVersion: version(), random: random(), sessionID: rng.bytes(0 ... 32),
                    cipherSuite: CipherSuite(rawValue: rng.u16()), compressionMethod: CompressionMethod(rawValue: rng.u8()),
                    extensions: extensions()?.map(Self.serverHelloForm))
    }

    mutating func context(keyExchange: KeyExchangeAlgorithm? = nil) -> HandshakeDecodingContext {
        HandshakeDecodingContext(version: rng.int(0 ... 3) == 0 ? rng.pick([.tls10, .tls11]) : .tls12,
                                 keyExchange: keyExchange,
                                 verifyDataLength: rng.int(0 ... 3) == 0 ? rng.int(1 ... 32) : 12)
    }

    mutating func signed(_ ctx: HandshakeDecodingContext) -> DigitallySigned {
        DigitallySigned(algorithm: ctx.signsWithAlgorithm ? SignatureScheme(rawValue: rng.u16()) : nil,
                        signature: rng.bytes(0 ... 64))
    }

    /// One message of kind `kind` (0..<12) and the context to decode it with.
    mutating func message(kind: Int) -> (HandshakeMessage, HandshakeDecodingContext) {
        switch kind {
        case 0: return (.helloRequest, context())
        case 1: return (.clientHello(clientHello()), context())
        case 2: return (.serverHello(serverHello()), context())
        case 3: return (.certificate(CertificateMessage(certificateList: (0 ..< rng.int(0 ... 4)).map { _ in rng.bytes(1 ... 60) })), context())
        case 4:
            let ctx = context(keyExchange: .dheRSA)
            let params = ServerDHParams(p: rng.bytes(1 ... 64), g: rng.bytes(1 ... 2), ys: rng.bytes(1 ... 64))
            return (.serverKeyExchange(ServerKeyExchange(params: .dhe(params), signedParams: signed(ctx))), ctx)
        case 5:
            let ctx = context(keyExchange: .ecdheRSA)
            let params = ServerECDHParams(namedGroup: NamedGroup(rawValue: rng.u16()), point: rng.bytes(1 ... 65))
            return (.serverKeyExchange(ServerKeyExchange(params: .ecdhe(params), signedParams: signed(ctx))), ctx)
        case 6:
            let ctx = context()
            let req = CertificateRequest(
                certificateTypes: (0 ..< rng.int(1 ... 4)).map { _ in ClientCertificateType(rawValue: rng.u8()) },
                supportedSignatureAlgorithms: ctx.signsWithAlgorithm ? (0 ..< rng.int(1 ... 8)).map { _ in SignatureScheme(rawValue: rng.u16()) } : nil,
                certificateAuthorities: (0 ..< rng.int(0 ... 3)).map { _ in rng.bytes(1 ... 30) })
            return (.certificateRequest(req), ctx)
        case 7: return (.serverHelloDone, context())
        case 8:
            let ctx = context()
            return (.certificateVerify(CertificateVerify(signature: signed(ctx))), ctx)
        case 9:
            let kx = rng.pick(KeyExchangeAlgorithm.allCases)
            let ctx = context(keyExchange: kx)
            switch kx {
            case .rsa: return (.clientKeyExchange(.rsa(encryptedPreMasterSecret: rng.bytes(0 ... 80))), ctx)
            case .dheRSA: return (.clientKeyExchange(.dhe(yc: rng.bytes(1 ... 80))), ctx)
            case .ecdheRSA, .ecdheECDSA: return (.clientKeyExchange(.ecdhe(point: rng.bytes(1 ... 65))), ctx)
            }
        case 10:
            let ctx = context()
            return (.finished(Finished(verifyData: rng.bytes(ctx.verifyDataLength))), ctx)
        case 11:
            return (.other(rng.pick([.certificateStatus, HandshakeType(rawValue: 99)]), body: rng.bytes(0 ... 30)), context())
        default:
            // RFC 5077 §3.3.
            return (.newSessionTicket(NewSessionTicket(lifetimeHint: UInt32(truncatingIfNeeded: rng.next()), ticket: rng.bytes(0 ... 200))), context())
        }
    }

    static let kindCount = 13
}
