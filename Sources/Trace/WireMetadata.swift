import TCPSim
import TLSEngine

/// What a passive eavesdropper reads in the clear on the first connection of a TLS run, besides the
/// randoms: TLS 1.2 encrypts only what follows ChangeCipherSpec (RFC 5246 §7.3), and a record's type,
/// version and length travel in its header (§6.2). Every value here is read from the trace's own
/// events, the same bytes the eavesdropper recorded.
public struct WireMetadata: Sendable, Hashable {
    /// The client's TCP endpoint and the server's (IP addresses and ports: every segment's headers).
    public var client: TCPEndpoint?
    public var server: TCPEndpoint?
    /// server_name in the ClientHello (RFC 6066 §3): which site.
    public var serverName: String?
    /// Certificates in the server's Certificate message: the whole chain, subject names included.
    public var chainLength: Int?
    /// The suite in the ServerHello, and the (EC)DHE group of the ServerKeyExchange.
    public var cipherSuite: CipherSuite?
    public var group: String?
    /// Both (EC)DH public values cross the wire (ServerKeyExchange, ClientKeyExchange).
    public var publicValuesInClear: Bool
    /// The length of every application-data record each side sent (the size of requests and responses).
    public var clientRecordLengths: [Int]
    public var serverRecordLengths: [Int]
    /// TLS 1.3: everything after the ServerHello travels under the handshake keys (RFC 8446 §2),
    /// the certificate chain included: the eavesdropper does not see it (`chainLength` is nil).
    public var certificateEncrypted = false
}

extension Trace {
    /// What crossed the first connection in the clear, nil when it carried no TLS.
    public var wireMetadata: WireMetadata? {
        var negotiation: NegotiationTrace?
        var chainLength: Int?
        var publicValues = false
        var group: String?
        var clientLengths: [Int] = [], serverLengths: [Int] = []
        var client: TCPEndpoint?, server: TCPEndpoint?
        for event in events where event.connection == 0 {
            switch event.kind {
            case .tcp(.sent(let packet)) where client == nil && packet.segment.flags.contains(.syn) && !packet.segment.flags.contains(.ack):
                client = packet.sourceEndpoint
                server = packet.destinationEndpoint
            case .tls(.negotiated(let n)) where event.actor == .client && negotiation == nil:
                negotiation = n
            case .tls(.certificateDecision(.server, let length, _, _, _)) where event.actor == .client:
                // TLS 1.3 sends the chain encrypted: it is not metadata the eavesdropper reads.
                if negotiation?.version != .tls13 { chainLength = chainLength ?? length }
            case .tls(.tls13(.keyShareGenerated)):
                publicValues = true
            case .tls(.tls13(.recordSealed(let detail))) where detail.contentType == .applicationData:
                let length = detail.record.count - 5
                if event.actor == .client { clientLengths.append(length) } else if event.actor == .server { serverLengths.append(length) }
            case .tls(.derived(.dhAgreement(_, _, let name, _, _, _, _))):
                publicValues = true
                group = group ?? name
            case .tls(.derived(.ecdhAgreement(let curve, _, _, _, _))):
                publicValues = true
                group = group ?? "\(curve)"
            case .tls(.recordSent(let record)) where record.contentType == .applicationData:
                let length = record.wire.count - 5
                if event.actor == .client { clientLengths.append(length) } else if event.actor == .server { serverLengths.append(length) }
            default:
                break
            }
        }
        guard let negotiation else { return nil }
        return WireMetadata(client: client, server: server, serverName: negotiation.serverName, chainLength: chainLength,
                            cipherSuite: negotiation.cipherSuite, group: negotiation.group ?? group, publicValuesInClear: publicValues,
                            clientRecordLengths: clientLengths, serverRecordLengths: serverLengths,
                            certificateEncrypted: negotiation.version == .tls13)
    }
}
