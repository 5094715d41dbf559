import BigNum

/// A finite-field Diffie-Hellman group: a prime modulus `p` and a generator `g`
/// (RFC 5246 §7.4.3 ServerDHParams carries exactly these two numbers, plus the server's public value).
///
/// The real groups are the RFC 7919 "ffdhe" groups (named, safe primes, g = 2) and the RFC 3526
/// MODP group 14 that OpenSSL 3 uses for DHE in TLS 1.2 by default. The teaching groups are tiny
/// and exist only to show the arithmetic by hand: ``isTeachingOnly`` says so. What each group is
/// worth is said in its documentation here and in the catalogue, never by the group itself.
public struct DHGroup: Sendable, Hashable, CustomStringConvertible {
    /// A short name: `ffdhe2048`, `modp2048`, `toy-p23-g5`, …
    public let name: String
    /// The prime modulus.
    public let p: BigInt
    /// The generator.
    public let g: BigInt
    /// `true` for the toy groups: never use them for anything but showing the arithmetic.
    public let isTeachingOnly: Bool
    /// The default size in bits of a short private exponent (RFC 7919 §5.2), used unless a full-size
    /// exponent is asked for.
    public let shortExponentBits: Int

    public init(name: String, p: BigInt, g: BigInt, isTeachingOnly: Bool, shortExponentBits: Int) {
        self.name = name
        self.p = p
        self.g = g
        self.isTeachingOnly = isTeachingOnly
        self.shortExponentBits = shortExponentBits
    }

    /// Size of the modulus in bits.
    public var bitWidth: Int { p.bitWidth }
    /// Size of the modulus in bytes: the width of `Z` before TLS strips its leading zeros.
    public var byteWidth: Int { p.byteWidth }

    public var description: String { "\(name) (\(bitWidth)-bit p, g = \(g))" }

    /// q = (p-1)/2, the order of the subgroup g generates, for the standard safe-prime groups
    /// (RFC 3526, RFC 7919: p and (p-1)/2 are prime, and g = 2 is a quadratic residue mod p, so
    /// every honest public value g^x lies in that subgroup). Nil for any other group — one a server
    /// chose, or a teaching group — since nothing says its p is a safe prime.
    public var subgroupOrder: BigInt? {
        guard !isTeachingOnly, Self.standardGroups.contains(where: { $0.p == p && $0.g == g }) else { return nil }
        return (p - .one) >> 1
    }

    /// The real groups, strongest last.
    public static let standardGroups: [DHGroup] = [.modp2048, .ffdhe2048, .ffdhe3072, .ffdhe4096]
    /// The toy groups.
    public static let teachingGroups: [DHGroup] = [.toy23, .blackboardExample]

    /// Looks a group up by ``name``.
    public static func named(_ name: String) -> DHGroup? {
        (standardGroups + teachingGroups).first { $0.name == name }
    }

    // MARK: - RFC 7919 (Negotiated Finite Field Diffie-Hellman Ephemeral Parameters for TLS)

    // Short-exponent sizes: RFC 7919 §5.2 and Appendix A give 225, 275 and 325 bits as the minimum
    // for ffdhe2048/3072/4096; OpenSSL uses these as its named groups' key lengths. We use
    // 256 bits for the 2048-bit groups (a round number above 225) and the RFC figures above that.

    /// RFC 7919 Appendix A.1: ffdhe2048, g = 2; p = 2^2048 - 2^1984 + {[2^1918 * e] + 560316} * 2^64 - 1.
    public static let ffdhe2048 = DHGroup(
        name: "ffdhe2048", p: hexConstant(FFDHE2048), g: 2,
        // RFC 7919 safe-prime group, about 103-bit security; fine for TLS 1.2 DHE today.
        isTeachingOnly: false, shortExponentBits: 256)

    /// RFC 7919 Appendix A.2: ffdhe3072, g = 2; p = 2^3072 - 2^3008 + {[2^2942 * e] + 2625351} * 2^64 - 1.
    public static let ffdhe3072 = DHGroup(
        name: "ffdhe3072", p: hexConstant(FFDHE3072), g: 2,
        // RFC 7919 safe-prime group, about 125-bit security.
        isTeachingOnly: false, shortExponentBits: 275)

    /// RFC 7919 Appendix A.3: ffdhe4096, g = 2; p = 2^4096 - 2^4032 + {[2^3966 * e] + 5736041} * 2^64 - 1.
    public static let ffdhe4096 = DHGroup(
        name: "ffdhe4096", p: hexConstant(FFDHE4096), g: 2,
        // RFC 7919 safe-prime group, about 150-bit security.
        isTeachingOnly: false, shortExponentBits: 325)

    // MARK: - RFC 3526 (More MODP Diffie-Hellman groups for IKE)

    /// RFC 3526 §3: the 2048-bit MODP group 14, g = 2; p = 2^2048 - 2^1984 - 1 + 2^64 * {[2^1918 pi] + 124476}.
    /// OpenSSL 3 offers this group for DHE in TLS 1.2 unless told otherwise.
    public static let modp2048 = DHGroup(
        name: "modp2048", p: hexConstant(MODP2048), g: 2,
        // RFC 3526 group 14 safe prime, about 112-bit security; OpenSSL's TLS 1.2 DHE default.
        isTeachingOnly: false, shortExponentBits: 256)

    // MARK: - Teaching groups (insecure on purpose)

    /// p = 23, g = 5: the textbook example. INSECURE: anyone can try all 22 exponents by hand.
    public static let toy23 = DHGroup(
        name: "toy-p23-g5", p: 23, g: 5,
        // INSECURE teaching group: a 5-bit prime, every exponent can be tried by hand.
        isTeachingOnly: true, shortExponentBits: 4)

    /// p = 5, g = 7: the classic blackboard example (x1 = 2, x2 = 5 gives P1 = 4, P2 = 2, S = 4).
    /// INSECURE and degenerate: g ≡ 2 (mod 5), and P1 = 4 ≡ -1 is the element of order 2 that
    /// peer validation rejects, so the secret it yields is always ±1.
    public static let blackboardExample = DHGroup(
        name: "toy-p5-g7", p: 5, g: 7,
        // INSECURE teaching group: a 3-bit prime with g larger than p; the blackboard example hits the order-2 element p-1.
        isTeachingOnly: true, shortExponentBits: 2)

    /// Parses one of the hex constants below. They are fixed text checked by the tests (safe prime,
    /// equal to OpenSSL's named group), so a parse failure is impossible; zero keeps this total.
    private static func hexConstant(_ text: String) -> BigInt {
        (try? BigInt(text, radix: 16)) ?? .zero
    }

    // The primes as printed in the RFCs, 32 bits a group.

    private static let FFDHE2048 = """
        FFFFFFFF FFFFFFFF ADF85458 A2BB4A9A AFDC5620 273D3CF1 D8B9C583 CE2D3695
        A9E13641 146433FB CC939DCE 249B3EF9 7D2FE363 630C75D8 F681B202 AEC4617A
        D3DF1ED5 D5FD6561 2433F51F 5F066ED0 85636555 3DED1AF3 B557135E 7F57C935
        984F0C70 E0E68B77 E2A689DA F3EFE872 1DF158A1 36ADE735 30ACCA4F 483A797A
        BC0AB182 B324FB61 D108A94B B2C8E3FB B96ADAB7 60D7F468 1D4F42A3 DE394DF4
        AE56EDE7 6372BB19 0B07A7C8 EE0A6D70 9E02FCE1 CDF7E2EC C03404CD 28342F61
        9172FE9C E98583FF 8E4F1232 EEF28183 C3FE3B1B 4C6FAD73 3BB5FCBC 2EC22005
        C58EF183 7D1683B2 C6F34A26 C1B2EFFA 886B4238 61285C97 FFFFFFFF FFFFFFFF
        """

    private static let FFDHE3072 = """
        FFFFFFFF FFFFFFFF ADF85458 A2BB4A9A AFDC5620 273D3CF1 D8B9C583 CE2D3695
        A9E13641 146433FB CC939DCE 249B3EF9 7D2FE363 630C75D8 F681B202 AEC4617A
        D3DF1ED5 D5FD6561 2433F51F 5F066ED0 85636555 3DED1AF3 B557135E 7F57C935
        984F0C70 E0E68B77 E2A689DA F3EFE872 1DF158A1 36ADE735 30ACCA4F 483A797A
        BC0AB182 B324FB61 D108A94B B2C8E3FB B96ADAB7 60D7F468 1D4F42A3 DE394DF4
        AE56EDE7 6372BB19 0B07A7C8 EE0A6D70 9E02FCE1 CDF7E2EC C03404CD 28342F61
        9172FE9C E98583FF 8E4F1232 EEF28183 C3FE3B1B 4C6FAD73 3BB5FCBC 2EC22005
        C58EF183 7D1683B2 C6F34A26 C1B2EFFA 886B4238 611FCFDC DE355B3B 6519035B
        BC34F4DE F99C0238 61B46FC9 D6E6C907 7AD91D26 91F7F7EE 598CB0FA C186D91C
        AEFE1309 85139270 B4130C93 BC437944 F4FD4452 E2D74DD3 64F2E21E 71F54BFF
        5CAE82AB 9C9DF69E E86D2BC5 22363A0D ABC52197 9B0DEADA 1DBF9A42 D5C4484E
        0ABCD06B FA53DDEF 3C1B20EE 3FD59D7C 25E41D2B 66C62E37 FFFFFFFF FFFFFFFF
        """

    private static let FFDHE4096 = """
        FFFFFFFF FFFFFFFF ADF85458 A2BB4A9A AFDC5620 273D3CF1 D8B9C583 CE2D3695
        A9E13641 146433FB CC939DCE 249B3EF9 7D2FE363 630C75D8 F681B202 AEC4617A
        D3DF1ED5 D5FD6561 2433F51F 5F066ED0 85636555 3DED1AF3 B557135E 7F57C935
        984F0C70 E0E68B77 E2A689DA F3EFE872 1DF158A1 36ADE735 30ACCA4F 483A797A
        BC0AB182 B324FB61 D108A94B B2C8E3FB B96ADAB7 60D7F468 1D4F42A3 DE394DF4
        AE56EDE7 6372BB19 0B07A7C8 EE0A6D70 9E02FCE1 CDF7E2EC C03404CD 28342F61
        9172FE9C E98583FF 8E4F1232 EEF28183 C3FE3B1B 4C6FAD73 3BB5FCBC 2EC22005
        C58EF183 7D1683B2 C6F34A26 C1B2EFFA 886B4238 611FCFDC DE355B3B 6519035B
        BC34F4DE F99C0238 61B46FC9 D6E6C907 7AD91D26 91F7F7EE 598CB0FA C186D91C
        AEFE1309 85139270 B4130C93 BC437944 F4FD4452 E2D74DD3 64F2E21E 71F54BFF
        5CAE82AB 9C9DF69E E86D2BC5 22363A0D ABC52197 9B0DEADA 1DBF9A42 D5C4484E
        0ABCD06B FA53DDEF 3C1B20EE 3FD59D7C 25E41D2B 669E1EF1 6E6F52C3 164DF4FB
        7930E9E4 E58857B6 AC7D5F42 D69F6D18 7763CF1D 55034004 87F55BA5 7E31CC7A
        7135C886 EFB4318A ED6A1E01 2D9E6832 A907600A 918130C4 6DC778F9 71AD0038
        092999A3 33CB8B7A 1A1DB93D 7140003C 2A4ECEA9 F98D0ACC 0A8291CD CEC97DCF
        8EC9B55A 7F88A46B 4DB5A851 F44182E1 C68A007E 5E655F6A FFFFFFFF FFFFFFFF
        """

    private static let MODP2048 = """
        FFFFFFFF FFFFFFFF C90FDAA2 2168C234 C4C6628B 80DC1CD1 29024E08 8A67CC74
        020BBEA6 3B139B22 514A0879 8E3404DD EF9519B3 CD3A431B 302B0A6D F25F1437
        4FE1356D 6D51C245 E485B576 625E7EC6 F44C42E9 A637ED6B 0BFF5CB6 F406B7ED
        EE386BFB 5A899FA5 AE9F2411 7C4B1FE6 49286651 ECE45B3D C2007CB8 A163BF05
        98DA4836 1C55D39A 69163FA8 FD24CF5F 83655D23 DCA3AD96 1C62F356 208552BB
        9ED52907 7096966D 670C354E 4ABC9804 F1746C08 CA18217C 32905E46 2E36CE3B
        E39E772C 180E8603 9B2783A2 EC07A28F B5C55DF0 6F4C52C9 DE2BCBF6 95581718
        3995497C EA956AE5 15D22618 98FA0510 15728E5A 8AACAA68 FFFFFFFF FFFFFFFF
        """
}
