import TCPSim
import TLSEngine

/// Which bytes of one TCP byte stream carry which TLS message or record (or plain HTTP): the
/// simulation knows it because it hands each record to TCP itself. A renderer maps a segment's
/// sequence range onto these spans to name what the segment carries.
public struct StreamSpan: Sendable, Hashable {
    /// What the bytes are.
    public enum Content: Sendable, Hashable {
        /// A handshake message (its record header belongs to the first message of the record).
        case handshake(HandshakeType)
        case changeCipherSpec
        case alert(Alert)
        case applicationData
        /// HTTP straight over TCP (no TLS).
        case plainHTTP
    }

    public var source: TCPEndpoint
    public var destination: TCPEndpoint
    /// The sequence number of the stream's first data byte (the sender's ISN + 1).
    public var firstSequence: UInt32
    /// Where the span starts in the stream (0: the first data byte) and how long it is.
    public var offset: Int
    public var length: Int
    public var content: Content
    /// True once the record is protected (encrypted): the span covers the whole record.
    public var encrypted: Bool
    public var connection: Int
    /// Bytes an attacker injected (a replayed copy), not bytes of the sender's own stream: they
    /// label only the injected segment, and the sender's own bytes at the same sequence numbers
    /// keep their own spans.
    public var injected: Bool

    public init(source: TCPEndpoint, destination: TCPEndpoint, firstSequence: UInt32, offset: Int, length: Int,
                content: Content, encrypted: Bool, connection: Int, injected: Bool = false) {
        self.source = source
        self.destination = destination
        self.firstSequence = firstSequence
        self.offset = offset
        self.length = length
        self.content = content
        self.encrypted = encrypted
        self.connection = connection
        self.injected = injected
    }
}

/// A TLS message or alert that reached the receiver's TCP but was never processed: the receiver
/// had already failed, or the connection ended before it arrived. The trace event's actor is the
/// receiver and its `peer` the sender.
public struct UndeliveredMessage: Sendable {
    public enum Content: Sendable {
        case handshake(HandshakeMessage, bytes: [UInt8])
        case changeCipherSpec
        case alert(Alert)
    }

    public var content: Content
    /// Why it was dropped (worded by the catalogue: `dropped.…`).
    public var reason: DropReason

    public init(content: Content, reason: DropReason) {
        self.content = content
        self.reason = reason
    }
}
