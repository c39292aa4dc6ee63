import Testing
import ConfigFile

/// Parses `text` as `test.toml`.
func parse(_ text: String, file: String = "test.toml") throws(ConfigError) -> TOMLDocument {
    try TOMLParser.parse(text, file: file)
}

/// The description of the ``ConfigError`` `body` throws, or `nil` if it succeeds.
func errorText(_ body: () throws -> Void) -> String? {
    do {
        try body()
        return nil
    } catch let error as ConfigError {
        return error.description
    } catch {
        return "unexpected error: \(error)"
    }
}

/// The description of the error parsing `text` throws, or `nil` if it parses.
func parseError(_ text: String, file: String = "test.toml") -> String? {
    errorText { _ = try TOMLParser.parse(text, file: file) }
}

/// An input and the exact error description it must produce.
struct GoldenError: Sendable, CustomTestStringConvertible {
    let input: String
    let expected: String

    init(_ input: String, _ expected: String) {
        self.input = input
        self.expected = expected
    }

    var testDescription: String { expected }
}
