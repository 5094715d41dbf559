/// Which end of the connection (RFC 5246 §6.1 ConnectionEnd).
public enum TLSRole: String, Sendable, Hashable {
    case client
    case server

    public var peer: TLSRole { self == .client ? .server : .client }
}
