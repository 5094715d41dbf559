/// The closing summary line of a command, a sentence a person reads (issue #34: "every `check`
/// message"), in English and Chinese.
///
/// `check`: the English is the line scripts have always read (`N passed, N failed`); a script that
/// reads it chooses English (`--lang en` or `TLSLAB_LANG=en`), as for any other output, and the exit
/// status says the same in every language (0 all passed, 1 an expectation failed, 2 an invalid file).
/// `PASS`/`FAIL`/`INVALID` stay as they are in both. `selftest` (hidden, for valgrind): the line keeps
/// its `selftest bignum` prefix, which scripts/valgrind-bignum.sh greps.
extension Explanations {
    static let englishCLISummaries: [String: String] = [
        "cli.check.summary": "{passed} passed, {failed} failed",
        "cli.selfTest.done": "selftest bignum: {iterations} iterations, checksum {checksum}",
    ]

    static let chineseCLISummaries: [String: String] = [
        "cli.check.summary": "{passed} 个通过，{failed} 个未通过",
        "cli.selfTest.done": "selftest bignum：{iterations} 次迭代，校验和 {checksum}",
    ]
}
