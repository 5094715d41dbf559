/// RFC 5077 §3.3: the server's NewSessionTicket, sent after the client's Finished and before the
/// server's ChangeCipherSpec.
/// ```
/// struct {
///     uint32 ticket_lifetime_hint;
///     opaque ticket<0..2^16-1>;
/// } NewSessionTicket;
/// ```
public struct NewSessionTicket: TLSCodable, Hashable, Sendable {
    /// Seconds the ticket may be kept (0: no recommendation). The server's driver chooses it.
    public var lifetimeHint: UInt32
    /// Opaque to the client: the server's encrypted and authenticated session state.
    public var ticket: [UInt8]

    public init(lifetimeHint: UInt32, ticket: [UInt8]) {
        self.lifetimeHint = lifetimeHint
        self.ticket = ticket
    }

    public func encode(to writer: inout ByteWriter) {
        writer.writeUInt32(lifetimeHint)
        writer.writeOpaque(ticket, lengthBytes: 2)
    }

    public init(from reader: inout ByteReader) throws(DecodeError) {
        lifetimeHint = try reader.readUInt(width: 4, field: "ticket_lifetime_hint", as: .lifetimeHint)
        ticket = try reader.readOpaque(lengthBytes: 2, min: 0, max: 0xffff, field: "ticket", as: .ticket)
    }
}
