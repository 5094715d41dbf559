import TLSEngine
import Trace

/// What the ladder says about records themselves, once a run each, under the TCP segment that carries
/// the record: the record header of the first ClientHello beside its client_version, and the first
/// protected record's AES-GCM nonce and additional data as values.
extension RunDocumentBuilder {
    func recordLines(_ record: RecordTrace, actor: Actor, state: inout LadderState) -> [LadderEntry] {
        guard verbosity != .summary else { return [] }
        func spaced(_ bytes: [UInt8]) -> String { bytes.map { Hex.string([$0]) }.joined(separator: " ") }
        var notes: [LadderEntry] = []
        // The record version beside the offer (RFC 5246 Appendix E.1), under the segment that carries the ClientHello.
        if record.contentType == .handshake, record.crypto == nil, record.wire.count >= 5,
           record.plaintext.first == HandshakeType.clientHello.rawValue,
           let offered = state.clientHelloVersion, !state.recordVersionShown {
            state.recordVersionShown = true
            let length = Int(record.wire[3]) << 8 | Int(record.wire[4])
            let key = record.version == offered ? "tls.recordVersion.same" : "tls.recordVersion.lower"
            notes += explain(Sentence(key, ["header": spaced(Array(record.wire.prefix(5))), "record": spaced([record.version.major, record.version.minor]),
                                       "length": "\(length)", "total": "\(length + 5)", "hello": spaced([offered.major, offered.minor])]))
        }
        // The first ChaCha20-Poly1305 record: its nonce built from the IV and the sequence number (RFC 7905 §2).
        if state.cipherSuite?.parameters?.cipher == .chaCha20Poly1305 {
            notes += chaChaRecordLines(record, actor: actor, state: &state)
        // The first AES-GCM record: its nonce and additional data as values (RFC 5288 §3, RFC 5246 §6.2.3.3).
        } else if let c = record.crypto, c.nonceOrIV.count == 12, c.additionalData.count == 13, !state.gcmValuesShown {
            state.gcmValuesShown = true
            let aad = c.additionalData
            notes += explain(Sentence("record.gcm.values", [
                "actor": actor.rawValue, "seq": "\(c.sequenceNumber)",
                "salt": Hex.string(Array(c.nonceOrIV.prefix(4))), "explicit": Hex.string(Array(c.nonceOrIV.suffix(8))),
                "nonce": Hex.string(c.nonceOrIV),
                "seqHex": Hex.string(Array(aad[0..<8])), "type": Hex.string([aad[8]]), "version": Hex.string(Array(aad[9..<11])),
                "length": Hex.string(Array(aad[11..<13])), "plaintext": "\(Int(aad[11]) << 8 | Int(aad[12]))",
                "tag": Hex.string(c.authenticator)]))
        }
        if !notes.isEmpty { state.recordNotes[actor, default: []] += notes }
        return []
    }
}

extension RunDocumentBuilder {
    /// Under a ClientHello's bytes: one sentence for each extension it carries, each said once a run.
    func extensionLines(_ extensions: [TLSExtension], state: inout LadderState) -> [LadderEntry] {
        // What the client offers decides which handshake an extension serves: TLS 1.3 has no
        // ServerKeyExchange (RFC 8446 §B.3), and its groups and signatures work through key_share and
        // CertificateVerify (§4.2.3, §4.2.7, §4.2.8).
        var offered: [ProtocolVersion] = []
        if case .unknown(_, let data)? = extensions.first(ofType: .supportedVersions),
           case .offered(let versions)? = try? SupportedVersions(extensionData: data, inClientHello: true) { offered = versions }
        let offersTLS13 = offered.contains { $0 >= .tls13 }
        let offersOlder = offered.isEmpty || offered.contains { $0 < .tls13 }
        var out: [LadderEntry] = []
        for e in extensions {
            let key: String
            switch e {
            case .serverName: key = "ext.server_name"
            case .signatureAlgorithms:
                key = !offersTLS13 ? "ext.signature_algorithms" : offersOlder ? "ext.signature_algorithms.tls13or12" : "ext.signature_algorithms.tls13"
            case .supportedGroups:
                key = !offersTLS13 ? "ext.supported_groups" : offersOlder ? "ext.supported_groups.tls13or12" : "ext.supported_groups.tls13"
            case .ecPointFormats: key = "ext.ec_point_formats"
            case .extendedMasterSecret: key = "ext.extended_master_secret"
            case .renegotiationInfo: key = "ext.renegotiation_info"
            case .sessionTicket: key = "ext.session_ticket"
            case .encryptThenMAC: key = "ext.encrypt_then_mac"
            case .applicationLayerProtocolNegotiation: key = "ext.alpn"
            case .unknown(let type, _) where type == .keyShare: key = "ext.key_share"
            case .unknown(let type, _) where type == .pskKeyExchangeModes: key = "ext.psk_key_exchange_modes"
            case .unknown(let type, _) where type == .supportedVersions: key = "ext.supported_versions"
            default: continue
            }
            guard state.explained.insert(key).inserted else { continue }
            if out.isEmpty { out += explain(Sentence("ext.heading")) }
            out += explain(Sentence(key))
        }
        // Shown with the bytes they describe.
        return out.map(\.onlyWithBytes)
    }
}
