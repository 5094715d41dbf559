import CGMP

/// An arbitrary-precision signed integer with value semantics.
///
/// Backed by GMP's `mpz_t`, but nothing above this module needs to know: every entry point
/// checks the inputs GMP would abort on (zero divisors, even moduli for constant-time powm)
/// and throws ``BigNumError`` instead.
public struct BigInt: Sendable {
    @usableFromInline let storage: MPZ

    @usableFromInline init(storage: MPZ) { self.storage = storage }

    // MARK: Construction

    public init() { storage = MPZ() }

    public init(_ value: Int) {
        storage = MPZ()
        __gmpz_set_si(storage.ptr, value)
    }

    public init(_ value: UInt) {
        storage = MPZ()
        __gmpz_set_ui(storage.ptr, value)
    }

    public init(_ value: UInt64) { self.init(UInt(value)) }

    /// The unsigned big-endian integer the bytes spell (empty = 0).
    public init<Bytes: Collection>(bigEndian bytes: Bytes) where Bytes.Element == UInt8 {
        storage = MPZ()
        let array = Array(bytes)
        guard !array.isEmpty else { return }
        array.withUnsafeBytes { raw in
            // order 1: most significant word first; size 1 byte; endian irrelevant for bytes.
            __gmpz_import(storage.ptr, array.count, 1, 1, 1, 0, raw.baseAddress)
        }
    }

    /// Parses decimal (default) or hex (`radix: 16`) text; a leading `-` is allowed, as is `0x` for hex.
    public init(_ text: String, radix: Int = 10) throws(BigNumError) {
        guard radix == 10 || radix == 16 || radix == 2 || radix == 8 else {
            throw .invalidRadix(radix)
        }
        var body = Substring(text.filter { !$0.isWhitespace })
        var negative = false
        if body.hasPrefix("-") { negative = true; body = body.dropFirst() }
        if radix == 16, body.hasPrefix("0x") || body.hasPrefix("0X") { body = body.dropFirst(2) }
        let allowed: Set<Character> = {
            switch radix {
            case 2: return Set("01")
            case 8: return Set("01234567")
            case 10: return Set("0123456789")
            default: return Set("0123456789abcdefABCDEF")
            }
        }()
        guard !body.isEmpty, body.allSatisfy({ allowed.contains($0) }) else {
            throw .invalidString(text)
        }
        let mpz = MPZ()
        let result = String(body).withCString { __gmpz_set_str(mpz.ptr, $0, Int32(radix)) }
        guard result == 0 else { throw .invalidString(text) }
        if negative { __gmpz_neg(mpz.ptr, mpz.ptr) }
        storage = mpz
    }

    /// The largest result, in bits, that the size-growing operations (`<<`, `power(_:)`) produce:
    /// 2^24 bits (2 MiB), far above any key or group TLSLab uses, far below where GMP gives up and aborts.
    public static let maximumBitWidth = 1 << 24

    public static let zero = BigInt(0)
    public static let one = BigInt(1)

    // MARK: Inspection

    /// -1, 0 or 1.
    public var signum: Int { Int(tlslab_mpz_sgn(storage.ptr)) }
    public var isZero: Bool { signum == 0 }
    public var isNegative: Bool { signum < 0 }
    public var isOdd: Bool { tlslab_mpz_odd_p(storage.ptr) != 0 }

    /// Number of significant bits of |self| (0 for zero).
    public var bitWidth: Int {
        isZero ? 0 : Int(__gmpz_sizeinbase(storage.ptr, 2))
    }

    /// Number of bytes needed for |self| big-endian (0 for zero).
    public var byteWidth: Int { (bitWidth + 7) / 8 }

    public func testBit(_ index: Int) -> Bool {
        index >= 0 && __gmpz_tstbit(storage.ptr, UInt(index)) != 0
    }

    /// The value as an `Int`, when it fits.
    public var intValue: Int? {
        guard __gmpz_fits_slong_p(storage.ptr) != 0 else { return nil }
        return __gmpz_get_si(storage.ptr)
    }

    // MARK: Export

    /// Minimal big-endian bytes of |self| (empty for zero).
    public var bigEndianBytes: [UInt8] {
        let count = byteWidth
        guard count > 0 else { return [] }
        var out = [UInt8](repeating: 0, count: count)
        var written = 0
        out.withUnsafeMutableBytes { raw in
            _ = __gmpz_export(raw.baseAddress, &written, 1, 1, 1, 0, storage.ptr)
        }
        return out
    }

    /// Big-endian bytes left-padded to exactly `width`; throws when the value needs more.
    public func bigEndianBytes(width: Int) throws(BigNumError) -> [UInt8] {
        guard !isNegative else { throw .negativeValue }
        let bytes = bigEndianBytes
        guard bytes.count <= width else { throw .valueTooLarge(byteWidth: bytes.count, limit: width) }
        return [UInt8](repeating: 0, count: width - bytes.count) + bytes
    }

    /// Text in the given radix (lower-case hex), with `-` for negatives.
    public func toString(radix: Int = 10) -> String {
        let r = (radix == 16 || radix == 2 || radix == 8) ? radix : 10
        let capacity = __gmpz_sizeinbase(storage.ptr, Int32(r)) + 2
        var buffer = [CChar](repeating: 0, count: capacity)
        buffer.withUnsafeMutableBufferPointer { buf in
            _ = __gmpz_get_str(buf.baseAddress, Int32(r), storage.ptr)
        }
        let end = buffer.firstIndex(of: 0) ?? buffer.count
        return String(decoding: buffer[..<end].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    public var hexString: String { toString(radix: 16) }
}

// MARK: - Storage

/// An immutable, heap-allocated `mpz_t`. Immutable after construction, hence safe to share.
@usableFromInline
final class MPZ: @unchecked Sendable {
    @usableFromInline let ptr: UnsafeMutablePointer<__mpz_struct>

    @usableFromInline init() {
        ptr = .allocate(capacity: 1)
        __gmpz_init(ptr)
    }

    /// A fresh value with room for `bits` bits, avoiding reallocations in hot paths.
    @usableFromInline init(bits: Int) {
        ptr = .allocate(capacity: 1)
        __gmpz_init2(ptr, UInt(max(bits, 64)))
    }

    deinit {
        __gmpz_clear(ptr)
        ptr.deallocate()
    }
}

// MARK: - Errors

public enum BigNumError: Error, Equatable, Sendable, CustomStringConvertible {
    case divisionByZero
    case evenModulus
    case nonPositiveModulus
    case negativeExponent
    case notInvertible
    case negativeValue
    case invalidString(String)
    case invalidRadix(Int)
    case valueTooLarge(byteWidth: Int, limit: Int)
    case invalidRange(String)
    case primeGenerationFailed(bits: Int)
    /// The result would exceed ``BigInt/maximumBitWidth`` bits.
    case resultTooLarge(bits: Int, limit: Int)
    /// The random source returned fewer bytes than asked for.
    case randomSourceShort(requested: Int, received: Int)
    /// Rejection sampling found no value after `attempts` draws: the source is degenerate
    /// (for example constant bytes), since a working one fails with probability below 2^-attempts.
    case randomSourceDegenerate(attempts: Int)

    public var description: String {
        switch self {
        case .divisionByZero: return "division by zero"
        case .evenModulus: return "the modulus must be odd"
        case .nonPositiveModulus: return "the modulus must be positive"
        case .negativeExponent: return "the exponent must not be negative"
        case .notInvertible: return "the value has no inverse modulo the modulus"
        case .negativeValue: return "a negative value cannot be exported as unsigned bytes"
        case .invalidString(let s): return "not a number: \(s.prefix(40))"
        case .invalidRadix(let r): return "unsupported radix \(r)"
        case .valueTooLarge(let have, let limit): return "value needs \(have) bytes, more than \(limit)"
        case .invalidRange(let why): return "invalid range: \(why)"
        case .primeGenerationFailed(let bits): return "could not generate a \(bits)-bit prime"
        case .resultTooLarge(let bits, let limit):
            return "result of \(bits == Int.max ? "too many" : String(bits)) bits exceeds the \(limit)-bit limit"
        case .randomSourceShort(let requested, let received):
            return "the random source returned \(received) bytes instead of \(requested)"
        case .randomSourceDegenerate(let attempts):
            return "the random source produced no usable value in \(attempts) attempts (degenerate source)"
        }
    }
}
