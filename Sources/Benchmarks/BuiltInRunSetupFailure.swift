import Simulation

/// A built-in run the benchmark measures cannot be set up (its compiled-in certificates or keys do not
/// load): the run and the typed cause, worded by the command line as `tlslab run` words it
/// (`cli.builtInRun.failed`).
public struct BuiltInRunSetupFailure: Error, Equatable {
    public let run: BuiltInRun
    public let cause: BuiltInRun.SetupError

    public init(run: BuiltInRun, cause: BuiltInRun.SetupError) {
        self.run = run
        self.cause = cause
    }
}
