/// Why a key-schedule step refused its input.
public enum KeyScheduleError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Fewer key-block bytes than the layout needs.
    case keyBlockTooShort(have: Int, need: Int)
    /// A hello random that is not 32 bytes (RFC 5246 §7.4.1.2).
    case invalidRandomLength(Int)
    /// A master secret that is not 48 bytes (RFC 5246 §8.1).
    case invalidMasterSecretLength(Int)
    /// The transcript hash was asked for before the PRF (and so its hash) was chosen.
    case transcriptHashNotSelected
    /// The transcript hash was already chosen and cannot change.
    case transcriptHashAlreadySelected

    public var description: String {
        switch self {
        case .keyBlockTooShort(let have, let need): return "key block has \(have) bytes, the suite needs \(need)"
        case .invalidRandomLength(let n): return "a hello random must be 32 bytes, not \(n)"
        case .invalidMasterSecretLength(let n): return "a master secret must be 48 bytes, not \(n)"
        case .transcriptHashNotSelected: return "the transcript hash is not known before the cipher suite is"
        case .transcriptHashAlreadySelected: return "the transcript hash was already selected"
        }
    }
}
