import Rendering
import Scenarios

/// A lesson fact as a person reads it (`check --show-facts`, a FAIL line, the lesson page): values
/// as they are, the run's own problems (``RunProblem``) worded by the catalogue (issue #34).
enum FactWords {
    static func fact(_ value: FactValue, _ explanations: Explanations) -> String {
        guard case .problems(let problems) = value else { return value.description }
        return problems.map { problem($0, explanations) }.joined(separator: explanations.phrase("runProblem.separator"))
    }

    static func problem(_ problem: RunProblem, _ explanations: Explanations) -> String {
        switch problem {
        case let .noConnection(action, side):
            return explanations.phrase(side == "server" ? "runProblem.noConnection.server" : "runProblem.noConnection.client", ["action": action])
        case let .refusedCall(action, error):
            return explanations.phrase("runProblem.refusedCall", ["action": action, "error": explanations.userError(error)])
        case .dh(let error):
            return explanations.dhError(error)
        }
    }
}
