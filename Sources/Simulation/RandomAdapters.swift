import TCPSim
import TLSCrypto

/// Lets the TCP simulator draw from the run's single random source, so one seed reproduces the
/// whole run — TCP initial sequence numbers included.
final class TCPRandomAdapter: TCPRandomSource {
    let source: RandomSource
    init(_ source: RandomSource) { self.source = source }
    func next32() -> UInt32 { source.uint32() }
}
