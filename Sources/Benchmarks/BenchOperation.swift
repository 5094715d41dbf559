/// What a benchmark row measures, as data: the renderer words it in the reader's language
/// (`cli.bench.operation.*`); the module holds no words (issue #34).
public enum BenchOperation: Codable, Hashable, Sendable {
    /// An RSA-2048 private operation (CRT) computed one way.
    case rsaPrivate(RSAPrivateVariant)
    /// An RSA-2048 public operation as TLS uses it: e = 65537, PKCS#1 v1.5 verify.
    case rsaPublic
    /// An ffdhe2048 agreement with a 256-bit exponent.
    case ffdheAgreement
    /// RSA-2048 key generation.
    case rsaKeyGeneration
    /// Complete simulated connections of a key exchange, per second of wall-clock or CPU time.
    case fullHandshake(HandshakeVariant, BenchTimeBase)
    /// The TCP simulator's bulk transfer, segments processed, with or without recording events.
    case tcpBulkTransfer(eventsRecorded: Bool)
    /// A SYN flood of `connections` half-open connections.
    case synFlood(connections: Int)
    /// Bytes per connection of the largest flood ÷ of the smallest.
    case synFloodMemoryLinearity(largest: Int, smallest: Int)
    /// `tlslab` (the default walkthrough) into a pipe: its first output byte, or the whole run.
    case walkthroughFirstByte, walkthroughToExit
    /// `tlslab` on a pseudo-terminal: its first screen, or its first output byte.
    case terminalFirstScreen, terminalFirstByte
    /// `tlslab check DIRECTORY/`, warm or the first (cold) run.
    case check(scenarios: String, cold: Bool)
    /// A whole benchmark (`bench all`'s row for a child that failed).
    case benchmark(String)
}

/// How an RSA private operation is computed.
public enum RSAPrivateVariant: String, Codable, Hashable, Sendable {
    /// CRT with `mpz_powm_sec` (no secret-dependent timing).
    case sideChannelSilent
    /// CRT with variable-time `mpz_powm`.
    case variableTime
    /// CRT with `mpz_powm` and base blinding.
    case blinded
}

/// What a rate is divided by.
public enum BenchTimeBase: String, Codable, Hashable, Sendable {
    case wallClock
    /// The CPU seconds both ends spent.
    case cpuBothEnds
}

/// What a row's numbers count (its raw value is the JSON's unit).
public enum BenchUnit: String, Codable, Hashable, Sendable {
    case operationsPerSecond = "ops/s"
    case handshakesPerSecond = "handshakes/s"
    case segmentsPerSecond = "segments/s"
    case milliseconds = "ms"
    case seconds = "s"
    case times = "×"
    case none = ""
}

/// A note under the table or on a row, as data: the renderer words it (`cli.bench.note.*`).
public indirect enum BenchNote: Codable, Hashable, Sendable {
    // Crypto: how the figures were taken.
    case cryptoMethod(runs: Int, seconds: Int, keys: Int)
    case ratesPerWallClockSecond
    case ratesPerCPUSecond
    // Handshake: what each side does.
    case handshakeOurs
    case handshakeOpenSSL
    case handshakeDHEExponents
    case handshakeCPUTime
    // TCP.
    case bulkTransfer(megabytes: Int, deliveries: Int, timerFirings: Int)
    case synFloodMethod
    case timeLinearity(largest: Int, ratio: Double, smallest: Int)
    /// A row's note: the recorded run is the one the Simulation layer runs.
    case asTheSimulationRunsIt
    /// A flood row's note: time and memory per connection.
    case perConnection(nanoseconds: Double, bytes: Double)
    /// The linearity row could not be computed.
    case noMemoryGrowth(connections: Int)
    // Startup.
    case startupPipe
    case startupTerminal
    /// The terminal run did not exit with status 0 after `q`.
    case terminalExitFailed(statuses: [Int32])
    // Check.
    case checkExitStatus(statuses: [Int32])
    case checkFailed(statuses: [Int32])
    case checkUnavailable
    case noScenarioDirectory(String)
    // All.
    /// A child benchmark exited with this status (its row has no figure).
    case childFailed(exitStatus: Int32)
    /// A note of one benchmark in `bench all`'s merged report.
    case from(benchmark: String, BenchNote)
}

/// Words for a report's typed parts, given by the surface that prints it (the JSON report keeps
/// English text beside the typed identifiers, for people and scripts reading it).
public struct BenchWording: Sendable {
    public var operation: @Sendable (BenchOperation) -> String
    public var note: @Sendable (BenchNote) -> String
    public var target: @Sendable (BenchTarget, BenchUnit) -> String

    public init(operation: @escaping @Sendable (BenchOperation) -> String, note: @escaping @Sendable (BenchNote) -> String,
                target: @escaping @Sendable (BenchTarget, BenchUnit) -> String) {
        self.operation = operation
        self.note = note
        self.target = target
    }

    /// Where an encoder finds the wording (`JSONEncoder.userInfo`).
    public static let userInfoKey = CodingUserInfoKey(rawValue: "tlslab.benchWording")!
}
