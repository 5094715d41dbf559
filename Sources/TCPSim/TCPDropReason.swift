/// Why the network did not deliver a segment.
public enum TCPDropReason: String, Hashable, Sendable {
    case scriptedLoss = "scripted loss"
    case randomLoss = "random loss"
    /// No host has the destination address (a spoofed source, a silenced host).
    case noRoute = "no route to host"
    /// A SYN for a listener whose backlog of half-open connections is full.
    case backlogFull = "listen backlog full"
    /// The bytes did not decode (only when the network round-trips segments through the wire format).
    case malformed = "malformed segment"
}
