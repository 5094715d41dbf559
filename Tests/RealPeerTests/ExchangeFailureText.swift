import RealPeer
import Rendering
import Trace

// The tests read a real peer's failure as the English catalogue words it (as `tlslab connect` exits
// with and `tlslab serve` logs it).
extension ServedConnection {
    var failureText: String? { failure.map(Explanations.english.exchangeFailure) }
    var englishLogLine: String { Explanations.english.serveLogLine(logEntry) }
}

extension RealClient.Result {
    var failureText: String? { failure.map(Explanations.english.exchangeFailure) }
}
