/// An error in a configuration file, precise enough for a person to fix the file at once.
///
/// ``description`` has the form `file:line: key: message` for problems with a particular
/// key, for example `config.toml:12: providers.work.client_id: expected a string, found an integer`,
/// and `file:line:column: message` for syntax errors, for example
/// `config.toml:3:17: unterminated string`. Parts that are unknown are left out.
public struct ConfigError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file name as given to the parser or loader.
    public let file: String
    /// The 1-based line of the problem, or `nil` when it concerns the file as a whole.
    public let line: Int?
    /// The 1-based column (counted in Unicode scalars) of a syntax error, or `nil`.
    public let column: Int?
    /// The full dotted key path concerned, such as `providers.work.client_id`, or `nil`.
    public let key: String?
    /// What is wrong, in plain words.
    public let message: String

    /// Creates an error; `column` is only shown when `line` is known. For a
    /// key that holds a secret (`client_secret`, `token`, `password`) a
    /// message that might quote the value is replaced, so the secret never
    /// reaches the screen.
    public init(file: String, line: Int? = nil, column: Int? = nil, key: String? = nil, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.key = key
        self.message = Self.holdsSecret(key) && message.contains("'") ? Self.secretMessage(message) : message
    }

    static func holdsSecret(_ key: String?) -> Bool {
        guard let last = key?.split(separator: ".").last?.lowercased() else { return false }
        return last.contains("secret") || last.contains("token") || last.contains("password")
    }

    private static func secretMessage(_ message: String) -> String {
        message.contains("must be quoted") ? "invalid value (not shown: it is a secret); strings must be quoted" : "invalid value (not shown: it is a secret)"
    }

    /// The error as one line: `file[:line[:column]][: key]: message`.
    public var description: String {
        var text = file
        if let line {
            text += ":\(line)"
            if let column { text += ":\(column)" }
        }
        if let key { text += ": \(key)" }
        return text + ": " + message
    }

    /// A copy of this error naming `key`, unless it already names one.
    func naming(_ key: String) -> ConfigError {
        guard self.key == nil else { return self }
        return ConfigError(file: file, line: line, column: column, key: key, message: message)
    }
}
