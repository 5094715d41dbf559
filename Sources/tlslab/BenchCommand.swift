import ArgumentParser

/// `tlslab bench`: measured speed, as ratios against `openssl speed` in the same run.
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Benchmarks against OpenSSL on this machine (build with -c release)."
    )

    func run() throws {
        throw ValidationError("no benchmarks yet")
    }
}
