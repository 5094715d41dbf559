import CGMP

// MARK: - Comparison

extension BigInt: Equatable, Hashable, Comparable {
    public static func == (lhs: BigInt, rhs: BigInt) -> Bool {
        __gmpz_cmp(lhs.storage.ptr, rhs.storage.ptr) == 0
    }

    public static func < (lhs: BigInt, rhs: BigInt) -> Bool {
        __gmpz_cmp(lhs.storage.ptr, rhs.storage.ptr) < 0
    }

    /// -1, 0 or 1 as `self` is less than, equal to or greater than `other`.
    public func compare(_ other: BigInt) -> Int {
        let c = __gmpz_cmp(storage.ptr, other.storage.ptr)
        return c < 0 ? -1 : (c > 0 ? 1 : 0)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(signum)
        hasher.combine(bigEndianBytes)
    }
}

extension BigInt: CustomStringConvertible, CustomDebugStringConvertible, ExpressibleByIntegerLiteral {
    public var description: String { toString(radix: 10) }
    public var debugDescription: String { "BigInt(0x\(hexString))" }
    public init(integerLiteral value: Int) { self.init(value) }
}

// MARK: - Ring operations (total: they cannot fail)

extension BigInt {
    @inline(__always)
    static func binary(_ a: BigInt, _ b: BigInt,
                       _ op: (UnsafeMutablePointer<__mpz_struct>, UnsafePointer<__mpz_struct>,
                              UnsafePointer<__mpz_struct>) -> Void) -> BigInt {
        let r = MPZ()
        op(r.ptr, a.storage.ptr, b.storage.ptr)
        return BigInt(storage: r)
    }

    public static func + (a: BigInt, b: BigInt) -> BigInt { binary(a, b, __gmpz_add) }
    public static func - (a: BigInt, b: BigInt) -> BigInt { binary(a, b, __gmpz_sub) }
    public static func * (a: BigInt, b: BigInt) -> BigInt { binary(a, b, __gmpz_mul) }

    public static prefix func - (a: BigInt) -> BigInt {
        let r = MPZ()
        __gmpz_neg(r.ptr, a.storage.ptr)
        return BigInt(storage: r)
    }

    public var magnitude: BigInt {
        let r = MPZ()
        __gmpz_abs(r.ptr, storage.ptr)
        return BigInt(storage: r)
    }

    /// `a · 2^bits`. Throws ``BigNumError/resultTooLarge(bits:limit:)`` when the result would have more than
    /// ``BigInt/maximumBitWidth`` bits (GMP aborts the process when it cannot allocate a result) and
    /// ``BigNumError/invalidRange(_:)`` for a negative shift.
    public static func << (a: BigInt, bits: Int) throws(BigNumError) -> BigInt {
        guard bits >= 0 else { throw .invalidRange("negative shift \(bits)") }
        if !a.isZero {
            let (width, overflow) = a.bitWidth.addingReportingOverflow(bits)
            guard !overflow, width <= maximumBitWidth else {
                throw .resultTooLarge(bits: overflow ? Int.max : width, limit: maximumBitWidth)
            }
        }
        let r = MPZ()
        __gmpz_mul_2exp(r.ptr, a.storage.ptr, UInt(bits))
        return BigInt(storage: r)
    }

    /// Floor division by a power of two.
    public static func >> (a: BigInt, bits: Int) -> BigInt {
        let r = MPZ()
        __gmpz_fdiv_q_2exp(r.ptr, a.storage.ptr, UInt(max(bits, 0)))
        return BigInt(storage: r)
    }

    /// `self^exponent`. Throws ``BigNumError/resultTooLarge(bits:limit:)`` when the result would have
    /// more than ``BigInt/maximumBitWidth`` bits (GMP aborts on results it cannot allocate).
    public func power(_ exponent: UInt) throws(BigNumError) -> BigInt {
        // 0, 1 and −1 answered here: GMP sizes its result from the exponent alone and could abort.
        if exponent == 0 { return .one }
        if isZero || self == .one { return self }
        if self == BigInt(-1) { return exponent & 1 == 1 ? self : .one }
        // |self| ≥ 2 has b ≥ 2 bits; self^k has at least (b − 1)·k + 1 bits.
        if exponent > 1 {
            let (product, overflow) = UInt(bitWidth - 1).multipliedReportingOverflow(by: exponent)
            guard !overflow, product < UInt(BigInt.maximumBitWidth) else {
                throw .resultTooLarge(bits: overflow || product >= UInt(Int.max) ? Int.max : Int(product) + 1,
                                      limit: BigInt.maximumBitWidth)
            }
        }
        let r = MPZ()
        __gmpz_pow_ui(r.ptr, storage.ptr, exponent)
        return BigInt(storage: r)
    }
}

// MARK: - Division and modular arithmetic (checked)

extension BigInt {
    /// Floor division: `quotient * divisor + remainder == self`, remainder with the divisor's sign.
    public func quotientAndRemainder(dividingBy divisor: BigInt) throws(BigNumError) -> (quotient: BigInt, remainder: BigInt) {
        guard !divisor.isZero else { throw .divisionByZero }
        let q = MPZ(), r = MPZ()
        __gmpz_fdiv_qr(q.ptr, r.ptr, storage.ptr, divisor.storage.ptr)
        return (BigInt(storage: q), BigInt(storage: r))
    }

    /// `self mod modulus`, always in `0 ..< |modulus|`.
    public func modulo(_ modulus: BigInt) throws(BigNumError) -> BigInt {
        guard !modulus.isZero else { throw .divisionByZero }
        let r = MPZ()
        __gmpz_mod(r.ptr, storage.ptr, modulus.storage.ptr)
        return BigInt(storage: r)
    }

    /// `self^exponent mod modulus` with GMP's fastest (variable-time) algorithm.
    public func power(_ exponent: BigInt, modulus: BigInt) throws(BigNumError) -> BigInt {
        guard modulus.signum > 0 else { throw modulus.isZero ? .divisionByZero : .nonPositiveModulus }
        guard !exponent.isNegative else { throw .negativeExponent }
        let r = MPZ(bits: modulus.bitWidth)
        __gmpz_powm(r.ptr, storage.ptr, exponent.storage.ptr, modulus.storage.ptr)
        return BigInt(storage: r)
    }

    /// `self^exponent mod modulus` with GMP's side-channel-silent algorithm (odd modulus, exponent > 0),
    /// for private-key operations.
    public func powerSecure(_ exponent: BigInt, modulus: BigInt) throws(BigNumError) -> BigInt {
        guard modulus.signum > 0 else { throw modulus.isZero ? .divisionByZero : .nonPositiveModulus }
        guard modulus.isOdd else { throw .evenModulus }
        guard exponent.signum > 0 else { throw .negativeExponent }
        let r = MPZ(bits: modulus.bitWidth)
        __gmpz_powm_sec(r.ptr, storage.ptr, exponent.storage.ptr, modulus.storage.ptr)
        return BigInt(storage: r)
    }

    /// The inverse of `self` modulo `modulus`, in `0 ..< modulus`.
    public func inverse(modulus: BigInt) throws(BigNumError) -> BigInt {
        guard modulus.signum > 0 else { throw modulus.isZero ? .divisionByZero : .nonPositiveModulus }
        let r = MPZ()
        guard __gmpz_invert(r.ptr, storage.ptr, modulus.storage.ptr) != 0 else { throw .notInvertible }
        return BigInt(storage: r)
    }

    public func gcd(_ other: BigInt) -> BigInt { BigInt.binary(self, other, __gmpz_gcd) }

    public func lcm(_ other: BigInt) -> BigInt { BigInt.binary(self, other, __gmpz_lcm) }
}
