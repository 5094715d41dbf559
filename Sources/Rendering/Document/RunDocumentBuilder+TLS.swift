import HTTP2
import PKI
import TCPSim
import TLSCrypto
import TLSEngine
import Trace

/// The ladder's TLS lines: handshake messages, records, derived values, signatures, certificate decisions and alerts.
extension RunDocumentBuilder {
    func tlsLines(_ event: TLSEvent, time t: String, actor: Actor, peer: Actor, state: inout LadderState) -> [LadderEntry] {
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
            return [row(t, at: actor, say("ladder.agreed", [
                "version": "\(n.version)", "suite": "\(n.cipherSuite)",
                "ems": n.extendedMasterSecret ? say("ladder.agreed.ems") : "",
                "resumed": n.resumed ? say("ladder.agreed.resumed") : "",
                "etm": n.encryptThenMAC ? say("ladder.agreed.etm") : "",
                "alpn": n.applicationProtocol.map { say("ladder.agreed.alpn", ["protocol": "\($0)"]) } ?? ""]))]
        case .derived(let value):
            return verbosity == .summary ? [] : derivedLines(value, actor: actor, keyExchange: state.keyExchange)
        case .certificateDecision(_, let length, let accepted, let detail, _):
            return certificateDecisionLines(actor: actor, length: length, accepted: accepted, detail: detail, time: t)
        case .signature(let sig):
            guard verbosity != .summary else { return [] }
            return [namingActor(detail(say(sig.created ? "ladder.signature.created" : sig.valid ? "ladder.signature.checked" : "ladder.signature.invalid", [
                "actor": name(actor), "purpose": say(CatalogueKey.signaturePurpose(sig.purpose)),
                "scheme": sig.scheme.map { say("ladder.signature.scheme", ["scheme": "\($0)"]) } ?? "",
                "bytes": "\(sig.signedData.count)"])))] + signatureInputLines(sig, actor: actor, keyExchange: state.keyExchange)
        case .countermeasureApplied(let reason):
            return [detail(say("ladder.actorSays", ["actor": name(.server), "text": explanations.premasterDecryptionFault(reason)]), .alert)] + explain(explanations.phrase("tls.countermeasure"))
        case .alertSent(let alert, let cause):
            var out = [row(t, from: actor, to: peer, "\(arrow(actor, peer))  TLS Alert \(alert)", .alert)]
            // close_notify is explained with its phase ("phase.close").
            if alert.alertDescription != .closeNotify {
                out.append(detail(say("ladder.why", ["cause": explanations.alertCause(cause)])))
                out += alertExplanation(alert)
                let key = alert.isFatal ? "tls.alert" : "tls.alert.warning"
                if verbosity != .summary, !state.explained.contains(key), explanations(key) != nil {
                    state.explained.insert(key)
                    out += explain(Sentence(key))
                }
                // After a handshake tamper: the sentence for the check that fired, read off the
                // alert's typed cause (the engine's own reason for it).
                if alert.isFatal, state.tamperPending {
                    state.tamperPending = false
                    let check: String? = switch cause {
                    case .failure(.certificateRejected): "attack.tamper.certificate"
                    case .failure(.recordProtection(.badRecordMAC)): "attack.tamper.keys"
                    case .failure(.peerMisbehaved(.serverKeyExchangeSignatureInvalid)): "attack.tamper.signature"
                    case .failure(.peerMisbehaved(.finishedMismatch)): "attack.tamper.finished"
                    default: nil
                    }
                    if verbosity != .summary, let check { out += explain(Sentence(check)) }
                }
            }
            return out
        case .handshakeCompleted(let resumed):
            return [row(t, at: actor, namesActor: true, say("ladder.handshakeComplete", ["actor": name(actor), "abbreviated": resumed ? say("ladder.abbreviated") : ""]), .heading)]
        case .sessionTicketRefused(let reason):
            return [row(t, at: actor, namesActor: true, say("ladder.ticketRefused", ["actor": name(actor), "reason": say(CatalogueKey.ticketRefusal(reason))]), .alert)]
        case .sessionExpired(let expiry):
            var values = ["actor": name(actor), "offer": say(CatalogueKey.sessionOffer(expiry.offer)), "lifetime": "\(expiry.lifetimeSeconds)"]
            values["age"] = expiry.ageSeconds.map { "\($0)" }
            return [row(t, at: actor, namesActor: true, say(expiry.ageSeconds == nil ? "ladder.sessionAgeUnknown" : "ladder.sessionExpired", values), .alert)]
        case .resumptionDeclined(let declined):
            let offer = switch declined.offer {
            case .sessionID: say("session.offer.sessionID")
            case .ticket: say("session.offer.ticket")
            }
            let values = ["actor": name(actor), "offer": offer]
            switch declined.rule {
            case .extendedMasterSecretOnlyInHello:
                return [row(t, at: actor, namesActor: true, say("ladder.resumptionDeclined.extendedMasterSecretOnlyInHello", values), .alert)]
            }
        case .sessionTicketExpired(let expiry):
            let values = ["actor": name(actor), "age": "\(expiry.ageSeconds)", "hint": "\(expiry.lifetimeHintSeconds)"]
            return [row(t, at: actor, namesActor: true, say("ladder.ticketExpired", values), .alert)]
        case .recordSent(let record):
            return recordLines(record, actor: actor, state: &state)
        case .applicationDataSent(let data):
            guard verbosity != .summary else { return [] }
            return [namingActor(detail(say("ladder.encrypts", ["actor": name(actor), "bytes": "\(data.count)"])))]
        case .tls13(let fact):
            return tls13Lines(fact, actor: actor, state: &state)
        case .versionChosen(let choice):
            // From here on this connection's messages take the sentences of the version chosen.
            state.tls13 = choice.version == .tls13
            return [row(t, at: actor, namesActor: true, versionChoice(choice, actor: actor))]
        case .downgradeSentinelWritten(let sentinel):
            var out = [row(t, at: actor, namesActor: true, say("ladder.sentinelWritten", ["actor": name(actor), "version": "\(sentinel.version)",
                                                                         "sentinel": sentinel.bytes.map { Hex.string([$0]) }.joined(separator: " ")]))]
            if verbosity != .summary, !state.explained.contains("tls.downgradeSentinel") {
                state.explained.insert("tls.downgradeSentinel")
                out += explain(Sentence("tls.downgradeSentinel"))
            }
            return out
        default:
            return []
        }
    }

    /// Which version a side that speaks TLS 1.2 and 1.3 settled on, with the rule (RFC 8446 §4.2.1).
    func versionChoice(_ choice: VersionChoice, actor: Actor) -> String {
        func versions(_ list: [ProtocolVersion]) -> String { list.map { "\(Hex.string([$0.major])) \(Hex.string([$0.minor]))" }.joined(separator: ", ") }
        var values = ["actor": name(actor), "version": "\(choice.version)"]
        switch choice.reason {
        case .clientOffersTLS13(let offered):
            values["offered"] = versions(offered)
            return say("ladder.versionChosen.clientOffersTLS13", values)
        case .clientOffersOnlyOlder(let offered):
            values["offered"] = versions(offered)
            return say("ladder.versionChosen.clientOffersOnlyOlder", values)
        case .tls13Disabled(let offered):
            values["offered"] = versions(offered)
            return say("ladder.versionChosen.tls13Disabled", values)
        case .noSupportedVersions(let legacy):
            values["legacy"] = versions([legacy])
            return say("ladder.versionChosen.noSupportedVersions", values)
        case .serverSelectsTLS13:
            return say("ladder.versionChosen.serverSelectsTLS13", values)
        case .serverHelloWithoutSupportedVersions:
            return say("ladder.versionChosen.serverHelloWithoutSupportedVersions", values)
        }
    }

    /// A plain-language line for alerts that have one in the catalogue ("alert.<name>").
    func alertExplanation(_ alert: Alert) -> [LadderEntry] {
        guard verbosity != .summary, let name = alert.alertDescription.name, let key = CatalogueKey.alert(name) else { return [] }
        return explain(Sentence(key))
    }

    func messageLines(_ message: HandshakeMessage, bytes: [UInt8], from: Actor, to: Actor, time t: String, state: inout LadderState) -> [LadderEntry] {
        var out = [row(t, from: from, to: to, say("ladder.message", ["arrow": arrow(from, to), "message": messageName(message), "bytes": "\(bytes.count)"]), .tls)]
        if case .serverHello(let hello) = message, hello.isHelloRetryRequest {
            // RFC 8446 §4.1.3: this random is a fixed constant, not server_random.
            out.append(detail(say("tls13.summary.helloRetryRequest", ["random": Hex.string(hello.random.bytes)])))
        } else {
            out += messageSummary(message).map { detail($0) }
        }
        if verbosity != .summary {
            // The sender's role, not its name: a client (or a MITM's client leg) sends to a server.
            var key = state.tls13 ? tls13ExplanationKey(message, fromClientRole: to == .server)
                : explanationKey(message, state: state, fromClientRole: to == .server)
            // A later connection's NewSessionTicket: what its fields are was said with the first; say what differs.
            if key == "tls13.NewSessionTicket", !state.explained.insert(key).inserted { key = "tls13.NewSessionTicket.again" }
            // Generic sentences name the message's real sender and receiver (behind a MITM, the attacker).
            var values = ["sender": from.rawValue, "receiver": to.rawValue]
            // A 1.3 CertificateVerify names the context string its signer's role puts in the signed content (RFC 8446 §4.4.3).
            if state.tls13, message.type == .certificateVerify {
                values["context"] = to == .server ? TLS13CertificateVerifyContent.clientContext : TLS13CertificateVerifyContent.serverContext
            }
            out += explain(Sentence(key, values))
        }
        switch message {
        case .clientHello(let hello):
            state.alpnOffered = hello.extensions?.applicationProtocols ?? []
            state.clientHelloVersion = hello.clientVersion
        case .serverHello(let hello):
            // ALPN (RFC 7301): said once, where the server's choice arrives.
            if verbosity != .summary, let chosen = hello.extensions?.applicationProtocols?.first,
               let text = explanations("tls.alpn", ["offered": list(state.alpnOffered.map(\.description)),
                                                    "chosen": chosen.description]) {
                out += explain(text)
            }
        default:
            break
        }
        if case .serverHello(let hello) = message { state.cipherSuite = hello.cipherSuite }
        if verbosity == .bytes {
            let dissection = dissection(of: bytes, state: state)
            out += HexdumpRenderer(width: width - 10, explanations: explanations, fullValues: fullValues)
                .render(dissection, input: bytes).map { LadderEntry.line("          " + $0).onlyWithBytes }
            if case .clientHello(let hello) = message { out += extensionLines(hello.extensions ?? [], state: &state) }
        }
        return out
    }

    /// A handshake message's bytes field by field, read with the suite the ServerHello chose so far.
    /// In TLS 1.3 the messages whose shape changed are read by the TLS 1.3 engine's readers (RFC 8446 §4).
    func dissection(of bytes: [UInt8], state: LadderState) -> Dissection {
        Dissector(context: HandshakeDecodingContext(version: state.tls13 ? .tls13 : .tls12), cipherSuite: state.cipherSuite)
            .dissectHandshakeMessages(bytes)
    }

    func changeCipherSpecLines(from: Actor, to: Actor, time t: String, state: inout LadderState) -> [LadderEntry] {
        var out = [row(t, from: from, to: to, "\(arrow(from, to))  TLS ChangeCipherSpec", .tls)]
        if verbosity != .summary, !state.explained.contains("ccs\(from)") {
            state.explained.insert("ccs\(from)")
            out += explain(Sentence(state.tls13 ? "tls13.ChangeCipherSpec" : "tls.ChangeCipherSpec"))
        }
        return out
    }

    func derivedLines(_ value: DerivedValue, actor: Actor, keyExchange: KeyExchangeAlgorithm? = nil) -> [LadderEntry] {
        let who = ["actor": name(actor)]
        // Every `derived.*` sentence starts with its actor ("{actor}: …", "{actor} computes …").
        func line(_ key: String, _ values: [String: String]) -> LadderEntry {
            namingActor(detail(say(key, who.merging(values) { a, _ in a })))
        }
        switch value {
        case .rsaPreMasterEncryption(let pre, let padded, let ciphertext, let bits, _, _):
            return [line("derived.rsaPremaster", ["premaster": short(pre, sized: false), "bytes": "\(pre.count)"]),
                    line("derived.rsaPadded", ["block": short(padded)]),
                    line("derived.rsaEncrypted", ["bits": "\(bits)", "ciphertext": short(ciphertext)])]
        case .rsaPreMasterDecryption(_, let decrypted, let pre):
            // What the RFC 5246 §7.4.7.1 countermeasure decided: the decrypted value, or a substitute.
            let key = if decrypted == pre { "derived.rsaDecrypted" }
                else if let decrypted, decrypted.count == 48, decrypted.dropFirst(2) == pre.dropFirst(2) { "derived.rsaDecrypted.versionReplaced" }
                else { "derived.rsaDecrypted.substituted" }
            return [line(key,
                         ["result": decrypted.map { short($0) } ?? say("derived.paddingError"), "premaster": short(pre)])]
        case .dhAgreement(let p, let g, let group, let x, let y, let peer, let pre):
            return [line("derived.dhGroup", ["group": "\(group)", "p": short(p), "g": short(g)]),
                    line("derived.dhExponent", ["x": short(x), "y": short(y)]),
                    line("derived.dhShared", ["peer": short(peer), "premaster": short(pre)])]
        case .ecdhAgreement(let curve, let priv, let pub, let peer, let pre):
            return [line("derived.ecdhKeys", ["curve": "\(curve)", "private": short(priv), "public": short(pub)]),
                    line("derived.ecdhShared", ["peer": short(peer), "premaster": short(pre)])]
        case .masterSecret(_, let label, _, let prf, let master):
            let extended = label.contains("extended")
            var out = [line("derived.master", ["label": label, "seed": extended ? "session_hash" : "client_random ‖ server_random",
                                               "prf": "\(prf)", "master": short(master)])]
            // How else the premaster could leak depends on the key exchange: only RSA sends it, encrypted to the server's key.
            let unless = say(keyExchange == .rsa ? "tls.masterSecret.unless.rsa" : "tls.masterSecret.unless.ephemeral")
            if actor == .client, let text = explanations(extended ? "tls.masterSecret.ems" : "tls.masterSecret", ["unless": unless]) { out += explain(text) }
            return out
        case .keyBlock(_, _, let block, let keys):
            var out = [line("derived.keyBlock", ["bytes": "\(block.count)"]),
                       line("derived.keys", ["client": short(keys.clientWriteKey), "server": short(keys.serverWriteKey),
                                             "mac": keys.clientWriteMACKey.isEmpty ? "" : say("derived.macKeys", ["bytes": "\(keys.clientWriteMACKey.count)"]),
                                             "ivs": keys.clientWriteIV.isEmpty ? "" : say("derived.ivs", ["client": short(keys.clientWriteIV),
                                                                                                          "server": short(keys.serverWriteIV)])])]
            if actor == .client { out += explain(Sentence(keys.clientWriteMACKey.isEmpty ? "tls.keyBlock" : "tls.keyBlock.cbc")) }
            return out
        case .transcriptHash(let purpose, let length, let hash):
            return verbosity == .bytes ? [line("derived.transcript", ["bytes": "\(length)", "purpose": purpose, "hash": short(hash)]).onlyWithBytes] : []
        case .verifyData(let sender, let label, _, let data):
            return [line("derived.verifyData", ["label": label, "data": Hex.string(data),
                                                "expected": sender.rawValue == actor.rawValue ? "" : say("derived.expectedFrom", ["sender": explanations.actorName(sender.rawValue)])])]
        }
    }

    /// The chain validation, link by link: each certificate of the path with its checks in order,
    /// pass or fail; at the bytes level, Hash1, Hash2 and the recovered PKCS#1 block.
    func chainValidationLines(_ v: ChainValidationTrace, actor: Actor, state: inout LadderState) -> [LadderEntry] {
        let r = v.result
        let trust = say(CatalogueKey.trust(r.result))
        // "leaf → anchor" only when the path reached a trusted anchor; otherwise it stops at the last certificate found.
        var out = [namingActor(detail(say(r.anchorStore == nil ? "chain.validates.unanchored" : "chain.validates", ["actor": name(actor), "peer": explanations.actorName(v.peer.rawValue), "count": "\(r.path.count)",
                                                  "store": r.anchorStore.map { say("chain.anchorFrom", ["store": explanations.trustStoreName($0)]) } ?? "", "trust": trust])))]
        if let release = v.afNetworkingRelease {
            out.append(detail(say("chain.afNetworkingPolicy", ["release": say(CatalogueKey.afNetworkingRelease(release))])))
        }
        if !state.explained.contains("pki.chain"), explanations("pki.chain") != nil {
            state.explained.insert("pki.chain")
            out += explain(Sentence("pki.chain"))
        }
        let depths = r.checks.map(\.depth).reduce(into: [Int]()) { if !$0.contains($1) { $0.append($1) } }
        var explainedKinds: Set<ChainCheck.Kind> = []
        for depth in depths {
            let checks = r.checks.filter { $0.depth == depth }
            let subject = depth < r.path.count ? "\(r.path[depth].subject)" : (checks.first?.subject ?? "?")
            let role = say(CatalogueKey.chainRole(ChainRole(depth: depth, of: r)))
            out.append(detail(say("chain.link", ["depth": "\(depth)", "role": role, "subject": subject]), indent: 2))
            for check in checks {
                // A failed check names its kind first, then the verdict (zh: "✗ 信任锚：未通过——…", review-zh 3.6).
                out.append(detail(say(check.passed ? "chain.check" : "chain.check.failed",
                                      ["mark": "✓", "kind": say(CatalogueKey.chainKind(check.kind)),
                                       "detail": explanations.chainCheckDetail(check)]), check.passed ? .plain : .alert, indent: 4))
                // A failed check says what it checks, why (the RFC section) and what it protects against, once per kind.
                if !check.passed, explainedKinds.insert(check.kind).inserted {
                    out.append(detail(explanations.chainCheckWhy(check.kind), .explanation, indent: 6))
                }
                // What the leaf's keyUsage means in this handshake (who uses the key, for what), once a run.
                if check.passed, check.kind == .keyUsage, depth == 0, verbosity != .summary, !state.explained.contains("chain.keyUsage"),
                   v.peer == .client || state.keyExchange != nil {
                    state.explained.insert("chain.keyUsage")
                    let key = v.peer == .client ? "chain.keyUsage.client" : state.keyExchange == .rsa ? "chain.keyUsage.rsa" : "chain.keyUsage.ephemeral"
                    out.append(detail(say(key), .explanation, indent: 6))
                }
                guard verbosity == .bytes, let sig = check.signature else { continue }
                let before = out.count
                defer { for i in before..<out.count { out[i].bytesOnly = true } }
                out.append(detail(say("chain.hash1", ["digest": sig.algorithm.hash.map { "\($0)" } ?? explanations.signatureAlgorithmName(sig.algorithm), "hash": Hex.string(sig.hash1)]), indent: 6))
                if let hash2 = sig.hash2 { out.append(detail(say("chain.hash2", ["hash": Hex.string(hash2)]), indent: 6)) }
                if let r = sig.ecdsaR, let s = sig.ecdsaS {
                    out.append(detail(say("chain.ecdsaR", ["value": Hex.string(r)]), indent: 6))
                    out.append(detail(say("chain.ecdsaS", ["value": Hex.string(s)]), indent: 6))
                    out.append(detail(say("chain.ecdsaVerify"), indent: 6))
                }
                if let block = sig.recoveredBlock {
                    out.append(detail(say("chain.block", ["block": Hex.string(block.encodedMessage)]), indent: 6))
                    out.append(detail("DigestInfo = \(Hex.string(block.digestInfo))\(block.hash.map { " (\($0))" } ?? "")", indent: 6))
                }
                out.append(detail(explanations.signatureOutcome(sig.outcome), indent: 6))
            }
        }
        return out
    }

    func certificateDecisionLines(actor: Actor, length: Int, accepted: Bool, detail: CertificateAccount, time t: String) -> [LadderEntry] {
        [row(t, at: actor, namesActor: true, say(accepted ? "ladder.certificate.trusted" : "ladder.certificate.rejected",
                               ["actor": name(actor), "length": "\(length)", "detail": explanations.certificateAccount(detail)]),
             accepted ? .tls : .alert)]
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
        switch m.type {
        case .clientHello: return "tls.ClientHello"
        case .serverHello: return "tls.ServerHello"
        case .certificate: return "tls.Certificate"
        case .serverKeyExchange: return "tls.ServerKeyExchange"
        case .certificateRequest: return "tls.CertificateRequest"
        case .serverHelloDone: return "tls.ServerHelloDone"
        case .certificateVerify: return "tls.CertificateVerify"
        case .finished: return "tls.Finished"
        case .newSessionTicket: return "tls.NewSessionTicket"
        default: return ""  // no sentence in the catalogue (HelloRequest, an unknown type)
        }
    }

    /// The values a message introduces, shown under its arrow.
    func messageSummary(_ m: HandshakeMessage) -> [String] {
        switch m {
        case .clientHello(let ch):
            return [say("summary.clientHello", ["random": Hex.string(ch.random.bytes), "count": "\(ch.cipherSuites.count)"])]
                + (ch.extensions?.applicationProtocols.map { [say("summary.alpnOffers", ["list": $0.map(\.description).joined(separator: ", ")])] } ?? [])
        case .serverHello(let sh):
            return [say("summary.serverHello", ["random": Hex.string(sh.random.bytes), "suite": "\(sh.cipherSuite)"])]
                + (sh.extensions?.applicationProtocols.map { [say("summary.alpnChose", ["list": $0.map(\.description).joined(separator: ", ")])] } ?? [])
        case .certificate(let c):
            return [say("summary.certificate", ["count": "\(c.certificateList.count)"])]
        case .newSessionTicket(let ticket):
            return [say("summary.newSessionTicket", ["bytes": "\(ticket.ticket.count)", "hint": "\(ticket.lifetimeHint)"])]
        default:
            return []
        }
    }

    func handshakeName(_ type: HandshakeType) -> String { type.messageName }
}
