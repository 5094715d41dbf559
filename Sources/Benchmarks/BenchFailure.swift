/// A benchmark that cannot give a figure, as data: the command line words it for the person running
/// it (`cli.bench.failure.*`, en and zh); the Benchmarks module holds no words (issue #34).
public enum BenchFailure: Error, Sendable, Hashable {
    /// The RSA benchmark key's own PKCS#1 v1.5 signature did not verify before the measurement.
    case ownSignatureNotVerified
    /// `count` verifications of that signature failed while it was measured.
    case verificationsFailed(count: Int)
    /// `tlslab bench handshake-child` for `variant` exited with `status`.
    case handshakeChildExited(HandshakeVariant, status: Int32)
    /// `tlslab bench handshake-child` for `variant` wrote something that is not its JSON measurement
    /// (`excerpt`: the first 200 characters of what it wrote).
    case handshakeChildOutputUnreadable(HandshakeVariant, excerpt: String)
}
