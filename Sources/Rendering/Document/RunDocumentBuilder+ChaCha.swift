import TLSEngine
import Trace

/// The first ChaCha20-Poly1305 record of a run after a Finished (sequence number 1, so that the XOR
/// changes something), as values (RFC 7905 §2): the nonce is the key block's 12-byte IV XOR the
/// sequence number, and nothing of it travels in the record.
extension RunDocumentBuilder {
    func chaChaRecordLines(_ record: RecordTrace, actor: Actor, state: inout LadderState) -> [LadderEntry] {
        guard let c = record.crypto, c.nonceOrIV.count == 12, c.additionalData.count == 13, c.sequenceNumber > 0,
              !state.gcmValuesShown else { return [] }
        state.gcmValuesShown = true
        let aad = c.additionalData
        let paddedSeq = [UInt8](repeating: 0, count: 4) + Array(aad[0..<8])
        // XOR is its own inverse: the IV is the nonce XOR the padded sequence number.
        let iv = zip(c.nonceOrIV, paddedSeq).map { $0 ^ $1 }
        var lines = explain(Sentence("record.chacha.values", [
            "actor": actor.rawValue, "seq": "\(c.sequenceNumber)", "iv": Hex.string(iv), "paddedSeq": Hex.string(paddedSeq),
            "nonce": Hex.string(c.nonceOrIV),
            "seqHex": Hex.string(Array(aad[0..<8])), "type": Hex.string([aad[8]]), "version": Hex.string(Array(aad[9..<11])),
            "length": Hex.string(Array(aad[11..<13])), "plaintext": "\(Int(aad[11]) << 8 | Int(aad[12]))",
            "tag": Hex.string(c.authenticator)]))
        lines += explain(Sentence("record.chacha.why"))
        return lines
    }
}
