/// libyaml's problem sentences (Yams reports them as they are), each with the catalogue key that words
/// it, so a YAML syntax error reads in the command line's language (issue #34). The English entries
/// repeat libyaml's words; a problem not listed here is shown as libyaml wrote it.
enum LibYAMLProblem {
    /// libyaml's text → the catalogue key (literal keys: one search finds where a sentence comes from).
    static let keys: [String: String] = [
        "mapping values are not allowed in this context": "scenario.yaml.mappingValuesNotAllowed",
        "mapping keys are not allowed in this context": "scenario.yaml.mappingKeysNotAllowed",
        "block sequence entries are not allowed in this context": "scenario.yaml.sequenceEntriesNotAllowed",
        "could not find expected ':'": "scenario.yaml.expectedColon",
        "found character that cannot start any token": "scenario.yaml.cannotStartToken",
        "found a tab character that violates indentation": "scenario.yaml.tabViolatesIndentation",
        "found a tab character where an indentation space is expected": "scenario.yaml.tabWhereSpaceExpected",
        "found unexpected end of stream": "scenario.yaml.unexpectedEnd",
        "found unknown escape character": "scenario.yaml.unknownEscape",
        "found unexpected ':'": "scenario.yaml.unexpectedColon",
        "found unexpected document indicator": "scenario.yaml.unexpectedDocumentIndicator",
        "did not find expected key": "scenario.yaml.expectedKey",
        "did not find expected '-' indicator": "scenario.yaml.expectedDash",
        "did not find expected ',' or ']'": "scenario.yaml.expectedCommaOrBracket",
        "did not find expected ',' or '}'": "scenario.yaml.expectedCommaOrBrace",
        "did not find expected <document start>": "scenario.yaml.expectedDocumentStart",
        "found undefined tag handle": "scenario.yaml.undefinedTagHandle",
        "did not find expected comment or line break": "scenario.yaml.expectedCommentOrLineBreak",
        "did not find expected whitespace or line break": "scenario.yaml.expectedWhitespaceOrLineBreak",
        "did not find expected alphabetic or numeric character": "scenario.yaml.expectedAlphanumeric",
        "found an indentation indicator equal to 0": "scenario.yaml.indentationIndicatorZero",
        "control characters are not allowed": "scenario.yaml.controlCharacters",
        "invalid leading UTF-8 octet": "scenario.yaml.invalidLeadingUTF8",
        "invalid trailing UTF-8 octet": "scenario.yaml.invalidTrailingUTF8",
        "incomplete UTF-8 octet sequence": "scenario.yaml.incompleteUTF8",
        "invalid length of a UTF-8 sequence": "scenario.yaml.invalidUTF8Length",
        "invalid Unicode character": "scenario.yaml.invalidUnicode",
        // The rest of libyaml's parser, scanner and reader problems, and Yams's composer's (issue #34).
        "did not find expected node content": "scenario.yaml.expectedNodeContent",
        "did not find expected <stream-start>": "scenario.yaml.expectedStreamStart",
        "could not find expected directive name": "scenario.yaml.expectedDirectiveName",
        "did not find URI escaped octet": "scenario.yaml.expectedURIEscapedOctet",
        "did not find expected '!'": "scenario.yaml.expectedExclamation",
        "did not find expected digit or '.' character": "scenario.yaml.expectedDigitOrDot",
        "did not find expected hexdecimal number": "scenario.yaml.expectedHexNumber",
        "did not find expected tag URI": "scenario.yaml.expectedTagURI",
        "did not find expected version number": "scenario.yaml.expectedVersionNumber",
        "did not find expected whitespace": "scenario.yaml.expectedWhitespace",
        "did not find the expected '>'": "scenario.yaml.expectedClosingAngle",
        "found an incorrect leading UTF-8 octet": "scenario.yaml.incorrectLeadingUTF8",
        "found an incorrect trailing UTF-8 octet": "scenario.yaml.incorrectTrailingUTF8",
        "found duplicate %TAG directive": "scenario.yaml.duplicateTagDirective",
        "found duplicate %YAML directive": "scenario.yaml.duplicateYAMLDirective",
        "found extremely long version number": "scenario.yaml.longVersionNumber",
        "found incompatible YAML document": "scenario.yaml.incompatibleDocument",
        "found invalid Unicode character escape code": "scenario.yaml.invalidUnicodeEscape",
        "found unexpected non-alphabetical character": "scenario.yaml.unexpectedNonAlphabetical",
        "found unknown directive name": "scenario.yaml.unknownDirective",
        "incomplete UTF-16 character": "scenario.yaml.incompleteUTF16",
        "incomplete UTF-16 surrogate pair": "scenario.yaml.incompleteUTF16Surrogate",
        "input is too long": "scenario.yaml.inputTooLong",
        "found undefined alias": "scenario.yaml.undefinedAlias",
        "but found another document": "scenario.yaml.anotherDocument",
    ]

    /// The worded problem, or nil when libyaml's text is not one listed.
    static func part(_ problem: String) -> ScenarioError.Words.Part? {
        if isNestingLimit(problem) {
            return .init(key: "scenario.yaml.nestingTooDeep", values: ["levels": "\(YAMLDocument.parserNestingLimit)"])
        }
        return keys[problem].map { ScenarioError.Words.Part(key: $0) }
    }

    /// libyaml's nesting limit message names a C function a scenario author cannot call.
    static func isNestingLimit(_ problem: String) -> Bool {
        problem.contains("yaml_set_max_nest_level") || problem.hasPrefix("Maximum nesting level")
    }
}
