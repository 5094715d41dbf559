/// The settings each side announces (RFC 9113 §6.5.2).
public enum HTTP2Defaults {
    public static let maxConcurrentStreams: UInt32 = 100
    /// The initial flow-control window of the connection and of each stream (§6.9.2).
    public static let initialWindowSize = 65_535
}
