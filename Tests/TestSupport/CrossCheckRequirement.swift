import Foundation
import Testing

/// A cross-check's dependency on an external tool or data set (openssl, python3 with `cryptography`,
/// the Wycheproof vectors). Locally a missing one skips the test with a message that names it; when
/// the environment variable `CI` is set, a missing one FAILS the test (an Issue naming what is missing),
/// so that a cross-check can never stop running in CI without anyone noticing.
public enum CrossCheckRequirement {
    /// Whether we run in CI: `CI` set to anything but empty, "0" or "false".
    public static let isCI: Bool = {
        guard let value = ProcessInfo.processInfo.environment["CI"] else { return false }
        return !["", "0", "false"].contains(value.lowercased())
    }()

    /// The trait for a test or suite that needs something: runs it when `available`; otherwise skips it
    /// with `missing` as the reason, or — in CI — runs nothing and records `missing` as a failure.
    public static func trait(_ available: Bool, missing: String) -> any TestTrait & SuiteTrait {
        if available { return ConditionTrait.enabled(if: true) }
        if isCI { return MissingInCI(missing: missing) }
        return ConditionTrait.disabled(Comment(rawValue: "\(missing): cross-check skipped (it is required when CI is set)"))
    }

    /// Fails each test it scopes, instead of running it.
    public struct MissingInCI: TestTrait, SuiteTrait, TestScoping {
        let missing: String
        public var isRecursive: Bool { true }

        public func provideScope(for test: Test, testCase: Test.Case?,
                          performing function: @Sendable () async throws -> Void) async throws {
            Issue.record("CI is set but \(missing): this cross-check must run in CI")
        }
    }
}
