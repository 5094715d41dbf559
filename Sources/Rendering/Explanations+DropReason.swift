import Trace

/// Why a message was dropped unread (``DropReason``), worded from the catalogue: one literal key per
/// case (`dropped.…` for the ladder and JSON Lines, `walk.dropped.…` for the walkthrough).
extension Explanations {
    /// The reason as a clause of the ladder's `ladder.dropped` line, `receiver` being the party that dropped it.
    public func dropReason(_ reason: DropReason, receiver: Actor) -> String {
        var values = ["receiver": actorName(receiver.rawValue)]
        if let alert = reason.alert { values["alert"] = "\(alert)" }
        let key = switch reason {
        case .arrivedAfterFatalAlertSent: "dropped.afterAlertSent"
        case .arrivedAfterFatalAlertReceived: "dropped.afterAlertReceived"
        case .recordFailedAuthentication: "dropped.recordFailed"
        case .receiverStoppedReading: "dropped.stoppedReading"
        case .connectionEndedBeforeArrival: "dropped.connectionEnded"
        }
        return self(key, values) ?? key
    }

    /// The walkthrough's sentence key for the reason (its values: `actor`, the receiver, and `peer`).
    static func walkthroughKey(_ reason: DropReason) -> String {
        switch reason {
        case .arrivedAfterFatalAlertSent: "walk.dropped.afterAlertSent"
        case .arrivedAfterFatalAlertReceived: "walk.dropped.afterAlertReceived"
        case .recordFailedAuthentication: "walk.dropped.recordFailed"
        case .receiverStoppedReading: "walk.dropped.stoppedReading"
        case .connectionEndedBeforeArrival: "walk.dropped.connectionEnded"
        }
    }
}
