/// The retransmission timeout computation of RFC 6298 §2, in integer microseconds.
///
/// Karn's rule (RFC 6298 §3) is the caller's part: only segments never retransmitted are timed.
public struct RTOEstimator: Hashable, Sendable {
    /// SRTT, the smoothed round-trip time; nil before the first measurement.
    public private(set) var srtt: TCPTime?
    /// RTTVAR, the round-trip time variation.
    public private(set) var rttvar: TCPTime = 0
    /// The current RTO, backed off after timeouts.
    public private(set) var rto: TCPTime
    let minimum: TCPTime, maximum: TCPTime, granularity: TCPTime

    public init(initial: TCPTime, minimum: TCPTime, maximum: TCPTime, granularity: TCPTime) {
        precondition(minimum > 0 && maximum >= minimum && granularity > 0, "bad RTO bounds")
        self.minimum = minimum
        self.maximum = maximum
        self.granularity = granularity
        rto = min(max(initial, minimum), maximum)
    }

    public init(config: TCPConfig) {
        self.init(initial: config.initialRTO, minimum: config.minimumRTO, maximum: config.maximumRTO,
                  granularity: config.clockGranularity)
    }

    /// Takes a measurement R (RFC 6298 §2.2 for the first, §2.3 afterwards; α = 1/8, β = 1/4) and
    /// recomputes RTO = SRTT + max(G, 4·RTTVAR), clamped to [minimum, maximum] (§2.4, §2.5).
    public mutating func sample(_ r: TCPTime) {
        let r = max(r, 0)
        if let s = srtt {
            rttvar = (3 * rttvar + abs(s - r)) / 4
            srtt = (7 * s + r) / 8
        } else {
            srtt = r
            rttvar = r / 2
        }
        rto = min(max((srtt ?? r) + max(granularity, 4 * rttvar), minimum), maximum)
    }

    /// RFC 6298 §5.7: RTO ← `value` (clamped to the bounds), keeping SRTT and RTTVAR.
    public mutating func reinitialize(to value: TCPTime) {
        rto = min(max(value, minimum), maximum)
    }

    /// RFC 6298 §5.5: RTO ← RTO · 2 (up to the maximum).
    public mutating func backOff() {
        rto = min(rto * 2, maximum)
    }
}
