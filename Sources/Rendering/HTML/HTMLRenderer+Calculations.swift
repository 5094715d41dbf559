import TLSCrypto
import TLSEngine
import Trace

/// A step's calculations as a reader can redo them: each a figure with its formula (the rule and its
/// RFC section), its inputs and what comes out, every value whole and with a copy button, and one
/// button that copies the whole calculation as plain text. The value a button copies is the one the
/// page shows: the script reads it from the item's `data-hex` (or `data-text`), written here from the
/// same bytes. The buttons are `hidden` until the script runs: without it the values stay selectable.
extension HTMLRenderer {
    func calculations(_ calculations: [Calculation], step: Int) -> String {
        var out = ""
        for (i, c) in calculations.enumerated() {
            let id = "calc-\(step)-\(i + 1)"
            let values = calculationWords(c)
            out += "<figure class=\"calc-step\" id=\"\(id)\" data-calc=\"\(c.kind.rawValue)\" data-actor=\"\(c.actor.rawValue)\">\n"
            out += "<figcaption>\(say(Self.headingKey(c.kind), values))</figcaption>\n"
            out += "<p class=\"formula\">\(say(Self.formulaKey(c.kind), values))</p>\n"
            out += valueList(c.inputs, heading: say("html.calc.inputs"), role: "input")
            out += valueList(c.outputs, heading: say("html.calc.outputs"), role: "output")
            out += "<button type=\"button\" class=\"copy-all\" hidden aria-label=\"\(say("html.calc.copyAll.label"))\""
            out += " data-copied=\"\(say("html.calc.copied"))\" data-selected=\"\(say("html.calc.selected"))\">\(say("html.calc.copyAll"))</button>\n"
            out += "</figure>\n"
        }
        return out
    }

    /// The words a heading and formula take: the party, the sender of a Finished, a signature's signer
    /// and algorithm; TLS 1.3's group, secrets and label as the RFC names them, the salt, IKM and
    /// transcript point in the catalogue's words.
    private func calculationWords(_ c: Calculation) -> [String: String] {
        // The words go into a sentence that `say` escapes once: taken unescaped here.
        func word(_ key: String) -> String { explanations(key) ?? key }
        var values = ["actor": party(c.actor)]
        if let sender = c.words["sender"] {
            values["sender"] = Actor(rawValue: sender).map(party) ?? sender
            values["senderName"] = sender
        }
        if let signer = c.words["signer"] { values["signer"] = Actor(rawValue: signer).map(party) ?? signer }
        for key in ["algorithm", "group", "secret", "from", "label"] { if let value = c.words[key] { values[key] = value } }
        if let salt = c.words["salt"] { values["salt"] = salt == "zeros" ? word("tls13.input.zeros") : salt }
        if let ikm = c.words["ikm"].flatMap(TLS13KeyScheduleStep.InputKeyingMaterial.init(rawValue:)) {
            values["ikm"] = switch ikm {
            case .zeros: word("tls13.input.zeros")
            case .preSharedKey: word("tls13.input.psk")
            case .sharedSecret: word("tls13.input.sharedSecret")
            }
        }
        if let point = c.words["messages"].flatMap(TLS13TranscriptPoint.init(rawValue:)) {
            values["messages"] = switch point {
            case .empty: word("tls13.messages.empty")
            case .clientHello: word("tls13.messages.clientHello")
            case .serverHello: word("tls13.messages.serverHello")
            case .serverFinished: word("tls13.messages.serverFinished")
            case .clientFinished: word("tls13.messages.clientFinished")
            }
        }
        return values
    }

    /// Values as a list: each named as the RFC names it, whole, with the button that copies it.
    private func valueList(_ values: [Calculation.Value], heading: String, role: String) -> String {
        guard !values.isEmpty else { return "" }
        var out = "<ul class=\"calc\" aria-label=\"\(heading)\">\n"
        for v in values {
            let shown = v.isText ? "\"\(v.shown)\"" : v.shown
            let data = v.isText ? " data-text=\"\(HTMLText.escaped(v.shown))\"" : ""
            out += "<li data-name=\"\(HTMLText.escaped(v.name))\" data-role=\"\(role)\" data-hex=\"\(Hex.string(v.bytes))\"\(data)>"
            out += "<span class=\"name\">\(HTMLText.escaped(v.name))</span> = <code class=\"value\">\(HTMLText.escaped(shown))</code>"
            if !v.isText { out += " <span class=\"size\">\(say("html.bytes.length", ["count": "\(v.bytes.count)"]))</span>" }
            out += copyButton(name: v.name)
            out += "</li>\n"
        }
        return out + "</ul>\n"
    }

    /// The button that copies one value whole (hidden until the script shows it).
    func copyButton(name: String) -> String {
        " <button type=\"button\" class=\"copy\" hidden aria-label=\"\(say("html.calc.copy.label", ["name": name]))\""
            + " data-copied=\"\(say("html.calc.copied"))\" data-selected=\"\(say("html.calc.selected"))\">\(say("html.calc.copy"))</button>"
    }

    static func headingKey(_ kind: Calculation.Kind) -> String {
        switch kind {
        case .rsaPremaster: "html.calc.rsaPremaster"
        case .dhShared: "html.calc.dhShared"
        case .ecdhShared: "html.calc.ecdhShared"
        case .masterSecret: "html.calc.masterSecret"
        case .extendedMasterSecret: "html.calc.extendedMasterSecret"
        case .resumedMasterSecret: "html.calc.resumedMasterSecret"
        case .keyBlock: "html.calc.keyBlock"
        case .verifyData: "html.calc.verifyData"
        case .serverKeyExchangeSignature: "html.calc.serverKeyExchangeSignature"
        case .certificateVerifySignature: "html.calc.certificateVerifySignature"
        case .tls13KeyShare: "html.calc.tls13KeyShare"
        case .tls13Extract: "html.calc.tls13Extract"
        case .tls13DeriveSecret: "html.calc.tls13DeriveSecret"
        case .tls13ExpandLabel: "html.calc.tls13ExpandLabel"
        case .tls13TrafficKeys: "html.calc.tls13TrafficKeys"
        case .tls13Finished: "html.calc.tls13Finished"
        case .tls13PSKBinder: "html.calc.tls13PSKBinder"
        case .tls13CertificateVerify: "html.calc.tls13CertificateVerify"
        }
    }

    static func formulaKey(_ kind: Calculation.Kind) -> String {
        switch kind {
        case .rsaPremaster: "html.calc.rsaPremaster.formula"
        case .dhShared: "html.calc.dhShared.formula"
        case .ecdhShared: "html.calc.ecdhShared.formula"
        case .masterSecret: "html.calc.masterSecret.formula"
        case .extendedMasterSecret: "html.calc.extendedMasterSecret.formula"
        case .resumedMasterSecret: "html.calc.resumedMasterSecret.formula"
        case .keyBlock: "html.calc.keyBlock.formula"
        case .verifyData: "html.calc.verifyData.formula"
        case .serverKeyExchangeSignature: "html.calc.serverKeyExchangeSignature.formula"
        case .certificateVerifySignature: "html.calc.certificateVerifySignature.formula"
        case .tls13KeyShare: "html.calc.tls13KeyShare.formula"
        case .tls13Extract: "html.calc.tls13Extract.formula"
        case .tls13DeriveSecret: "html.calc.tls13DeriveSecret.formula"
        case .tls13ExpandLabel: "html.calc.tls13ExpandLabel.formula"
        case .tls13TrafficKeys: "html.calc.tls13TrafficKeys.formula"
        case .tls13Finished: "html.calc.tls13Finished.formula"
        case .tls13PSKBinder: "html.calc.tls13PSKBinder.formula"
        case .tls13CertificateVerify: "html.calc.tls13CertificateVerify.formula"
        }
    }
}
