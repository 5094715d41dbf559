/// The Simplified Chinese (zh-Hans) catalogue: every key of the English one, with the same
/// `{placeholders}`. Terms follow docs/glossary-zh.md (the words of the Chinese articles for iOS
/// developers this project teaches from); protocol, field, suite and alert names, RFC numbers and
/// hex stay as they are. A key missing here falls back to English at run time, and fails
/// `CatalogueTests` (every key present, same placeholders).
extension Explanations {
    public static let chinese = Explanations(text: english.text.merging(chineseText) { _, zh in zh }, language: .zh)

    /// The Chinese entries alone (the tests compare them with the English keys).
    public static var chineseText: [String: String] {
        var all: [String: String] = [:]
        for slice in chineseSlices {
            all.merge(slice) { first, _ in first }
        }
        return all
    }

    /// The slices of the Chinese catalogue, one per file.
    static var chineseSlices: [[String: String]] { [chineseCore, chineseLessons, chinesePhaseNames, chineseWalkthrough, chineseLabels, chineseHTML, chineseCauses, chineseResumption, chineseTrust, chineseChainChecks, chineseEngineReasons, chineseDrivers, chineseSockets, chineseHTTP2Problems, chineseExchange, chineseFiles, chineseRecords, chineseSuites, chineseChaCha, chineseCLI, chineseTLS13, chineseDissect, chineseTLS13Resumption, chineseTLS13ClientAuth, chineseCompare, chineseVersionNegotiation, chineseInputProblems, chineseLessonChecks, chineseTLS13Lessons, chineseTLS13EarlyData, chineseTLS13AntiReplay, chineseTLS13IllegalParameter, chineseSignatureInput, chineseHTMLCalculations, chinesePKIErrors, chineseBuiltInPKI, chineseRunProblems, chineseBench, chineseBenchFailures, chineseSignatureFaults, chineseCLISummaries, chineseYAMLProblems, chineseLessonReceivedNothing] }
}
