import Foundation
import Testing
import Benchmarks
import Rendering
@testable import tlslab

/// The `openssl speed` reader, on captured outputs. Read by header labels, so a layout with more or
/// reordered columns still reads; an unknown layout is a clear error, never an empty column.
@Suite("openssl speed output parser")
struct OpenSSLSpeedParserTests {
    /// `openssl speed -seconds 1 rsa2048` with OpenSSL 3.0.19 on the project's build machine (stdout).
    static let rsa30 = """
        version: 3.0.19
        built on: Fri Apr  3 12:29:32 2026 UTC
        options: bn(64,64)
        compiler: gcc -fPIC -pthread -m64 -Wa,--noexecstack -Wall -O2 -DOPENSSL_USE_NODELETE -DL_ENDIAN -DNDEBUG
        CPUINFO: OPENSSL_ia32cap=0xfffa3203078bffff:0x405fc6f1bf07ab
                          sign    verify    sign/s verify/s
        rsa 2048 bits 0.000243s 0.000015s   4121.2  67752.9

        """

    /// `openssl speed -seconds 1 ffdh2048`, same machine and version.
    static let ffdh30 = """
        version: 3.0.19
        built on: Fri Apr  3 12:29:32 2026 UTC
        options: bn(64,64)
        compiler: gcc -fPIC -pthread -m64 -Wa,--noexecstack -Wall -O2 -DOPENSSL_USE_NODELETE -DL_ENDIAN -DNDEBUG
        CPUINFO: OPENSSL_ia32cap=0xfffa3203078bffff:0x405fc6f1bf07ab
                               op     op/s
        2048 bits ffdh   0.0002s   4117.4

        """

    /// The RSA table as OpenSSL 3.2 and later lay it out (encrypt and decrypt columns added, the key size
    /// padded); illustrative figures in the layout those versions print.
    static let rsa32 = """
        version: 3.2.1
        options: bn(64,64)
                           sign    verify    encrypt   decrypt   sign/s verify/s  encr./s  decr./s
        rsa   2048 bits 0.000624s 0.000018s 0.000019s 0.000611s   1602.9  55125.5  52287.3   1636.6

        """

    @Test func readsTheOpenSSL30RSATable() throws {
        let speed = try OpenSSLSpeed.parseRSA2048(Self.rsa30)
        #expect(speed.sign == 4121.2)
        #expect(speed.verify == 67752.9)
        let table = try OpenSSLSpeed.table(Self.rsa30, row: "rsa 2048 bits")
        #expect(table == ["sign": 0.000243, "verify": 0.000015, "sign/s": 4121.2, "verify/s": 67752.9])
    }

    @Test func readsTheOpenSSL30FFDHTable() throws {
        #expect(try OpenSSLSpeed.parseFFDH2048(Self.ffdh30) == 4117.4)
    }

    @Test func readsTheWiderRSATableByItsLabels() throws {
        let speed = try OpenSSLSpeed.parseRSA2048(Self.rsa32)
        #expect(speed.sign == 1602.9)
        #expect(speed.verify == 55125.5)
    }

    @Test func unknownLayoutsFailLoudly() {
        // No row at all (e.g. openssl failed, or the algorithm is named differently).
        #expect(throws: OpenSSLSpeed.Failure.self) { try OpenSSLSpeed.parseRSA2048("version: 9.9\nsomething else\n") }
        #expect(throws: OpenSSLSpeed.Failure.self) { try OpenSSLSpeed.parseRSA2048("") }
        // A row without a header line naming its columns.
        #expect(throws: OpenSSLSpeed.Failure.self) {
            try OpenSSLSpeed.parseRSA2048("rsa 2048 bits 0.000243s 0.000015s   4121.2  67752.9\n")
        }
        // A header whose labels do not include sign/s.
        let renamed = Self.rsa30.replacingOccurrences(of: "sign/s verify/s", with: "signs/s verifies/s")
        do throws(OpenSSLSpeed.Failure) {
            _ = try OpenSSLSpeed.parseRSA2048(renamed)
            Issue.record("a renamed column was accepted")
        } catch {
            #expect(error == .missingColumn(row: "rsa 2048 bits", column: "sign/s",
                                            header: ["sign", "signs/s", "verifies/s", "verify"]))
            #expect(BenchWords(Explanations.english).failure(error).contains("no column \"sign/s\""))
            #expect(BenchWords(Explanations.chinese).failure(error).contains("没有“sign/s”列"))
        }
        // A row whose values are not numbers.
        let garbled = Self.ffdh30.replacingOccurrences(of: "4117.4", with: "n/a")
        #expect(throws: OpenSSLSpeed.Failure.self) { try OpenSSLSpeed.parseFFDH2048(garbled) }
    }

    @Test func theErrorSaysTheFormatIsUnknown() {
        do throws(OpenSSLSpeed.Failure) {
            _ = try OpenSSLSpeed.parseFFDH2048("nothing useful here\n")
            Issue.record("accepted output without an ffdh row")
        } catch {
            #expect(error == .unknownFormat(row: "2048 bits ffdh", why: .noRow, excerpt: "nothing useful here"))
            let english = BenchWords(Explanations.english).failure(error), chinese = BenchWords(Explanations.chinese).failure(error)
            #expect(english.contains("Unknown output format"))
            #expect(english.contains("2048 bits ffdh"))
            #expect(chinese.contains("输出格式未知") && chinese.contains("2048 bits ffdh") && chinese.contains("nothing useful here"), "\(chinese)")
        }
    }
}
