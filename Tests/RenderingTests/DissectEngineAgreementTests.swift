import Simulation
import Testing
import TLSEngine
import Trace

/// `tlslab dissect` and the engine read the same bytes the same way: over every TLS 1.2 handshake
/// message that the built-in runs send or receive, the engine's codec decodes the wire bytes, and every
/// field the dissector reports holds what the engine parsed — code points by value, opaque fields byte for
/// byte, each length prefix the size of its vector — and the dissector reports no refusal where the
/// engine accepted the message.
@Suite("dissect agrees with the engine")
struct DissectEngineAgreementTests {
    @Test("every dissected field of a built-in run's messages holds what the engine's codec parsed", arguments: BuiltInRun.allCases)
    func agreement(run: BuiltInRun) throws {
        let trace = Simulation(try run.setup(seed: 1)).run()
        var suites: [Int: CipherSuite] = [:]
        var checked = 0
        for event in trace.events {
            let wire: [UInt8]
            switch event.kind {
            case .tls(.handshakeSent(_, let bytes)), .tls(.handshakeReceived(_, let bytes)): wire = bytes
            default: continue
            }
            let suite = suites[event.connection]
            let context = suite.map { HandshakeDecodingContext(negotiated: $0) } ?? HandshakeDecodingContext()
            let message: HandshakeMessage
            do {
                message = try HandshakeMessage(decoding: wire, context: context)
            } catch {
                // Bytes the engine refuses (an attacker's): the dissector shows the engine's own error.
                let dissection = Dissector(cipherSuite: suite).dissectHandshakeMessages(wire)
                #expect(dissection.refusals == [.invalidMessage(error)], "\(run): \(dissection.refusals) vs \(error)")
                continue
            }
            if case .serverHello(let hello) = message { suites[event.connection] = hello.cipherSuite }
            // TLS 1.3 messages after the hellos have other structures (the walkthrough shows their header only).
            if trace.usesTLS13, message.type != .clientHello, message.type != .serverHello { continue }
            let dissection = Dissector(cipherSuite: suites[event.connection]).dissectHandshakeMessages(wire)
            // The one note a well-formed hello gets: a TLS 1.3 random is 32 opaque bytes (RFC 8446 §4.1.2, §4.1.3).
            #expect(dissection.notes.allSatisfy { $0.field == "random" && ($0.note == .tls13Random || $0.note == .helloRetryRequestRandom) },
                    "\(run) \(message.type): \(dissection.notes)")
            var agreement = Agreement(wire: wire, dissection: dissection)
            agreement.check(message, label: "\(run) \(message.type)")
            checked += 1
        }
        let usesTLS = trace.events.contains { if case .tls = $0.kind { true } else { false } }
        #expect(!usesTLS || checked >= 2, "\(run): no TLS 1.2 handshake message seen")
    }
}

/// One message's dissection against the engine's decoded value.
private struct Agreement {
    let wire: [UInt8]
    let fields: [String: DissectedField]
    let leaves: [DissectedField]
    /// Names whose value or bytes were compared (a compared structure covers the fields under it).
    var covered: Set<String> = []
    /// Byte ranges compared with the engine's bytes: every field inside one holds what the engine parsed.
    var comparedBytes: [Range<Int>] = []

    init(wire: [UInt8], dissection: Dissection) {
        self.wire = wire
        let all = dissection.fields.flatMap(\.all)
        fields = Dictionary(all.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        leaves = dissection.leaves
    }

    static func described<T: CodePoint>(_ value: T) -> FieldValue {
        value.name.map { .text("\($0) (\(value.hex))") } ?? .unnamed(UnnamedNumber(registry: T.registry, number: UInt32(value.rawValue), shown: value.hex))
    }

    mutating func value(_ name: String, _ expected: FieldValue, _ label: String) {
        #expect(fields[name]?.value == expected, "\(label): \(name) is \(fields[name].map { "\($0.value)" } ?? "missing"), the engine parsed \(expected)")
        covered.insert(name)
    }

    mutating func bytes(_ name: String, _ expected: [UInt8], _ label: String) {
        guard !expected.isEmpty else { return }
        guard let f = fields[name] else { Issue.record("\(label): no field \(name)"); return }
        #expect(Array(wire[f.offset ..< f.end]) == expected, "\(label): \(name) holds other bytes than the engine parsed")
        covered.insert(name)
        comparedBytes.append(f.offset ..< f.end)
    }

    mutating func list<T: CodePoint>(_ name: String, _ values: [T], _ label: String) {
        for (i, v) in values.enumerated() { value("\(name)[\(i)]", Self.described(v), label) }
    }

    mutating func random(_ random: Random, _ label: String) {
        bytes("random", random.bytes, label)
    }

    mutating func extensions(_ all: [TLSExtension]?, _ label: String) {
        for (i, ext) in (all ?? []).enumerated() {
            let path = "extensions[\(i)]"
            value("\(path).extension_type", Self.described(ext.type), label)
            switch ext {
            case .serverName(let names):
                for (j, name) in names.enumerated() {
                    value("\(path).server_name_list[\(j)].name_type", name.nameType == ServerName.hostNameType ? .text("host_name (0)")
                          : .unnamed(UnnamedNumber(registry: .serverNameType, number: UInt32(name.nameType), shown: "\(name.nameType)")), label)
                    bytes("\(path).server_name_list[\(j)].host_name", name.name, label)
                }
            case .signatureAlgorithms(let schemes): list("\(path).supported_signature_algorithms", schemes, label)
            case .supportedGroups(let groups): list("\(path).named_group_list", groups, label)
            case .ecPointFormats(let formats): list("\(path).ec_point_format_list", formats, label)
            case .applicationLayerProtocolNegotiation(let names):
                for (j, name) in names.enumerated() { value("\(path).protocol_name_list[\(j)]", .text("\"\(name)\""), label) }
            default: break
            }
            bytes("\(path).extension_data", ext.data, label)
        }
    }

    mutating func check(_ message: HandshakeMessage, label: String) {
        value("msg_type", Self.described(message.type), label)
        value("length", .text("\(wire.count - HandshakeMessage.headerLength)"), label)
        switch message {
        case .clientHello(let m):
            value("client_version", Self.described(m.clientVersion), label)
            random(m.random, label)
            bytes("session_id", m.sessionID, label)
            list("cipher_suites", m.cipherSuites, label)
            list("compression_methods", m.compressionMethods, label)
            extensions(m.extensions, label)
        case .serverHello(let m):
            value("server_version", Self.described(m.serverVersion), label)
            random(m.random, label)
            bytes("session_id", m.sessionID, label)
            value("cipher_suite", Self.described(m.cipherSuite), label)
            value("compression_method", Self.described(m.compressionMethod), label)
            extensions(m.extensions, label)
        case .certificate(let m):
            for (i, cert) in m.certificateList.enumerated() {
                bytes("certificate_list[\(i)]", cert, label)
                value("certificate_list[\(i)]", .certificate(OpaqueBytes(cert)), label)
            }
        case .serverKeyExchange(let m):
            switch m.params {
            case .dhe(let p):
                bytes("params.dh_p", p.p, label)
                bytes("params.dh_g", p.g, label)
                bytes("params.dh_Ys", p.ys, label)
            case .ecdhe(let p):
                value("params.curve_params.curve_type", Self.described(ECCurveType.namedCurve), label)
                value("params.curve_params.namedcurve", Self.described(p.namedGroup), label)
                bytes("params.public.point", p.point, label)
            }
            if let algorithm = m.signedParams.algorithm { value("signed_params.algorithm", Self.described(algorithm), label) }
            bytes("signed_params.signature", m.signedParams.signature, label)
        case .certificateRequest(let m):
            list("certificate_types", m.certificateTypes, label)
            list("supported_signature_algorithms", m.supportedSignatureAlgorithms ?? [], label)
            for (i, dn) in m.certificateAuthorities.enumerated() { bytes("certificate_authorities[\(i)]", dn, label) }
        case .certificateVerify(let m):
            if let algorithm = m.signature.algorithm { value("algorithm", Self.described(algorithm), label) }
            bytes("signature", m.signature.signature, label)
        case .clientKeyExchange(.rsa(let encrypted)): bytes("encrypted_pre_master_secret", encrypted, label)
        case .clientKeyExchange(.dhe(let yc)): bytes("dh_Yc", yc, label)
        case .clientKeyExchange(.ecdhe(let point)): bytes("ecdh_Yc", point, label)
        case .finished(let m): value("verify_data", .text(Hex.string(m.verifyData)), label)
        case .newSessionTicket(let m):
            value("ticket_lifetime_hint", .lifetimeHint(m.lifetimeHint), label)
            bytes("ticket", m.ticket, label)
        case .helloRequest, .serverHelloDone, .other:
            break
        }
        // Every leaf the dissector reports is one the engine's value accounts for: compared above (or
        // under a compared structure), or a length prefix that counts exactly its vector's bytes.
        for leaf in leaves {
            if covered.contains(where: { leaf.name == $0 || leaf.name.hasPrefix($0 + ".") }) { continue }
            if leaf.name.hasSuffix(".length") {
                let vector = String(leaf.name.dropLast(".length".count))
                #expect(leaf.value == .text("\(fields[vector]?.length ?? 0)"), "\(label): \(leaf.name) = \(leaf.value), the vector holds \(fields[vector]?.length ?? 0) bytes")
                continue
            }
            if comparedBytes.contains(where: { $0.contains(leaf.offset) && leaf.end <= $0.upperBound }) { continue }
            Issue.record("\(label): the dissector reports \(leaf.name) = \(leaf.value), which the engine's value does not account for")
        }
    }
}
