/// The libyaml and Yams problems `LibYAMLProblem` maps beyond the first list (`Explanations+InputProblems.swift`):
/// the rest of libyaml's parser, scanner and reader messages and Yams's composer's, so that no YAML
/// syntax error of a lesson file is left in English under `--lang zh` (issue #34). The English repeats
/// libyaml's (or Yams's) words; the Chinese is in `Explanations+zhYAMLProblems.swift`.
extension Explanations {
    static let englishYAMLProblems: [String: String] = [
        "scenario.yaml.expectedNodeContent": "did not find expected node content",
        "scenario.yaml.expectedStreamStart": "did not find expected <stream-start>",
        "scenario.yaml.expectedDirectiveName": "could not find expected directive name",
        "scenario.yaml.expectedURIEscapedOctet": "did not find URI escaped octet",
        "scenario.yaml.expectedExclamation": "did not find expected '!'",
        "scenario.yaml.expectedDigitOrDot": "did not find expected digit or '.' character",
        "scenario.yaml.expectedHexNumber": "did not find expected hexdecimal number",
        "scenario.yaml.expectedTagURI": "did not find expected tag URI",
        "scenario.yaml.expectedVersionNumber": "did not find expected version number",
        "scenario.yaml.expectedWhitespace": "did not find expected whitespace",
        "scenario.yaml.expectedClosingAngle": "did not find the expected '>'",
        "scenario.yaml.incorrectLeadingUTF8": "found an incorrect leading UTF-8 octet",
        "scenario.yaml.incorrectTrailingUTF8": "found an incorrect trailing UTF-8 octet",
        "scenario.yaml.duplicateTagDirective": "found duplicate %TAG directive",
        "scenario.yaml.duplicateYAMLDirective": "found duplicate %YAML directive",
        "scenario.yaml.longVersionNumber": "found extremely long version number",
        "scenario.yaml.incompatibleDocument": "found incompatible YAML document",
        "scenario.yaml.invalidUnicodeEscape": "found invalid Unicode character escape code",
        "scenario.yaml.unexpectedNonAlphabetical": "found unexpected non-alphabetical character",
        "scenario.yaml.unknownDirective": "found unknown directive name",
        "scenario.yaml.incompleteUTF16": "incomplete UTF-16 character",
        "scenario.yaml.incompleteUTF16Surrogate": "incomplete UTF-16 surrogate pair",
        "scenario.yaml.inputTooLong": "input is too long",
        "scenario.yaml.undefinedAlias": "found undefined alias",
        "scenario.yaml.anotherDocument": "but found another document",
    ]
}
