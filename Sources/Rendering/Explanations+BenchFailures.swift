/// Why a `tlslab bench` measurement gave no figure, in English (issue #34): the Benchmarks module's
/// failures are typed data (`BenchFailure`, `HandshakeBench.Failure`, `OpenSSLLoopback.Failure`,
/// `OpenSSLSpeed.Failure`, `ChildProcess.Failure`, `PseudoTerminalLaunch.Failure`, the TCP benchmarks'),
/// worded here and in `Explanations+zhBenchFailures.swift`. An errno's `{reason}` is the C library's
/// own text (strerror(3)); an `{excerpt}` is what the child or `openssl` printed, escaped.
extension Explanations {
    static let englishBenchFailures: [String: String] = [
        "cli.bench.failure.ownSignatureNotVerified": "the benchmark key does not verify its own signature",
        "cli.bench.failure.verificationsFailed": "{count} verifications failed during the benchmark",
        "cli.bench.failure.handshakeChildExited": "bench handshake-child ({variant}) exited with status {status}",
        "cli.bench.failure.handshakeChildOutputUnreadable": "bench handshake-child ({variant}): unreadable output {excerpt}",
        "cli.bench.failure.handshakeNotSuccessful": "the {variant} benchmark run did not succeed: {outcome}",
        "cli.bench.failure.openSSLSetup": "cannot prepare the OpenSSL server: cannot write its certificate, key and DH parameters under {directory}",
        "cli.bench.failure.openSSLSetup.reason": "cannot prepare the OpenSSL server: cannot write its certificate, key and DH parameters under {directory}: {reason}",
        "cli.bench.failure.noPort": "no free loopback port",
        "cli.bench.failure.serverDidNotStart": "openssl s_server ({kind}) did not start listening within 5 s",
        "cli.bench.failure.sTimeUnparsable": "cannot read openssl s_time's output: {excerpt}",
        "cli.bench.failure.spawn": "cannot start {path}: {reason}",
        "cli.bench.failure.pipe": "cannot create a pipe: {reason}",
        "cli.bench.failure.speedUnknownFormat": "cannot read `openssl speed` output for \"{row}\": {why}. Unknown output format; the output ended with:\n{excerpt}",
        "cli.bench.failure.speedNoRow": "no line starts with \"{row}\"",
        "cli.bench.failure.speedValuesNotNumbers": "the row's values are not all numbers: {values}",
        "cli.bench.failure.speedNoHeader": "no header line names its {columns} columns",
        "cli.bench.failure.speedMissingColumn": "`openssl speed` row \"{row}\" has no column \"{column}\" (its header: {header})",
        "cli.bench.failure.bulkIncomplete": "bulk transfer stopped at {received} of {expected} bytes",
        "cli.bench.failure.floodChildExited": "the tcp-flood child exited with status {status}",
        "cli.bench.failure.floodChildOutputUnreadable": "the tcp-flood child's output is unreadable: {excerpt}",
        "cli.bench.failure.floodNotAllHalfOpen": "tcp-flood: only {halfOpen} of {connections} connections are half-open",
        "cli.bench.failure.noPTYFunctions": "pseudo-terminal: posix_openpt and friends are not in the C library",
        "cli.bench.failure.pty": "pseudo-terminal: {call} failed: {reason}",
        "cli.bench.failure.ptySpawn": "cannot start tlslab on a pseudo-terminal: {reason}",
        "cli.bench.failure.noScreen": "tlslab drew no first screen on the pseudo-terminal within 10 s (got {bytes} bytes)",
    ]
}
