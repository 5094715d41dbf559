import HTTP2
import PKI
import TCPSim
import TLSCrypto
import TLSEngine
import Trace

/// The ladder's TLS lines: handshake messages, records, derived values, signatures, certificate decisions and alerts.
extension TextRenderer {
    func tlsLines(_ event: TLSEvent, time t: String, actor: Actor, peer: Actor, state: inout LadderState) -> [String] {
        switch event {
        case .handshakeSent(let message, let bytes):
            return messageLines(message, bytes: bytes, from: actor, to: peer, time: t, state: &state)
        case .handshakeReceived(let message, let bytes) where state.oneSided:
            // The real peer is not traced: its message is shown as it arrived, with the same explanation.
            return messageLines(message, bytes: bytes, from: peer, to: actor, time: t, state: &state)
        case .changeCipherSpecSent:
            return changeCipherSpecLines(from: actor, to: peer, time: t, state: &state)
        case .changeCipherSpecReceived where state.oneSided:
            return changeCipherSpecLines(from: peer, to: actor, time: t, state: &state)
        case .alertReceived(let alert) where state.oneSided:
            return [row(t, from: peer, to: actor, "\(arrow(peer, actor))  TLS Alert \(alert)", .alert)] + alertExplanation(alert)
        case .negotiated(let n):
            state.keyExchange = n.cipherSuite.parameters?.keyExchange
            state.cipherSuite = n.cipherSuite
            guard actor == .client else { return [] }
            return [row(t, at: actor, "agreed: \(n.version), \(n.cipherSuite)\(n.extendedMasterSecret ? ", extended master secret" : "")\(n.resumed ? ", resumed session" : "")\(n.encryptThenMAC ? ", encrypt-then-MAC (RFC 7366)" : "")\(n.applicationProtocol.map { ", ALPN \($0)" } ?? "")")]
        case .derived(let value):
            return verbosity == .summary ? [] : derivedLines(value, actor: actor)
        case .certificateDecision(_, let length, let accepted, let detail, _):
            if !accepted { state.certificateRejected = true }
            return certificateDecisionLines(actor: actor, length: length, accepted: accepted, detail: detail, time: t)
        case .signature(let sig):
            if !sig.created, !sig.valid { state.signatureFailed = true }
            guard verbosity != .summary else { return [] }
            return [detail("\(actor.rawValue) \(sig.created ? "signed" : sig.valid ? "checked" : "found INVALID") the \(sig.purpose.rawValue) signature" +
                           (sig.scheme.map { " (\($0))" } ?? "") + " over \(sig.signedData.count) bytes")]
        case .countermeasureApplied(let reason):
            return [detail("server: \(reason)", .alert)] + explain(explanations("tls.countermeasure") ?? "")
        case .alertSent(let alert, let cause):
            var out = [row(t, from: actor, to: peer, "\(arrow(actor, peer))  TLS Alert \(alert)", .alert)]
            // close_notify is explained with its phase ("phase.close").
            if alert.alertDescription != .closeNotify {
                out.append(detail("why: \(cause)"))
                out += alertExplanation(alert)
                let key = alert.isFatal ? "tls.alert" : "tls.alert.warning"
                if verbosity != .summary, !state.explained.contains(key), let text = explanations(key) {
                    state.explained.insert(key)
                    out += explain(text)
                }
                // After a handshake tamper: the sentence for the check that actually fired.
                if alert.isFatal, state.tamperPending {
                    state.tamperPending = false
                    let check: String? = switch alert.alertDescription {
                    case _ where state.certificateRejected: "attack.tamper.certificate"
                    case .badRecordMAC: "attack.tamper.keys"
                    case .decryptError: state.signatureFailed ? "attack.tamper.signature" : "attack.tamper.finished"
                    default: nil
                    }
                    if verbosity != .summary, let check, let text = explanations(check) { out += explain(text) }
                }
            }
            return out
        case .handshakeCompleted(let resumed):
            return [row(t, at: actor, "\(actor.rawValue): handshake complete\(resumed ? " (abbreviated)" : "")", .heading)]
        case .applicationDataSent(let data):
            guard verbosity != .summary else { return [] }
            return [detail("\(actor.rawValue) encrypts \(data.count) bytes of application data")]
        default:
            return []
        }
    }

    /// A plain-language line for alerts that have one in the catalogue ("alert.<name>").
    func alertExplanation(_ alert: Alert) -> [String] {
        guard verbosity != .summary, let name = alert.alertDescription.name, let text = explanations("alert.\(name)") else { return [] }
        return explain(text)
    }

    func messageLines(_ message: HandshakeMessage, bytes: [UInt8], from: Actor, to: Actor, time t: String, state: inout LadderState) -> [String] {
        var out = [row(t, from: from, to: to, "\(arrow(from, to))  TLS \(messageName(message))  (\(bytes.count) bytes)", .tls)]
        out += messageSummary(message).map { detail($0) }
        if verbosity != .summary {
            // The sender's role, not its name: a client (or a MITM's client leg) sends to a server.
            let key = explanationKey(message, state: state, fromClientRole: to == .server)
            if let text = explanations(key) { out += explain(text) }
        }
        switch message {
        case .clientHello(let hello):
            state.alpnOffered = hello.extensions?.applicationProtocols ?? []
        case .serverHello(let hello):
            // ALPN (RFC 7301): said once, where the server's choice arrives.
            if verbosity != .summary, let chosen = hello.extensions?.applicationProtocols?.first,
               let text = explanations("tls.alpn", ["offered": Self.englishList(state.alpnOffered.map(\.description)),
                                                    "chosen": chosen.description]) {
                out += explain(text)
            }
        default:
            break
        }
        if case .serverHello(let hello) = message { state.cipherSuite = hello.cipherSuite }
        if verbosity == .bytes {
            let dissection = Dissector(cipherSuite: state.cipherSuite).dissectHandshakeMessages(bytes)
            out += HexdumpRenderer(width: width - 10).render(dissection, input: bytes).map { "          " + $0 }
        }
        return out
    }

    func changeCipherSpecLines(from: Actor, to: Actor, time t: String, state: inout LadderState) -> [String] {
        var out = [row(t, from: from, to: to, "\(arrow(from, to))  TLS ChangeCipherSpec", .tls)]
        if verbosity != .summary, !state.explained.contains("ccs\(from)"), let text = explanations("tls.ChangeCipherSpec") {
            state.explained.insert("ccs\(from)")
            out += explain(text)
        }
        return out
    }

    func derivedLines(_ value: DerivedValue, actor: Actor) -> [String] {
        let who = actor.rawValue
        switch value {
        case .rsaPreMasterEncryption(let pre, let padded, let ciphertext, let bits):
            return [detail("\(who): premaster = \(short(pre, sized: false)) (\(pre.count) bytes: version ‖ 46 random)"),
                    detail("\(who): PKCS#1 v1.5 block 00 02 <nonzero padding> 00 premaster = \(short(padded))"),
                    detail("\(who): encrypted with the server's \(bits)-bit RSA key → \(short(ciphertext))")]
        case .rsaPreMasterDecryption(_, let decrypted, let pre):
            return [detail("\(who): decrypts the premaster with its private key → \(decrypted.map { short($0) } ?? "padding error") (uses \(short(pre)))")]
        case .dhAgreement(let p, let g, let group, let x, let y, let peer, let pre):
            return [detail("\(who): DH group \(group): p = \(short(p)), g = \(short(g))"),
                    detail("\(who): secret exponent x = \(short(x)) ; public value g^x mod p = \(short(y))"),
                    detail("\(who): peer's value = \(short(peer)) ; Z = peer^x mod p = premaster = \(short(pre))")]
        case .ecdhAgreement(let curve, let priv, let pub, let peer, let pre):
            return [detail("\(who): \(curve) private key = \(short(priv)) ; public = \(short(pub))"),
                    detail("\(who): peer's public = \(short(peer)) ; shared secret = premaster = \(short(pre))")]
        case .masterSecret(_, let label, _, let prf, let master):
            let extended = label.contains("extended")
            var out = [detail("\(who): master_secret = PRF(premaster, \"\(label)\", \(extended ? "session_hash" : "client_random ‖ server_random")) [\(prf)] = \(short(master))")]
            if actor == .client, let text = explanations(extended ? "tls.masterSecret.ems" : "tls.masterSecret") { out += explain(text) }
            return out
        case .keyBlock(_, _, let block, let keys):
            var out = [detail("\(who): key_block = PRF(master, \"key expansion\", server_random ‖ client_random) = \(block.count) bytes →"),
                       detail("\(who):   client_write_key = \(short(keys.clientWriteKey)), server_write_key = \(short(keys.serverWriteKey))" +
                              (keys.clientWriteMACKey.isEmpty ? "" : ", MAC keys \(keys.clientWriteMACKey.count) bytes") +
                              (keys.clientWriteIV.isEmpty ? "" : ", IVs \(short(keys.clientWriteIV)) / \(short(keys.serverWriteIV))"))]
            if actor == .client, let text = explanations(keys.clientWriteMACKey.isEmpty ? "tls.keyBlock" : "tls.keyBlock.cbc") { out += explain(text) }
            return out
        case .transcriptHash(let purpose, let length, let hash):
            return verbosity == .bytes ? [detail("\(who): Hash(handshake messages, \(length) bytes) for \(purpose) = \(short(hash))")] : []
        case .verifyData(let sender, let label, _, let data):
            return [detail("\(who): verify_data = PRF(master, \"\(label)\", Hash(handshake messages))[0..11] = \(Hex.string(data))" +
                           (sender.rawValue == who ? "" : " (expected from the \(sender.rawValue))"))]
        }
    }

    /// The chain validation, link by link: each certificate of the path with its checks in order,
    /// pass or fail; at the bytes level, Hash1, Hash2 and the recovered PKCS#1 block.
    func chainValidationLines(_ v: ChainValidationTrace, actor: Actor, state: inout LadderState) -> [String] {
        let r = v.result
        let trust = explanations("trust.\(r.result.rawValue)") ?? r.result.rawValue
        var out = [detail("\(actor.rawValue) validates the \(v.peer.rawValue)'s chain, leaf → anchor (path of \(r.path.count)" +
                          (r.anchorStore.map { ", anchor from \($0)" } ?? "") + "): \(trust)")]
        if !state.explained.contains("pki.chain"), let text = explanations("pki.chain") {
            state.explained.insert("pki.chain")
            out += explain(text)
        }
        let depths = r.checks.map(\.depth).reduce(into: [Int]()) { if !$0.contains($1) { $0.append($1) } }
        for depth in depths {
            let checks = r.checks.filter { $0.depth == depth }
            let subject = depth < r.path.count ? "\(r.path[depth].subject)" : (checks.first?.subject ?? "?")
            out.append(detail("link \(depth) (\(depth == 0 ? "leaf" : depth == r.path.count - 1 ? "anchor" : "CA")): \(subject)", indent: 2))
            for check in checks {
                out.append(detail("\(check.passed ? "✓" : "✗ FAIL") \(check.kind.rawValue): \(check.detail)", check.passed ? .plain : .alert, indent: 4))
                guard verbosity == .bytes, let sig = check.signature else { continue }
                out.append(detail("Hash1 = \(sig.algorithm) digest(TBSCertificate) = \(Hex.string(sig.hash1))", indent: 6))
                if let hash2 = sig.hash2 { out.append(detail("Hash2 = digest recovered from the signature with the issuer's key = \(Hex.string(hash2))", indent: 6)) }
                if let r = sig.ecdsaR, let s = sig.ecdsaS {
                    out.append(detail("ECDSA signature r = \(Hex.string(r))", indent: 6))
                    out.append(detail("ECDSA signature s = \(Hex.string(s))", indent: 6))
                    out.append(detail("verify(Hash1, r, s, issuer's public point): no digest is recovered", indent: 6))
                }
                if let block = sig.recoveredBlock {
                    out.append(detail("PKCS#1 v1.5 block (signature^e mod n) = \(Hex.string(block.encodedMessage))", indent: 6))
                    out.append(detail("DigestInfo = \(Hex.string(block.digestInfo))\(block.hash.map { " (\($0))" } ?? "")", indent: 6))
                }
                if !sig.note.isEmpty { out.append(detail(sig.note, indent: 6)) }
            }
        }
        return out
    }

    func certificateDecisionLines(actor: Actor, length: Int, accepted: Bool, detail text: String, time t: String) -> [String] {
        [row(t, at: actor, "\(actor.rawValue) \(accepted ? "trusts" : "REJECTS") the \(length)-certificate chain: \(text)", accepted ? .tls : .alert)]
    }

    // MARK: Helpers

    func messageName(_ m: HandshakeMessage) -> String { m.type.messageName }

    func explanationKey(_ m: HandshakeMessage, state: LadderState, fromClientRole: Bool = false) -> String {
        if case .certificate = m, fromClientRole { return "tls.Certificate.client" }
        if case .clientKeyExchange = m {
            switch state.keyExchange {
            case .rsa: return "tls.ClientKeyExchange.rsa"
            case .ecdheRSA, .ecdheECDSA: return "tls.ClientKeyExchange.ecdh"
            default: return "tls.ClientKeyExchange.dh"
            }
        }
        return "tls." + messageName(m)
    }

    /// The values a message introduces, shown under its arrow.
    func messageSummary(_ m: HandshakeMessage) -> [String] {
        switch m {
        case .clientHello(let ch):
            return ["client_random = \(Hex.string(ch.random.bytes)), \(ch.cipherSuites.count) cipher suite(s) offered"]
                + (ch.extensions?.applicationProtocols.map { ["ALPN offers: \($0.map(\.description).joined(separator: ", "))"] } ?? [])
        case .serverHello(let sh):
            return ["server_random = \(Hex.string(sh.random.bytes)), chosen: \(sh.cipherSuite)"]
                + (sh.extensions?.applicationProtocols.map { ["ALPN chose: \($0.map(\.description).joined(separator: ", "))"] } ?? [])
        case .certificate(let c):
            return ["\(c.certificateList.count) certificate(s)"]
        default:
            return []
        }
    }

    func handshakeName(_ type: HandshakeType) -> String { type.messageName }
}
