/// SYN cookies (RFC 4987 §3.6): under a full backlog the listener keeps no state for a SYN and
/// encodes what it needs in its ISN; the returning ACK (ACK − 1) proves the handshake.
///
/// The ISN is `slot (8 bits) ‖ MAC(secret, four-tuple, client ISN, slot) (24 bits)`, where `slot` is
/// the time divided by 64 s. The MAC here is a keyed 64-bit mixing function, adequate for a
/// simulation and not cryptographically strong. The MSS is not encoded: the default is assumed.
public struct SYNCookie: Hashable, Sendable {
    public let secret: UInt64
    /// Width of a time slot; a cookie is valid in its slot and the next.
    public static let slotLength: TCPTime = TCPDuration.seconds(64)

    public init(secret: UInt64) { self.secret = secret }

    static func slot(at now: TCPTime) -> UInt32 { UInt32(truncatingIfNeeded: now / slotLength) & 0xFF }

    /// The ISN to put in a stateless SYN-ACK for `tuple` (the listener's view) answering `clientISN`.
    public func isn(for tuple: TCPFourTuple, clientISN: SeqNumber, at now: TCPTime) -> SeqNumber {
        let s = Self.slot(at: now)
        return SeqNumber(s << 24 | mac(tuple, clientISN, s))
    }

    /// Whether `ack − 1` is a cookie we issued recently for this tuple; the client's ISN is `seq − 1`.
    public func validates(tuple: TCPFourTuple, seq: SeqNumber, ack: SeqNumber, at now: TCPTime) -> Bool {
        let isn = (ack - 1).rawValue
        let s = isn >> 24
        let current = Self.slot(at: now)
        guard s == current || s == (current &- 1) & 0xFF else { return false }
        return isn & 0xFF_FFFF == mac(tuple, seq - 1, s)
    }

    private func mac(_ t: TCPFourTuple, _ clientISN: SeqNumber, _ slot: UInt32) -> UInt32 {
        var h = secret
        for word in [UInt64(t.local.address.rawValue) << 32 | UInt64(t.remote.address.rawValue),
                     UInt64(t.local.port) << 48 | UInt64(t.remote.port) << 32 | UInt64(clientISN.rawValue),
                     UInt64(slot)] {
            h ^= word
            h = (h ^ (h >> 33)) &* 0xFF51_AFD7_ED55_8CCD
            h = (h ^ (h >> 33)) &* 0xC4CE_B9FE_1A85_EC53
            h ^= h >> 33
        }
        return UInt32(truncatingIfNeeded: h) & 0xFF_FFFF
    }
}
